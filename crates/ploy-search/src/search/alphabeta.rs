//! The main search: fail-soft alpha-beta/PVS with memory (the table), null move,
//! pruning, reductions and extension, and the node bookkeeping it shares with quiescence.

use super::ordering::{MAX_TRIED, SELECTION_PICKS, Stage, pack_key, select_best, unpack_index};
use super::{MAX_KILLERS, MAX_PLY, NO_EVAL, NO_SLOT, NodeKind, POLL_INTERVAL, Searcher};
use crate::game::{Evaluator, MAX_MOVES, MoveBuffer, SearchGame};
use crate::score::{EVAL_MAX, INF, Value, WIN_BOUND, from_table, terminal_value, to_table};
use crate::table::NO_MOVE;
use std::sync::atomic::Ordering;

impl<G: SearchGame + Clone, E: Evaluator<G>> Searcher<G, E> {
    /// Records that move `code` is the best so far at `ply`: the node's line becomes the
    /// move followed by the child's line.
    #[inline]
    pub(super) fn update_pv(&mut self, ply: usize, code: u16) {
        let end = self.pv_len[ply + 1].max(ply + 1);
        let (rows, below) = self.pv_table.split_at_mut(ply + 1);
        let row = &mut rows[ply];
        row[ply] = code;
        // Lines are short: a plain loop beats a call to `memcpy`.
        for (to, from) in row[ply + 1..end].iter_mut().zip(&below[0][ply + 1..end]) {
            *to = *from;
        }
        self.pv_len[ply] = end;
    }

    #[inline]
    pub(super) fn count_node(&mut self) {
        self.nodes += 1;
        if self.nodes >= self.next_check {
            self.check_limits();
        }
    }

    #[cold]
    fn check_limits(&mut self) {
        if self.link.is_some() {
            self.publish_nodes();
        }
        if self.nodes >= self.node_limit && !self.more_nodes() {
            self.stopped = true;
        }
        self.next_check = (self.nodes + POLL_INTERVAL).min(self.node_limit.max(self.nodes + 1));
        if let Some(hard) = self.hard {
            if self.budget_used().is_some_and(|used| used >= hard) {
                self.stopped = true;
            }
        }
        if let Some(stop) = &self.stop {
            if stop.load(Ordering::Relaxed) {
                self.stopped = true;
            }
        }
    }

    #[inline]
    fn is_repetition(&self) -> bool {
        let n = self.path.len();
        let h = self.path[n - 1];
        self.path[self.floor..n - 1].contains(&h)
    }

    /// The evaluation, through the cache: an entry is the hash's upper 48 bits and the value
    /// in the low 16.
    #[inline]
    pub(super) fn static_eval(&mut self, g: &G) -> Value {
        if self.eval_cache.is_empty() {
            return self.eval.evaluate(g).clamp(-EVAL_MAX, EVAL_MAX);
        }
        let h = g.hash();
        let slot = (h as usize) & (self.eval_cache.len() - 1);
        let e = self.eval_cache[slot];
        if e != 0 && (e ^ h) >> 16 == 0 {
            return Value::from(e as u16 as i16);
        }
        let v = self.eval.evaluate(g).clamp(-EVAL_MAX, EVAL_MAX);
        self.eval_cache[slot] = (h & !0xFFFF) | u64::from(v as i16 as u16);
        v
    }

    /// Searches the node reached after a move by `side` (made already) with the window
    /// `(alpha, beta)` of the node before it, and returns its value from `side`'s view.
    #[inline]
    #[allow(clippy::too_many_arguments)]
    fn descend(
        &mut self,
        g: &mut G,
        side: crate::Side,
        depth: i32,
        ply: usize,
        alpha: Value,
        beta: Value,
    ) -> Value {
        if g.side() == side {
            self.alphabeta(g, depth, ply + 1, alpha, beta)
        } else {
            -self.alphabeta(g, depth, ply + 1, -beta, -alpha)
        }
    }

