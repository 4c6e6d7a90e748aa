//! Paranoid search: the root player against the coalition of all the others.

use super::tables::{Bound, Memory, TABLE_BITS, Table};
use super::{Budget, Deepening, INF, MultiEvaluator, MultiGame, MultiResult, deepen};
use crate::limits::Limits;

/// Paranoid search (Sturtevant and Korf, 2000): the player to move at the root maximises
/// his own score, every other player minimises it, and alpha-beta prunes as in a
/// two-player game. Iterative deepening, one ply per move of any player; moves are tried
/// by [`MultiGame::order`], the last iteration's best root move first.
///
/// The value of a position is the root player's entry of the final scores where the game
/// is decided and of the evaluation at the horizon; it equals that of
/// [`super::paranoid_reference`] at the same depth. The distance to a decided position is
/// not scored, but a deeper iteration replaces the best move only by a better one, so a
/// win found at a shallower depth is kept.
///
/// Killer moves and history (by [`MultiGame::move_index`]) break the ties of
/// [`MultiGame::order`]; the transposition table ([`Paranoid::with_table`], on by default
/// where the game gives [`MultiGame::hash`]) puts the best move of an earlier search of a
/// position first and cuts off with a stored value only of the same depth, so that a
/// search to a fixed depth still returns the value of [`super::paranoid_reference`].
pub struct Paranoid<E> {
    eval: E,
    table: bool,
}

struct Run<'a, G: MultiGame, E> {
    eval: &'a E,
    root: usize,
    budget: Budget,
    scratch: G::Moves,
    lists: Vec<Vec<(i64, G::Move)>>,
    /// Whether the iteration met a horizon (a deeper one could change the answer).
    horizon: bool,
    table: Option<Table<G::Move>>,
    memory: Memory<G::Move>,
}

impl<E> Paranoid<E> {
    /// A paranoid search with the evaluator `eval`.
    pub fn new(eval: E) -> Paranoid<E> {
        Paranoid { eval, table: true }
    }

    /// The search with its transposition table on (the default) or off. It is used only
    /// for games that give [`MultiGame::hash`].
    #[must_use]
    pub fn with_table(mut self, on: bool) -> Paranoid<E> {
        self.table = on;
        self
    }

    /// Searches `pos` within `limits` (depth in plies, nodes, time, stop flag) for the
    /// player to move.
    ///
    /// # Panics
    ///
    /// If the game breaks the [`MultiGame`] contract: a player numbered
    /// [`super::MAX_PLAYERS`] or more, or no move in a position that is not decided.
    pub fn search<G>(&mut self, pos: &G, limits: &Limits) -> MultiResult<G::Move>
    where
        G: MultiGame + Clone,
        E: MultiEvaluator<G>,
    {
        let mut g = pos.clone();
        let root = g.to_move();
        let mut run = Run::<G, E> {
            eval: &self.eval,
            root,
            budget: Budget::new(limits),
            scratch: G::Moves::default(),
            lists: Vec::new(),
            horizon: false,
            table: (self.table && g.hash().is_some()).then(|| Table::new(TABLE_BITS)),
            memory: Memory::new(),
        };
        let eval = &self.eval;
        deepen(&mut g, |g| eval.evaluate(g)[root], limits, &mut run)
    }
}

impl<G: MultiGame, E: MultiEvaluator<G>> Run<'_, G, E> {
    /// The paranoid value of `g`, fail-soft within `alpha..beta`; `None` if stopped.
    fn value(&mut self, g: &mut G, depth: u32, alpha: i32, beta: i32, ply: usize) -> Option<i32> {
        if let Some(s) = g.outcome() {
            return Some(s[self.root]);
        }
        if depth == 0 {
            self.horizon = true;
            return Some(self.eval.evaluate(g)[self.root]);
        }
        let key = self.table.as_ref().and_then(|_| g.hash());
        let mut first = None;
        if let Some(e) = self.table.as_ref().zip(key).and_then(|(t, k)| t.probe(k)) {
            if e.cuts(depth, alpha, beta) {
                self.horizon |= e.horizon;
                return Some(e.value);
            }
            first = e.best;
        }
        let outer = core::mem::replace(&mut self.horizon, false);
        let r = self.moves(g, depth, alpha, beta, ply, first);
        let below = self.horizon;
        self.horizon |= outer;
        let (best, best_move) = r?;
        if let (Some(t), Some(k)) = (&mut self.table, key) {
            let bound = if best >= beta {
                Bound::Lower
            } else if best <= alpha {
                Bound::Upper
            } else {
                Bound::Exact
            };
            t.store(k, depth, best, bound, best_move, below);
        }
        Some(best)
    }

    /// The moves of `g`: the best value for the player to move and its move.
    fn moves(
        &mut self,
        g: &mut G,
        depth: u32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        first: Option<G::Move>,
    ) -> Option<(i32, Option<G::Move>)> {
        if self.lists.len() <= ply {
            self.lists.resize_with(ply + 1, Vec::new);
        }
        let mut list = core::mem::take(&mut self.lists[ply]);
        self.memory
            .ordered(g, &mut self.scratch, &mut list, ply, first);
        let player = g.to_move();
        let max = player == self.root;
        let mut best = if max { -INF } else { INF };
        let mut best_move = None;
        let mut out = Some(());
        for &(_, m) in &list {
            if !self.budget.step() {
                out = None;
                break;
            }
            let undo = g.make(m);
            let v = self.value(g, depth - 1, alpha, beta, ply + 1);
            g.unmake(m, undo);
            let Some(v) = v else {
                out = None;
                break;
            };
            if best_move.is_none() || (max && v > best) || (!max && v < best) {
                best = v;
                best_move = Some(m);
            }
            if max {
                alpha = alpha.max(v);
            } else {
                beta = beta.min(v);
            }
            if alpha >= beta {
                self.memory.cut(g, player, m, ply, depth);
                break;
            }
        }
        self.lists[ply] = list;
        out.map(|()| (best, best_move))
    }
}

impl<G: MultiGame, E: MultiEvaluator<G>> Deepening<G> for Run<'_, G, E> {
    fn budget(&mut self) -> &mut Budget {
        &mut self.budget
    }
    fn scratch(&mut self) -> &mut G::Moves {
        &mut self.scratch
    }
    fn clear_horizon(&mut self) {
        self.horizon = false;
    }
    fn met_horizon(&self) -> bool {
        self.horizon
    }
    fn after_root_move(&mut self, g: &mut G, depth: u32, alpha: i32) -> Option<i32> {
        self.value(g, depth, alpha, INF, 1)
    }
}
