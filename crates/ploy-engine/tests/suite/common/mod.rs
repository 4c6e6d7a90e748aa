//! A random toy game tree (for a game without names) and random Ploy positions, for the
//! engine's tests (ploy-search's tests hold the other toy games).
#![allow(dead_code)]

use ploy_core::{Board, Flags, Piece, PieceKind, Position, Rules, Seat, Setup, Square};
use ploy_search::{Config, SearchGame, Side, Terminal};

/// SplitMix64 step, for deterministic pseudo-random numbers.
pub fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

// ----- a random game tree ---------------------------------------------------------------

/// A random game tree: every node is named by a hash of its path. Nodes have 0 to 4
/// children (0 means decided: a win for either side or a draw), the evaluation takes few
/// values (ties), some moves are "captures", and with `double_moves` the same side sometimes
/// moves twice in a row (as a partnership team may).
#[derive(Clone, Debug)]
pub struct Tree {
    pub node: u64,
    pub depth: u32,
    pub side: Side,
    pub max_depth: u32,
    pub double_moves: bool,
    stack: Vec<(u64, Side)>,
}

impl Tree {
    pub fn new(seed: u64, max_depth: u32, double_moves: bool) -> Tree {
        Tree {
            node: mix(seed),
            depth: 0,
            side: Side::FIRST,
            max_depth,
            double_moves,
            stack: Vec::new(),
        }
    }

    fn children(&self) -> u16 {
        if self.depth >= self.max_depth || (self.depth > 0 && self.node % 11 == 0) {
            0
        } else {
            1 + (self.node >> 7) as u16 % 4
        }
    }

    fn child(&self, mv: u16) -> u64 {
        mix(self.node ^ u64::from(mv).wrapping_mul(0x1234_5678_9ABC_DEF1))
    }

    pub fn eval(&self) -> i32 {
        let v = ((self.node >> 20) % 5) as i32 - 2;
        if self.side == Side::FIRST { v } else { -v }
    }
}

impl SearchGame for Tree {
    type Move = u16;
    type Undo = ();
    type Moves = Vec<u16>;

    fn side(&self) -> Side {
        self.side
    }
    fn hash(&self) -> u64 {
        self.node ^ u64::from(self.side.0)
    }
    fn terminal(&self) -> Option<Terminal> {
        if self.children() > 0 {
            return None;
        }
        Some(match (self.node >> 40) % 3 {
            0 => Terminal::Win(Side::FIRST),
            1 => Terminal::Win(Side::SECOND),
            _ => Terminal::Draw,
        })
    }
    fn generate(&self, moves: &mut Vec<u16>) {
        moves.extend(0..self.children());
    }
    fn generate_captures(&self, moves: &mut Vec<u16>) {
        moves.extend((0..self.children()).filter(|&m| self.is_capture(m)));
    }
    fn is_legal(&self, mv: u16) -> bool {
        mv < self.children()
    }
    fn is_capture(&self, mv: u16) -> bool {
        self.child(mv) % 3 == 0
    }
    fn capture_order(&self, mv: u16) -> i32 {
        (self.child(mv) >> 50) as i32 % 7
    }
    fn make(&mut self, mv: u16) {
        self.stack.push((self.node, self.side));
        self.node = self.child(mv);
        self.depth += 1;
        if !(self.double_moves && self.node % 5 == 0) {
            self.side = self.side.other();
        }
    }
    fn unmake(&mut self, _mv: u16, _undo: ()) {
        let (n, s) = self.stack.pop().expect("a move to take back");
        self.node = n;
        self.side = s;
        self.depth -= 1;
    }
    fn move_to_u16(mv: u16) -> u16 {
        mv
    }
    fn move_from_u16(code: u16) -> Option<u16> {
        Some(code)
    }
}

// ----- Ploy positions -------------------------------------------------------------------

