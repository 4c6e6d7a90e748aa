//! The position as the search sees it: the rules position plus line patterns, threat
//! classes and capture facts for every empty point, kept up to date move by move.

use ploy_search::{SearchGame, Side, Terminal};

use super::patterns::{self, C_B4, C_F4, C_FIVE, CLASSES, Class, Info};
use crate::position::{EMPTY, Layout, MAX_CELLS, OFF, Position, captured_pairs, step, stone};
use crate::types::{Color, Move, Outcome, Point};

/// Moves one cell's count in a histogram from bucket `old` to bucket `new` (bucket 0, "no
/// class" or "no capture", is not counted): the class and capture histograms change alike.
#[inline(always)]
fn recount<const N: usize>(hist: &mut [u16; N], old: u8, new: u8) {
    if old != 0 {
        hist[usize::from(old)] -= 1;
    }
    if new != 0 {
        hist[usize::from(new)] += 1;
    }
}

/// Knobs of the full-strength move generation, for experiments (the defaults are the
/// engine's).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Tuning {
    /// Quiescence searches captures (besides fours and the answers to threats).
    pub quiescence_captures: bool,
    /// When the opponent can make an open four next, search only the blocks and the
    /// counter-threats.
    pub answer_open_threes: bool,
    /// Share of a time budget the threat search may use, in percent.
    pub threat_share: u32,
    /// In quiet positions (no threat to answer) search only this many of the best-ordered
    /// moves below the root (0: all). The threat search, the answers to threats and
    /// quiescence are not narrowed.
    pub width: u16,
    /// The same at the root (0: all).
    pub root_width: u16,
}

impl Default for Tuning {
    fn default() -> Tuning {
        Tuning {
            quiescence_captures: true,
            answer_open_threes: true,
            threat_share: 25,
            width: 8,
            root_width: 16,
        }
    }
}

/// Limits of the difficulty ladder: candidate moves inside the stones' bounding box
/// widened by `padding`, and at ply `i` of the search only the `width[i]` best-ordered
/// moves (the last entry repeats).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Narrowing {
    pub padding: u8,
    pub width: Vec<u16>,
}

/// A [`Position`] with everything the evaluation and move ordering read, updated
/// incrementally by [`SearchGame::make`] and [`SearchGame::unmake`].
///
/// Moves it generates for the search: when the player to move can win at once, one
/// winning move; when the opponent threatens to win at once (a five or enough captures),
/// exactly the moves that stop every such threat (or one move if none does); otherwise the
/// empty points within two steps of a stone, best first by a threat-aware ordering. The
/// moves quiescence searches ([`SearchGame::generate_captures`]) are the winning move, the
/// defences, and the moves that make a four or capture.
#[derive(Clone)]
pub struct SearchPosition {
    pos: Position,
    layout: Layout,
    axes: [usize; 4],
    /// Neighbour codes per cell and axis (see [`patterns`]).
    keys: Box<[[u16; 4]]>,
    /// What a stone of each colour would make on each cell (empty cells only; zero and
    /// stale elsewhere).
    facts: Box<[Facts]>,
    /// Counts of empty cells per colour and class (class 0 not counted).
    hist: [[u16; CLASSES]; 2],
    /// Counts of empty cells per colour by pairs capturable there (0 not counted).
    cap_hist: [[u16; 9]; 2],
    /// Stones within two steps (king distance), per cell.
    near: Box<[u8]>,
    /// Empty cells with a stone within two steps.
    near_cells: Bits,
    /// Per colour, the empty cells where a stone would make a four or better, capture, or
    /// threaten a capture.
    sharp: [Bits; 2],
    /// Plies of the position the search started from.
    root_plies: u16,
    /// Tie-break salt for the ordering (the `--seed`).
    salt: u64,
    narrowing: Option<Narrowing>,
    tuning: Tuning,
}

impl core::fmt::Debug for SearchPosition {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "SearchPosition({})", self.pos)
    }
}

