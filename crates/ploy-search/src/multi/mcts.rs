//! Monte-Carlo tree search by UCT.

use super::{MAX_PLAYERS, MultiEvaluator, MultiGame, ScoreVector, ordered_moves};
use crate::game::MoveBuffer;
use crate::limits::Limits;
use crate::rng::splitmix64;
use crate::share::share_against;

/// The settings of [`Mcts`].
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct MctsConfig {
    /// The exploration constant `c` of UCB1: a child is chosen by
    /// `mean reward + c * sqrt(ln(parent visits) / child visits)`, rewards in `0..=1`.
    /// Default 0.7.
    pub exploration: f64,
    /// Random moves played from a new leaf before it is scored: 0 (the default) scores the
    /// leaf by the evaluation at once (the evaluation policy); more plays a random playout
    /// of at most that many moves, scored where it ends.
    pub playout_moves: u32,
    /// The seed of the playouts' random moves; the same seed, position and iteration
    /// budget give the same result.
    pub seed: u64,
    /// The most nodes the tree may hold (each takes about 56 bytes with a small move
    /// type); once full, iterations go on in the tree as it is and score the leaves they
    /// reach without adding nodes. Default 2^20 (about 56 MiB). The root's children are
    /// always added.
    pub max_tree_nodes: usize,
}

impl Default for MctsConfig {
    fn default() -> MctsConfig {
        MctsConfig {
            exploration: 0.7,
            playout_moves: 0,
            seed: 0x5EED,
            max_tree_nodes: 1 << 20,
        }
    }
}

/// What [`Mcts`] answers.
#[derive(Clone, Debug, PartialEq)]
pub struct MctsResult<M> {
    /// The chosen move: a root move found to win at once if there is one, else the most
    /// visited root move that does not lose at once (if every move does, the most
    /// visited), the first in move-ordering order among equals; `None` in a decided
    /// position. With no iteration run, the first move by move ordering.
    pub best_move: Option<M>,
    /// Every root move with its visits, in move-ordering order ([`MultiGame::order`], then
    /// generation order); empty in a decided position.
    pub visits: Vec<(M, u64)>,
    /// Every player's mean reward at the root (his expected share of first place, `0..=1`);
    /// the entries past the game's players are 0.
    pub value: [f64; MAX_PLAYERS],
    /// Iterations run (each one visit of one root move).
    pub iterations: u64,
    /// Moves made, in the tree and in the playouts.
    pub nodes: u64,
}

/// Monte-Carlo tree search by UCT (Kocsis and Szepesvári, 2006) for games of two to four
/// players: each iteration walks down the tree choosing at every node the child best for
/// the player to move there by UCB1 (an untried child first, in [`MultiGame::order`]'s
/// order), adds the first new node, scores it, and adds the score to every node on the way.
///
/// A score is a reward for every player in `0..=1`, his share of first place: in a decided
/// position 1/k for each of the k players with the highest final score, 0 for the others;
/// elsewhere [`share_against`] of his evaluation against the others' (a Plackett–Luce
/// model: the rewards sum to 1). The tree is rebuilt for each search.
pub struct Mcts<E> {
    config: MctsConfig,
    eval: E,
}

struct Node<M> {
    mv: Option<M>,
    first_child: u32,
    children: u32,
    expanded: bool,
    visits: u64,
    /// The sum of the rewards of the iterations through this node.
    reward: [f64; MAX_PLAYERS],
    /// Whether the node's position is decided (every visit then adds the same rewards).
    terminal: bool,
}

impl<M> Node<M> {
    fn mean(&self) -> [f64; MAX_PLAYERS] {
        let mut m = self.reward;
        for r in &mut m {
            *r /= self.visits.max(1) as f64;
        }
        m
    }
}

impl<E> Mcts<E> {
    /// A search with `config` and the evaluator `eval`.
    pub fn new(config: MctsConfig, eval: E) -> Mcts<E> {
        Mcts { config, eval }
    }

    /// The settings.
    #[must_use]
    pub fn config(&self) -> &MctsConfig {
        &self.config
    }

