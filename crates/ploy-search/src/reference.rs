//! Plain negamax: the slow, obviously correct reference the tests compare the search with.

use crate::game::{Evaluator, SearchGame};
use crate::score::{EVAL_MAX, INF, Score, Value, terminal_value};
use crate::search::MAX_PLY;

/// The exact value of `pos` searched `depth` plies deep by plain negamax, with the same
/// rules as [`crate::Searcher`]: terminal positions score as a win or loss at their distance,
/// a position repeating one on the path (or in `history`) as a draw, and the horizon as
/// the static evaluation, or, when `quiescence` is `Some(q)`, as the minimax value of the
/// stand-pat option and every capture, at most `q` plies deep.
///
/// Returns the value and every root move reaching it (empty for a decided position).
pub fn negamax<G: SearchGame + Clone, E: Evaluator<G>>(
    pos: &G,
    eval: &E,
    history: &[u64],
    depth: u32,
    quiescence: Option<u8>,
) -> (Score, Vec<G::Move>) {
    let mut g = pos.clone();
    let mut path: Vec<u64> = history.to_vec();
    path.push(g.hash());
    let mut r = Reference {
        eval,
        quiescence,
        path,
    };
    if let Some(t) = g.terminal() {
        return (
            Score::from_raw(terminal_value(t, g.side(), 0) as i16),
            Vec::new(),
        );
    }
    let mut moves = G::Moves::default();
    g.generate(&mut moves);
    let mut best = -INF;
    let mut best_moves = Vec::new();
    for &m in moves.iter() {
        let v = r.child(&mut g, m, depth as i32, 0);
        if v > best {
            best = v;
            best_moves.clear();
        }
        if v == best {
            best_moves.push(m);
        }
    }
    (Score::from_raw(best as i16), best_moves)
}

struct Reference<'a, E> {
    eval: &'a E,
    quiescence: Option<u8>,
    path: Vec<u64>,
}

impl<E> Reference<'_, E> {
    fn child<G: SearchGame>(&mut self, g: &mut G, m: G::Move, depth: i32, ply: usize) -> Value
    where
        E: Evaluator<G>,
    {
        let side = g.side();
        let undo = g.make(m);
        self.path.push(g.hash());
        let v = self.value(g, depth - 1, ply + 1);
        self.path.pop();
        let same = g.side() == side;
        g.unmake(m, undo);
        if same { v } else { -v }
    }

    fn value<G: SearchGame>(&mut self, g: &mut G, depth: i32, ply: usize) -> Value
    where
        E: Evaluator<G>,
    {
        if let Some(t) = g.terminal() {
            return terminal_value(t, g.side(), ply);
        }
        let h = self.path[self.path.len() - 1];
        if self.path[..self.path.len() - 1].contains(&h) {
            return 0;
        }
        if ply >= MAX_PLY {
            return self.eval.evaluate(g).clamp(-EVAL_MAX, EVAL_MAX);
        }
        if depth <= 0 {
            return self.qvalue(g, ply, self.quiescence.unwrap_or(0));
        }
        let mut moves = G::Moves::default();
        g.generate(&mut moves);
        let mut best = -INF;
        for &m in moves.iter() {
            best = best.max(self.child(g, m, depth, ply));
        }
        best
    }

    fn qvalue<G: SearchGame>(&mut self, g: &mut G, ply: usize, q: u8) -> Value
    where
        E: Evaluator<G>,
    {
        if let Some(t) = g.terminal() {
            return terminal_value(t, g.side(), ply);
        }
        let mut best = self.eval.evaluate(g).clamp(-EVAL_MAX, EVAL_MAX);
        if q == 0 || ply >= MAX_PLY {
            return best;
        }
        let mut moves = G::Moves::default();
        g.generate_captures(&mut moves);
        for &m in moves.iter() {
            let side = g.side();
            let undo = g.make(m);
            let v = self.qvalue(g, ply + 1, q - 1);
            let v = if g.side() == side { v } else { -v };
            g.unmake(m, undo);
            best = best.max(v);
        }
        best
    }
}