impl PartialEq for SearchPosition {
    /// Equal positions and equal derived state on the board (the narrowing and salt
    /// aside; guard cells' keys are scratch).
    fn eq(&self, o: &SearchPosition) -> bool {
        self.pos == o.pos
            && self.board_cells().all(|q| self.keys[q] == o.keys[q])
            && self
                .board_cells()
                .all(|q| self.facts[q].summary() == o.facts[q].summary())
            && self.hist == o.hist
            && self.cap_hist == o.cap_hist
            && self.near == o.near
            && self.near_cells == o.near_cells
            && self.sharp == o.sharp
    }
}

/// What stones placed on one empty cell would make: per colour the facts of the four lines
/// packed (levels 3 bits a line, captures and capture threats 2 bits, vulnerability 1
/// bit) and their summary.
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
struct Facts {
    info: [[Info; 4]; 2],
    class: [Class; 2],
    caps: [u8; 2],
    threats: [u8; 2],
    vuln: [bool; 2],
}

impl Facts {
    fn summary(&self) -> ([Class; 2], [u8; 2], [u8; 2], [bool; 2]) {
        (self.class, self.caps, self.threats, self.vuln)
    }
}

/// A set of cells.
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
struct Bits([u64; MAX_CELLS.div_ceil(64)]);

impl Bits {
    #[inline]
    fn set(&mut self, q: usize, on: bool) {
        let (w, b) = (q / 64, q % 64);
        if on {
            self.0[w] |= 1 << b;
        } else {
            self.0[w] &= !(1 << b);
        }
    }

    /// The cells, in increasing order.
    #[inline]
    fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.0.iter().enumerate().flat_map(|(w, &word)| {
            let mut x = word;
            core::iter::from_fn(move || {
                if x == 0 {
                    None
                } else {
                    let b = x.trailing_zeros() as usize;
                    x &= x - 1;
                    Some(w * 64 + b)
                }
            })
        })
    }
}

/// Most candidate moves in one list (every point of the largest board).
const MAX_LIST: usize = 361;

impl SearchPosition {
    /// The search state of `pos`.
    #[must_use]
    pub fn new(pos: Position) -> SearchPosition {
        let layout = pos.layout();
        let a = layout.axes();
        let axes = [a[0] as usize, a[1] as usize, a[2] as usize, a[3] as usize];
        let mut s = SearchPosition {
            layout,
            axes,
            keys: vec![[0u16; 4]; MAX_CELLS].into_boxed_slice(),
            facts: vec![Facts::default(); MAX_CELLS].into_boxed_slice(),
            hist: [[0; CLASSES]; 2],
            cap_hist: [[0; 9]; 2],
            near: vec![0; MAX_CELLS].into_boxed_slice(),
            near_cells: Bits::default(),
            sharp: [Bits::default(); 2],
            root_plies: pos.plies(),
            salt: 0,
            narrowing: None,
            tuning: Tuning::default(),
            pos,
        };
        for p in s.pos.size().points_iter() {
            let q = layout.index(p);
            for (k, &d) in s.axes.iter().enumerate() {
                let mut key = 0u16;
                for i in (-4..=4i32).filter(|&i| i != 0) {
                    let cell = s.pos.cell(step(q, d as isize * i as isize));
                    key |= u16::from(cell) << (2 * patterns::slot(i));
                }
                s.keys[q][k] = key;
            }
            if s.pos.cell(q) != EMPTY {
                s.near_add(q, 1);
            }
        }
        for p in s.pos.size().points_iter() {
            s.refresh_all(layout.index(p));
        }
        s
    }

    /// The rules position.
    #[must_use]
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// Sets the tie-break salt of the move ordering (equal moves are tried in an order
    /// that depends on it).
    pub fn set_salt(&mut self, salt: u64) {
        self.salt = salt;
    }

    /// Counts plies of the search from the current position (the ladder's widths are per
    /// ply).
    pub(crate) fn set_root(&mut self) {
        self.root_plies = self.pos.plies();
    }

