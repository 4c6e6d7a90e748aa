//! One game of a match: playing it between two players ([`GameReport`]), how it ended
//! ([`End`]), and its record.

use std::sync::atomic::{AtomicBool, Ordering};

use ploy_core::{Game, Outcome, Seat, SeatSet};
use ploy_notation::UniversityMove;
use ploy_sheet::{ResultText, SavedGame};

use super::{
    Fault, FaultKind, GameResult, MatchPlan, Opening, Player, PlayerStats, pairing, side_seats,
};

/// How a game of a match ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum End {
    /// By the rules: the game's outcome.
    Rules,
    /// It reached the ply cap: a draw by adjudication.
    PlyCap,
    /// A player gave no legal move and loses: `loser` 0 for A, 1 for B.
    Forfeit {
        /// 0 for A, 1 for B.
        loser: usize,
        /// Why.
        fault: Fault,
    },
}

/// One finished game of a match.
#[derive(Clone, Debug)]
pub struct GameReport {
    /// Its number, counting from 1.
    pub number: u32,
    /// Its pair (opening) number, counting from 0.
    pub pair: u32,
    /// A's seat (its first seat in a four-player game: A plays Green and Yellow, or Red and
    /// Blue).
    pub a_seat: Seat,
    /// The opening.
    pub opening: Opening,
    /// The game, opening included.
    pub game: Game,
    /// How it ended.
    pub end: End,
    /// What A and B did in this game.
    pub stats: [PlayerStats; 2],
}

impl GameReport {
    /// A's seats.
    #[must_use]
    pub fn a_seats(&self) -> SeatSet {
        side_seats(self.game.position().variant(), self.a_seat == Seat::Green)
    }

    /// The result for A.
    #[must_use]
    pub fn result(&self) -> GameResult {
        match &self.end {
            End::Forfeit { loser: 0, .. } => GameResult::Loss,
            End::Forfeit { .. } => GameResult::Win,
            End::PlyCap => GameResult::Draw,
            End::Rules => match self.game.outcome() {
                Some(o @ Outcome::Win { .. }) => {
                    if o.winners().iter().any(|s| self.a_seats().contains(s)) {
                        GameResult::Win
                    } else {
                        GameResult::Loss
                    }
                }
                _ => GameResult::Draw,
            },
        }
    }

    /// How the game ended: the result text (`Red wins, commander captured`), `ply cap`, or
    /// `B forfeits: timed out (no answer within 5.1s)`.
    #[must_use]
    pub fn how(&self) -> String {
        match &self.end {
            End::Rules => ResultText(self.game.outcome()).to_string(),
            End::PlyCap => "ply cap".to_owned(),
            End::Forfeit { loser, fault } => {
                format!("{} forfeits: {fault}", ["A", "B"][*loser])
            }
        }
    }

    /// The game's line of the output.
    #[must_use]
    pub fn line(&self) -> String {
        format!(
            "game {:3} A plays {} : {} after {} plies ({})",
            self.number,
            if self.a_seat == Seat::Green {
                "green"
            } else {
                "red  "
            },
            match self.result() {
                GameResult::Win => "A wins",
                GameResult::Loss => "B wins",
                GameResult::Draw => "draw",
            },
            self.game.moves().len(),
            self.how()
        )
    }

    /// The game with its header for a record or sheet: `names` are A's and B's, written
    /// for their seats; `time_control` as the header's time control. With `with_how` the
    /// event also says how the game ended when the rules did not end it (for a score sheet,
    /// which has no comments).
    #[must_use]
    pub fn saved_game(&self, names: [&str; 2], time_control: &str, with_how: bool) -> SavedGame {
        let mut saved = SavedGame::new(self.game.clone());
        let h = &mut saved.header;
        h.event = Some(clean(&if with_how && self.end != End::Rules {
            format!("ploy match game {}: {}", self.number, self.how())
        } else {
            format!("ploy match game {}", self.number)
        }));
        h.date = Some(crate::play::today());
        h.time_control = Some(clean(time_control));
        let a_seats = self.a_seats();
        for seat in self.game.position().variant().seats().iter() {
            let who = usize::from(!a_seats.contains(seat));
            h.players.set(seat, Some(clean(names[who])));
        }
        saved
    }

