//! A game replayed from its log, and what follows from it: the cached columns, the
//! result and status lines, and the notes to the players.

use std::sync::Arc;

use super::error::ApiError;
use super::{MAX_FORCED, Service};
use crate::auth::BOT;
use crate::game::{DynGame, LEVEL_OPTION, Level, Match, Options};
use crate::store::{
    Cache, EndKind, Ending, GameRow, MoveRow, Note, OfferChange, Quotas, Source, Write,
};

/// A game replayed from its log.
pub(super) struct Replayed {
    pub(super) game: Arc<dyn DynGame>,
    pub(super) options: Options,
    /// The level of the game's bot seats (`-level`, 8 by default).
    pub(super) bot_level: Level,
    pub(super) state: Box<dyn Match>,
    /// Moves replayed.
    pub(super) ply: usize,
    pub(super) derived: Derived,
}

/// What follows from a replayed game and its ending.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Derived {
    pub(super) over: bool,
    pub(super) to_move_seat: Option<usize>,
    pub(super) winners: Vec<usize>,
    pub(super) reason: Option<String>,
    /// The game waits for invited players (nobody is to move meanwhile).
    pub(super) invited: bool,
    /// The seats of the invited players who have not joined.
    pub(super) waiting: Vec<usize>,
    /// The seat of the ending (who resigned, declined, ...).
    pub(super) ended_by: Option<usize>,
}

impl Derived {
    /// Applies the invitations of `row`: while someone has not joined, a game not over
    /// waits for him and nobody is to move.
    pub(super) fn invitations(&mut self, row: &GameRow) {
        let waiting = row.waiting_for();
        self.waiting = row
            .players
            .iter()
            .enumerate()
            .filter(|(_, p)| waiting.contains(p))
            .map(|(s, _)| s)
            .collect();
        self.invited = !self.over && !self.waiting.is_empty();
        if self.invited {
            self.to_move_seat = None;
        }
    }
}

/// Takes the server's option `-level=N` out of `rest` (the options that are not the game's).
///
/// # Errors
/// 400 for a level given twice, without a value or outside 1 to 8.
pub(super) fn take_level(
    rest: &mut Vec<(String, Option<String>)>,
) -> Result<Option<Level>, ApiError> {
    let mut level = None;
    let mut i = 0;
    while i < rest.len() {
        if rest[i].0 != LEVEL_OPTION.name {
            i += 1;
            continue;
        }
        let (_, value) = rest.remove(i);
        if level.is_some() {
            return Err(ApiError::bad_request("option -level is given twice"));
        }
        let value = value.ok_or_else(|| {
            ApiError::bad_request("option -level needs a value (-level=N, N from 1 to 8)")
        })?;
        level = Some(
            value
                .parse::<Level>()
                .map_err(|e| ApiError::bad_request(format!("option -level: {e}")))?,
        );
    }
    Ok(level)
}

impl Service {
    /// The game's own options of stored `texts`, and the level of its bot seats.
    pub(super) fn options_of(
        &self,
        game: &dyn DynGame,
        texts: &[String],
    ) -> Result<(Options, Level), ApiError> {
        let mut rest = Vec::new();
        let options = Options::parse(game.options(), texts.iter().map(String::as_str), &mut rest)
            .map_err(|e| ApiError::internal(format!("stored options: {e}")))?;
        // The server's own options (timers, level) are stored with the game's.
        let level = take_level(&mut rest)
            .map_err(|e| ApiError::internal(format!("stored options: {}", e.message)))?;
        super::ratings::take_rated(&mut rest)
            .map_err(|e| ApiError::internal(format!("stored options: {}", e.message)))?;
        if rest
            .iter()
            .any(|(name, _)| name != "deadline" && name != "reminder")
        {
            return Err(ApiError::internal("stored options: unknown option"));
        }
        Ok((options, level.unwrap_or_default()))
    }