    pub(crate) fn set_narrowing(&mut self, n: Option<Narrowing>) {
        self.narrowing = n;
    }

    /// Sets the knobs of the move generation.
    pub fn set_tuning(&mut self, t: Tuning) {
        self.tuning = t;
    }

    // ----- incremental updates -------------------------------------------------------

    fn near_add(&mut self, q: usize, delta: i8) {
        let s = self.layout.stride as isize;
        // The cell itself changed hands (a stone placed or removed).
        self.near_cells
            .set(q, self.near[q] > 0 && self.pos.cell(q) == EMPTY);
        for dr in -2..=2isize {
            for dc in -2..=2isize {
                let j = step(q, dr * s + dc);
                let before = self.near[j];
                self.near[j] = before.wrapping_add_signed(delta);
                if (before == 0) != (self.near[j] == 0) {
                    self.near_cells
                        .set(j, self.near[j] > 0 && self.pos.cell(j) == EMPTY);
                }
            }
        }
    }

    /// Sets the summary of colour `c` on cell `q`, keeping the counts.
    #[inline(always)]
    fn set_summary(&mut self, q: usize, c: usize, cl: Class, cp: u8, th: u8, vu: bool) {
        let f = &mut self.facts[q];
        let old = f.class[c];
        let oldc = f.caps[c];
        let was_sharp = old >= C_B4 || oldc > 0 || f.threats[c] > 0;
        if old != cl {
            recount(&mut self.hist[c], old, cl);
            f.class[c] = cl;
        }
        if oldc != cp {
            recount(&mut self.cap_hist[c], oldc, cp);
            f.caps[c] = cp;
        }
        f.threats[c] = th;
        f.vuln[c] = vu;
        let sharp = cl >= C_B4 || cp > 0 || th > 0;
        if sharp != was_sharp {
            self.sharp[c].set(q, sharp);
        }
    }

    /// Stores line `k`'s facts `i` for colour `c` of empty cell `q`; recomputes the
    /// summary if they changed.
    #[inline]
    fn set_line(&mut self, q: usize, c: usize, k: usize, i: Info, classes: &[Class; 4096]) {
        if self.facts[q].info[c][k] == i {
            return;
        }
        self.facts[q].info[c][k] = i;
        self.summarise(q, c, classes);
    }

    /// Recomputes colour `c`'s summary of empty cell `q` from its four lines.
    #[inline(always)]
    fn summarise(&mut self, q: usize, c: usize, classes: &[Class; 4096]) {
        let w = u32::from_le_bytes(self.facts[q].info[c]);
        // Levels: bits 0-2 of each byte, packed 3 bits a line.
        let lv = (w & 7) | (w >> 5 & 0o70) | (w >> 10 & 0o700) | (w >> 15 & 0o7000);
        let cl = classes[lv as usize];
        // Sums of the four bytes' 2-bit fields (each below 4, so no carries).
        let cp = (((w >> 3) & 0x0303_0303).wrapping_mul(0x0101_0101) >> 24) as u8;
        let th = (((w >> 5) & 0x0303_0303).wrapping_mul(0x0101_0101) >> 24) as u8;
        let vu = w & 0x8080_8080 != 0;
        self.set_summary(q, c, cl, cp, th, vu);
    }

    /// Recomputes everything of cell `q` (it became empty or occupied).
    fn refresh_all(&mut self, q: usize) {
        let cell = self.pos.cell(q);
        if cell == OFF {
            return;
        }
        if cell != EMPTY {
            for c in 0..2 {
                self.set_summary(q, c, 0, 0, 0, false);
            }
            return;
        }
        let table = patterns::table();
        let classes = patterns::class_table();
        for c in 0..2 {
            for k in 0..4 {
                self.facts[q].info[c][k] = (table[usize::from(self.keys[q][k])] >> (8 * c)) as u8;
            }
            self.summarise(q, c, classes);
        }
    }