    /// Fail-soft alpha-beta with memory, and the selective search's pruning, reductions
    /// and extension.
    #[allow(clippy::too_many_lines)]
    pub(super) fn alphabeta(
        &mut self,
        g: &mut G,
        mut depth: i32,
        ply: usize,
        mut alpha: Value,
        mut beta: Value,
    ) -> Value {
        self.pv_len[ply] = ply;
        if self.stopped {
            return 0;
        }
        if ply > 0 {
            if let Some(t) = g.terminal() {
                return terminal_value(t, g.side(), ply);
            }
            if self.is_repetition() {
                return 0;
            }
            if ply >= MAX_PLY {
                return self.static_eval(g);
            }
        }
        let in_check = self.selective && g.in_check();
        if in_check && self.config.check_extension && ply < 2 * self.root_depth as usize {
            depth += 1;
        }
        if depth <= 0 {
            return self.quiesce(g, ply, self.config.max_quiescence, alpha, beta);
        }
        let pv_node = beta > alpha + 1;
        let key = g.hash();
        let mut tt_code = NO_MOVE;
        let (mut tt_lower, mut tt_upper) = (-INF, INF);
        let mut tt_eval = None;
        if self.use_table() {
            if let Some(e) = self.table.probe(key) {
                tt_code = e.mv;
                tt_eval = e.eval;
                tt_lower = if e.lower <= -INF {
                    -INF
                } else {
                    from_table(e.lower, ply)
                };
                tt_upper = if e.upper >= INF {
                    INF
                } else {
                    from_table(e.upper, ply)
                };
                if ply > 0 && i32::from(e.depth) >= depth {
                    if tt_lower >= beta || tt_lower == tt_upper {
                        return tt_lower;
                    }
                    if tt_upper <= alpha {
                        return tt_upper;
                    }
                    alpha = alpha.max(tt_lower);
                    beta = beta.min(tt_upper);
                }
            }
        }
        let (alpha0, beta0) = (alpha, beta);
        let mover = g.side();
        let side = mover.index();

        // The static evaluation, for the selective search only (and never in check, where
        // it means little), from the table if it keeps it; bounds from the table sharpen it.
        let raw_eval = if self.selective && !in_check {
            match tt_eval {
                Some(v) if self.config.table_eval => v,
                _ => self.static_eval(g),
            }
        } else {
            NO_EVAL
        };
        // An evaluation the table does not have yet, to be stored with the node.
        let new_eval = (self.config.table_eval && raw_eval != NO_EVAL && tt_eval.is_none())
            .then_some(raw_eval);
        self.frames[ply].eval = raw_eval;
        self.frames[ply].side = mover.0;
        let improving = raw_eval != NO_EVAL && ply >= 2 && {
            let before = &self.frames[ply - 2];
            before.side == mover.0 && before.eval != NO_EVAL && raw_eval > before.eval
        };
        let mut eval = raw_eval;
        if eval != NO_EVAL {
            if tt_lower > eval && tt_lower < WIN_BOUND {
                eval = tt_lower;
            } else if tt_upper < eval && tt_upper > -WIN_BOUND {
                eval = tt_upper;
            }
        }

        if !pv_node && ply > 0 && eval != NO_EVAL && beta.abs() < WIN_BOUND {
            // Reverse futility: far above beta near the horizon.
            if self.config.reverse_futility
                && depth <= RFP_DEPTH
                && eval - RFP_MARGIN * (depth - i32::from(improving)) >= beta
                && eval < WIN_BOUND
            {
                self.keep_eval(key, new_eval);
                return (eval + beta) / 2;
            }
            // Null move: even passing keeps the score above beta.
            if self.config.null_move
                && depth >= NULL_MIN_DEPTH
                && eval >= beta
                && ply >= self.null_floor
                && !self.frames[ply - 1].null
            {
                if let Some(v) = self.null_move(g, depth, ply, beta, eval) {
                    self.keep_eval(key, new_eval);
                    return v;
                }
                if self.stopped {
                    return 0;
                }
            }
        }
        self.frames[ply].null = false;

        // Internal iterative reduction: no move from the table, probably not worth much.
        if self.config.internal_reductions && depth >= IIR_DEPTH && tt_code == NO_MOVE {
            depth -= 1;
        }

        let mut best = -INF;
        let mut best_code = NO_MOVE;
        let mut searched = 0usize;
        let mut quiets = 0usize;
        let mut n_tried = 0usize;
        // Futility: quiet moves cannot lift this node to alpha.
        let futile = self.config.futility
            && ply > 0
            && !in_check
            && eval != NO_EVAL
            && depth <= FUTILITY_DEPTH
            && eval + FUTILITY_BASE + FUTILITY_MARGIN * depth <= alpha
            && alpha.abs() < WIN_BOUND;
        let lmp_limit =
            if self.config.late_move_pruning && ply > 0 && !in_check && depth <= LMP_DEPTH {
                ((3 + depth * depth) / (2 - i32::from(improving))) as usize
            } else {
                usize::MAX
            };
        let mut skip_quiets = false;

        let tt_move = if self.config.table_move && tt_code != NO_MOVE {
            G::move_from_u16(tt_code).filter(|&m| g.is_legal(m))
        } else {
            None
        };
        let counter_code = if self.config.counter_moves && ply > 0 {
            let prev = self.frames[ply - 1].hist;
            if prev == NO_SLOT {
                NO_MOVE
            } else {
                self.counters[side * G::HISTORY_SIZE + prev as usize]
            }
        } else {
            NO_MOVE
        };
        // Staged move generation: the table move, then captures (most valuable victim
        // first), then killers and the counter move, then every other move ordered by
        // history. A node that cuts off early never generates its quiet moves.
        let mut stage = Stage::Table;
        let (mut i, mut n, mut ci, mut cn, mut ki) = (0, 0, 0, 0, 0);
        let mut done = [NO_MOVE; MAX_KILLERS + 1];
        let mut n_done = 0;
        loop {
            let (m, special) = match stage {
                Stage::Table => {
                    stage = if self.config.order_captures {
                        Stage::Captures
                    } else {
                        Stage::Killers
                    };
                    match tt_move {
                        Some(m) => (m, false),
                        None => continue,
                    }
                }
                Stage::Captures => {
                    if ci == 0 && cn == 0 {
                        let buf = &mut self.cbufs[ply];
                        buf.clear();
                        g.generate_captures(buf);
                        cn = buf.len();
                        for j in 0..cn {
                            let key = g.capture_order(self.cbufs[ply][j]);
                            self.ckeys[ply][j] = pack_key(key, j);
                        }
                        if cn == 0 {
                            stage = Stage::Killers;
                            continue;
                        }
                    }
                    if ci >= cn {
                        stage = Stage::Killers;
                        continue;
                    }
                    let keys = &mut self.ckeys[ply][..cn];
                    select_best(keys, ci);
                    let m = self.cbufs[ply][unpack_index(keys[ci])];
                    ci += 1;
                    if Some(m) == tt_move {
                        continue;
                    }
                    (m, false)
                }
                Stage::Killers => {
                    if skip_quiets {
                        stage = Stage::Rest;
                        continue;
                    }
                    let code = if ki < self.config.killers {
                        self.killers[ply][ki]
                    } else if ki == self.config.killers {
                        counter_code
                    } else {
                        stage = Stage::Rest;
                        continue;
                    };
                    ki += 1;
                    if code == NO_MOVE || done[..n_done].contains(&code) {
                        continue;
                    }
                    let Some(m) = G::move_from_u16(code) else {
                        continue;
                    };
                    if Some(m) == tt_move || !g.is_legal(m) || g.is_capture(m) {
                        continue;
                    }
                    done[n_done] = code;
                    n_done += 1;
                    (m, true)
                }
                Stage::Rest => {
                    if i == 0 && n == 0 {
                        if skip_quiets && self.config.order_captures {
                            break; // nothing left but quiet moves, all skipped
                        }
                        let buf = &mut self.bufs[ply];
                        buf.clear();
                        g.generate(buf);
                        n = buf.len();
                        assert!(
                            n <= MAX_MOVES,
                            "too many moves for the search's scratch arrays"
                        );
                        let ordered = self.config.history || self.config.continuation_history;
                        for j in 0..n {
                            let mj = self.bufs[ply][j];
                            let code = G::move_to_u16(mj);
                            let key = if Some(mj) == tt_move
                                || (self.config.order_captures && g.is_capture(mj))
                                || done[..n_done].contains(&code)
                            {
                                i32::MIN
                            } else if ordered {
                                let cont = if self.config.continuation_history {
                                    g.continuation_index(mj) as u32
                                } else {
                                    NO_SLOT
                                };
                                self.quiet_score(side, G::history_index(mj), cont, ply)
                            } else {
                                0
                            };
                            self.keys[ply][j] = pack_key(key, j);
                        }
                        if n == 0 {
                            break;
                        }
                    }
                    if i >= n {
                        break;
                    }
                    let keys = &mut self.keys[ply][..n];
                    if i < SELECTION_PICKS {
                        // The first picks by selection: most nodes cut off early.
                        select_best(keys, i);
                    } else if i == SELECTION_PICKS {
                        keys[i..].sort_unstable_by(|a, b| b.cmp(a));
                    }
                    let k = keys[i];
                    i += 1;
                    if k >> 32 == 0 {
                        continue; // searched in an earlier stage
                    }
                    (self.bufs[ply][unpack_index(k)], false)
                }
            };
            let code = G::move_to_u16(m);
            if ply == 0 && self.skip_root_move(code) {
                continue;
            }
            let quiet = !g.is_capture(m);
            if quiet && searched > 0 && best > -WIN_BOUND {
                if skip_quiets {
                    continue;
                }
                if futile || quiets >= lmp_limit {
                    skip_quiets = true;
                    continue;
                }
            }
            let hist = G::history_index(m);
            let cont = if self.config.continuation_history || self.config.counter_moves {
                g.continuation_index(m) as u32
            } else {
                NO_SLOT
            };
            self.frames[ply].hist = hist as u32;
            self.frames[ply].cont = if self.config.continuation_history {
                cont
            } else {
                NO_SLOT
            };
            let node = NodeKind {
                pv: pv_node,
                in_check,
                improving,
            };
            let v = self.search_move(
                g, m, quiet, special, depth, ply, alpha, beta, searched, node,
            );
            if self.stopped {
                return 0;
            }
            searched += 1;
            if v > best {
                best = v;
                self.update_pv(ply, code);
                if v > alpha {
                    best_code = code;
                    alpha = v;
                    if ply == 0 {
                        self.root_best = Some(m);
                    }
                    if v >= beta {
                        if quiet {
                            let slots = (hist as u32, self.frames[ply].cont);
                            self.reward(side, code, slots, depth, ply, n_tried);
                        }
                        break;
                    }
                }
            }
            if quiet {
                quiets += 1;
                if n_tried < MAX_TRIED {
                    self.tried[ply][n_tried] = (hist as u32, self.frames[ply].cont);
                    n_tried += 1;
                }
            }
        }
        if searched == 0 && best == -INF {
            // Every move was pruned or left out (only root moves can be): fail low.
            best = if eval != NO_EVAL {
                eval.min(alpha)
            } else {
                alpha
            };
        }
        // A root search restricted to some moves does not know the root's value.
        if self.use_table() && !(ply == 0 && self.root_restricted()) {
            let lower = if best > alpha0 {
                to_table(best, ply)
            } else {
                -INF
            };
            let upper = if best < beta0 {
                to_table(best, ply)
            } else {
                INF
            };
            self.table
                .store(key, depth.min(250) as u8, lower, upper, best_code, new_eval);
        }
        best
    }

