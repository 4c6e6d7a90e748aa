//! Challenges: what a challenge would seat, and starting a game.

use std::sync::Arc;

use super::Service;
use super::accounts::Credentials;
use super::error::ApiError;
use super::invitations::{INVITATION_LAPSE, MIN_DEADLINE_WITH_PEOPLE};
use super::ratings::{check_rated_seats, take_rated};
use super::replay::{Replayed, derive, play_forced, take_level};
use super::timers::{format_duration, timer_options};
use super::view::GameView;
use crate::auth::{self, BOT};
use crate::game::{DynGame, Level, Options, RATED_OPTION};
use crate::store::{NewGame, Note};

/// What a challenge would seat ([`Service::setup`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// The game type.
    pub game: String,
    /// The canonical options (the game's, then the timers).
    pub options: Vec<String>,
    /// The fewest players.
    pub min_players: usize,
    /// The most players.
    pub max_players: usize,
    /// The name of each seat up to the most players.
    pub seats: Vec<String>,
}

/// A challenge's game type, its options, its deadline and reminder in seconds, the
/// level of its bot seats if given, and whether it is rated.
type ChallengeOptions = (
    Arc<dyn DynGame>,
    Options,
    Option<i64>,
    Option<i64>,
    Option<Level>,
    bool,
);

/// The canonical options of a challenge: the game's, then the level, `-rated` and the
/// timers.
fn canonical_options(
    options: &Options,
    level: Option<Level>,
    rated: bool,
    deadline: Option<i64>,
    reminder: Option<i64>,
) -> Vec<String> {
    let mut all = options.to_texts();
    if let Some(l) = level {
        all.push(format!("-level={l}"));
    }
    if rated {
        all.push(format!("-{}", RATED_OPTION.name));
    }
    if let Some(d) = deadline {
        all.push(format!("-deadline={}", format_duration(d)));
    }
    if let Some(d) = reminder {
        all.push(format!("-reminder={}", format_duration(d)));
    }
    all
}

impl Service {
    /// The game type `game_name` and the options of a challenge: the game's own, then the
    /// server's timers (`-deadline`, `-reminder`, in seconds) and the bot's `-level`.
    ///
    /// # Errors
    /// 400 for an unknown game type or a bad option.
    fn challenge_options(
        &self,
        game_name: &str,
        option_texts: &[String],
    ) -> Result<ChallengeOptions, ApiError> {
        let game = Arc::clone(self.game_type(game_name)?);
        let mut rest = Vec::new();
        let options = Options::parse(
            game.options(),
            option_texts.iter().map(String::as_str),
            &mut rest,
        )
        .map_err(ApiError::bad_request)?;
        let level = take_level(&mut rest)?;
        let rated = take_rated(&mut rest)?;
        let (deadline, reminder) = timer_options(game.name(), rest)?;
        Ok((game, options, deadline, reminder, level, rated))
    }

    /// What a challenge of `game_name` with `option_texts` would seat, without starting
    /// anything: the canonical options, the number of players and the seats' names (for
    /// the page's challenge form).
    ///
    /// # Errors
    /// 400 for an unknown game type, a bad option or options that cannot be combined.
    pub fn setup(&self, game_name: &str, option_texts: &[String]) -> Result<Setup, ApiError> {
        let (game, options, deadline, reminder, level, rated) =
            self.challenge_options(game_name, option_texts)?;
        let range = game.players(&options);
        game.start(&options, *range.start())
            .map_err(ApiError::bad_request)?;
        let canonical = canonical_options(&options, level, rated, deadline, reminder);
        Ok(Setup {
            game: game.name().to_owned(),
            options: canonical,
            min_players: *range.start(),
            max_players: *range.end(),
            seats: (0..*range.end())
                .map(|s| game.seat_name(&options, s))
                .collect(),
        })
    }

    /// A rematch of the finished game `id`, asked for by one of its players: a new game of
    /// the same type with the same options (bot level and timers included), every player
    /// moved to the next seat (the last to the first); the other people are invited again
    /// and must join, as in [`Service::challenge`].
    ///
    /// # Errors
    /// 404 for an unknown game; 403 for bad credentials or a user without a seat in it;
    /// 409 `not_over` while it goes on; as [`Service::challenge`] otherwise.
    pub fn rematch(&self, id: i64, credentials: &Credentials) -> Result<GameView, ApiError> {
        let row = self.load(id)?;
        let user = self.authenticate(credentials)?;
        if !row.players.iter().any(|p| p.eq_ignore_ascii_case(&user)) {
            return Err(ApiError::forbidden(format!(
                "{user} holds no seat on board {id}"
            )));
        }
        if row.ending.is_none() {
            let r = self.replay(&row, None)?;
            if !r.derived.over {
                return Err(ApiError::conflict(
                    "not_over",
                    format!("board {id} is not over; a rematch follows a finished game"),
                ));
            }
        }
        let mut players = row.players.clone();
        players.rotate_right(1);
        self.challenge(&row.game, &row.options, credentials, &players)
    }