    /// Line `k` of cell `q` changed: recomputes its facts if the cell is empty.
    #[inline]
    fn refresh_line(&mut self, q: usize, k: usize, table: &[u16], classes: &[Class; 4096]) {
        if self.pos.cell(q) != EMPTY {
            return;
        }
        let both = table[usize::from(self.keys[q][k])];
        self.set_line(q, 0, k, both as u8, classes);
        self.set_line(q, 1, k, (both >> 8) as u8, classes);
    }

    /// The content of cell `p` changed by `x` (old code XOR new code; the board already
    /// holds the new content).
    fn changed(&mut self, p: usize, x: u16) {
        let table = patterns::table();
        let classes = patterns::class_table();
        for k in 0..4 {
            let d = self.axes[k];
            for i in 1..=4usize {
                let below = p - i * d;
                self.keys[below][k] ^= x << (2 * patterns::slot(i as i32));
                self.refresh_line(below, k, table, classes);
                let above = p + i * d;
                self.keys[above][k] ^= x << (2 * patterns::slot(-(i as i32)));
                self.refresh_line(above, k, table, classes);
            }
        }
        self.refresh_all(p);
    }

    fn apply(&mut self, mv: Move, capture_dirs: u8, mover: Color) {
        let p = self.layout.index(mv.point());
        let own = u16::from(stone(mover));
        let opp = u16::from(stone(mover.other()));
        self.changed(p, own);
        let dirs = *self.pos.dirs();
        for (a, b) in captured_pairs(&dirs, p, capture_dirs) {
            self.changed(a, opp);
            self.changed(b, opp);
        }
    }

    fn apply_near(&mut self, mv: Move, capture_dirs: u8, delta: i8) {
        let p = self.layout.index(mv.point());
        self.near_add(p, delta);
        let dirs = *self.pos.dirs();
        for (a, b) in captured_pairs(&dirs, p, capture_dirs) {
            self.near_add(a, -delta);
            self.near_add(b, -delta);
        }
    }

    // ----- facts ---------------------------------------------------------------------

    /// The colour to move.
    #[inline]
    pub(crate) fn mover(&self) -> Color {
        self.pos.turn()
    }

    /// Counts of empty points per class for colour `c`.
    #[inline]
    pub(crate) fn classes(&self, c: Color) -> &[u16; CLASSES] {
        &self.hist[c.index()]
    }

    /// Counts of empty points by pairs capturable there for `c` (index 0 unused).
    #[inline]
    pub(crate) fn capture_points(&self, c: Color) -> &[u16; 9] {
        &self.cap_hist[c.index()]
    }

    /// The most pairs `c` could capture with one stone.
    #[inline]
    pub(crate) fn max_pairs(&self, c: Color) -> u8 {
        let h = &self.cap_hist[c.index()];
        (1..9).rev().find(|&n| h[n] > 0).unwrap_or(0) as u8
    }

    /// Whether `c` could win with one stone (ignoring whose turn it is).
    #[inline]
    pub(crate) fn can_win_at_once(&self, c: Color) -> bool {
        self.hist[c.index()][usize::from(C_FIVE)] > 0
            || self.pos.captures(c) + 2 * self.max_pairs(c) >= 10
    }

    /// Whether a stone of `c` on cell `q` (empty) wins at once.
    #[inline]
    fn wins_at(&self, c: Color, q: usize) -> bool {
        self.facts[q].class[c.index()] == C_FIVE
            || self.pos.captures(c) + 2 * self.facts[q].caps[c.index()] >= 10
    }

    #[inline]
    fn point(&self, q: usize) -> Point {
        self.layout.point(q).expect("a board cell")
    }

    /// Board cells, row by row.
    fn board_cells(&self) -> impl Iterator<Item = usize> + use<> {
        let layout = self.layout;
        let n = usize::from(layout.size);
        (0..n).flat_map(move |r| {
            let start = layout.index(Point::new(0, r as u8).expect("on board"));
            start..start + n
        })
    }

