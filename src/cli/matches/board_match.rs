//! Pente and Pyloff games of a match: playing one ([`BoardReport`]), how it ended
//! ([`BoardEnd`]), its line, record and log entry.
//!
//! Game `g` (counting from 0) of a match for `n` players plays opening `g / n` with A in
//! seat `g % n` (seat 0 moves first: White, or player 1); the B players take the other seats
//! in order. With two players this is the pairing of Ploy's matches: each opening once with
//! each colour.

use std::sync::atomic::{AtomicBool, Ordering};

use serde_json::{Value, json};

use super::board_players::BoardPlayer;
use super::boards::{Board, BoardKind, BoardOpening, BoardOpenings, score_text};
use super::placings::{Placing, placings};
use super::player::{Fault, FaultKind, PlayerStats};
use super::schedule::Seats;
use super::{GameResult, Sprt};

/// The schedule and conditions of a Pente or Pyloff match.
#[derive(Clone, Debug, PartialEq)]
pub struct BoardPlan {
    /// The game and its options.
    pub kind: BoardKind,
    /// Number of games (the most, with an SPRT).
    pub games: u32,
    /// The openings.
    pub openings: BoardOpenings,
    /// Moves (opening included) at which a game is stopped: Pente's is then a draw,
    /// Pyloff's is decided by the score.
    pub cap: Option<usize>,
    /// The test that may stop a two-player match early.
    pub sprt: Option<Sprt>,
    /// Games played at once.
    pub jobs: u32,
}

/// How a Pente or Pyloff game of a match ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BoardEnd {
    /// By the rules.
    Rules,
    /// At the cap: a draw in Pente, the score decides in Pyloff.
    Cap,
    /// The player in `seat` gave no legal move: it finishes last.
    Forfeit {
        /// The seat, counting from 0.
        seat: usize,
        /// Why.
        fault: Fault,
    },
}

/// One finished Pente or Pyloff game of a match.
#[derive(Clone, Debug)]
pub struct BoardReport {
    /// Its number, counting from 1.
    pub number: u32,
    /// Its opening's number, counting from 0.
    pub opening_number: u32,
    /// A's seat, counting from 0.
    pub a_seat: usize,
    /// The opening.
    pub opening: BoardOpening,
    /// The game, opening included.
    pub board: Board,
    /// How it ended.
    pub end: BoardEnd,
    /// What A and the B players (added up) did in this game.
    pub stats: [PlayerStats; 2],
}

/// The player (0 for A, 1 and on for the B players in seat order) in `seat` when A has
/// `a_seat`.
#[must_use]
pub fn player_of(seat: usize, a_seat: usize) -> usize {
    match seat.cmp(&a_seat) {
        std::cmp::Ordering::Equal => 0,
        std::cmp::Ordering::Less => seat + 1,
        std::cmp::Ordering::Greater => seat,
    }
}

impl BoardReport {
    /// The players' scores by seat that rank them (see [`Board::scores`]); a player that
    /// forfeited ranks below everyone.
    #[must_use]
    pub fn scores(&self) -> Vec<i64> {
        let mut scores = self.board.scores();
        if let BoardEnd::Forfeit { seat, .. } = &self.end {
            scores[*seat] = i64::MIN;
        }
        scores
    }

    /// Every seat's placing.
    #[must_use]
    pub fn placings(&self) -> Vec<Placing> {
        placings(&self.scores())
    }

    /// A's result in a two-player game: a win alone at the top, a draw when shared.
    #[must_use]
    pub fn result(&self) -> GameResult {
        let share = self.placings()[self.a_seat].share;
        if share >= 1.0 {
            GameResult::Win
        } else if share > 0.0 {
            GameResult::Draw
        } else {
            GameResult::Loss
        }
    }

    /// Who forfeited: 0 for A, 1 for a B player.
    #[must_use]
    pub fn forfeit_side(&self) -> Option<usize> {
        match &self.end {
            BoardEnd::Forfeit { seat, .. } => Some(usize::from(*seat != self.a_seat)),
            _ => None,
        }
    }

    /// How the game ended: `white wins (five)`, `move cap: player 2 wins (score 20 14 9
    /// 11)`, `ply cap`, `B forfeits: illegal move (...)` (in a game for three or four:
    /// `player 3 (B) forfeits: ...`).
    #[must_use]
    pub fn how(&self) -> String {
        let kind = self.board.kind();
        match &self.end {
            BoardEnd::Rules => self.board.outcome_text(),
            BoardEnd::Cap => match &self.board {
                Board::Pente(_) | Board::Ploy(_) => "ply cap".to_owned(),
                Board::Pyloff(g) => format!("move cap: {}", score_text(g.position().scores())),
            },
            BoardEnd::Forfeit { seat, fault } => {
                let side = ["A", "B"][usize::from(*seat != self.a_seat)];
                if kind.players() == 2 {
                    format!("{side} forfeits: {fault}")
                } else {
                    format!("{} ({side}) forfeits: {fault}", kind.seat_name(*seat))
                }
            }
        }
    }

