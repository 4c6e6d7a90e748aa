//! A slow, obvious implementation of the rules, written straight from the rule book and
//! sharing nothing with the crate: points are `(level, i, j)` triples in a map, and every
//! question (burial, cuts, links, groups, freedoms, captures) is answered from scratch.

use std::collections::{BTreeMap, BTreeSet, VecDeque};

pub type Pt = (i32, i32, i32);

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum RefRules {
    Default,
    AllFreedoms,
    CutDown,
}

#[derive(Clone, Debug)]
pub struct RefGame {
    pub n: i32,
    pub players: u8,
    pub rules: RefRules,
    pub board: BTreeMap<Pt, u8>,
    pub to_move: u8,
    pub plies: u32,
}

/// What the `moves` program reports for a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    pub legal: Vec<String>,
    pub to_move: Option<u8>,
    pub over: bool,
    pub winners: Vec<u8>,
    pub score: Vec<u32>,
}

impl RefGame {
    pub fn new(n: i32, players: u8, rules: RefRules) -> RefGame {
        RefGame {
            n,
            players,
            rules,
            board: BTreeMap::new(),
            to_move: 1,
            plies: 0,
        }
    }

    // ----- geometry -------------------------------------------------------------------

    pub fn exists(&self, (k, i, j): Pt) -> bool {
        k >= 0 && k < self.n && i >= 0 && j >= 0 && i < self.n - k && j < self.n - k
    }

    fn all_points(&self) -> Vec<Pt> {
        let mut v = Vec::new();
        for k in 0..self.n {
            for i in 0..self.n - k {
                for j in 0..self.n - k {
                    v.push((k, i, j));
                }
            }
        }
        v
    }

    /// The four level-(k-1) points a level-k point rests on.
    fn supporters(&self, (k, i, j): Pt) -> Vec<Pt> {
        if k == 0 {
            return vec![];
        }
        vec![
            (k - 1, i, j),
            (k - 1, i + 1, j),
            (k - 1, i, j + 1),
            (k - 1, i + 1, j + 1),
        ]
    }

    /// The level-(k+1) points that rest on `p`.
    fn resting_on(&self, p: Pt) -> Vec<Pt> {
        let (k, i, j) = p;
        let mut v = Vec::new();
        for di in [-1, 0] {
            for dj in [-1, 0] {
                let q = (k + 1, i + di, j + dj);
                if self.exists(q) && self.supporters(q).contains(&p) {
                    v.push(q);
                }
            }
        }
        v
    }

    fn same_level_neighbours(&self, (k, i, j): Pt) -> Vec<Pt> {
        [(k, i - 1, j), (k, i + 1, j), (k, i, j - 1), (k, i, j + 1)]
            .into_iter()
            .filter(|&q| self.exists(q))
            .collect()
    }

    fn cell_of((k, i, j): Pt) -> (i32, i32) {
        (2 * i + k, 2 * j + k)
    }

    // ----- state ----------------------------------------------------------------------

    fn colour(&self, p: Pt) -> u8 {
        self.board.get(&p).copied().unwrap_or(0)
    }

    fn occupied(&self, p: Pt) -> bool {
        self.colour(p) != 0
    }

    /// A board point, or one whose four supporters are occupied.
    fn valid(&self, p: Pt) -> bool {
        p.0 == 0 || self.supporters(p).iter().all(|&s| self.occupied(s))
    }

    /// The point two levels up in the same cell is occupied.
    fn buried(&self, (k, i, j): Pt) -> bool {
        let above = (k + 2, i - 1, j - 1);
        self.exists(above) && self.occupied(above)
    }

    /// Same-level link between neighbours a and b cut by an overpass.
    fn cut(&self, a: Pt, b: Pt) -> bool {
        let over: Vec<Pt> = self
            .resting_on(a)
            .into_iter()
            .filter(|q| self.supporters(*q).contains(&b))
            .collect();
        if over.len() != 2 {
            return false;
        }
        let (c1, c2) = (self.colour(over[0]), self.colour(over[1]));
        c1 != 0
            && c1 == c2
            && c1 != self.colour(a)
            && !self.buried(over[0])
            && !self.buried(over[1])
    }