    /// Stores a node's new static evaluation in the table (a node that returns without
    /// storing bounds).
    #[inline]
    fn keep_eval(&self, key: u64, eval: Option<Value>) {
        if let Some(v) = eval {
            if self.use_table() {
                self.table.store_eval(key, v);
            }
        }
    }

    /// The null move at `ply` (static evaluation `eval` at least `beta`): `Some` value at
    /// least beta when the node fails high.
    #[inline(never)]
    fn null_move(
        &mut self,
        g: &mut G,
        depth: i32,
        ply: usize,
        beta: Value,
        eval: Value,
    ) -> Option<Value> {
        let side = g.side();
        let r = NULL_BASE_REDUCTION
            + depth / NULL_DEPTH_DIVISOR
            + ((eval - beta) / NULL_EVAL_DIVISOR).min(2);
        if !g.make_null() {
            return None;
        }
        self.frames[ply].null = true;
        self.frames[ply].hist = NO_SLOT;
        self.frames[ply].cont = NO_SLOT;
        let saved_floor = self.floor;
        self.floor = self.path.len();
        self.path.push(g.hash());
        let v = self.descend(g, side, depth - 1 - r, ply, beta - 1, beta);
        self.path.pop();
        self.floor = saved_floor;
        g.unmake_null();
        self.frames[ply].null = false;
        if self.stopped || v < beta {
            return None;
        }
        let v = if v >= WIN_BOUND { beta } else { v };
        if depth < NULL_VERIFY_DEPTH || self.null_floor > 0 {
            return Some(v);
        }
        // Deep: verify with a reduced search without null moves near this node.
        self.null_floor = ply + (3 * (depth - r) / 4) as usize;
        let w = self.alphabeta(g, depth - r, ply, beta - 1, beta);
        self.null_floor = 0;
        (!self.stopped && w >= beta).then_some(v)
    }