    /// The game record's text: the record of [`GameReport::saved_game`] with comment lines
    /// after the first that say the game's number, the players, the opening and the result
    /// with its reason.
    ///
    /// # Errors
    /// A message if the record cannot be written (it always can: texts are cleaned).
    pub fn record_text(&self, names: [&str; 2], time_control: &str) -> Result<String, String> {
        let record = self
            .saved_game(names, time_control, false)
            .to_record()
            .map_err(|e| e.to_string())?
            .to_string();
        let (first, rest) = record.split_once('\n').unwrap_or((&record, ""));
        let a_colour = if self.a_seat == Seat::Green {
            "green"
        } else {
            "red"
        };
        let b_colour = if self.a_seat == Seat::Green {
            "red"
        } else {
            "green"
        };
        let opening = &self.opening;
        let moves = if opening.moves.is_empty() {
            "no moves".to_owned()
        } else {
            super::openings::moves_text(&opening.moves)
        };
        let result = match self.result() {
            GameResult::Win => "A wins",
            GameResult::Loss => "B wins",
            GameResult::Draw => "draw",
        };
        let comments = [
            format!(
                "ploy match game {}: A = {} plays {a_colour}, B = {} plays {b_colour}",
                self.number, names[0], names[1]
            ),
            format!(
                "opening of pair {} ({}, {} plies): {moves}",
                self.pair + 1,
                opening.source,
                opening.moves.len()
            ),
            format!("match result: {result} ({})", self.how()),
        ];
        let mut text = format!("{first}\n");
        for c in comments {
            text.push_str(&format!("# {}\n", clean(&c)));
        }
        text.push_str(rest);
        Ok(text)
    }
}

impl GameReport {
    /// The game's entry in a match log (see [`super::log`]).
    #[must_use]
    pub fn log_entry(&self) -> serde_json::Value {
        serde_json::json!({
            "game": self.number,
            "opening": self.opening.to_line(),
            "a_seat": if self.a_seat == Seat::Green { "green" } else { "red" },
            "result": super::log::result_word(self.result()),
            "forfeit": match self.end {
                End::Forfeit { loser, .. } => Some(["A", "B"][loser]),
                _ => None,
            },
            "plies": self.game.moves().len(),
            "how": self.how(),
            "stats": super::log::stats_json(self.stats),
        })
    }
}

/// `text` fit for a header or comment: control characters become spaces, no white space
/// at the ends, and at most 300 characters.
fn clean(text: &str) -> String {
    let t: String = text
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    crate::cli::excerpt(t.trim(), 300)
}

/// Plays game `index` (counting from 0) of `plan` between `players` (A, B), or `None` if
/// `stop` is raised first.
pub(super) fn play_one(
    plan: &MatchPlan,
    index: u32,
    players: &mut [Box<dyn Player>; 2],
    stop: &AtomicBool,
) -> Option<GameReport> {
    let (pair, a_green) = pairing(index);
    let opening = plan.openings.opening(plan.rules, pair);
    let mut game = opening.game();
    let a_seats = side_seats(game.position().variant(), a_green);
    let before = [players[0].stats(), players[1].stats()];
    let mut end = None;
    for (side, p) in players.iter_mut().enumerate() {
        if let Err(fault) = p.new_game(index + 1) {
            end = Some((side, fault));
            break;
        }
    }
    let end = loop {
        if let Some((loser, fault)) = end.take() {
            break End::Forfeit { loser, fault };
        }
        if game.outcome().is_some() {
            break End::Rules;
        }
        if game.moves().len() >= plan.ply_cap {
            break End::PlyCap;
        }
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        let side = usize::from(!a_seats.contains(game.position().mover()));
        match players[side].choose(&game) {
            Ok(mv) => {
                if let Err(e) = game.play(mv) {
                    end = Some((
                        side,
                        Fault::new(
                            FaultKind::IllegalMove,
                            format!("`{}`: {e}", UniversityMove::from(mv)),
                        ),
                    ));
                }
            }
            Err(fault) => end = Some((side, fault)),
        }
    };
    if let End::Forfeit { loser, fault } = &end {
        // Write the forfeit on the game when the core can end it that way.
        let loser_seats = side_seats(game.position().variant(), (*loser == 0) == a_green);
        let mover = game.position().mover();
        let seat = if loser_seats.contains(mover) {
            Some(mover)
        } else {
            loser_seats
                .iter()
                .find(|&s| game.position().in_play().contains(s))
        };
        if let Some(seat) = seat {
            let mut ended = game.clone();
            let done = if fault.kind == FaultKind::TimedOut {
                ended.forfeit_on_time(seat)
            } else {
                ended.resign(seat)
            };
            if done.is_ok() && ended.outcome().is_some() {
                game = ended;
            }
        }
    }
    Some(GameReport {
        number: index + 1,
        pair,
        a_seat: if a_green { Seat::Green } else { Seat::Red },
        opening,
        game,
        end,
        stats: [
            players[0].stats().since(before[0]),
            players[1].stats().since(before[1]),
        ],
    })
}