    fn same_colour_unburied(&self, a: Pt, b: Pt) -> bool {
        self.occupied(a) && self.colour(a) == self.colour(b) && !self.buried(a) && !self.buried(b)
    }

    /// All pieces linked to `a`, with whether the step goes down (to a supporter).
    fn links(&self, a: Pt) -> Vec<(Pt, bool)> {
        let mut v = Vec::new();
        for b in self.same_level_neighbours(a) {
            if self.same_colour_unburied(a, b) && !self.cut(a, b) {
                v.push((b, false));
            }
        }
        for b in self.supporters(a) {
            if self.same_colour_unburied(a, b) {
                v.push((b, true));
            }
        }
        for b in self.resting_on(a) {
            if self.same_colour_unburied(a, b) {
                v.push((b, false));
            }
        }
        v
    }

    fn has_freedom(&self, p: Pt) -> bool {
        match self.rules {
            RefRules::Default => {
                p.0 == 0
                    && self
                        .same_level_neighbours(p)
                        .iter()
                        .any(|&q| !self.occupied(q))
            }
            RefRules::AllFreedoms => self
                .same_level_neighbours(p)
                .iter()
                .any(|&q| !self.occupied(q) && self.valid(q)),
            RefRules::CutDown => self
                .same_level_neighbours(p)
                .iter()
                .any(|&q| !self.occupied(q)),
        }
    }

    /// The group of `p` (a buried piece alone).
    pub fn group(&self, p: Pt) -> BTreeSet<Pt> {
        let mut seen = BTreeSet::from([p]);
        if self.buried(p) {
            return seen;
        }
        let mut queue = VecDeque::from([p]);
        while let Some(a) = queue.pop_front() {
            for (b, _) in self.links(a) {
                if seen.insert(b) {
                    queue.push_back(b);
                }
            }
        }
        seen
    }

    /// Alive: the group has a freedom; under cut_down, a path of links never going down
    /// reaches a piece with a freedom.
    pub fn alive(&self, p: Pt) -> bool {
        if self.buried(p) {
            return false;
        }
        match self.rules {
            RefRules::Default | RefRules::AllFreedoms => {
                self.group(p).iter().any(|&q| self.has_freedom(q))
            }
            RefRules::CutDown => {
                let mut seen = BTreeSet::from([p]);
                let mut queue = VecDeque::from([p]);
                while let Some(a) = queue.pop_front() {
                    if self.has_freedom(a) {
                        return true;
                    }
                    for (b, down) in self.links(a) {
                        if !down && seen.insert(b) {
                            queue.push_back(b);
                        }
                    }
                }
                false
            }
        }
    }

    // ----- moves ----------------------------------------------------------------------

    /// The cells of the grid that hold points, by column then row.
    fn cells(&self) -> Vec<(i32, i32)> {
        let mut cells: BTreeSet<(i32, i32)> = BTreeSet::new();
        for p in self.all_points() {
            cells.insert(Self::cell_of(p));
        }
        cells.into_iter().collect()
    }

    fn lowest_empty(&self, cell: (i32, i32)) -> Option<Pt> {
        let mut pts: Vec<Pt> = self
            .all_points()
            .into_iter()
            .filter(|&p| Self::cell_of(p) == cell)
            .collect();
        pts.sort();
        pts.into_iter().find(|&p| !self.occupied(p))
    }