    /// Starts a game. `players` are in seat order; the authenticated user must hold a seat.
    /// Options are the game's (pbmserv style) plus `-deadline=DURATION`,
    /// `-reminder=DURATION` and `-level=N` (the bot seats' strength, 1 to 8; only with a
    /// bot seat). When it seats other people the game waits for them to join
    /// (status `invited`, see [`Service::join`]); against the bot alone it starts at once.
    ///
    /// # Errors
    /// 400 for an unknown game type, a bad option, a wrong number of players, an unknown or
    /// repeated player, a deadline under an hour with other people seated, a level without
    /// a bot seat; 403 for bad
    /// credentials or a challenger without a seat; 429 `too_many_invitations` when the
    /// challenger has as many open invitations as allowed, `too_many_bot_games` when the
    /// bot would move first and he has as many games waiting for it as allowed.
    pub fn challenge(
        &self,
        game_name: &str,
        option_texts: &[String],
        credentials: &Credentials,
        players: &[String],
    ) -> Result<GameView, ApiError> {
        let (game, options, deadline, reminder, level, rated) =
            self.challenge_options(game_name, option_texts)?;
        let range = game.players(&options);
        if !range.contains(&players.len()) {
            let wanted = if range.start() == range.end() {
                format!("{}", range.start())
            } else {
                format!("{} to {}", range.start(), range.end())
            };
            return Err(ApiError::bad_request(format!(
                "this {} game takes {wanted} players, not {}",
                game.name(),
                players.len()
            )));
        }
        for p in players {
            if p != BOT {
                auth::check_userid(p).map_err(ApiError::bad_request)?;
            }
        }
        let user = self.authenticate(credentials)?;
        let stored = self.store.users(players)?;
        let mut seats = Vec::with_capacity(players.len());
        for (p, s) in players.iter().zip(stored) {
            if p.eq_ignore_ascii_case(BOT) {
                seats.push(BOT.to_owned());
                continue;
            }
            let Some(s) = s else {
                return Err(ApiError::bad_request(format!("there is no user `{p}`")));
            };
            if seats.iter().any(|q: &String| q.eq_ignore_ascii_case(&s)) {
                return Err(ApiError::bad_request(format!(
                    "`{s}` is named twice; only the bot may hold several seats"
                )));
            }
            seats.push(s);
        }
        if level.is_some() && !seats.iter().any(|s| s == BOT) {
            return Err(ApiError::bad_request(
                "-level sets the bot's strength: this game has no bot seat",
            ));
        }
        if rated {
            check_rated_seats(&seats)?;
        }
        if !seats.iter().any(|s| s.eq_ignore_ascii_case(&user)) {
            return Err(ApiError::forbidden(format!(
                "{user} must hold a seat in a game he starts"
            )));
        }
        // The other people seated must join before the game starts.
        let invited: Vec<String> = seats
            .iter()
            .filter(|s| *s != BOT && !s.eq_ignore_ascii_case(&user))
            .cloned()
            .collect();
        if !invited.is_empty()
            && let Some(d) = deadline
            && d < MIN_DEADLINE_WITH_PEOPLE
        {
            return Err(ApiError::bad_request(format!(
                "-deadline={} is too short for a game with other people; at least {}",
                format_duration(d),
                format_duration(MIN_DEADLINE_WITH_PEOPLE)
            )));
        }
        let mut state = game
            .start(&options, seats.len())
            .map_err(ApiError::bad_request)?;
        let now = self.now();
        let mut moves = Vec::new();
        play_forced(state.as_mut(), &mut moves, 0, now)?;
        let mut derived = derive(state.as_ref(), None).map_err(ApiError::internal)?;
        if !derived.over && !invited.is_empty() {
            derived.invited = true;
            derived.to_move_seat = None;
            derived.waiting = (0..seats.len())
                .filter(|&s| invited.contains(&seats[s]))
                .collect();
        }
        let r = Replayed {
            game: Arc::clone(&game),
            options: options.clone(),
            bot_level: level.unwrap_or_default(),
            state,
            ply: moves.len(),
            derived,
        };
        let canonical = options.to_texts();
        let all_options = canonical_options(&options, level, rated, deadline, reminder);
        let new = NewGame {
            game: game.name().to_owned(),
            options: all_options,
            rules_version: game.rules_version(),
            deadline,
            reminder,
            players: seats.clone(),
            challenger: user.clone(),
            invited: invited.clone(),
            moves,
            cache: self.cache_of(&r, &seats, now),
            notes: Vec::new(),
            rated,
            quotas: self.quotas(&user),
        };
        // The notes name the board, known only after the insert: written with it below.
        let mut new = new;
        new.notes = seats
            .iter()
            .enumerate()
            .filter(|(_, s)| **s != user && *s != BOT)
            .map(|(seat, s)| Note {
                userid: s.clone(),
                game_id: None,
                subject: format!(
                    "{} challenges you to {} ({}) on board {{board}}: join or decline",
                    user,
                    game.name(),
                    game.seat_name(&options, seat)
                ),
                body: format!(
                    "Players: {}\nOptions: {}\nJoin with `{} join {{board}} {s} PASSWORD` \
                     or decline with `{} decline {{board}} {s} PASSWORD` within {}.\n\n{}",
                    seats.join(", "),
                    if canonical.is_empty() {
                        "none".to_owned()
                    } else {
                        canonical.join(" ")
                    },
                    game.name(),
                    game.name(),
                    format_duration(INVITATION_LAPSE),
                    r.state.render_text()
                ),
            })
            .collect();
        // A game that starts with the bot to move takes a place in the bot queue.
        let _ticket = self.bot_ticket(&user, &r, &seats)?;
        let id = self.store.create_game(&new, now)?;
        let row = self.load(id)?;
        let r = self.replay(&row, None)?;
        self.after_write(id, &r, &row.players, &user);
        Ok(self.view_of(&row, &r))
    }
}
