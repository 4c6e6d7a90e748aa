//! Best-Reply Search and BRS+.

use super::tables::{Bound, Memory, TABLE_BITS, Table};
use super::{Budget, Deepening, INF, MultiEvaluator, MultiGame, MultiResult, deepen, policy_move};
use crate::limits::Limits;

/// What the opponents who do not reply do in a layer of [`Brs`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum BrsPlayers {
    /// They pass ([`MultiGame::make_pass`]): Best-Reply Search as Schadd and Winands
    /// defined it.
    #[default]
    Pass,
    /// They play the move [`MultiGame::order`] ranks first: BRS+ (Esser et al.), which
    /// never searches a position that cannot arise in the game.
    Policy,
}

/// Best-Reply Search (Schadd and Winands, 2011) and BRS+ (Esser et al., 2013): the root
/// player maximises his score; between two of his turns, instead of every opponent moving
/// in turn, exactly one opponent replies, the one whose best reply hurts the root player
/// most, and the others pass ([`BrsPlayers::Pass`]) or play their move ordering's first
/// move ([`BrsPlayers::Policy`]). Each opponent keeps his turn order: those before the
/// replying one act first, those after him act after.
///
/// Depth counts layers: a move of the root player is one, the opponents' layer another.
/// A layer ends when the root player is to move again or when `players - 1` opponents have
/// acted (so a game that left the root player out still comes back to a maximising node
/// after a layer of moves). A decided position met inside a layer is a leaf.
/// Alpha-beta prunes the max layers and the min layers; the value equals that of
/// [`super::brs_reference`] at the same depth. As in [`super::Paranoid`], a deeper
/// iteration replaces the best move only by a better one, so a win found at a shallower
/// depth is kept.
///
/// The moves are tried in the order of [`MultiGame::order`], killer moves and history
/// (by [`MultiGame::move_index`]) breaking its ties; the transposition table
/// ([`Brs::with_table`], on by default where the game gives [`MultiGame::hash`]) puts the
/// best move of an earlier search of a position first, and cuts off with a stored value
/// only of the same depth, so that a search to a fixed depth still returns the value of
/// [`super::brs_reference`].
pub struct Brs<E> {
    eval: E,
    players: BrsPlayers,
    table: bool,
}

struct Run<'a, G: MultiGame, E> {
    eval: &'a E,
    root: usize,
    players: BrsPlayers,
    budget: Budget,
    scratch: G::Moves,
    lists: Vec<Vec<(i64, G::Move)>>,
    horizon: bool,
    table: Option<Table<G::Move>>,
    memory: Memory<G::Move>,
}

impl<E> Brs<E> {
    /// Best-Reply Search (the other opponents pass) with the evaluator `eval`.
    pub fn new(eval: E) -> Brs<E> {
        Brs {
            eval,
            players: BrsPlayers::Pass,
            table: true,
        }
    }

    /// BRS+ (the other opponents play their move ordering's first move) with `eval`.
    pub fn plus(eval: E) -> Brs<E> {
        Brs {
            eval,
            players: BrsPlayers::Policy,
            table: true,
        }
    }

    /// The search with its transposition table on (the default) or off. It is used only
    /// for games that give [`MultiGame::hash`].
    #[must_use]
    pub fn with_table(mut self, on: bool) -> Brs<E> {
        self.table = on;
        self
    }

    /// What the opponents who do not reply do.
    #[must_use]
    pub fn players(&self) -> BrsPlayers {
        self.players
    }