    #[inline]
    fn legal_cell(&self, q: usize) -> bool {
        self.pos.cell(q) == EMPTY && {
            let plies = self.pos.plies();
            if plies > 2 {
                true
            } else {
                self.pos.is_legal(Move(self.point(q)))
            }
        }
    }

    /// A winning move for the player to move, if one exists (a five first).
    pub(crate) fn winning_move(&self) -> Option<Move> {
        let c = self.mover();
        if self.pos.is_over() || !self.can_win_at_once(c) {
            return None;
        }
        let mut capture_win = None;
        for q in self.sharp[c.index()].iter() {
            if self.pos.cell(q) != EMPTY || !self.legal_cell(q) {
                continue;
            }
            if self.facts[q].class[c.index()] == C_FIVE {
                return Some(Move(self.point(q)));
            }
            if capture_win.is_none() && self.wins_at(c, q) {
                capture_win = Some(Move(self.point(q)));
            }
        }
        capture_win
    }

    /// Whether the opponent of the player to move threatens to win at once.
    #[inline]
    pub(crate) fn threatened(&self) -> bool {
        !self.pos.is_over() && self.can_win_at_once(self.mover().other())
    }

    /// The moves that stop every immediate win of the opponent (the player to move cannot
    /// win at once). Exact: each candidate is played on a copy and checked.
    pub(crate) fn defences(&self, out: &mut Vec<Move>) {
        let me = self.mover();
        let them = me.other();
        let their_caps = self.pos.captures(them);
        let mut fives = Vec::new();
        let mut their_cap_points = Vec::new();
        let mut candidates = Vec::new();
        let mut cells = self.sharp[them.index()];
        for (w, x) in cells.0.iter_mut().zip(self.sharp[me.index()].0) {
            *w |= x;
        }
        for q in cells.iter() {
            if self.pos.cell(q) != EMPTY {
                continue;
            }
            let five = self.facts[q].class[them.index()] == C_FIVE;
            if five {
                fives.push(q);
            }
            if self.facts[q].caps[them.index()] > 0 {
                their_cap_points.push(q);
            }
            if five
                || their_caps + 2 * self.facts[q].caps[them.index()] >= 10
                || self.facts[q].caps[me.index()] > 0
            {
                candidates.push(q);
            }
        }
        let mut scratch = self.pos.clone();
        let dirs = *self.pos.dirs();
        let them_stone = stone(them);
        for &q in &candidates {
            if !self.legal_cell(q) {
                continue;
            }
            let mv = Move(self.point(q));
            let undo = scratch.make(mv);
            let mut safe = true;
            if !scratch.is_over() {
                safe = !fives
                    .iter()
                    .any(|&f| scratch.cell(f) == EMPTY && scratch.makes_five(f, them_stone));
                if safe {
                    let cap_win = |j: usize| {
                        scratch.cell(j) == EMPTY
                            && their_caps
                                + 2 * scratch.capture_dirs(j, them_stone).count_ones() as u8
                                >= 10
                    };
                    safe = !their_cap_points.iter().any(|&j| cap_win(j))
                        && !dirs
                            .iter()
                            .any(|&d| cap_win(step(q, -d)) || cap_win(step(q, -2 * d)));
                    if safe {
                        let mut m = undo.capture_dirs();
                        while m != 0 {
                            let k = m.trailing_zeros() as usize;
                            m &= m - 1;
                            let a = step(q, dirs[k]);
                            if cap_win(a) || cap_win(step(a, dirs[k])) {
                                safe = false;
                            }
                        }
                    }
                }
            }
            scratch.unmake(mv, undo);
            if safe {
                out.push(mv);
            }
        }
    }

    // ----- ordering ------------------------------------------------------------------