    /// The game's line of the output: `game   1 A plays white : A wins after 57 plies
    /// (white wins (five))`; for three or four players `game   1 A plays player 3: share
    /// 0.50, rank 1.5 after 364 plies (...)`.
    #[must_use]
    pub fn line(&self) -> String {
        let kind = self.board.kind();
        let plies = self.board.plies();
        if kind.players() == 2 {
            let seat = format!("{:<5}", kind.seat_name(self.a_seat));
            let what = match self.result() {
                GameResult::Win => "A wins",
                GameResult::Loss => "B wins",
                GameResult::Draw => "draw",
            };
            format!(
                "game {:3} A plays {seat} : {what} after {plies} plies ({})",
                self.number,
                self.how()
            )
        } else {
            let p = self.placings()[self.a_seat];
            format!(
                "game {:3} A plays {}: share {:.2}, rank {} after {plies} plies ({})",
                self.number,
                kind.seat_name(self.a_seat),
                p.share,
                p.rank,
                self.how()
            )
        }
    }

    /// The seats' names in a record: A's or B's spec.
    fn seat_names(&self, names: [&str; 2]) -> Vec<String> {
        (0..self.board.kind().players())
            .map(|s| names[usize::from(s != self.a_seat)].to_owned())
            .collect()
    }

    /// A's result in words: `A wins`, `draw`; for three or four players `A: share 0.50,
    /// rank 1.5`.
    fn result_words(&self) -> String {
        if self.board.kind().players() == 2 {
            match self.result() {
                GameResult::Win => "A wins",
                GameResult::Loss => "B wins",
                GameResult::Draw => "draw",
            }
            .to_owned()
        } else {
            let p = self.placings()[self.a_seat];
            format!("A: share {:.2}, rank {}", p.share, p.rank)
        }
    }

    /// The game record in the game's own format (the crates' writers): Pente's with the
    /// players as White and Black and the match's facts as headers (`Event`, `Date`,
    /// `TimeControl`, `Opening`, `Termination`), the result a forfeit gives on an
    /// unfinished game, `*` at a cap; Pyloff's with comment lines after the header (the
    /// game's number, who played which seat, the time control, the opening, the result and
    /// why), `result capped` at the cap and `result ongoing` after a forfeit.
    #[must_use]
    pub fn record_text(&self, names: [&str; 2], time_control: &str) -> String {
        let seats = self.seat_names(names);
        let opening = if self.opening.moves.is_empty() {
            "no moves".to_owned()
        } else {
            self.opening.to_line()
        };
        let opening = format!(
            "opening {} ({}, {} plies): {opening}",
            self.opening_number + 1,
            self.opening.source,
            self.opening.moves.len()
        );
        let result = format!("match result: {} ({})", self.result_words(), self.how());
        match &self.board {
            Board::Pente(g) => {
                let mut r = pente::Record::from_game(g, &clean(&seats[0]), &clean(&seats[1]));
                if let BoardEnd::Forfeit { seat, .. } = self.end {
                    r.result = if seat == 0 {
                        pente::GameResult::BlackWins
                    } else {
                        pente::GameResult::WhiteWins
                    };
                }
                for (name, value) in [
                    ("Event", format!("ploy match game {}", self.number)),
                    ("Date", crate::play::today()),
                    ("TimeControl", time_control.to_owned()),
                    ("Opening", opening),
                    ("Termination", result),
                ] {
                    r.tags.push((name.to_owned(), clean(&value)));
                }
                r.to_string()
            }
            Board::Ploy(g) => {
                let mut saved = ploy_sheet::SavedGame::new((**g).clone());
                let h = &mut saved.header;
                h.event = Some(format!("ploy match game {}", self.number));
                h.date = Some(crate::play::today());
                h.time_control = Some(clean(time_control));
                for (seat, name) in ploy_core::Seat::ALL.into_iter().zip(&seats) {
                    h.players.set(seat, Some(clean(name)));
                }
                let record = saved
                    .to_record()
                    .map_or_else(|e| format!("# {e}\n"), |r| r.to_string());
                let (first, rest) = record.split_once('\n').unwrap_or((&record, ""));
                let mut out = format!("{first}\n# ploy match game {}\n", self.number);
                for (seat, name) in seats.iter().enumerate() {
                    let side = if seat == self.a_seat { "A" } else { "B" };
                    let colour = self.board.kind().seat_name(seat);
                    out.push_str(&format!("# {colour}: {side} = {}\n", clean(name)));
                }
                for line in [opening, result] {
                    out.push_str(&format!("# {}\n", clean(&line)));
                }
                out.push_str(rest);
                out
            }
            Board::Pyloff(g) => {
                let mut r = g.record();
                if self.end == BoardEnd::Cap {
                    r.result = pyloff::RecordResult::Capped(pyloff::Outcome::from_scores(
                        g.position().scores(),
                    ));
                }
                let text = r.to_string();
                let (first, rest) = text.split_once('\n').unwrap_or((&text, ""));
                let mut out = format!("{first}\n# ploy match game {}\n", self.number);
                for (seat, name) in seats.iter().enumerate() {
                    let side = if seat == self.a_seat { "A" } else { "B" };
                    out.push_str(&format!(
                        "# player {}: {side} = {}\n",
                        seat + 1,
                        clean(name)
                    ));
                }
                for line in [
                    format!("time control: {time_control}"),
                    format!("date: {}", crate::play::today()),
                    opening,
                    result,
                ] {
                    out.push_str(&format!("# {}\n", clean(&line)));
                }
                out.push_str(rest);
                out
            }
        }
    }