    /// Replays `row` up to `upto` moves (all by default), with its ending at full length.
    pub(super) fn replay(&self, row: &GameRow, upto: Option<usize>) -> Result<Replayed, ApiError> {
        let game = Arc::clone(self.registry.get(&row.game).ok_or_else(|| {
            ApiError::internal(format!(
                "board {} is a {} game, which this server does not play",
                row.id, row.game
            ))
        })?);
        if row.rules_version != game.rules_version() {
            return Err(ApiError::conflict(
                "rules_version",
                format!(
                    "board {} was played under {} rules version {}; this server plays version {} \
                     and will not replay it under other rules",
                    row.id,
                    row.game,
                    row.rules_version,
                    game.rules_version()
                ),
            ));
        }
        let (options, bot_level) = self.options_of(game.as_ref(), &row.options)?;
        let mut state = game
            .start(&options, row.players.len())
            .map_err(|e| ApiError::internal(format!("board {}: {e}", row.id)))?;
        let upto = upto.unwrap_or(row.moves.len()).min(row.moves.len());
        for m in &row.moves[..upto] {
            let replayed = if m.source == Source::Withdrawal {
                state.withdraw(m.seat, &m.text)
            } else {
                state.play(&m.text).map(|_| ()).map_err(|e| e.to_string())
            };
            replayed.map_err(|e| {
                ApiError::internal(format!(
                    "board {}: stored move {} `{}` does not replay: {e}",
                    row.id,
                    m.ply + 1,
                    m.text
                ))
            })?;
        }
        let ending = if upto == row.moves.len() {
            row.ending.as_ref()
        } else {
            None
        };
        let mut derived = derive(state.as_ref(), ending).map_err(|e| {
            ApiError::internal(format!("board {}: the ending does not replay: {e}", row.id))
        })?;
        derived.invitations(row);
        Ok(Replayed {
            game,
            options,
            bot_level,
            state,
            ply: upto,
            derived,
        })
    }

    pub(super) fn result_text(&self, r: &Replayed, players: &[String]) -> String {
        let Some(reason) = &r.derived.reason else {
            return String::new();
        };
        let name = |s: usize| players.get(s).map_or("?", String::as_str);
        match reason.as_str() {
            "declined" | "cancelled" => {
                let by = r.derived.ended_by.map_or("?", name);
                return format!("{reason} by {by}");
            }
            "lapsed" => {
                let names: Vec<&str> = r.derived.waiting.iter().map(|&s| name(s)).collect();
                return format!("lapsed (not joined by {})", names.join(", "));
            }
            "abandoned" => return "abandoned: only bots were left; nobody wins".to_owned(),
            _ => {}
        }
        if r.derived.winners.is_empty() {
            return format!("draw ({reason})");
        }
        let names: Vec<String> = r
            .derived
            .winners
            .iter()
            .map(|&s| {
                format!(
                    "{} ({})",
                    players.get(s).map_or("?", String::as_str),
                    r.game.seat_name(&r.options, s)
                )
            })
            .collect();
        let verb = if names.len() == 1 { "wins" } else { "win" };
        format!("{} {verb} ({reason})", names.join(" and "))
    }

    pub(super) fn cache_of(&self, r: &Replayed, players: &[String], turn_since: i64) -> Cache {
        Cache {
            ply: r.ply,
            over: r.derived.over,
            invited: r.derived.invited,
            to_move_seat: r.derived.to_move_seat,
            winners: r.derived.winners.clone(),
            result: self.result_text(r, players),
            turn_since,
        }
    }

    /// A write that plays no move and ends nothing (draw offers, reminders): the offers,
    /// the cached columns, notes and an event, checked against the game as read in `row`.
    pub(super) fn write_without_move(
        &self,
        row: &GameRow,
        r: &Replayed,
        offers: OfferChange,
        notes: Vec<Note>,
        event: &'static str,
        now: i64,
    ) -> Write {
        Write {
            game_id: row.id,
            expected_ply: row.moves.len(),
            expected_revision: row.revision,
            moves: Vec::new(),
            ending: None,
            offers,
            cache: self.cache_of(r, &row.players, turn_since(row)),
            notes,
            event,
            reminded_ply: None,
            now,
            rating: None,
            quotas: Quotas::default(),
        }
    }