    /// Searches `pos` within `limits` (depth in layers, nodes, time, stop flag) for the
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
            players: self.players,
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
    /// The value of `g` at the start of a layer, fail-soft within `alpha..beta`; `None` if
    /// stopped.
    fn node(&mut self, g: &mut G, depth: u32, alpha: i32, beta: i32, ply: usize) -> Option<i32> {
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
        let r = if g.to_move() != self.root {
            let mut best = INF;
            let mut beta = beta;
            self.layer(g, depth, alpha, &mut beta, &mut best, 0, false, ply)
                .map(|()| (best, None))
        } else {
            self.max_node(g, depth, alpha, beta, ply, first)
        };
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

    /// The root player's layer: his best move's value and the move.
    fn max_node(
        &mut self,
        g: &mut G,
        depth: u32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        first: Option<G::Move>,
    ) -> Option<(i32, Option<G::Move>)> {
        if self.lists.len() <= ply {
            self.lists.resize_with(ply + 1, Vec::new);
        }
        let mut list = core::mem::take(&mut self.lists[ply]);
        self.memory
            .ordered(g, &mut self.scratch, &mut list, ply, first);
        let mut best = -INF;
        let mut best_move = None;
        let mut out = Some(());
        for &(_, m) in &list {
            if !self.budget.step() {
                out = None;
                break;
            }
            let undo = g.make(m);
            let v = self.node(g, depth - 1, alpha, beta, ply + 1);
            g.unmake(m, undo);
            let Some(v) = v else {
                out = None;
                break;
            };
            if v > best || best_move.is_none() {
                best = v;
                best_move = Some(m);
            }
            alpha = alpha.max(v);
            if alpha >= beta {
                self.memory.cut(g, self.root, m, ply, depth);
                break;
            }
        }
        self.lists[ply] = list;
        out.map(|()| (best, best_move))
    }

    /// Walks the opponents' layer from its `step`-th action: `replied` says whether an
    /// opponent has replied yet. Lowers `best` (and `beta`) to every line's value; stops
    /// early once `best <= alpha`. `None` if stopped.
    #[allow(clippy::too_many_arguments)]
    fn layer(
        &mut self,
        g: &mut G,
        depth: u32,
        alpha: i32,
        beta: &mut i32,
        best: &mut i32,
        step: usize,
        replied: bool,
        ply: usize,
    ) -> Option<()> {
        if let Some(s) = g.outcome() {
            *best = (*best).min(s[self.root]);
            *beta = (*beta).min(*best);
            return Some(());
        }
        if g.to_move() == self.root || step + 1 >= g.players() {
            if replied {
                let v = self.node(g, depth - 1, alpha, *beta, ply)?;
                *best = (*best).min(v);
                *beta = (*beta).min(*best);
            }
            return Some(());
        }
        if !replied {
            if self.lists.len() <= ply {
                self.lists.resize_with(ply + 1, Vec::new);
            }
            let mut list = core::mem::take(&mut self.lists[ply]);
            self.memory
                .ordered(g, &mut self.scratch, &mut list, ply, None);
            let player = g.to_move();
            let mut out = Some(());
            for &(_, m) in &list {
                if *best <= alpha {
                    break;
                }
                if !self.budget.step() {
                    out = None;
                    break;
                }
                let undo = g.make(m);
                let r = self.layer(g, depth, alpha, beta, best, step + 1, true, ply + 1);
                g.unmake(m, undo);
                if r.is_none() {
                    out = None;
                    break;
                }
                if *best <= alpha {
                    self.memory.cut(g, player, m, ply, depth);
                }
            }
            self.lists[ply] = list;
            out?;
        }
        // This opponent does not reply; if nobody has and the layer ends after him,
        // the line has no reply and is no line.
        if *best <= alpha || (!replied && step + 2 >= g.players()) {
            return Some(());
        }
        if !self.budget.step() {
            return None;
        }
        match self.players {
            BrsPlayers::Pass => {
                g.make_pass();
                let r = self.layer(g, depth, alpha, beta, best, step + 1, replied, ply + 1);
                g.unmake_pass();
                r
            }
            BrsPlayers::Policy => {
                let m = policy_move(g, &mut self.scratch)
                    .expect("a position that is not decided has a move");
                let undo = g.make(m);
                let r = self.layer(g, depth, alpha, beta, best, step + 1, replied, ply + 1);
                g.unmake(m, undo);
                r
            }
        }
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
        self.node(g, depth, alpha, INF, 1)
    }
}
