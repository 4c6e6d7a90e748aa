//! Plain paranoid minimax and plain Best-Reply Search without pruning: the slow, obviously
//! correct references the tests compare [`super::Paranoid`] and [`super::Brs`] with.

use super::{BrsPlayers, MultiEvaluator, MultiGame, policy_move};

/// The paranoid value of `pos` for the player to move, searched `depth` plies by plain
/// minimax (he maximises his score, every other player minimises it), and every root move
/// reaching it (empty in a decided position). Final scores where the game is decided, the
/// evaluation at the horizon.
pub fn paranoid_reference<G, E>(pos: &G, eval: &E, depth: u32) -> (i32, Vec<G::Move>)
where
    G: MultiGame + Clone,
    E: MultiEvaluator<G>,
{
    let mut g = pos.clone();
    let root = g.to_move();
    if let Some(s) = g.outcome() {
        return (s[root], Vec::new());
    }
    let mut moves = G::Moves::default();
    g.generate(&mut moves);
    let values: Vec<(i32, G::Move)> = moves
        .iter()
        .map(|&m| {
            let undo = g.make(m);
            let v = paranoid(&mut g, eval, root, depth.saturating_sub(1));
            g.unmake(m, undo);
            (v, m)
        })
        .collect();
    best_of(&values)
}

fn paranoid<G: MultiGame, E: MultiEvaluator<G>>(
    g: &mut G,
    eval: &E,
    root: usize,
    depth: u32,
) -> i32 {
    if let Some(s) = g.outcome() {
        return s[root];
    }
    if depth == 0 {
        return eval.evaluate(g)[root];
    }
    let mut moves = G::Moves::default();
    g.generate(&mut moves);
    let max = g.to_move() == root;
    let values = moves.iter().map(|&m| {
        let undo = g.make(m);
        let v = paranoid(g, eval, root, depth - 1);
        g.unmake(m, undo);
        v
    });
    if max { values.max() } else { values.min() }
        .expect("a position that is not decided has a move")
}

/// The Best-Reply Search value of `pos` for the player to move, searched `depth` layers by
/// the plain recursion (see [`super::Brs`] for the layers and for what `players` means),
/// and every root move reaching it (empty in a decided position).
///
/// An opponents' layer is searched as the minimum, over which of its actions `k` is the
/// reply, of the lines in which action `k` is every move of its player and every other
/// action is a pass or a policy move; a `k` past the layer's end gives no line.
pub fn brs_reference<G, E>(
    pos: &G,
    eval: &E,
    depth: u32,
    players: BrsPlayers,
) -> (i32, Vec<G::Move>)
where
    G: MultiGame + Clone,
    E: MultiEvaluator<G>,
{
    let mut g = pos.clone();
    let r = Reference {
        eval,
        root: g.to_move(),
        players,
    };
    if let Some(s) = g.outcome() {
        return (s[r.root], Vec::new());
    }
    let mut moves = G::Moves::default();
    g.generate(&mut moves);
    let values: Vec<(i32, G::Move)> = moves
        .iter()
        .map(|&m| {
            let undo = g.make(m);
            let v = r.node(&mut g, depth.saturating_sub(1));
            g.unmake(m, undo);
            (v, m)
        })
        .collect();
    best_of(&values)
}

struct Reference<'a, E> {
    eval: &'a E,
    root: usize,
    players: BrsPlayers,
}

impl<E> Reference<'_, E> {
    fn node<G: MultiGame>(&self, g: &mut G, depth: u32) -> i32
    where
        E: MultiEvaluator<G>,
    {
        if let Some(s) = g.outcome() {
            return s[self.root];
        }
        if depth == 0 {
            return self.eval.evaluate(g)[self.root];
        }
        let mut moves = G::Moves::default();
        g.generate(&mut moves);
        if g.to_move() == self.root {
            let mut best = i32::MIN;
            for &m in moves.iter() {
                let undo = g.make(m);
                best = best.max(self.node(g, depth - 1));
                g.unmake(m, undo);
            }
            best
        } else {
            (0..g.players() - 1)
                .filter_map(|k| self.layer(g, depth, k, 0))
                .min()
                .expect("the first action of a layer can reply")
        }
    }

    /// The least value of the lines of a layer in which action `k` replies, from action
    /// `step`; `None` if the layer ends before action `k`.
    fn layer<G: MultiGame>(&self, g: &mut G, depth: u32, k: usize, step: usize) -> Option<i32>
    where
        E: MultiEvaluator<G>,
    {
        if let Some(s) = g.outcome() {
            return Some(s[self.root]);
        }
        if g.to_move() == self.root || step + 1 >= g.players() {
            return (step > k).then(|| self.node(g, depth - 1));
        }
        if step == k {
            let mut moves = G::Moves::default();
            g.generate(&mut moves);
            let mut best: Option<i32> = None;
            for &m in moves.iter() {
                let undo = g.make(m);
                let v = self.layer(g, depth, k, step + 1);
                g.unmake(m, undo);
                best = match (best, v) {
                    (Some(a), Some(b)) => Some(a.min(b)),
                    (a, b) => a.or(b),
                };
            }
            return best;
        }
        match self.players {
            BrsPlayers::Pass => {
                g.make_pass();
                let v = self.layer(g, depth, k, step + 1);
                g.unmake_pass();
                v
            }
            BrsPlayers::Policy => {
                let mut moves = G::Moves::default();
                let m =
                    policy_move(g, &mut moves).expect("a position that is not decided has a move");
                let undo = g.make(m);
                let v = self.layer(g, depth, k, step + 1);
                g.unmake(m, undo);
                v
            }
        }
    }
}

fn best_of<M: Copy>(values: &[(i32, M)]) -> (i32, Vec<M>) {
    let best = values
        .iter()
        .map(|&(v, _)| v)
        .max()
        .expect("at least one move");
    (
        best,
        values
            .iter()
            .filter(|&&(v, _)| v == best)
            .map(|&(_, m)| m)
            .collect(),
    )
}
