//! Timers: the `-deadline` and `-reminder` options, reminders and forfeits on time (and
//! the lapse of invitations, in `invitations.rs`).

use super::Service;
use super::error::ApiError;
use super::invitations::INVITATION_LAPSE;
use super::replay::turn_since;
use crate::auth::BOT;
use crate::game::excerpt;
use crate::store::{EndKind, Ending, GameRow, Job, Note, OfferChange, Source, Write, WriteError};

impl Service {
    /// Applies every timer due now: reminders, forfeits on time, and invitations that
    /// lapse. Returns the boards changed. On PostgreSQL, when another process is sweeping
    /// at this moment, does nothing (that process applies them).
    ///
    /// # Errors
    /// Storage failure.
    pub fn sweep_timers(&self) -> Result<Vec<i64>, ApiError> {
        // On a shared database one process at a time sweeps; the others skip this round
        // (every write checks the game's revision anyway, so a timer never fires twice).
        self.store
            .exclusive(Job::Timers, || self.sweep_timers_now())?
            .unwrap_or_else(|| Ok(Vec::new()))
    }

    fn sweep_timers_now(&self) -> Result<Vec<i64>, ApiError> {
        let mut changed = Vec::new();
        for id in self.store.games_due(self.now(), INVITATION_LAPSE)? {
            let row = self.load(id)?;
            match self.expire_if_due(&row) {
                Ok(true) => changed.push(id),
                Ok(false) => {}
                Err(e) => eprintln!("ployd: timers on board {id}: {e}"),
            }
        }
        Ok(changed)
    }

    /// If a timer of `row` is due: a reminder is sent, or the player to move forfeits on
    /// time (in a game whose rules do not let him leave, the bot plays his move instead).
    /// Returns whether the game's state changed in a way the caller must see (a forfeit or
    /// a move); a reminder alone returns `false`.
    pub(super) fn expire_if_due(&self, row: &GameRow) -> Result<bool, ApiError> {
        if row.ending.is_none() && !row.waiting_for().is_empty() {
            return self.lapse_if_due(row);
        }
        if row.deadline.is_none() && row.reminder.is_none() {
            return Ok(false);
        }
        let now = self.now();
        let since = turn_since(row);
        let r = self.replay(row, None)?;
        let Some(seat) = r.derived.to_move_seat.filter(|_| !r.derived.over) else {
            return Ok(false);
        };
        let player = row.players[seat].clone();
        if player == BOT {
            // The bot's own turn: its workers move at once; it never runs out of time.
            return Ok(false);
        }
        if row.deadline.is_some_and(|d| now >= since + d) {
            match r.state.winners_without(seat) {
                Ok(_) => {
                    let ending = Ending {
                        ply: row.moves.len(),
                        kind: EndKind::Time,
                        seat: Some(seat),
                        at: now,
                    };
                    let summary = format!(
                        "{player} ({}) ran out of time",
                        r.game.seat_name(&r.options, seat)
                    );
                    let _ = self.commit_ending(row, r, ending, &summary, "");
                }
                Err(_) => {
                    // Nobody wins by his leaving (a free-for-all with several opponents
                    // left): he withdraws and the others play on.
                    let mut test = r.state.boxed_clone();
                    if test.withdraw(seat, "time").is_ok() {
                        let _ = self.commit_withdrawal(row, r, seat, "time", "");
                    } else {
                        let mut r = r;
                        let Some(canonical) = self.bot_plays(&mut r, row.id)? else {
                            return Ok(false);
                        };
                        let _ = self.commit_move(row, &mut r, seat, canonical, Source::Bot, "");
                    }
                }
            }
            return Ok(true);
        }
        let due = row.reminder.is_some_and(|d| now >= since + d)
            && row.reminded_ply.is_none_or(|p| p < row.moves.len());
        if due {
            let deadline = row
                .deadline
                .map(|d| format!(" Time runs out in {}.", format_duration(since + d - now)))
                .unwrap_or_default();
            let note = Note {
                userid: player.clone(),
                game_id: Some(row.id),
                subject: format!("{} {}: reminder - your move", row.game, row.id),
                body: format!(
                    "It is your move on board {} since {}.{deadline}\n\n{}",
                    row.id,
                    format_duration(now - since),
                    r.state.render_text()
                ),
            };
            let w = Write {
                reminded_ply: Some(row.moves.len()),
                ..self.write_without_move(row, &r, OfferChange::Keep, vec![note], "reminder", now)
            };
            match self.store.write(&w) {
                Ok(_) | Err(WriteError::Stale { .. } | WriteError::Changed) => {}
                Err(WriteError::Missing) => return Err(ApiError::no_game(row.id)),
                Err(WriteError::Store(e)) => return Err(e.into()),
            }
        }
        Ok(false)
    }
}