/// The position after `plies` random moves from the start (fewer if the game ends).
pub fn random_playout(seed: u64, plies: u32) -> Position {
    let mut pos = Position::new();
    let mut s = seed;
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        s = mix(s);
        // Prefer captures now and then so that positions thin out.
        let caps: Vec<_> = moves
            .iter()
            .copied()
            .filter(|m| !m.is_direction_move() && pos.board().occupied().contains(m.to()))
            .collect();
        let mv = if !caps.is_empty() && s % 3 == 0 {
            caps[(s >> 8) as usize % caps.len()]
        } else {
            moves[(s >> 8) as usize % moves.len()]
        };
        pos.make_move(mv);
    }
    pos
}

/// A random sparse two-player position: each side has its commander and `1..=extra`
/// other pieces, on random squares with random masks.
pub fn random_sparse(seed: u64, extra: u32) -> Position {
    let mut s = mix(seed);
    let mut next = |n: u64| {
        s = mix(s);
        s % n
    };
    let mut board = Board::empty();
    for seat in [Seat::Green, Seat::Red] {
        let n = 1 + next(u64::from(extra)) as u32;
        for i in 0..=n {
            let kind = if i == 0 { 4 } else { 1 + next(3) as u32 };
            let mask = loop {
                let m = next(256) as u8;
                if m.count_ones() == kind {
                    break m;
                }
            };
            let piece = Piece::new(seat, Flags::new(mask)).expect("mask has 1..4 flags");
            if piece.kind() != PieceKind::Commander && board.count(seat, piece.kind()) >= 3 {
                continue;
            }
            loop {
                let sq = Square::from_index(next(81) as u8).expect("index below 81");
                if board.piece_at(sq).is_none() {
                    board.put(sq, piece);
                    break;
                }
            }
        }
    }
    let turn = if next(2) == 0 { Seat::Green } else { Seat::Red };
    Position::from_setup(Setup::two_player(board, turn), Rules::standard()).expect("valid setup")
}

/// Configurations that must all return the negamax value (no forward pruning).
pub fn exact_configs(quiescence: Option<u8>) -> Vec<(&'static str, Config)> {
    let q = |mut c: Config| {
        c.quiescence = quiescence.is_some();
        c.max_quiescence = quiescence.unwrap_or(0);
        c.without_selectivity()
    };
    let base = Config {
        driver: ploy_search::Driver::Mtdf,
        table_bytes: 1 << 16,
        eval_cache_bytes: 1 << 12,
        counter_moves: true,
        continuation_history: true,
        ..Config::default()
    };
    vec![
        ("mtdf", q(base.clone())),
        (
            "mtdf-capped",
            q(Config {
                mtdf_max_passes: 2,
                ..base.clone()
            }),
        ),
        (
            "default-ordering",
            q(Config {
                table_bytes: 1 << 16,
                eval_cache_bytes: 1 << 12,
                ..Config::default()
            }),
        ),
        (
            "alphabeta-aspiration",
            q(Config {
                driver: ploy_search::Driver::AlphaBeta,
                aspiration_window: 1,
                ..base.clone()
            }),
        ),
        (
            "mtdf-tiny-table",
            q(Config {
                table_bytes: 64,
                ..base.clone()
            }),
        ),
        (
            "mtdf-no-table",
            q(Config {
                table_bytes: 0,
                ..base.clone()
            }),
        ),
        (
            "mtdf-previous-guess",
            q(Config {
                guess_from_same_parity: false,
                ..base.clone()
            }),
        ),
        (
            "alphabeta-pvs",
            q(Config {
                driver: ploy_search::Driver::AlphaBeta,
                aspiration_window: 0,
                ..base.clone()
            }),
        ),
        (
            "alphabeta-no-table",
            q(Config {
                driver: ploy_search::Driver::AlphaBeta,
                table_bytes: 0,
                pvs: false,
                ..base.clone()
            }),
        ),
        (
            "alphabeta-tiny-table",
            q(Config {
                driver: ploy_search::Driver::AlphaBeta,
                table_bytes: 64,
                ..base.clone()
            }),
        ),
        ("plain", q(Config::plain())),
    ]
}
