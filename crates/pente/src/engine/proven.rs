//! A proven win kept across moves: once a full-strength search announces a win in `N`
//! plies, the engine remembers the position after its move and the expected line; when it
//! is asked to move again in a position one reply later, it must find a win in at most
//! `N - 2` plies, and looks for one (the stored line's move first) when its search does not.

use ploy_search::Score;

use crate::position::Position;
use crate::types::Move;

use super::Analysis;

/// The win the engine announced with its last move.
#[derive(Clone, Debug)]
pub(super) struct ProvenWin {
    /// The position the engine searched (the engine to move).
    root: Position,
    /// The move it announced the win with.
    mv: Move,
    /// The position after the engine's move (the opponent to move).
    after: Position,
    /// The announced win's length in plies, the engine's move included.
    plies: u32,
    /// The expected line from `after` on: the opponent's reply, the engine's next move, ...
    line: Vec<Move>,
}

/// What a kept win asks of the search of a position one reply after it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Continuation {
    /// The longest win (in plies) the engine may announce now: the last one's minus 2.
    pub bound: u32,
    /// The stored line's move, when the opponent replied as the line expected.
    pub stored: Option<Move>,
}

impl ProvenWin {
    /// The win `analysis` of `pos` announces, if it announces one that the game does not
    /// end with at once.
    pub fn of(pos: &Position, analysis: &Analysis) -> Option<ProvenWin> {
        let plies = analysis.score.plies_to_result()?;
        if !analysis.score.is_win() {
            return None;
        }
        let mv = analysis.best_move?;
        let mut after = pos.clone();
        after.play(mv).ok()?;
        if after.is_over() {
            return None;
        }
        Some(ProvenWin {
            root: pos.clone(),
            mv,
            after,
            plies,
            line: analysis.pv.iter().skip(1).copied().collect(),
        })
    }

    /// The continuation of this win in `pos`, if `pos` is the position after the engine's
    /// move and one reply of the opponent, or the position searched again (a search after
    /// pondering: the same bound, and the announced move).
    pub fn continuation(&self, pos: &Position) -> Option<Continuation> {
        if pos.hash() == self.root.hash() && *pos == self.root {
            return Some(Continuation {
                bound: self.plies,
                stored: Some(self.mv),
            });
        }
        if pos.rules() != self.after.rules()
            || pos.plies() != self.after.plies() + 1
            || self.plies < 3
        {
            return None;
        }
        let reply = self.after.legal_moves().into_iter().find(|&r| {
            let mut p = self.after.clone();
            p.make(r);
            p.hash() == pos.hash() && p == *pos
        })?;
        let stored = if self.line.first() == Some(&reply) {
            self.line.get(1).copied().filter(|&m| pos.is_legal(m))
        } else {
            None
        };
        Some(Continuation {
            bound: self.plies - 2,
            stored,
        })
    }
}

impl Continuation {
    /// Whether `score` keeps the win: a win in at most [`Continuation::bound`] plies.
    pub fn kept_by(&self, score: Score) -> bool {
        score.is_win() && score.plies_to_result().is_some_and(|p| p <= self.bound)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Rules, Size};

    fn line(moves: &str) -> Position {
        let moves: Vec<Move> = moves
            .split_whitespace()
            .map(|m| m.parse().unwrap())
            .collect();
        Position::from_moves(Rules::new(Size::S19), &moves)
            .map_err(|(_, e)| e)
            .unwrap()
    }

    fn mv(s: &str) -> Move {
        s.parse().unwrap()
    }

    #[test]
    fn a_win_continues_one_reply_after_the_move_only() {
        let pos = line("K10 L9 N12");
        let analysis = Analysis {
            best_move: Some(mv("J10")),
            score: Score::win_in(9),
            depth: 9,
            pv: ["J10", "H10", "L10", "M10"].map(mv).to_vec(),
            nodes: 0,
            time: core::time::Duration::ZERO,
            by_threats: false,
        };
        let won = ProvenWin::of(&pos, &analysis).unwrap();
        let expected = line("K10 L9 N12 J10 H10");
        assert_eq!(
            won.continuation(&expected),
            Some(Continuation {
                bound: 7,
                stored: Some(mv("L10"))
            })
        );
        let other = line("K10 L9 N12 J10 A1");
        assert_eq!(
            won.continuation(&other),
            Some(Continuation {
                bound: 7,
                stored: None
            })
        );
        // The position searched again: the same bound, the announced move.
        assert_eq!(
            won.continuation(&pos),
            Some(Continuation {
                bound: 9,
                stored: Some(mv("J10"))
            })
        );
        // Not one reply after the move: the position after it, two replies on, another
        // game.
        assert_eq!(won.continuation(&line("K10 L9 N12 J10")), None);
        assert_eq!(won.continuation(&line("K10 L9 N12 J10 H10 L10")), None);
        assert_eq!(won.continuation(&line("K10 L9 N12 J11 H10")), None);
        let kept = Continuation {
            bound: 7,
            stored: None,
        };
        assert!(kept.kept_by(Score::win_in(7)) && kept.kept_by(Score::win_in(1)));
        assert!(!kept.kept_by(Score::win_in(9)) && !kept.kept_by(Score::new(3_000)));
        assert!(!kept.kept_by(Score::loss_in(2)));
        // Only a win that the game does not end with at once is kept.
        let lost = Analysis {
            score: Score::loss_in(4),
            ..analysis.clone()
        };
        assert!(ProvenWin::of(&pos, &lost).is_none());
        let eval = Analysis {
            score: Score::new(500),
            ..analysis
        };
        assert!(ProvenWin::of(&pos, &eval).is_none());
    }
}
