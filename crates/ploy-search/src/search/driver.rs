//! The root driver: iterative deepening over MTD(f) or aspiration windows, the limits'
//! budget, the root moves searched and the principal variation kept.

use super::{Driver, Info, MAX_DEPTH, POLL_INTERVAL, SearchResult, Searcher, Task, nps};
use crate::game::{Evaluator, SearchGame};
use crate::score::{INF, Score, Value, WIN_BOUND, terminal_value};
use crate::table::NO_MOVE;
use std::sync::atomic::Ordering;
use std::time::Duration;

impl<G: SearchGame + Clone, E: Evaluator<G>> Searcher<G, E> {
    /// The search of one thread: [`Searcher::search_with`] on this thread alone, or the
    /// main thread's or a helper's part of a search with several (`self.link`).
    pub(super) fn search_one(
        &mut self,
        task: &Task<'_, G>,
        mut observer: impl FnMut(&Info<'_, G::Move>),
    ) -> SearchResult<G::Move> {
        let (limits, options) = (task.limits, task.options);
        let mut g = task.pos.clone();
        for h in &mut self.history {
            *h /= 8;
        }
        for h in &mut self.continuation {
            *h /= 8;
        }
        self.selective = self.config.is_selective();
        self.null_floor = 0;
        self.path.clear();
        self.path.extend_from_slice(task.history);
        self.path.push(g.hash());
        self.floor = 0;
        self.nodes = 0;
        self.stopped = false;
        self.node_limit = self.first_allowance(limits.nodes);
        self.next_check = POLL_INTERVAL.min(self.node_limit);
        self.start = self.clock.now();
        self.budget_start = self.start;
        self.hard = limits.hard_time;
        self.stop = limits.stop.clone();
        self.ponder = options.ponder.clone();

        let mut result = SearchResult {
            best_move: None,
            score: Score::DRAW,
            depth: 0,
            pv: Vec::new(),
            nodes: 0,
            time: Duration::ZERO,
            interrupted: false,
        };
        if let Some(t) = g.terminal() {
            result.score = Score::from_raw(terminal_value(t, g.side(), 0) as i16);
            return result;
        }
        // The root moves to search: the legal ones of `options.root_moves`, or all.
        self.root_only.clear();
        self.root_only.extend(
            options
                .root_moves
                .iter()
                .filter(|&&m| g.is_legal(m))
                .map(|&m| G::move_to_u16(m)),
        );
        self.root_only.sort_unstable();
        self.root_only.dedup();
        self.root_excluded.clear();
        let root_count = if self.root_only.is_empty() {
            let mut moves = G::Moves::default();
            g.generate(&mut moves);
            moves.len()
        } else {
            self.root_only.len()
        };
        let lines = options.lines.clamp(1, root_count.max(1));
        result.best_move = self.fallback_move(&g);
        if self.node_limit == 0 {
            result.interrupted = true;
            self.end_search();
            return result;
        }
        // A mate search must not miss a defence: no reductions, and no deeper than asked.
        let saved_config = self.config.clone();
        let mut max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        if let Some(plies) = options.mate_plies {
            self.config = self.config.clone().without_selectivity();
            self.selective = false;
            max_depth = max_depth.min(plies.max(1));
        }
        // Scores by line, iteration after iteration (for MTD(f)'s first guesses).
        let mut scores: Vec<Vec<Value>> = vec![Vec::new(); lines];
        // The budget's time at the end of each completed iteration (fitted iterations).
        let mut ends: Vec<Duration> = Vec::new();
        'deepen: for depth in 1..=max_depth {
            if self.skips_depth(depth) {
                continue;
            }
            if depth > 1 {
                let aim = match (limits.soft_time, limits.hard_time) {
                    (Some(soft), Some(hard)) => Some(soft.saturating_mul(2).min(hard)),
                    (Some(soft), None) => Some(soft.saturating_mul(2)),
                    (None, hard) => hard,
                };
                if let (true, Some(aim)) = (options.fit_iterations, aim) {
                    if let Some(used) = self.budget_used() {
                        if used.saturating_add(next_iteration(&ends)) > aim {
                            break;
                        }
                    }
                } else if let (Some(soft), Some(used)) = (limits.soft_time, self.budget_used()) {
                    if used >= soft {
                        break;
                    }
                }
            }
            self.root_excluded.clear();
            self.root_depth = depth as i32;
            for line in 0..lines {
                self.root_best = None;
                self.root_pv.clear();
                let history = &scores[line];
                let guess = match history.len() {
                    0 if line > 0 => scores[line - 1].last().copied(),
                    0 => None,
                    n if n >= 2 && self.config.guess_from_same_parity => Some(history[n - 2]),
                    n => Some(history[n - 1]),
                };
                let value = match self.config.driver {
                    Driver::AlphaBeta => self.aspiration(&mut g, depth as i32, guess),
                    Driver::Mtdf => self.mtdf(&mut g, depth as i32, guess.unwrap_or(0)),
                };
                if self.stopped {
                    result.interrupted = true;
                    break 'deepen;
                }
                scores[line].push(value);
                let score = Score::from_raw(value as i16);
                let pv = self.root_line();
                let best = self.root_best.or_else(|| pv.first().copied());
                if let Some(mv) = best {
                    self.root_excluded.push(G::move_to_u16(mv));
                }
                if line == 0 {
                    if best.is_some() {
                        result.best_move = best;
                    }
                    result.score = score;
                    result.depth = depth;
                    result.pv.clone_from(&pv);
                }
                let time = self.elapsed();
                let info = Info {
                    depth,
                    score,
                    view: g.view(),
                    share: g.win_share(score),
                    multipv: (lines > 1).then_some(line as u32 + 1),
                    best_move: best,
                    pv: &pv,
                    nodes: self.total_nodes(),
                    nps: nps(self.total_nodes(), time),
                    time,
                    table_fill: if self.use_table() {
                        self.table.fill_permille()
                    } else {
                        0
                    },
                };
                observer(&info);
            }
            if options.fit_iterations {
                if let Some(used) = self.budget_used() {
                    ends.push(used);
                }
            }
            let value = scores[0][scores[0].len() - 1];
            if let Some(plies) = options.mate_plies {
                if value >= WIN_BOUND && result.score.plies_to_result().is_some_and(|p| p <= plies)
                {
                    break;
                }
            }
            // A forced result within the searched depth is exact unless selectivity may
            // have hidden a defence.
            let exact = !self.selective || depth <= 2;
            if self.config.stop_at_proven_result
                && exact
                && value.abs() >= WIN_BOUND
                && result.score.plies_to_result().is_some_and(|p| p <= depth)
            {
                break;
            }
            if self.nodes >= self.node_limit && !self.more_nodes() {
                break;
            }
        }
        self.config = saved_config;
        self.end_search();
        result.nodes = self.nodes;
        result.time = self.elapsed();
        result
    }