    /// Searches `pos` for the player to move: `iterations` iterations, fewer if `limits`
    /// (nodes, hard time, stop flag; checked between iterations, so the node limit may be
    /// passed by one iteration's moves) ends the search first. Its depth is ignored.
    ///
    /// # Panics
    ///
    /// If the game breaks the [`MultiGame`] contract: a player numbered
    /// [`super::MAX_PLAYERS`] or more, or no move in a position that is not decided.
    pub fn search<G>(&mut self, pos: &G, iterations: u64, limits: &Limits) -> MctsResult<G::Move>
    where
        G: MultiGame + Clone,
        E: MultiEvaluator<G>,
    {
        let start = std::time::Instant::now();
        let mut g = pos.clone();
        let players = g.players().clamp(1, MAX_PLAYERS);
        let root_player = g.to_move();
        let mut rng = self.config.seed;
        let root_outcome = g.outcome().map(|s| terminal_rewards(&s, players));
        let mut tree: Vec<Node<G::Move>> = vec![Node {
            mv: None,
            first_child: 0,
            children: 0,
            expanded: false,
            visits: 0,
            reward: [0.0; MAX_PLAYERS],
            terminal: root_outcome.is_some(),
        }];
        let mut scratch = G::Moves::default();
        let mut list = Vec::new();
        let mut path: Vec<u32> = Vec::new();
        let mut undos: Vec<(G::Move, G::Undo)> = Vec::new();
        let mut made: Vec<(G::Move, G::Undo)> = Vec::new();
        let mut nodes = 0u64;
        let mut done = 0u64;
        let cap = self.config.max_tree_nodes;
        if root_outcome.is_none() {
            expand(&mut tree, 0, &g, &mut scratch, &mut list, usize::MAX);
            while done < iterations {
                if done % 64 == 0 && done > 0 {
                    let stopped = limits
                        .stop
                        .as_ref()
                        .is_some_and(|s| s.load(std::sync::atomic::Ordering::Relaxed));
                    let late = limits.hard_time.is_some_and(|t| start.elapsed() >= t);
                    if stopped || late {
                        break;
                    }
                }
                if limits.nodes.is_some_and(|n| nodes >= n) && done > 0 {
                    break;
                }
                path.clear();
                path.push(0);
                let mut at = 0usize;
                let rewards = loop {
                    if tree[at].terminal {
                        break tree[at].mean();
                    }
                    if !tree[at].expanded
                        && !expand(&mut tree, at, &g, &mut scratch, &mut list, cap)
                    {
                        // The tree is full: score this leaf again.
                        break self.playout(
                            &mut g,
                            players,
                            &mut rng,
                            &mut scratch,
                            &mut made,
                            &mut nodes,
                        );
                    }
                    let mover = g.to_move();
                    let child = self.select(&tree, at, mover);
                    let m = tree[child].mv.expect("a child has a move");
                    let undo = g.make(m);
                    undos.push((m, undo));
                    nodes += 1;
                    path.push(child as u32);
                    at = child;
                    if tree[child].visits == 0 {
                        if let Some(s) = g.outcome() {
                            let r = terminal_rewards(&s, players);
                            tree[child].terminal = true;
                            break r;
                        }
                        break self.playout(
                            &mut g,
                            players,
                            &mut rng,
                            &mut scratch,
                            &mut made,
                            &mut nodes,
                        );
                    }
                };
                for &i in &path {
                    let n = &mut tree[i as usize];
                    n.visits += 1;
                    for (a, r) in n.reward.iter_mut().zip(rewards) {
                        *a += r;
                    }
                }
                while let Some((m, undo)) = undos.pop() {
                    g.unmake(m, undo);
                }
                done += 1;
            }
        }
        let root = &tree[0];
        let kids = root.first_child as usize..(root.first_child + root.children) as usize;
        let visits: Vec<(G::Move, u64)> = tree[kids.clone()]
            .iter()
            .map(|n| (n.mv.expect("a child has a move"), n.visits))
            .collect();
        let wins = |n: &Node<G::Move>| n.terminal && n.mean()[root_player] >= 1.0;
        let loses = |n: &Node<G::Move>| n.terminal && n.mean()[root_player] <= 0.0;
        let children = &tree[kids];
        let best_move = children
            .iter()
            .find(|n| wins(n))
            .or_else(|| most_visited(children.iter().filter(|n| !loses(n))))
            .or_else(|| most_visited(children.iter()))
            .and_then(|n| n.mv);
        let mut value = [0.0; MAX_PLAYERS];
        if let Some(r) = root_outcome {
            value = r;
        } else if root.visits > 0 {
            value = root.mean();
        }
        MctsResult {
            best_move,
            visits,
            value,
            iterations: done,
            nodes,
        }
    }

