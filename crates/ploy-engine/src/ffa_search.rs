//! The multi-player searches of a free-for-all game as [`crate::Engine`] runs them: one
//! call from a [`Game`] and [`Limits`] to a [`SearchResult`].

use std::time::Instant;

use crate::eval::Evaluation;
use crate::multi::FFA_WIN;
use ploy_core::{Game, Move};
use ploy_search::multi::{
    Brs, MAX_MULTI_DEPTH, Mcts, MctsConfig, MultiGame, MultiResult, Paranoid, SearchKind,
};
use ploy_search::{Info, Limits, Score, SearchResult, share_against};

/// Iterations of Monte-Carlo tree search per ply of a depth limit, when the limits give
/// neither nodes, nor time, nor a stop flag (`go depth 3` is 3,000 iterations).
pub const MCTS_ITERATIONS_PER_DEPTH: u64 = 1_000;

/// Searches the free-for-all `game` (not over) by `kind` on [`crate::FreeForAll`] with
/// `eval`, within `limits`; calls `observer` once, with the result.
pub(crate) fn search(
    kind: SearchKind,
    eval: &Evaluation,
    mcts: &MctsConfig,
    game: &Game,
    limits: &Limits,
    mut observer: impl FnMut(&Info<'_, Move>),
) -> SearchResult<Move> {
    let start = Instant::now();
    let g = eval.free_for_all(game);
    let in_play = game.position().in_play().count().max(2) as usize;
    let root = g.to_move();
    let from_value = |r: MultiResult<Move>| {
        let score = value_score(r.value, r.depth);
        let share = value_share(r.value, in_play);
        (r.best_move, score, share, r.depth, r.nodes)
    };
    let (best_move, score, share, depth, nodes) = match kind {
        SearchKind::Paranoid => from_value(Paranoid::new(eval.clone()).search(&g, limits)),
        SearchKind::Brs => from_value(Brs::new(eval.clone()).search(&g, limits)),
        SearchKind::BrsPlus => from_value(Brs::plus(eval.clone()).search(&g, limits)),
        SearchKind::Mcts => {
            let open = limits.nodes.is_none() && limits.hard_time.is_none();
            let iterations = if open && limits.stop.is_none() {
                MCTS_ITERATIONS_PER_DEPTH
                    * u64::from(limits.depth.unwrap_or(MAX_MULTI_DEPTH).max(1))
            } else {
                u64::MAX
            };
            let r = Mcts::new(*mcts, eval.clone()).search(&g, iterations, limits);
            let share = (r.value[root] * 100.0).clamp(0.0, 100.0);
            let (score, share) = match r.best_move.map(|m| wins_at_once(&g, m, root)) {
                // The mean reward counts the visits of every move; a win is a win.
                Some(true) => (Score::win_in(1), 100.0),
                _ => (share_score(share, in_play), share),
            };
            (
                r.best_move,
                score,
                share,
                u32::from(r.iterations > 0),
                r.nodes,
            )
        }
    };
    let time = start.elapsed();
    let pv: Vec<Move> = best_move.into_iter().collect();
    if depth > 0 {
        let info = Info::new(depth, score, &pv, nodes, time)
            .with_share(share)
            .with_view(game.position().mover().name());
        observer(&info);
    }
    SearchResult {
        best_move,
        score,
        depth,
        pv,
        nodes,
        time,
        interrupted: false,
    }
}

/// Whether `mv` wins the game for `root` at once.
fn wins_at_once(g: &crate::FreeForAll, mv: Move, root: usize) -> bool {
    let mut after = g.clone();
    after.make(mv);
    after.outcome().is_some_and(|s| s[root] >= FFA_WIN)
}

/// The root player's score `v` (see [`Evaluation::every_player_scores`]) as a [`Score`]: a
/// final win or loss as one at `depth` plies, else clamped to the evaluation's range.
fn value_score(v: i32, depth: u32) -> Score {
    let plies = depth.min(Score::MAX_PLY as u32);
    if v >= FFA_WIN {
        Score::win_in(plies)
    } else if v <= -FFA_WIN {
        Score::loss_in(plies)
    } else {
        let e = i32::from(Score::EVAL_MAX);
        Score::new(i16::try_from(v.clamp(-e, e)).expect("clamped"))
    }
}

/// The share of first place (percent) of a player whose score is `v` among `k` players in
/// play, the others level among themselves: his advantage over each is `v * k / (k - 1)`
/// (his score is his material less the mean), read by [`share_against`].
fn value_share(v: i32, k: usize) -> f64 {
    if v >= FFA_WIN {
        return 100.0;
    }
    if v <= -FFA_WIN {
        return 0.0;
    }
    let a = f64::from(v) * k as f64 / (k - 1) as f64;
    share_against(std::iter::repeat_n(a, k - 1))
}

/// The score whose [`value_share`] is `share` percent (Monte-Carlo tree search reports
/// shares).
fn share_score(share: f64, k: usize) -> Score {
    let p = share.clamp(0.01, 99.99) / 100.0;
    let others = (k - 1) as f64;
    let a = -ploy_search::SHARE_SCALE * ((1.0 / p - 1.0) / others).log10();
    let v = (a * others / k as f64).round() as i32;
    value_score(v, 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shares_and_scores_agree() {
        for k in 2..=4 {
            assert!((value_share(0, k) - 100.0 / k as f64).abs() < 1e-9);
            for v in [-500, -200, 0, 150, 500] {
                let back = share_score(value_share(v, k), k);
                assert!((i32::from(back.raw()) - v).abs() <= 1, "{k} {v} {back:?}");
            }
        }
        assert_eq!(value_score(FFA_WIN, 3), Score::win_in(3));
        assert_eq!(value_share(-FFA_WIN, 4), 0.0);
    }
}