    /// The ordering score of a stone of the player to move on empty cell `q`.
    #[inline]
    pub(crate) fn order_score(&self, q: usize) -> i32 {
        const ATTACK: [i32; CLASSES] = [0, 4, 12, 30, 200, 300, 1200, 120, 4000, 6000, 40000];
        const DEFEND: [i32; CLASSES] = [0, 2, 8, 20, 150, 200, 900, 60, 2500, 4000, 30000];
        let me = self.mover().index();
        let them = 1 - me;
        let my_caps = i32::from(self.pos.captures(self.mover()));
        let mut s = ATTACK[usize::from(self.facts[q].class[me])]
            + DEFEND[usize::from(self.facts[q].class[them])];
        s += i32::from(self.facts[q].caps[me]) * (300 + 60 * my_caps);
        s += i32::from(self.facts[q].caps[them]) * 200;
        s += i32::from(self.facts[q].threats[me]) * 40;
        if self.facts[q].vuln[me] {
            s -= 60;
        }
        s + i32::from(self.near[q])
    }

    /// The ordering score of `mv` for the player to move.
    pub(crate) fn order_score_of(&self, mv: Move) -> i32 {
        self.order_score(self.layout.index(mv.point()))
    }

    /// A sortable key: the score, then a salted tie-break.
    #[inline]
    fn order_key(&self, q: usize) -> i64 {
        let noise = super::mix64(self.salt ^ (q as u64).wrapping_mul(0x9E37)) & 0xFFFF;
        (i64::from(self.order_score(q)) << 16) | noise as i64
    }

    /// Whether a stone of the player to move on `q` is a forcing move (a four or better,
    /// or a capture; with 8 captures also a capture threat).
    #[inline]
    fn forcing(&self, q: usize) -> bool {
        let me = self.mover().index();
        let cl = self.facts[q].class[me];
        let caps = self.pos.captures(self.mover());
        cl >= C_B4
            || (self.facts[q].caps[me] > 0
                && (self.tuning.quiescence_captures || caps + 2 * self.facts[q].caps[me] >= 10))
            || (caps >= 8 && self.facts[q].threats[me] > 0)
    }

    fn plies_from_root(&self) -> usize {
        usize::from(self.pos.plies().saturating_sub(self.root_plies))
    }

    /// The candidate cells of the normal case: near stones (or the ladder's box).
    fn candidates(&self, out: &mut Vec<(i64, Move)>) {
        if self.pos.plies() == 0 {
            out.push((0, Move(self.pos.size().centre())));
            return;
        }
        if let Some(n) = &self.narrowing {
            self.box_candidates(n.padding, out);
        } else {
            for q in self.near_cells.iter() {
                if self.legal_cell(q) {
                    out.push((self.order_key(q), Move(self.point(q))));
                }
            }
            if out.is_empty() {
                for q in self.board_cells() {
                    if self.legal_cell(q) {
                        out.push((self.order_key(q), Move(self.point(q))));
                    }
                }
            }
        }
    }

    /// Legal points inside the bounding box of the stones widened by `padding`, widened
    /// one step at a time until one is legal.
    fn box_candidates(&self, padding: u8, out: &mut Vec<(i64, Move)>) {
        let n = self.pos.size().get();
        let (mut c0, mut c1, mut r0, mut r1) = (n, 0u8, n, 0u8);
        for (p, _) in self.pos.stones_iter() {
            c0 = c0.min(p.col());
            c1 = c1.max(p.col());
            r0 = r0.min(p.row());
            r1 = r1.max(p.row());
        }
        if c0 > c1 {
            let c = self.pos.size().centre();
            (c0, c1, r0, r1) = (c.col(), c.col(), c.row(), c.row());
        }
        let mut pad = padding;
        loop {
            for r in r0.saturating_sub(pad)..=r1.saturating_add(pad).min(n - 1) {
                for c in c0.saturating_sub(pad)..=c1.saturating_add(pad).min(n - 1) {
                    let p = Point::new(c, r).expect("on board");
                    let q = self.layout.index(p);
                    if self.legal_cell(q) {
                        out.push((self.order_key(q), Move(p)));
                    }
                }
            }
            if !out.is_empty() || pad >= n {
                return;
            }
            pad += 1;
        }
    }

