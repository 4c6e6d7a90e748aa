//! A slow, obvious implementation of the rule book, written straight from its text, and
//! random games for the property tests.
#![allow(dead_code)]

use pente::{Color, Move, Outcome, Point, Position, Rules, Size, WinReason};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// The rules as the rule book states them, on a plain grid.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reference {
    pub size: i32,
    pub tournament_rule: bool,
    /// `grid[row][col]`, row 0 the bottom.
    pub grid: Vec<Vec<Option<Color>>>,
    pub to_move: Color,
    pub captured: [u32; 2],
    pub moves_played: u32,
    pub outcome: Option<Outcome>,
}

const DIRECTIONS: [(i32, i32); 8] = [
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
    (1, 1),
    (-1, -1),
    (1, -1),
    (-1, 1),
];

impl Reference {
    pub fn new(rules: Rules) -> Reference {
        let n = i32::from(rules.size.get());
        Reference {
            size: n,
            tournament_rule: rules.tournament_rule,
            grid: vec![vec![None; n as usize]; n as usize],
            to_move: Color::White,
            captured: [0, 0],
            moves_played: 0,
            outcome: None,
        }
    }

    pub fn at(&self, col: i32, row: i32) -> Option<Option<Color>> {
        if col < 0 || row < 0 || col >= self.size || row >= self.size {
            None
        } else {
            Some(self.grid[row as usize][col as usize])
        }
    }

    /// Rule 1 (centre first), rule 2 (an empty point), rule 3 (the tournament rule), and
    /// nothing once the game is over.
    pub fn is_legal(&self, col: i32, row: i32) -> bool {
        if self.outcome.is_some() {
            return false;
        }
        if self.at(col, row) != Some(None) {
            return false;
        }
        let c = self.size / 2;
        if self.moves_played == 0 {
            return col == c && row == c;
        }
        if self.moves_played == 2 && self.tournament_rule {
            let distance = (col - c).abs().max((row - c).abs());
            return distance >= 3;
        }
        true
    }

    pub fn legal_moves(&self) -> Vec<Move> {
        let mut out = Vec::new();
        for row in 0..self.size {
            for col in 0..self.size {
                if self.is_legal(col, row) {
                    out.push(Move(Point::new(col as u8, row as u8).unwrap()));
                }
            }
        }
        out
    }

