//! Paranoid search: the root player against the coalition of all the others.

use super::{
    Budget, Deepening, INF, MultiEvaluator, MultiGame, MultiResult, deepen, ordered_moves,
};
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
pub struct Paranoid<E> {
    eval: E,
}

struct Run<'a, G: MultiGame, E> {
    eval: &'a E,
    root: usize,
    budget: Budget,
    scratch: G::Moves,
    lists: Vec<Vec<(i32, G::Move)>>,
    /// Whether the iteration met a horizon (a deeper one could change the answer).
    horizon: bool,
}

impl<E> Paranoid<E> {
    /// A paranoid search with the evaluator `eval`.
    pub fn new(eval: E) -> Paranoid<E> {
        Paranoid { eval }
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
        };
        let eval = &self.eval;
        deepen(&mut g, |g| eval.evaluate(g)[root], limits, &mut run)
    }
}

impl<G: MultiGame, E: MultiEvaluator<G>> Run<'_, G, E> {
    /// The paranoid value of `g`, fail-soft within `alpha..beta`; `None` if stopped.
    fn value(
        &mut self,
        g: &mut G,
        depth: u32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
    ) -> Option<i32> {
        if let Some(s) = g.outcome() {
            return Some(s[self.root]);
        }
        if depth == 0 {
            self.horizon = true;
            return Some(self.eval.evaluate(g)[self.root]);
        }
        if self.lists.len() <= ply {
            self.lists.resize_with(ply + 1, Vec::new);
        }
        let mut list = core::mem::take(&mut self.lists[ply]);
        ordered_moves(g, &mut self.scratch, &mut list);
        let max = g.to_move() == self.root;
        let mut best = if max { -INF } else { INF };
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
            if max {
                best = best.max(v);
                alpha = alpha.max(v);
            } else {
                best = best.min(v);
                beta = beta.min(v);
            }
            if alpha >= beta {
                break;
            }
        }
        self.lists[ply] = list;
        out.map(|()| best)
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