    /// The board after `c` places on `cell`, or `None` if the placement is illegal.
    pub fn try_place(&self, c: u8, cell: (i32, i32)) -> Option<BTreeMap<Pt, u8>> {
        let p = self.lowest_empty(cell)?;
        if !self.valid(p) {
            return None;
        }
        let mut after = self.clone();
        after.board.insert(p, c);
        // Captures: every piece of another colour that is not alive, decided once (a group
        // at a time where life is a property of the group).
        let mut captured: BTreeSet<Pt> = BTreeSet::new();
        let mut settled: BTreeSet<Pt> = BTreeSet::new();
        for (&q, &owner) in &after.board {
            if owner == c || settled.contains(&q) {
                continue;
            }
            if after.rules == RefRules::CutDown || after.buried(q) {
                settled.insert(q);
                if !after.alive(q) {
                    captured.insert(q);
                }
                continue;
            }
            let group = after.group(q);
            let alive = group.iter().any(|&m| after.has_freedom(m));
            for m in group {
                settled.insert(m);
                if !alive {
                    captured.insert(m);
                }
            }
        }
        // Removal from the top down: a captured piece stays while a piece that stays rests
        // on it.
        let mut removed = after.clone();
        for k in (0..self.n).rev() {
            for &q in captured.iter().filter(|q| q.0 == k) {
                let held = removed.resting_on(q).iter().any(|&u| removed.occupied(u));
                if !held {
                    removed.board.remove(&q);
                }
            }
        }
        if !removed.alive(p) {
            return None;
        }
        Some(removed.board)
    }

    fn placements(&self, c: u8) -> Vec<(i32, i32)> {
        self.cells()
            .into_iter()
            .filter(|&cell| self.try_place(c, cell).is_some())
            .collect()
    }

    fn has_placement(&self, c: u8) -> bool {
        self.cells()
            .into_iter()
            .any(|cell| self.try_place(c, cell).is_some())
    }

    pub fn over(&self) -> bool {
        (1..=self.players).all(|c| !self.has_placement(c))
    }

    fn swap_allowed(&self) -> bool {
        self.players == 2 && self.plies == 1
    }

    pub fn cell_name((x, y): (i32, i32)) -> String {
        format!("{}{}", char::from(b'a' + x as u8), y + 1)
    }

    /// The legal moves as text, in the `moves` program's order.
    pub fn legal(&self) -> Vec<String> {
        let mut v: Vec<String> = self
            .placements(self.to_move)
            .into_iter()
            .map(Self::cell_name)
            .collect();
        if v.is_empty() {
            if self.over() {
                return vec![];
            }
            return vec!["pass".into()];
        }
        if self.swap_allowed() {
            v.push("swap".into());
        }
        v
    }

    /// Plays a move given as text; `false` if it is illegal (nothing changes).
    pub fn play(&mut self, mv: &str) -> bool {
        if !self.legal().iter().any(|m| m == mv) {
            return false;
        }
        match mv {
            "pass" => {}
            "swap" => {
                for owner in self.board.values_mut() {
                    *owner = 2;
                }
            }
            cell => {
                let bytes = cell.as_bytes();
                let x = i32::from(bytes[0] - b'a');
                let y: i32 = cell[1..].parse::<i32>().unwrap() - 1;
                self.board = self.try_place(self.to_move, (x, y)).unwrap();
            }
        }
        self.to_move = self.to_move % self.players + 1;
        self.plies += 1;
        true
    }

    pub fn score(&self) -> Vec<u32> {
        (1..=self.players)
            .map(|c| self.board.values().filter(|&&o| o == c).count() as u32)
            .collect()
    }

    pub fn report(&self) -> Report {
        let legal = self.legal();
        let over = legal.is_empty();
        let score = self.score();
        let winners = if over {
            let best = *score.iter().max().unwrap();
            if score.iter().all(|&s| s == best) {
                vec![]
            } else {
                (1..=self.players)
                    .filter(|&c| score[usize::from(c) - 1] == best)
                    .collect()
            }
        } else {
            vec![]
        };
        Report {
            legal,
            to_move: (!over).then_some(self.to_move),
            over,
            winners,
            score,
        }
    }
}
