//! A random toy game tree with known minimax values, shared by the tests of ploy-search and
//! ploy-engine (which includes this file by path).
#![allow(dead_code)]

use ploy_search::{SearchGame, Side, Terminal};

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
