//! Ploy's share of the win: the mover's expected share in percent from a search score, in
//! every variant, on the generic models of ploy-search ([`two_sided_share`],
//! [`share_against`]).

use ploy_core::{Position, Seat, Variant};
use ploy_search::{Score, share_against, two_sided_share};

/// The mover's expected share of the win in percent in Ploy position `pos`, for `score`,
/// the search's score of `pos` for the side to move (as [`ploy_search::Searcher::search`] reports
/// it for the position): two-sided games by [`two_sided_share`], free-for-all games by the
/// model below, which counts the players still in play.
///
/// # The model
///
/// - **Two sides** (two-player games, partnership teams): a logistic of the score,
///   `100 / (1 + 10^(-score / 400))` ([`two_sided_share`], [`SHARE_SCALE`](ploy_search::SHARE_SCALE)): an even
///   position is 50 %, a lead of 100 (about a shield with the default evaluation) about
///   64 %, a lead of 400 about 91 %.
/// - **More players** ([`share_against`]): the Plackett–Luce (softmax) generalisation: the
///   mover's share is `100 / (1 + Σ_j 10^(-a_j / 400))` over the opponents `j` still in
///   play, where `a_j` is the mover's advantage over opponent `j`. With one opponent this
///   is the two-sided logistic; with `k` opponents all level (`a_j = 0`) it is
///   `100 / (k + 1)`, so players still in play count and eliminated ones do not.
/// - **Ploy free-for-all** ([`win_share`]): the search's score there is the mover against
///   all others together (the paranoid reduction), about −1900 in the start position, which
///   a logistic would read as a certain loss. So the advantage over each opponent `j` is
///   taken from the board and the score: the material of the colours the mover controls
///   minus that of the colours `j` controls (the default evaluation's piece values), plus
///   the part of the score that material does not explain (the score minus the mover's
///   material against everybody else's), shared equally among the opponents in play. With
///   one opponent left this is exactly the score, as in a two-player game. In the start
///   position it gives about 22 % (every player 25 % would be fair: the evaluation counts
///   the others' mobility and placement three times against the mover's once).
/// - A forced win is 100 %, a forced loss 0 %, in every variant.
///
/// The scale is a rule of thumb, not fitted to game results.
///
/// ```
/// use ploy_core::{Position, Rules, Variant};
/// use ploy_engine::win_share;
/// use ploy_search::Score;
/// let two = Position::new();
/// assert_eq!(win_share(&two, Score::new(0)), 50.0);
/// let ffa = Position::start(Variant::FreeForAll, Rules::standard());
/// // About what the search reports for the free-for-all start position.
/// let share = win_share(&ffa, Score::new(-1900));
/// assert!((20.0..25.0).contains(&share), "{share}");
/// assert_eq!(win_share(&ffa, Score::win_in(5)), 100.0);
/// ```
#[must_use]
pub fn win_share(pos: &Position, score: Score) -> f64 {
    if pos.variant() != Variant::FreeForAll || score.is_win() || score.is_loss() {
        return two_sided_share(score);
    }
    seat_share(pos, pos.mover(), score)
}

/// The free-for-all share of `me` for `score`, his score against all the others.
pub(crate) fn seat_share(pos: &Position, me: Seat, score: Score) -> f64 {
    if score.is_win() || score.is_loss() {
        return two_sided_share(score);
    }
    let material = crate::EvalParams::default().material;
    let mut by_colour = [0i32; Seat::NUM];
    for (_, piece) in pos.board().pieces() {
        by_colour[piece.colour().index()] += material[piece.kind().index()];
    }
    let controlled = |seat: Seat| -> i32 {
        Seat::ALL
            .iter()
            .filter(|&&c| pos.controller(c) == seat)
            .map(|c| by_colour[c.index()])
            .sum()
    };
    let mine = controlled(me);
    let others = by_colour.iter().sum::<i32>() - mine;
    let opponents: Vec<Seat> = pos.in_play().iter().filter(|&s| s != me).collect();
    if opponents.is_empty() {
        return two_sided_share(score);
    }
    let rest = f64::from(i32::from(score.raw()) - (mine - others)) / opponents.len() as f64;
    share_against(
        opponents
            .iter()
            .map(|&j| f64::from(mine - controlled(j)) + rest),
    )
}

/// The name of the side to move in `pos`, whose view a search's score takes: the seat of
/// the player who moves, or in a partnership game his team (`green+yellow`, `red+blue`).
pub(crate) fn view_of(pos: &Position) -> &'static str {
    let mover = pos.mover();
    match pos.variant() {
        Variant::Partnership => ["green+yellow", "red+blue"][mover.index() & 1],
        _ => mover.name(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ploy_core::Rules;

    #[test]
    fn two_sides_are_symmetric_and_monotone() {
        let mut last = -1.0;
        for s in (-3000..=3000).step_by(50) {
            let p = two_sided_share(Score::new(s));
            let q = two_sided_share(Score::new(-s));
            assert!((p + q - 100.0).abs() < 1e-9, "{s}");
            assert!(p > last && p > 0.0 && p < 100.0, "{s}: {p}");
            last = p;
        }
    }

    #[test]
    fn level_players_share_equally() {
        for k in 1..=3 {
            let p = share_against(vec![0.0; k]);
            assert!((p - 100.0 / (k as f64 + 1.0)).abs() < 1e-9);
        }
        assert_eq!(share_against([]), 100.0);
        assert_eq!(share_against([f64::INFINITY]), 100.0);
        assert_eq!(share_against([f64::NEG_INFINITY]), 0.0);
    }

    #[test]
    fn free_for_all_counts_the_players_in_play() {
        let pos = Position::start(Variant::FreeForAll, Rules::standard());
        // The material alone, level: a fair quarter.
        let weights = crate::EvalParams::default().material;
        let green: i32 = pos
            .board()
            .pieces()
            .filter(|(_, p)| p.colour() == Seat::Green)
            .map(|(_, p)| weights[p.kind().index()])
            .sum();
        // One colour's material against three: every colour has the same army.
        let material = i16::try_from(-2 * green).expect("a score");
        assert!((win_share(&pos, Score::new(material)) - 25.0).abs() < 1e-9);
        // Better for the mover, a higher share, and monotone in the score.
        let mut last = 0.0;
        for s in (-6000..=3000).step_by(100) {
            let p = win_share(&pos, Score::new(s));
            assert!(p > last, "{s}");
            last = p;
        }
        assert_eq!(win_share(&pos, Score::loss_in(2)), 0.0);
    }
}