    /// Searches one move of a node: plain, PVS or reduced first.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn search_move(
        &mut self,
        g: &mut G,
        m: G::Move,
        quiet: bool,
        special: bool,
        depth: i32,
        ply: usize,
        alpha: Value,
        beta: Value,
        searched: usize,
        node: NodeKind,
    ) -> Value {
        let side = g.side();
        let capture = !quiet;
        let undo = g.make(m);
        self.count_node();
        let saved_floor = self.floor;
        if capture {
            self.floor = self.path.len();
        }
        self.path.push(g.hash());
        let zero_window = beta == alpha + 1;
        let new_depth = depth - 1;
        let mut v = 0;
        let mut full = true;
        let mut reduced = false;
        if self.config.late_move_reductions
            && depth >= 3
            && searched > 2 * usize::from(node.pv)
            && quiet
            && !node.in_check
        {
            let mut r = i32::from(self.reductions[depth.min(63) as usize][searched.min(63)]);
            r += i32::from(!node.pv) + i32::from(!node.improving && self.selective);
            r -= i32::from(special);
            if self.config.history || self.config.continuation_history {
                let cont = self.frames[ply].cont;
                r -= self.quiet_score(side.index(), G::history_index(m), cont, ply)
                    / HISTORY_REDUCTION_DIV;
            }
            if g.in_check() {
                r -= 1;
            }
            let r = r.clamp(0, new_depth - 1);
            if r > 0 {
                reduced = true;
                v = self.descend(g, side, new_depth - r, ply, alpha, alpha + 1);
                full = v > alpha && !self.stopped;
            }
        }
        if full && !zero_window && (reduced || (self.config.pvs && searched > 0)) {
            v = self.descend(g, side, new_depth, ply, alpha, alpha + 1);
            full = v > alpha && v < beta && !self.stopped;
        } else if full && reduced {
            // A zero-window node: the re-search at full depth is the last.
        }
        if full {
            v = self.descend(g, side, new_depth, ply, alpha, beta);
        }
        self.path.pop();
        self.floor = saved_floor;
        g.unmake(m, undo);
        v
    }
}