    pub(super) fn status_line(&self, row: &GameRow, r: &Replayed) -> String {
        match r.derived.to_move_seat {
            _ if r.derived.over => format!("Game over: {}", self.result_text(r, &row.players)),
            _ if r.derived.invited => {
                let names: Vec<&str> = r
                    .derived
                    .waiting
                    .iter()
                    .map(|&s| row.players[s].as_str())
                    .collect();
                format!("Waiting for {} to join", names.join(", "))
            }
            Some(s) => format!(
                "{} ({}) to move",
                row.players[s],
                r.game.seat_name(&r.options, s)
            ),
            None => String::new(),
        }
    }

    /// Notes to every person holding a seat except `actor`.
    pub(super) fn notes_for(
        &self,
        row: &GameRow,
        actor: &str,
        summary: &str,
        status: &str,
        r: &Replayed,
    ) -> Vec<Note> {
        let mut seen: Vec<&str> = Vec::new();
        let mut notes = Vec::new();
        for p in &row.players {
            if p == BOT || p.eq_ignore_ascii_case(actor) || seen.contains(&p.as_str()) {
                continue;
            }
            seen.push(p);
            let turn = r
                .derived
                .to_move_seat
                .is_some_and(|s| row.players[s].eq_ignore_ascii_case(p));
            notes.push(Note {
                userid: p.clone(),
                game_id: Some(row.id),
                subject: format!(
                    "{} {}: {summary}{}",
                    row.game,
                    row.id,
                    if turn { " - your move" } else { "" }
                ),
                body: format!("{summary}\n{status}\n\n{}", r.state.render_text()),
            });
        }
        notes
    }
}

/// When the player to move began to think: the last move, or the start (the creation, or
/// when the last invited player joined), whichever is later.
pub(super) fn turn_since(row: &GameRow) -> i64 {
    let start = row
        .started_at()
        .unwrap_or(row.created_at)
        .max(row.created_at);
    row.moves.last().map_or(start, |m| m.at.max(start))
}

/// Plays every move the rules force, appending them to `moves` from `first_ply`.
pub(super) fn play_forced(
    state: &mut dyn Match,
    moves: &mut Vec<MoveRow>,
    first_ply: usize,
    now: i64,
) -> Result<(), ApiError> {
    for ply in first_ply..first_ply + MAX_FORCED {
        if state.outcome().is_some() {
            return Ok(());
        }
        let Some(text) = state.forced_move() else {
            return Ok(());
        };
        let seat = state
            .to_move()
            .ok_or_else(|| ApiError::internal("a forced move with nobody to move"))?;
        let canonical = state
            .play(&text)
            .map_err(|e| ApiError::internal(format!("the forced move {text} is refused: {e}")))?;
        moves.push(MoveRow {
            ply,
            seat,
            text: canonical,
            source: Source::Forced,
            at: now,
        });
    }
    Err(ApiError::internal("the rules keep forcing moves"))
}

/// The status of a replayed game with its ending.
pub(super) fn derive(state: &dyn Match, ending: Option<&Ending>) -> Result<Derived, String> {
    if let Some(e) = ending {
        let winners = match (e.kind, e.seat) {
            (k, _) if k == EndKind::Agreement || k == EndKind::Abandoned || k.is_invitation() => {
                Vec::new()
            }
            (_, Some(seat)) => state.winners_without(seat)?,
            (_, None) => return Err("an ending without its seat".to_owned()),
        };
        return Ok(Derived {
            over: true,
            to_move_seat: None,
            winners,
            reason: Some(e.kind.as_str().to_owned()),
            invited: false,
            waiting: Vec::new(),
            ended_by: e.seat,
        });
    }
    Ok(match state.outcome() {
        Some(o) => Derived {
            over: true,
            to_move_seat: None,
            winners: o.winners,
            reason: Some(o.reason),
            invited: false,
            waiting: Vec::new(),
            ended_by: None,
        },
        None => Derived {
            over: false,
            to_move_seat: state.to_move(),
            winners: Vec::new(),
            reason: None,
            invited: false,
            waiting: Vec::new(),
            ended_by: None,
        },
    })
}