/// Reads the server's own options (`-deadline`, `-reminder`); anything else is refused.
pub(super) fn timer_options(
    game: &str,
    rest: Vec<(String, Option<String>)>,
) -> Result<(Option<i64>, Option<i64>), ApiError> {
    let mut deadline = None;
    let mut reminder = None;
    for (name, value) in rest {
        let slot = match name.as_str() {
            "deadline" => &mut deadline,
            "reminder" => &mut reminder,
            _ => {
                return Err(ApiError::bad_request(format!(
                    "-{} is not an option of {game} (`help {game}` lists them)",
                    excerpt(&name)
                )));
            }
        };
        if slot.is_some() {
            return Err(ApiError::bad_request(format!(
                "option -{name} is given twice"
            )));
        }
        let Some(v) = value else {
            return Err(ApiError::bad_request(format!(
                "option -{name} needs a duration (-{name}=7d)"
            )));
        };
        *slot = Some(
            parse_duration(&v)
                .map_err(|e| ApiError::bad_request(format!("option -{name}: {e}")))?,
        );
    }
    if let (Some(d), Some(r)) = (deadline, reminder)
        && r >= d
    {
        return Err(ApiError::bad_request(
            "the reminder must come before the deadline",
        ));
    }
    Ok((deadline, reminder))
}

/// Reads a duration: a whole number with a unit `s`, `m`, `h` or `d` (`7d`, `36h`), or
/// several (`1d12h`). At least one second, at most 1000 days.
///
/// # Errors
/// What is wrong with it.
pub fn parse_duration(text: &str) -> Result<i64, String> {
    ploy_search::parse_duration(text, ploy_search::DurationMode::GameOption)
        .map(|d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX))
        .map_err(|e| e.to_string())
}

/// Writes seconds as the largest units that divide them: `7d`, `36h`, `1d1s`.
#[must_use]
pub fn format_duration(seconds: i64) -> String {
    let mut s = seconds.max(0);
    if s == 0 {
        return "0s".to_owned();
    }
    let mut out = String::new();
    for (unit, len) in [('d', 86_400), ('h', 3600), ('m', 60), ('s', 1)] {
        if s >= len {
            out.push_str(&format!("{}{unit}", s / len));
            s %= len;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations() {
        assert_eq!(parse_duration("7d"), Ok(7 * 86_400));
        assert_eq!(parse_duration("1d12h"), Ok(36 * 3600));
        assert_eq!(parse_duration("90m"), Ok(5400));
        assert!(parse_duration("7").is_err());
        assert!(parse_duration("d").is_err());
        assert!(parse_duration("0s").is_err());
        assert!(parse_duration("99999999999999d").is_err());
        assert!(parse_duration("1001d").is_err());
        assert_eq!(format_duration(7 * 86_400), "7d");
        assert_eq!(format_duration(36 * 3600), "1d12h");
        assert_eq!(parse_duration(&format_duration(93_784)), Ok(93_784));
    }

    #[test]
    fn timer_options_are_checked() {
        let t = |v: &[(&str, &str)]| {
            timer_options(
                "ploy",
                v.iter()
                    .map(|(n, v)| ((*n).to_owned(), Some((*v).to_owned())))
                    .collect(),
            )
        };
        assert_eq!(
            t(&[("deadline", "7d"), ("reminder", "3d")]),
            Ok((Some(604_800), Some(259_200)))
        );
        assert!(t(&[("deadline", "3d"), ("reminder", "7d")]).is_err());
        assert!(t(&[("colour", "red")]).is_err());
    }
}