    /// Forgets the per-search root restrictions and flags.
    fn end_search(&mut self) {
        self.root_only.clear();
        self.root_excluded.clear();
        self.ponder = None;
    }

    /// Time counted against the budget: since the start, or while pondering none (`None`)
    /// until the ponder flag is raised, and from then on.
    pub(super) fn budget_used(&mut self) -> Option<Duration> {
        if let Some(flag) = &self.ponder {
            if !flag.load(Ordering::Relaxed) {
                return None;
            }
            self.ponder = None;
            self.budget_start = self.clock.now();
        }
        Some(self.clock.now().saturating_sub(self.budget_start))
    }

    /// Whether root move `code` is left out of this root search (kept out of line: the
    /// hot loop only pays for the `ply == 0` test).
    #[inline(never)]
    pub(super) fn skip_root_move(&self, code: u16) -> bool {
        !self.root_move_searched(code)
    }

    /// Whether this root search leaves some moves out.
    #[inline(never)]
    pub(super) fn root_restricted(&self) -> bool {
        !(self.root_only.is_empty() && self.root_excluded.is_empty())
    }

    /// Whether root move `code` is searched in this root search.
    // `any` rather than `contains`: one more caller of `<[u16]>::contains` made the
    // compiler stop inlining it in the hot move loop (1.5 % more instructions, callgrind).
    #[allow(clippy::manual_contains)]
    fn root_move_searched(&self, code: u16) -> bool {
        (self.root_only.is_empty() || self.root_only.binary_search(&code).is_ok())
            && !self.root_excluded.iter().any(|&c| c == code)
    }

    fn elapsed(&self) -> Duration {
        self.clock.now().saturating_sub(self.start)
    }