    /// Whether the list of moves is settled without looking further: empty when the game is
    /// over, or the one winning move, pushed to `out`.
    #[inline]
    fn settled(&self, out: &mut Vec<Move>) -> bool {
        if self.pos.is_over() {
            return true;
        }
        if let Some(w) = self.winning_move() {
            out.push(w);
            return true;
        }
        false
    }

    /// The moves of the search, best first (see the type's docs).
    pub(crate) fn moves(&self, out: &mut Vec<Move>) {
        if self.settled(out) {
            return;
        }
        let mut scored: Vec<(i64, Move)> = Vec::with_capacity(MAX_LIST);
        if self.threatened() {
            let mut d = Vec::new();
            self.defences(&mut d);
            if d.is_empty() {
                // Lost against best play: block the best-ordered threat anyway (the
                // opponent may go wrong).
                self.candidates(&mut scored);
                scored.sort_unstable_by_key(|&(k, _)| core::cmp::Reverse(k));
                scored.truncate(1);
            } else {
                scored.extend(
                    d.into_iter()
                        .map(|m| (self.order_key(self.layout.index(m.point())), m)),
                );
            }
        } else if self.narrowing.is_none()
            && self.tuning.answer_open_threes
            && self.hist[self.mover().other().index()][usize::from(C_F4)] > 0
        {
            self.answers_to_open_four_threat(&mut scored);
        } else {
            self.candidates(&mut scored);
            if self.narrowing.is_none() {
                let w = if self.plies_from_root() == 0 {
                    self.tuning.root_width
                } else {
                    self.tuning.width
                };
                if w > 0 && scored.len() > usize::from(w) {
                    scored.select_nth_unstable_by_key(usize::from(w) - 1, |&(k, _)| {
                        core::cmp::Reverse(k)
                    });
                    scored.truncate(usize::from(w));
                }
            }
        }
        scored.sort_unstable_by_key(|&(k, _)| core::cmp::Reverse(k));
        if let Some(n) = &self.narrowing {
            let ply = self.plies_from_root();
            let w = n
                .width
                .get(ply)
                .or(n.width.last())
                .copied()
                .unwrap_or(u16::MAX);
            scored.truncate(usize::from(w.max(1)));
        }
        out.extend(scored.iter().map(|&(_, m)| m));
    }

    /// The opponent can make an open four (two ways to five) next: the answers worth
    /// searching are the points where he would make a four or better (the blocks), and
    /// the player's own fours, captures and capture threats (counter-attacks).
    fn answers_to_open_four_threat(&self, out: &mut Vec<(i64, Move)>) {
        let me = self.mover().index();
        let them = 1 - me;
        let mut cells = self.sharp[them];
        for (w, x) in cells.0.iter_mut().zip(self.sharp[me].0) {
            *w |= x;
        }
        for q in cells.iter() {
            let f = &self.facts[q];
            if self.pos.cell(q) == EMPTY
                && (f.class[them] >= C_B4
                    || f.class[me] >= C_B4
                    || f.caps[me] > 0
                    || f.threats[me] > 0)
            {
                out.push((self.order_key(q), Move(self.point(q))));
            }
        }
        if out.is_empty() {
            self.candidates(out);
        }
    }

    /// The forcing moves for quiescence.
    pub(crate) fn forcing_moves(&self, out: &mut Vec<Move>) {
        if self.settled(out) {
            return;
        }
        if self.threatened() {
            self.moves(out);
            return;
        }
        if self.pos.plies() < 3 {
            return;
        }
        let mut scored: Vec<(i64, Move)> = Vec::new();
        for q in self.sharp[self.mover().index()].iter() {
            if self.pos.cell(q) == EMPTY && self.forcing(q) {
                scored.push((self.order_key(q), Move(self.point(q))));
            }
        }
        scored.sort_unstable_by_key(|&(k, _)| core::cmp::Reverse(k));
        out.extend(scored.iter().map(|&(_, m)| m));
    }