    /// The child of `at` (expanded, with children) to visit for `mover`: the first untried
    /// one, else the one with the highest UCB1 (the first among equals).
    fn select<M>(&self, tree: &[Node<M>], at: usize, mover: usize) -> usize {
        let node = &tree[at];
        let first = node.first_child as usize;
        let kids = first..first + node.children as usize;
        if let Some(i) = kids.clone().find(|&i| tree[i].visits == 0) {
            return i;
        }
        let log_n = (node.visits.max(1) as f64).ln();
        let mut best = first;
        let mut best_ucb = f64::NEG_INFINITY;
        for i in kids {
            let c = &tree[i];
            let n = c.visits as f64;
            let ucb = c.reward[mover] / n + self.config.exploration * (log_n / n).sqrt();
            if ucb > best_ucb {
                best_ucb = ucb;
                best = i;
            }
        }
        best
    }

    /// Scores the new leaf `g` (not decided): after up to `playout_moves` random moves, by
    /// the final scores or the evaluation. Restores `g`.
    fn playout<G>(
        &self,
        g: &mut G,
        players: usize,
        rng: &mut u64,
        scratch: &mut G::Moves,
        made: &mut Vec<(G::Move, G::Undo)>,
        nodes: &mut u64,
    ) -> [f64; MAX_PLAYERS]
    where
        G: MultiGame,
        E: MultiEvaluator<G>,
    {
        made.clear();
        let mut result = None;
        for _ in 0..self.config.playout_moves {
            if let Some(s) = g.outcome() {
                result = Some(terminal_rewards(&s, players));
                break;
            }
            scratch.clear();
            g.generate(scratch);
            let i = (splitmix64(rng) % scratch.len() as u64) as usize;
            let m = scratch[i];
            let undo = g.make(m);
            *nodes += 1;
            made.push((m, undo));
        }
        let r = result.unwrap_or_else(|| match g.outcome() {
            Some(s) => terminal_rewards(&s, players),
            None => eval_rewards(&self.eval.evaluate(g), players),
        });
        while let Some((m, undo)) = made.pop() {
            g.unmake(m, undo);
        }
        r
    }
}

/// Adds a child for every move of `g` (the position of node `at`), in move-ordering order,
/// unless the tree would then hold more than `cap` nodes; says whether it did.
fn expand<G: MultiGame>(
    tree: &mut Vec<Node<G::Move>>,
    at: usize,
    g: &G,
    scratch: &mut G::Moves,
    list: &mut Vec<(i32, G::Move)>,
    cap: usize,
) -> bool {
    ordered_moves(g, scratch, list);
    if tree.len().saturating_add(list.len()) > cap {
        return false;
    }
    let first = u32::try_from(tree.len()).expect("the tree has fewer than 2^32 nodes");
    for &(_, m) in list.iter() {
        tree.push(Node {
            mv: Some(m),
            first_child: 0,
            children: 0,
            expanded: false,
            visits: 0,
            reward: [0.0; MAX_PLAYERS],
            terminal: false,
        });
    }
    let node = &mut tree[at];
    node.first_child = first;
    node.children = u32::try_from(list.len()).expect("a node has fewer than 2^32 moves");
    node.expanded = true;
    true
}

/// The node with the most visits, the first among equals.
fn most_visited<'a, M: 'a>(nodes: impl Iterator<Item = &'a Node<M>>) -> Option<&'a Node<M>> {
    nodes.fold(None, |best: Option<&Node<M>>, n| match best {
        Some(b) if b.visits >= n.visits => Some(b),
        _ => Some(n),
    })
}

/// 1/k for each of the k players with the highest final score, 0 for the others.
fn terminal_rewards(s: &ScoreVector, players: usize) -> [f64; MAX_PLAYERS] {
    let top = s[..players].iter().copied().max().unwrap_or(0);
    let k = s[..players].iter().filter(|&&v| v == top).count() as f64;
    let mut r = [0.0; MAX_PLAYERS];
    for p in 0..players {
        if s[p] == top {
            r[p] = 1.0 / k;
        }
    }
    r
}

/// Each player's share of first place by [`share_against`] of his evaluation against the
/// others'.
fn eval_rewards(s: &ScoreVector, players: usize) -> [f64; MAX_PLAYERS] {
    let mut r = [0.0; MAX_PLAYERS];
    for p in 0..players {
        let adv = (0..players)
            .filter(|&o| o != p)
            .map(|o| f64::from(s[p]) - f64::from(s[o]));
        r[p] = share_against(adv) / 100.0;
    }
    r
}