    /// Whether `color` has five or more in an unbroken line anywhere.
    pub fn has_five(&self, color: Color) -> bool {
        for row in 0..self.size {
            for col in 0..self.size {
                for (dc, dr) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
                    if (0..5).all(|i| self.at(col + i * dc, row + i * dr) == Some(Some(color))) {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// Rules 2, 4, 5, 6, 7.
    pub fn play(&mut self, col: i32, row: i32) {
        assert!(self.is_legal(col, row));
        let me = self.to_move;
        let them = me.other();
        self.grid[row as usize][col as usize] = Some(me);
        for (dc, dr) in DIRECTIONS {
            let a = (col + dc, row + dr);
            let b = (col + 2 * dc, row + 2 * dr);
            let c = (col + 3 * dc, row + 3 * dr);
            if self.at(a.0, a.1) == Some(Some(them))
                && self.at(b.0, b.1) == Some(Some(them))
                && self.at(c.0, c.1) == Some(Some(me))
            {
                self.grid[a.1 as usize][a.0 as usize] = None;
                self.grid[b.1 as usize][b.0 as usize] = None;
                self.captured[me as usize] += 2;
            }
        }
        let five = self.has_five(me);
        let ten = self.captured[me as usize] >= 10;
        let full = self.grid.iter().all(|r| r.iter().all(Option::is_some));
        self.outcome = match (five, ten) {
            (true, true) => Some(Outcome::Win {
                winner: me,
                reason: WinReason::FiveAndCaptures,
            }),
            (true, false) => Some(Outcome::Win {
                winner: me,
                reason: WinReason::Five,
            }),
            (false, true) => Some(Outcome::Win {
                winner: me,
                reason: WinReason::Captures,
            }),
            (false, false) if full => Some(Outcome::Draw),
            _ => None,
        };
        self.to_move = them;
        self.moves_played += 1;
    }

    /// Asserts that `pos` shows the same game.
    pub fn assert_same(&self, pos: &Position) {
        for row in 0..self.size {
            for col in 0..self.size {
                let p = Point::new(col as u8, row as u8).unwrap();
                assert_eq!(
                    pos.stone_at(p),
                    self.grid[row as usize][col as usize],
                    "{p}"
                );
            }
        }
        assert_eq!(pos.captures(Color::White) as u32, self.captured[0]);
        assert_eq!(pos.captures(Color::Black) as u32, self.captured[1]);
        assert_eq!(pos.outcome(), self.outcome);
        assert_eq!(pos.turn(), self.to_move);
        assert_eq!(u32::from(pos.plies()), self.moves_played);
        assert_eq!(pos.legal_moves(), self.legal_moves());
    }
}

/// Leaves counted by the reference at `depth` plies.
pub fn reference_perft(r: &Reference, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut n = 0;
    for m in r.legal_moves() {
        let mut next = r.clone();
        next.play(i32::from(m.point().col()), i32::from(m.point().row()));
        n += reference_perft(&next, depth - 1);
    }
    n
}

pub const RULE_SETS: [(Size, bool); 8] = [
    (Size::S7, true),
    (Size::S7, false),
    (Size::S9, true),
    (Size::S9, false),
    (Size::S13, true),
    (Size::S13, false),
    (Size::S19, true),
    (Size::S19, false),
];

/// A random game: mostly moves next to the stones already there (so that lines and
/// captures happen), sometimes anywhere, sometimes a capture or a five when one is
/// available. Returns the moves (legal, in order) and the final position.
pub fn random_game(seed: u64, rules: Rules, max_plies: usize) -> (Vec<Move>, Position) {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut pos = Position::new(rules);
    let mut moves = Vec::new();
    while moves.len() < max_plies && !pos.is_over() {
        let legal = pos.legal_moves();
        let near: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|m| pos.stones_iter().any(|(p, _)| p.distance(m.point()) <= 1))
            .collect();
        let mv = match rng.random_range(0..10) {
            0..=1 => {
                // A capture or a win, if there is one.
                let sharp: Vec<Move> = near
                    .iter()
                    .copied()
                    .filter(|&m| {
                        let mut next = pos.clone();
                        next.play(m).unwrap();
                        next.is_over() || next.captures(pos.turn()) > pos.captures(pos.turn())
                    })
                    .collect();
                if sharp.is_empty() {
                    legal[rng.random_range(0..legal.len())]
                } else {
                    sharp[rng.random_range(0..sharp.len())]
                }
            }
            2 => legal[rng.random_range(0..legal.len())],
            _ if !near.is_empty() => near[rng.random_range(0..near.len())],
            _ => legal[rng.random_range(0..legal.len())],
        };
        pos.play(mv).unwrap();
        moves.push(mv);
    }
    (moves, pos)
}

/// Whether the player to move wins at once with some legal move.
pub fn wins_at_once(pos: &Position) -> bool {
    let me = pos.turn();
    pos.legal_moves().into_iter().any(|m| {
        let mut next = pos.clone();
        next.play(m).unwrap();
        next.outcome().is_some_and(|o| o.winner() == Some(me))
    })
}

/// By brute force over every legal move and every reply: the first moves after which the
/// player to move wins with his next move whatever the reply. `None` when the game is over
/// or the player to move can win at once.
pub fn forced_wins_in_three(pos: &Position) -> Option<Vec<Move>> {
    if pos.is_over() || wins_at_once(pos) {
        return None;
    }
    let mut out = Vec::new();
    for m in pos.legal_moves() {
        let mut after = pos.clone();
        after.play(m).unwrap();
        if after.is_over() {
            continue; // a draw by the full board (a win was excluded above)
        }
        let forced = after.legal_moves().into_iter().all(|r| {
            let mut reply = after.clone();
            reply.play(r).unwrap();
            !reply.is_over() && wins_at_once(&reply)
        });
        if forced {
            out.push(m);
        }
    }
    Some(out)
}

/// The position after `moves` (space-separated, in the notation) from the start.
pub fn line(rules: Rules, moves: &str) -> Position {
    let moves: Vec<Move> = moves
        .split_whitespace()
        .map(|m| m.parse().unwrap())
        .collect();
    Position::from_moves(rules, &moves)
        .map_err(|(_, e)| e)
        .unwrap()
}