    /// The candidate threats of the threat search: the forcing moves and every capture
    /// threat, best first (the search keeps those after which the mover can win at once).
    pub(crate) fn threat_moves(&self, out: &mut Vec<Move>) {
        if self.pos.is_over() || self.pos.plies() < 3 {
            return;
        }
        let me = self.mover().index();
        let mut scored: Vec<(i64, Move)> = Vec::new();
        for q in self.sharp[me].iter() {
            if self.pos.cell(q) == EMPTY && (self.forcing(q) || self.facts[q].threats[me] > 0) {
                scored.push((self.order_key(q), Move(self.point(q))));
            }
        }
        scored.sort_unstable_by_key(|&(k, _)| core::cmp::Reverse(k));
        out.extend(scored.iter().map(|&(_, m)| m));
    }

    /// Whether `mv` belongs to the forcing moves (see [`SearchPosition::forcing_moves`]).
    pub(crate) fn is_forcing(&self, mv: Move) -> bool {
        if self.pos.is_over() {
            return false;
        }
        let q = self.layout.index(mv.point());
        if self.can_win_at_once(self.mover()) {
            return self.wins_at(self.mover(), q);
        }
        if self.threatened() {
            return true;
        }
        self.pos.plies() >= 3 && self.forcing(q)
    }

    /// Plays a legal move, updating everything.
    pub fn play(&mut self, mv: Move) -> crate::Undo {
        let mover = self.mover();
        let undo = self.pos.make(mv);
        self.apply(mv, undo.capture_dirs(), mover);
        self.apply_near(mv, undo.capture_dirs(), 1);
        undo
    }

    /// Takes back the last move.
    pub fn take_back(&mut self, mv: Move, undo: crate::Undo) {
        self.pos.unmake(mv, undo);
        let mover = self.mover();
        self.apply(mv, undo.capture_dirs(), mover);
        self.apply_near(mv, undo.capture_dirs(), -1);
    }
}

impl SearchGame for SearchPosition {
    type Move = Move;
    type Undo = crate::Undo;
    type Moves = Vec<Move>;

    #[inline]
    fn side(&self) -> Side {
        Side(self.pos.turn() as u8)
    }

    #[inline]
    fn hash(&self) -> u64 {
        self.pos.hash()
    }

    fn terminal(&self) -> Option<Terminal> {
        self.pos.outcome().map(|o| match o {
            Outcome::Win { winner, .. } => Terminal::Win(Side(winner as u8)),
            Outcome::Draw => Terminal::Draw,
        })
    }

    fn generate(&self, moves: &mut Vec<Move>) {
        self.moves(moves);
    }

    fn generate_captures(&self, moves: &mut Vec<Move>) {
        if self.narrowing.is_none() {
            self.forcing_moves(moves);
        }
    }

    #[inline]
    fn is_legal(&self, mv: Move) -> bool {
        self.pos.is_legal(mv)
    }

    #[inline]
    fn is_capture(&self, mv: Move) -> bool {
        self.narrowing.is_none() && self.is_forcing(mv)
    }

    #[inline]
    fn capture_order(&self, mv: Move) -> i32 {
        self.order_score(self.layout.index(mv.point()))
    }

    #[inline]
    fn make(&mut self, mv: Move) -> crate::Undo {
        self.play(mv)
    }

    #[inline]
    fn unmake(&mut self, mv: Move, undo: crate::Undo) {
        self.take_back(mv, undo);
    }

    #[inline]
    fn move_to_u16(mv: Move) -> u16 {
        mv.point().code()
    }

    const HISTORY_SIZE: usize = 512;

    fn move_from_u16(code: u16) -> Option<Move> {
        Point::from_code(code).map(Move)
    }
}