    /// The game's entry in a match log (`--log`): its number, opening, A's seat, the
    /// result (two players: A's `win`, `draw` or `loss`; more: every seat's placing),
    /// who forfeited, the moves' count, how it ended, what A and B did.
    #[must_use]
    pub fn log_entry(&self) -> Value {
        let kind = self.board.kind();
        let mut entry = json!({
            "game": self.number,
            "opening": self.opening.to_line(),
            "a_seat": kind.seat_name(self.a_seat),
            "forfeit": self.forfeit_side().map(|s| ["A", "B"][s]),
            "plies": self.board.plies(),
            "how": self.how(),
            "stats": super::log::stats_json(self.stats),
        });
        if kind.players() == 2 {
            entry["result"] = json!(super::log::result_word(self.result()));
        } else {
            entry["seat"] = json!(self.a_seat + 1);
            entry["scores"] = json!(self.board.scores());
            entry["placings"] = self
                .placings()
                .iter()
                .map(|p| json!({"share": p.share, "rank": p.rank}))
                .collect();
        }
        entry
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

/// A worker's players: A first, then the B players (one for each other seat).
impl Seats for Vec<Box<dyn BoardPlayer>> {
    fn about(&self) -> Vec<Option<String>> {
        self.iter().map(|p| p.about()).collect()
    }
}

/// Plays game `index` (counting from 0) of `plan` between `players` (A, then one B player
/// for each other seat), or `None` if `stop` is raised first.
pub(super) fn play_board_one(
    plan: &BoardPlan,
    index: u32,
    players: &mut [Box<dyn BoardPlayer>],
    stop: &AtomicBool,
) -> Option<BoardReport> {
    let n = plan.kind.players();
    let opening_number = index / n as u32;
    let a_seat = index as usize % n;
    let opening = plan.openings.opening(plan.kind, opening_number);
    let mut board = opening.board(plan.kind);
    let before: Vec<PlayerStats> = players.iter().map(|p| p.stats()).collect();
    let seat_of = |player: usize| {
        (0..n)
            .find(|&s| player_of(s, a_seat) == player)
            .unwrap_or(0)
    };
    let mut fault = None;
    for (i, p) in players.iter_mut().enumerate() {
        if let Err(f) = p.new_game(index + 1) {
            fault = Some((seat_of(i), f));
            break;
        }
    }
    let end = loop {
        if let Some((seat, fault)) = fault.take() {
            break BoardEnd::Forfeit { seat, fault };
        }
        if board.is_over() {
            break BoardEnd::Rules;
        }
        if plan.cap.is_some_and(|cap| board.plies() >= cap) {
            break BoardEnd::Cap;
        }
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        let seat = board.to_move();
        match players[player_of(seat, a_seat)].choose(&board) {
            Ok(mv) => {
                if let Err(e) = board.play(mv) {
                    fault = Some((
                        seat,
                        Fault::new(FaultKind::IllegalMove, format!("`{mv}`: {e}")),
                    ));
                }
            }
            Err(f) => fault = Some((seat, f)),
        }
    };
    let mut stats = [PlayerStats::default(); 2];
    for (i, p) in players.iter().enumerate() {
        stats[usize::from(i > 0)].add(p.stats().since(before[i]));
    }
    Some(BoardReport {
        number: index + 1,
        opening_number,
        a_seat,
        opening,
        board,
        end,
        stats,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seats_go_round() {
        // Four players, A in seat 2: the B players 1, 2, 3 take seats 0, 1, 3.
        let who: Vec<_> = (0..4).map(|s| player_of(s, 2)).collect();
        assert_eq!(who, [1, 2, 0, 3]);
        // Two players: A White in even games, Black in odd ones; B the other.
        assert_eq!((player_of(0, 0), player_of(1, 0)), (0, 1));
        assert_eq!((player_of(0, 1), player_of(1, 1)), (1, 0));
    }
}