/// A history score of this much takes one ply off a late move's reduction.
const HISTORY_REDUCTION_DIV: i32 = 8_192;

/// Reverse futility pruning: at most this many plies left.
const RFP_DEPTH: i32 = 6;
/// Reverse futility pruning: the margin per ply left.
const RFP_MARGIN: Value = 80;

/// Futility pruning: at most this many plies left.
const FUTILITY_DEPTH: i32 = 5;
/// Futility pruning: the margin's base.
const FUTILITY_BASE: Value = 60;
/// Futility pruning: the margin per ply left.
const FUTILITY_MARGIN: Value = 90;

/// Late move pruning: at most this many plies left.
const LMP_DEPTH: i32 = 6;

/// Null move: at least this many plies left. The reduction is `base + depth / divisor +
/// (eval - beta) / eval divisor (at most 2)`.
const NULL_MIN_DEPTH: i32 = 3;
/// Null move: the reduction's base.
const NULL_BASE_REDUCTION: i32 = 3;
/// Null move: plies left per extra ply of reduction.
const NULL_DEPTH_DIVISOR: i32 = 4;
/// Null move: evaluation over beta per extra ply of reduction (at most 2).
const NULL_EVAL_DIVISOR: Value = 200;
/// Null move: a fail high is verified from this many plies left on.
const NULL_VERIFY_DEPTH: i32 = 10;

/// Internal iterative reductions: at least this many plies left.
const IIR_DEPTH: i32 = 4;

/// Late move reductions by depth and move number: `0.25 + ln(depth) * ln(moves) / 2.25`
/// plies, rounded down.
pub(super) fn reduction_table() -> Box<[[u8; 64]; 64]> {
    let mut t = Box::new([[0u8; 64]; 64]);
    for (d, row) in t.iter_mut().enumerate().skip(1) {
        for (m, r) in row.iter_mut().enumerate().skip(1) {
            let v = 0.25 + (d as f64).ln() * (m as f64).ln() / 2.25;
            *r = v.clamp(0.0, 60.0) as u8;
        }
    }
    t
}