    /// A legal move to answer with if not even the first iteration completes (one of the
    /// root moves the search may play).
    fn fallback_move(&self, g: &G) -> Option<G::Move> {
        let allowed = |m: G::Move| self.root_move_searched(G::move_to_u16(m));
        if self.use_table() && self.config.table_move {
            if let Some(e) = self.table.probe(g.hash()) {
                if let Some(m) = G::move_from_u16(e.mv) {
                    if e.mv != NO_MOVE && g.is_legal(m) && allowed(m) {
                        return Some(m);
                    }
                }
            }
        }
        let mut caps = G::Moves::default();
        g.generate_captures(&mut caps);
        if let Some(&m) = caps
            .iter()
            .filter(|&&m| allowed(m))
            .max_by_key(|&&m| g.capture_order(m))
        {
            return Some(m);
        }
        let mut moves = G::Moves::default();
        g.generate(&mut moves);
        moves.iter().copied().find(|&m| allowed(m))
    }

    /// Copies the root's line (row 0 of the table) as the iteration's principal variation.
    fn save_root_pv(&mut self) {
        self.root_pv.clear();
        self.root_pv
            .extend_from_slice(&self.pv_table[0][..self.pv_len[0]]);
    }

    /// The saved root line as moves (it starts with the best move of the iteration).
    fn root_line(&self) -> Vec<G::Move> {
        self.root_pv
            .iter()
            .map_while(|&code| G::move_from_u16(code))
            .collect()
    }

    fn mtdf(&mut self, g: &mut G, depth: i32, guess: Value) -> Value {
        let (mut lower, mut upper) = (-INF, INF);
        let mut f = guess.clamp(-INF + 1, INF - 1);
        let mut passes = 0;
        let cap = match self.config.mtdf_max_passes {
            0 => 64,
            n => u32::from(n).min(64),
        };
        while lower < upper {
            let beta = if f == lower { f + 1 } else { f };
            f = self.alphabeta(g, depth, 0, beta - 1, beta);
            if self.stopped {
                return f;
            }
            if f < beta {
                upper = f;
            } else {
                lower = f;
                // A pass that fails high sets the best move: its line is the iteration's.
                self.save_root_pv();
            }
            passes += 1;
            if lower < upper && (passes >= cap || lower > upper) {
                // Not converged: one search with the window between the bounds settles
                // the value (the full window after a contradiction).
                let (alpha, beta) = if lower > upper {
                    (-INF, INF)
                } else {
                    (lower - 1, upper + 1)
                };
                let v = self.alphabeta(g, depth, 0, alpha, beta);
                if !self.stopped {
                    self.save_root_pv();
                }
                return v;
            }
        }
        f
    }

    /// One iteration of the alpha-beta driver: a window of [`Config::aspiration_window`]
    /// around `guess`, widened until the score falls inside (or the full window).
    fn aspiration(&mut self, g: &mut G, depth: i32, guess: Option<Value>) -> Value {
        let width = Value::from(self.config.aspiration_window);
        let guess = match guess {
            Some(v) if width > 0 && depth >= 3 && v.abs() < WIN_BOUND => v,
            _ => {
                let v = self.alphabeta(g, depth, 0, -INF, INF);
                if !self.stopped {
                    self.save_root_pv();
                }
                return v;
            }
        };
        let mut delta = width;
        let (mut alpha, mut beta) = (guess - delta, guess + delta);
        loop {
            let v = self.alphabeta(g, depth, 0, alpha, beta);
            if self.stopped {
                return v;
            }
            if v <= alpha {
                beta = (alpha + beta) / 2;
                alpha = (v - delta).max(-INF);
            } else if v >= beta {
                // The move that failed high is the best so far.
                self.save_root_pv();
                beta = (v + delta).min(INF);
            } else {
                self.save_root_pv();
                return v;
            }
            delta = delta.saturating_mul(2);
            if delta > ASPIRATION_LIMIT {
                alpha = -INF;
                beta = INF;
            }
        }
    }
}

/// Aspiration windows wider than this become the full window.
const ASPIRATION_LIMIT: Value = 1_000;

/// The expected time of the next iteration from the budget's times at the end of the
/// completed ones ([`crate::SearchOptions::fit_iterations`]): the last one's time times its
/// growth over the one before, the growth between 1.5 and 4, and 2 until three iterations
/// are timed (the first ones are too short to tell).
pub(super) fn next_iteration(ends: &[Duration]) -> Duration {
    let took = |i: usize| ends[i].saturating_sub(if i == 0 { Duration::ZERO } else { ends[i - 1] });
    match ends.len() {
        0 => Duration::ZERO,
        1 | 2 => took(ends.len() - 1) * 2,
        n => {
            let (last, before) = (took(n - 1).as_secs_f64(), took(n - 2).as_secs_f64());
            let growth = if before > 0.0 {
                (last / before).clamp(1.5, 4.0)
            } else {
                4.0
            };
            Duration::from_secs_f64(last * growth)
        }
    }
}
