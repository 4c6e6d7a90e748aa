//! What the server does, whatever the way in (the command language or the HTTP API):
//! accounts, challenges, moves, resignations, draw offers, timers and bots.
//!
//! Every state-changing call follows the same steps: read the game, authenticate (the
//! argon2id verification runs here, outside any transaction), replay the log, check and
//! play the move (and any moves the rules force, and compute a bot's move the same way),
//! then write everything in one `BEGIN IMMEDIATE` transaction that first checks the move
//! number again ([`Store::write`]). When the game moved on in between, a call that named
//! its move number gets 409; one that did not is computed again.

use std::collections::HashSet;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::{SystemTime, UNIX_EPOCH};

use serde_json::{Value, json};

use crate::auth::{self, BOT, HashParams};
use crate::game::{Budget, DynGame, Match, MoveError, Options, Registry, excerpt};
use crate::store::{
    Cache, EndKind, Ending, GameRow, MoveRow, NewGame, Note, NoteRow, OfferChange, Source, Store,
    StoreError, Summary, Write, WriteError,
};

/// The most moves the server plays by itself after one move (forced passes), a guard
/// against an adapter that would force moves for ever.
const MAX_FORCED: usize = 10_000;

/// Attempts of a write whose game changed under it before giving up with 503.
const ATTEMPTS: usize = 20;

/// The time, in seconds since 1970. Injected so that tests of timers need not wait.
pub trait Clock: Send + Sync {
    /// Now.
    fn now(&self) -> i64;
}

/// The system clock.
#[derive(Clone, Copy, Debug, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> i64 {
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX))
    }
}

/// A clock that says what it is told (for tests and `--now`).
#[derive(Debug, Default)]
pub struct FixedClock(AtomicI64);

impl FixedClock {
    /// A clock at `now`.
    #[must_use]
    pub fn new(now: i64) -> FixedClock {
        FixedClock(AtomicI64::new(now))
    }

    /// Sets the time.
    pub fn set(&self, now: i64) {
        self.0.store(now, Ordering::SeqCst);
    }
}

impl Clock for FixedClock {
    fn now(&self) -> i64 {
        self.0.load(Ordering::SeqCst)
    }
}

/// An error for the client: the HTTP status, a word, and a message for people. The command
/// language prints `error STATUS: message`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{status} {word}: {message}")]
pub struct ApiError {
    /// The HTTP status.
    pub status: u16,
    /// One word for programs: `bad_request`, `forbidden`, `not_found`, `taken`, `game_over`,
    /// `stale`, `not_your_turn`, `no_offer`, `declined`, `rules_version`, `illegal_move`,
    /// `too_large`, `method_not_allowed`, `busy`, `internal`.
    pub word: &'static str,
    /// What went wrong.
    pub message: String,
}

impl ApiError {
    /// An error.
    #[must_use]
    pub fn new(status: u16, word: &'static str, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            word,
            message: message.into(),
        }
    }

    /// 400.
    #[must_use]
    pub fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError::new(400, "bad_request", message)
    }

    /// 403.
    #[must_use]
    pub fn forbidden(message: impl Into<String>) -> ApiError {
        ApiError::new(403, "forbidden", message)
    }

    /// 404.
    #[must_use]
    pub fn not_found(message: impl Into<String>) -> ApiError {
        ApiError::new(404, "not_found", message)
    }

    /// 409.
    #[must_use]
    pub fn conflict(word: &'static str, message: impl Into<String>) -> ApiError {
        ApiError::new(409, word, message)
    }

    /// 500.
    #[must_use]
    pub fn internal(message: impl Into<String>) -> ApiError {
        ApiError::new(500, "internal", message)
    }

    fn no_game(id: i64) -> ApiError {
        ApiError::not_found(format!("there is no board {id}"))
    }

    fn bad_login() -> ApiError {
        ApiError::forbidden("unknown userid or wrong password")
    }
}

impl From<StoreError> for ApiError {
    fn from(e: StoreError) -> ApiError {
        if e.is_busy() {
            ApiError::new(503, "busy", "the database is busy; try again")
        } else {
            ApiError::internal(e.to_string())
        }
    }
}

/// Who is asking.
#[derive(Clone, PartialEq, Eq)]
pub enum Credentials {
    /// A userid and password (checked against the stored hash).
    Password {
        /// The userid.
        userid: String,
        /// The password (never logged or stored).
        password: String,
    },
    /// A user already authenticated by a session cookie.
    Session(String),
}

impl std::fmt::Debug for Credentials {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Credentials::Password { userid, .. } => write!(f, "Password({userid}, ***)"),
            Credentials::Session(u) => write!(f, "Session({u})"),
        }
    }
}

/// Settings.
#[derive(Clone, Debug)]
pub struct Config {
    /// What the bot may spend on a move.
    pub bot_budget: Budget,
    /// Argon2id parameters for new passwords.
    pub hash: HashParams,
    /// How long a session lasts, seconds.
    pub session_seconds: i64,
    /// The most games a list gives.
    pub list_limit: usize,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            bot_budget: Budget {
                time: Some(std::time::Duration::from_secs(1)),
                ..Budget::default()
            },
            hash: HashParams::default(),
            session_seconds: 30 * 24 * 3600,
            list_limit: 1000,
        }
    }
}

/// How bot moves are made.
enum Bots {
    /// Queued for worker threads (`ployd serve`).
    Pool {
        queue: Mutex<mpsc::Sender<i64>>,
        queued: Mutex<HashSet<i64>>,
    },
    /// Collected, and played when the caller asks ([`Service::run_pending_bots`]; `ployd
    /// cmd`).
    Inline(Mutex<Vec<i64>>),
}

/// A game replayed from its log.
struct Replayed {
    game: Arc<dyn DynGame>,
    options: Options,
    state: Box<dyn Match>,
    /// Moves replayed.
    ply: usize,
    derived: Derived,
}

/// What follows from a replayed game and its ending.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Derived {
    over: bool,
    to_move_seat: Option<usize>,
    winners: Vec<usize>,
    reason: Option<String>,
}

/// The state of a game for clients (the JSON of `GET /api/games/{id}`).
#[derive(Clone, Debug, PartialEq)]
pub struct GameView {
    /// The board number.
    pub id: i64,
    /// The game type.
    pub game: String,
    /// Canonical options.
    pub options: Vec<String>,
    /// Userids in seat order.
    pub players: Vec<String>,
    /// Seat names in seat order.
    pub seats: Vec<String>,
    /// Canonical move texts in order (up to the move number asked for).
    pub moves: Vec<String>,
    /// The seat that played each of [`GameView::moves`].
    pub move_seats: Vec<usize>,
    /// Moves shown.
    pub ply: usize,
    /// Moves in the whole game.
    pub moves_played: usize,
    /// Whether the game is over (at the move number shown).
    pub over: bool,
    /// The userid to move.
    pub to_move: Option<String>,
    /// The seat to move.
    pub to_move_seat: Option<usize>,
    /// Legal moves.
    pub legal: Vec<String>,
    /// Winners' userids.
    pub winners: Vec<String>,
    /// The result for people (empty while the game goes on).
    pub result: String,
    /// Why it ended.
    pub reason: Option<String>,
    /// Userids offering a draw.
    pub draw_offers: Vec<String>,
    /// When the player to move runs out of time (seconds since 1970).
    pub deadline_at: Option<i64>,
    /// The rules version.
    pub rules_version: u32,
    /// The game's own JSON of the position.
    pub position: Value,
    /// The board for people.
    pub board: String,
}

impl GameView {
    /// The JSON of the state.
    #[must_use]
    pub fn to_json(&self) -> Value {
        json!({
            "id": self.id,
            "game": self.game,
            "options": self.options,
            "players": self.players,
            "seats": self.seats,
            "moves": self.moves,
            "move_seats": self.move_seats,
            "ply": self.ply,
            "moves_played": self.moves_played,
            "status": if self.over { "over" } else { "active" },
            "to_move": self.to_move,
            "to_move_seat": self.to_move_seat,
            "legal": self.legal,
            "winners": self.winners,
            "result": self.result,
            "reason": self.reason,
            "draw_offers": self.draw_offers,
            "deadline_at": self.deadline_at,
            "rules_version": self.rules_version,
            "position": self.position,
            "board": self.board,
        })
    }
}

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

/// One move of a game's history.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HistoryLine {
    /// Moves before it.
    pub ply: usize,
    /// The seat.
    pub seat: usize,
    /// The seat's name.
    pub seat_name: String,
    /// The seat's userid.
    pub userid: String,
    /// The canonical text.
    pub text: String,
    /// Who played it.
    pub source: Source,
    /// When.
    pub at: i64,
}

/// A replay problem found by [`Service::check`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckProblem {
    /// The board.
    pub id: i64,
    /// What is wrong.
    pub problem: String,
}

/// The server's logic over one [`Store`].
pub struct Service {
    store: Store,
    registry: Registry,
    clock: Arc<dyn Clock>,
    config: Config,
    bots: Bots,
    on_change: Mutex<Option<Box<dyn Fn() + Send + Sync>>>,
}

impl std::fmt::Debug for Service {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Service")
            .field("store", &self.store)
            .field("registry", &self.registry)
            .field("config", &self.config)
            .finish_non_exhaustive()
    }
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

impl Service {
    /// A service that collects bot turns for [`Service::run_pending_bots`].
    #[must_use]
    pub fn new(store: Store, registry: Registry, clock: Arc<dyn Clock>, config: Config) -> Service {
        Service {
            store,
            registry,
            clock,
            config,
            bots: Bots::Inline(Mutex::new(Vec::new())),
            on_change: Mutex::new(None),
        }
    }

    /// Starts `threads` bot workers (at least one); bot turns are queued for them from now
    /// on, and every game already waiting for the bot is queued.
    ///
    /// # Errors
    /// Storage failure while looking for waiting games.
    pub fn start_bot_workers(self: &mut Arc<Service>, threads: usize) -> Result<(), ApiError> {
        let (tx, rx) = mpsc::channel::<i64>();
        let rx = Arc::new(Mutex::new(rx));
        let service = Arc::get_mut(self).ok_or_else(|| {
            ApiError::internal("bot workers must start before the service is shared")
        })?;
        service.bots = Bots::Pool {
            queue: Mutex::new(tx),
            queued: Mutex::new(HashSet::new()),
        };
        for i in 0..threads.max(1) {
            let rx = Arc::clone(&rx);
            let weak = Arc::downgrade(self);
            std::thread::Builder::new()
                .name(format!("bot-{i}"))
                .spawn(move || {
                    loop {
                        let next = rx
                            .lock()
                            .unwrap_or_else(std::sync::PoisonError::into_inner)
                            .recv();
                        let Ok(id) = next else { break };
                        let Some(service) = weak.upgrade() else { break };
                        service.unqueue(id);
                        if let Err(e) = service.bot_turn(id) {
                            eprintln!("ployd: bot on board {id}: {e}");
                        }
                    }
                })
                .map_err(|e| ApiError::internal(format!("cannot start a bot thread: {e}")))?;
        }
        for id in self.store.games_waiting_for(BOT)? {
            self.schedule_bot(id);
        }
        Ok(())
    }

    /// Calls `hook` after every change this service writes (the event stream uses it).
    pub fn set_on_change(&self, hook: Box<dyn Fn() + Send + Sync>) {
        *self
            .on_change
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = Some(hook);
    }

    /// The store.
    #[must_use]
    pub fn store(&self) -> &Store {
        &self.store
    }

    /// The game types.
    #[must_use]
    pub fn registry(&self) -> &Registry {
        &self.registry
    }

    /// Now, by the service's clock.
    #[must_use]
    pub fn now(&self) -> i64 {
        self.clock.now()
    }

    fn unqueue(&self, id: i64) {
        if let Bots::Pool { queued, .. } = &self.bots {
            queued
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .remove(&id);
        }
    }

    fn schedule_bot(&self, id: i64) {
        match &self.bots {
            Bots::Pool { queue, queued } => {
                let fresh = queued
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner)
                    .insert(id);
                if fresh {
                    let _ = queue
                        .lock()
                        .unwrap_or_else(std::sync::PoisonError::into_inner)
                        .send(id);
                }
            }
            Bots::Inline(pending) => pending
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .push(id),
        }
    }

    fn changed(&self) {
        if let Some(hook) = self
            .on_change
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .as_ref()
        {
            hook();
        }
    }

    /// Plays every bot turn collected so far (inline mode), until people are to move.
    pub fn run_pending_bots(&self) {
        loop {
            let next = match &self.bots {
                Bots::Inline(pending) => pending
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner)
                    .pop(),
                Bots::Pool { .. } => None,
            };
            let Some(id) = next else { break };
            if let Err(e) = self.bot_turn(id) {
                eprintln!("ployd: bot on board {id}: {e}");
            }
        }
    }

    // ----------------------------------------------------------------------------------
    // Accounts.
    // ----------------------------------------------------------------------------------

    /// Creates an account.
    ///
    /// # Errors
    /// 400 for a bad userid or password, 409 if the userid is taken or reserved.
    pub fn signup(&self, userid: &str, password: &str) -> Result<String, ApiError> {
        auth::check_userid(userid).map_err(ApiError::bad_request)?;
        auth::check_password(password).map_err(ApiError::bad_request)?;
        if userid.eq_ignore_ascii_case(BOT) {
            return Err(ApiError::conflict(
                "taken",
                "the userid `bot` is reserved for the built-in bot",
            ));
        }
        if self.store.user(userid)?.is_some() {
            return Err(ApiError::conflict(
                "taken",
                format!("the userid `{userid}` is taken"),
            ));
        }
        let hash = auth::hash_password(password, self.config.hash).map_err(ApiError::internal)?;
        if !self.store.create_user(userid, &hash, self.now())? {
            return Err(ApiError::conflict(
                "taken",
                format!("the userid `{userid}` is taken"),
            ));
        }
        Ok(userid.to_owned())
    }

    /// Checks credentials; returns the userid as stored.
    ///
    /// # Errors
    /// 403 for an unknown userid or a wrong password (the same message for both).
    pub fn authenticate(&self, credentials: &Credentials) -> Result<String, ApiError> {
        match credentials {
            Credentials::Session(u) => Ok(u.clone()),
            Credentials::Password { userid, password } => {
                if auth::check_userid(userid).is_err() || password.len() > 1024 {
                    return Err(ApiError::bad_login());
                }
                match self.store.user(userid)? {
                    Some((stored, hash)) if auth::verify_password(password, &hash) => Ok(stored),
                    Some(_) => Err(ApiError::bad_login()),
                    None => {
                        auth::verify_nothing(password, self.config.hash);
                        Err(ApiError::bad_login())
                    }
                }
            }
        }
    }

    /// Opens a session; returns the token (for the cookie) and the userid.
    ///
    /// # Errors
    /// 403 for bad credentials.
    pub fn login(&self, userid: &str, password: &str) -> Result<(String, String), ApiError> {
        let user = self.authenticate(&Credentials::Password {
            userid: userid.to_owned(),
            password: password.to_owned(),
        })?;
        let token = auth::new_token();
        let now = self.now();
        self.store.create_session(
            &auth::token_hash(&token),
            &user,
            now,
            now + self.config.session_seconds,
        )?;
        Ok((token, user))
    }

    /// The user of a session token, if it is live.
    ///
    /// # Errors
    /// Storage failure.
    pub fn session_user(&self, token: &str) -> Result<Option<String>, ApiError> {
        if token.len() != 64 || !token.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Ok(None);
        }
        Ok(self
            .store
            .session_user(&auth::token_hash(token), self.now())?)
    }

    /// Ends a session.
    ///
    /// # Errors
    /// Storage failure.
    pub fn logout(&self, token: &str) -> Result<(), ApiError> {
        Ok(self.store.delete_session(&auth::token_hash(token))?)
    }

    // ----------------------------------------------------------------------------------
    // Reading games.
    // ----------------------------------------------------------------------------------

    /// The game type called `name`.
    ///
    /// # Errors
    /// 400 if there is none.
    pub fn game_type(&self, name: &str) -> Result<&Arc<dyn DynGame>, ApiError> {
        self.registry.get(name).ok_or_else(|| {
            let names: Vec<&str> = self.registry.iter().map(|g| g.name()).collect();
            ApiError::bad_request(format!(
                "`{}` is not a game type here; the game types are: {}",
                excerpt(name),
                names.join(", ")
            ))
        })
    }

    /// Whether game `id` exists.
    ///
    /// # Errors
    /// Storage failure.
    pub fn exists(&self, id: i64) -> Result<bool, ApiError> {
        Ok(self.store.game_exists(id)?)
    }

    fn load(&self, id: i64) -> Result<GameRow, ApiError> {
        self.store
            .load_game(id)?
            .ok_or_else(|| ApiError::no_game(id))
    }

    fn options_of(&self, game: &dyn DynGame, texts: &[String]) -> Result<Options, ApiError> {
        let mut rest = Vec::new();
        let options = Options::parse(game.options(), texts.iter().map(String::as_str), &mut rest)
            .map_err(|e| ApiError::internal(format!("stored options: {e}")))?;
        // The server's own options (timers) are stored with the game's.
        if rest
            .iter()
            .any(|(name, _)| name != "deadline" && name != "reminder")
        {
            return Err(ApiError::internal("stored options: unknown option"));
        }
        Ok(options)
    }

    /// Replays `row` up to `upto` moves (all by default), with its ending at full length.
    fn replay(&self, row: &GameRow, upto: Option<usize>) -> Result<Replayed, ApiError> {
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
        let options = self.options_of(game.as_ref(), &row.options)?;
        let mut state = game
            .start(&options, row.players.len())
            .map_err(|e| ApiError::internal(format!("board {}: {e}", row.id)))?;
        let upto = upto.unwrap_or(row.moves.len()).min(row.moves.len());
        for m in &row.moves[..upto] {
            state.play(&m.text).map_err(|e| {
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
        let derived = derive(state.as_ref(), ending).map_err(|e| {
            ApiError::internal(format!("board {}: the ending does not replay: {e}", row.id))
        })?;
        Ok(Replayed {
            game,
            options,
            state,
            ply: upto,
            derived,
        })
    }

    fn result_text(&self, r: &Replayed, players: &[String]) -> String {
        let Some(reason) = &r.derived.reason else {
            return String::new();
        };
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

    fn cache_of(&self, r: &Replayed, players: &[String], turn_since: i64) -> Cache {
        Cache {
            ply: r.ply,
            over: r.derived.over,
            to_move_seat: r.derived.to_move_seat,
            winners: r.derived.winners.clone(),
            result: self.result_text(r, players),
            turn_since,
        }
    }

    fn view_of(&self, row: &GameRow, r: &Replayed) -> GameView {
        let full = r.ply == row.moves.len();
        let seat_user = |s: usize| row.players.get(s).cloned();
        let deadline_at = match (row.deadline, full && !r.derived.over) {
            (Some(d), true) => Some(turn_since(row) + d),
            _ => None,
        };
        GameView {
            id: row.id,
            game: row.game.clone(),
            options: row.options.clone(),
            players: row.players.clone(),
            seats: (0..row.players.len())
                .map(|s| r.game.seat_name(&r.options, s))
                .collect(),
            moves: row.moves[..r.ply].iter().map(|m| m.text.clone()).collect(),
            move_seats: row.moves[..r.ply].iter().map(|m| m.seat).collect(),
            ply: r.ply,
            moves_played: row.moves.len(),
            over: r.derived.over,
            to_move: r.derived.to_move_seat.and_then(seat_user),
            to_move_seat: r.derived.to_move_seat,
            legal: if r.derived.over {
                Vec::new()
            } else {
                r.state.legal_moves()
            },
            winners: r
                .derived
                .winners
                .iter()
                .filter_map(|&s| seat_user(s))
                .collect(),
            result: self.result_text(r, &row.players),
            reason: r.derived.reason.clone(),
            draw_offers: if full {
                row.offers.iter().filter_map(|&s| seat_user(s)).collect()
            } else {
                Vec::new()
            },
            deadline_at,
            rules_version: row.rules_version,
            position: r.state.render_json(),
            board: r.state.render_text(),
        }
    }

    /// The state of game `id` after `ply` moves (all by default).
    ///
    /// # Errors
    /// 404 for an unknown game, 400 for a move number beyond the moves played.
    pub fn view(&self, id: i64, ply: Option<usize>) -> Result<GameView, ApiError> {
        let row = self.load(id)?;
        if let Some(n) = ply
            && n > row.moves.len()
        {
            return Err(ApiError::bad_request(format!(
                "board {id} has {}, not {n}",
                plural(row.moves.len(), "move", "moves")
            )));
        }
        let r = self.replay(&row, ply)?;
        Ok(self.view_of(&row, &r))
    }

    /// The moves of game `id` with who played them.
    ///
    /// # Errors
    /// 404 for an unknown game.
    pub fn history(&self, id: i64) -> Result<(GameView, Vec<HistoryLine>), ApiError> {
        let row = self.load(id)?;
        let r = self.replay(&row, None)?;
        let lines = row
            .moves
            .iter()
            .map(|m| HistoryLine {
                ply: m.ply,
                seat: m.seat,
                seat_name: r.game.seat_name(&r.options, m.seat),
                userid: row.players.get(m.seat).cloned().unwrap_or_default(),
                text: m.text.clone(),
                source: m.source,
                at: m.at,
            })
            .collect();
        Ok((self.view_of(&row, &r), lines))
    }

    /// Games of `userid` (every game with `None`): `active`, `next` (active and the user is
    /// to move) or `all`, newest first.
    ///
    /// # Errors
    /// 400 for another filter.
    pub fn games(&self, userid: Option<&str>, filter: &str) -> Result<Vec<Summary>, ApiError> {
        let (active, next) = match filter {
            "active" => (true, false),
            "next" => (true, true),
            "all" => (false, false),
            other => {
                return Err(ApiError::bad_request(format!(
                    "`{}`: expected active, next or all",
                    excerpt(other)
                )));
            }
        };
        if next && userid.is_none() {
            return Err(ApiError::bad_request("`next` needs a userid"));
        }
        Ok(self
            .store
            .list_games(userid, active, next, self.config.list_limit)?)
    }

    /// The notifications for a user after note number `after`.
    ///
    /// # Errors
    /// Storage failure.
    pub fn inbox(&self, userid: &str, after: i64) -> Result<Vec<NoteRow>, ApiError> {
        Ok(self.store.inbox(userid, after)?)
    }

    // ----------------------------------------------------------------------------------
    // Changing games.
    // ----------------------------------------------------------------------------------

    /// What a challenge of `game_name` with `option_texts` would seat, without starting
    /// anything: the canonical options, the number of players and the seats' names (for
    /// the page's challenge form).
    ///
    /// # Errors
    /// 400 for an unknown game type, a bad option or options that cannot be combined.
    pub fn setup(&self, game_name: &str, option_texts: &[String]) -> Result<Setup, ApiError> {
        let game = Arc::clone(self.game_type(game_name)?);
        let mut rest = Vec::new();
        let options = Options::parse(
            game.options(),
            option_texts.iter().map(String::as_str),
            &mut rest,
        )
        .map_err(ApiError::bad_request)?;
        let (deadline, reminder) = timer_options(game.name(), rest)?;
        let range = game.players(&options);
        game.start(&options, *range.start())
            .map_err(ApiError::bad_request)?;
        let mut canonical = options.to_texts();
        if let Some(d) = deadline {
            canonical.push(format!("-deadline={}", format_duration(d)));
        }
        if let Some(d) = reminder {
            canonical.push(format!("-reminder={}", format_duration(d)));
        }
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

    /// Starts a game. `players` are in seat order; the authenticated user must hold a seat.
    /// Options are the game's (pbmserv style) plus `-deadline=DURATION` and
    /// `-reminder=DURATION`.
    ///
    /// # Errors
    /// 400 for an unknown game type, a bad option, a wrong number of players, an unknown or
    /// repeated player; 403 for bad credentials or a challenger without a seat.
    pub fn challenge(
        &self,
        game_name: &str,
        option_texts: &[String],
        credentials: &Credentials,
        players: &[String],
    ) -> Result<GameView, ApiError> {
        let game = Arc::clone(self.game_type(game_name)?);
        let mut rest = Vec::new();
        let options = Options::parse(
            game.options(),
            option_texts.iter().map(String::as_str),
            &mut rest,
        )
        .map_err(ApiError::bad_request)?;
        let (deadline, reminder) = timer_options(game.name(), rest)?;
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
        if !seats.iter().any(|s| s.eq_ignore_ascii_case(&user)) {
            return Err(ApiError::forbidden(format!(
                "{user} must hold a seat in a game he starts"
            )));
        }
        let mut state = game
            .start(&options, seats.len())
            .map_err(ApiError::bad_request)?;
        let now = self.now();
        let mut moves = Vec::new();
        play_forced(state.as_mut(), &mut moves, 0, now)?;
        let derived = derive(state.as_ref(), None).map_err(ApiError::internal)?;
        let r = Replayed {
            game: Arc::clone(&game),
            options: options.clone(),
            state,
            ply: moves.len(),
            derived,
        };
        let canonical = options.to_texts();
        let mut all_options = canonical.clone();
        if let Some(d) = deadline {
            all_options.push(format!("-deadline={}", format_duration(d)));
        }
        if let Some(d) = reminder {
            all_options.push(format!("-reminder={}", format_duration(d)));
        }
        let new = NewGame {
            game: game.name().to_owned(),
            options: all_options,
            rules_version: game.rules_version(),
            deadline,
            reminder,
            players: seats.clone(),
            moves,
            cache: self.cache_of(&r, &seats, now),
            notes: Vec::new(),
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
                    "{} challenges you to {} ({})",
                    user,
                    game.name(),
                    game.seat_name(&options, seat)
                ),
                body: format!(
                    "Players: {}\nOptions: {}\n\n{}",
                    seats.join(", "),
                    if canonical.is_empty() {
                        "none".to_owned()
                    } else {
                        canonical.join(" ")
                    },
                    r.state.render_text()
                ),
            })
            .collect();
        let id = self.store.create_game(&new, now)?;
        self.changed();
        let row = self.load(id)?;
        let r = self.replay(&row, None)?;
        if let Some(seat) = r.derived.to_move_seat
            && row.players[seat] == BOT
        {
            self.schedule_bot(id);
        }
        Ok(self.view_of(&row, &r))
    }

    /// The seats `user` holds in `row`.
    fn seats_of(row: &GameRow, user: &str) -> Vec<usize> {
        row.players
            .iter()
            .enumerate()
            .filter(|(_, p)| p.eq_ignore_ascii_case(user))
            .map(|(i, _)| i)
            .collect()
    }

    /// Authenticates and finds the user's seats; 403 if none.
    fn seated(&self, row: &GameRow, user: &str) -> Result<Vec<usize>, ApiError> {
        let seats = Service::seats_of(row, user);
        if seats.is_empty() {
            return Err(ApiError::forbidden(format!(
                "{user} holds no seat on board {}",
                row.id
            )));
        }
        Ok(seats)
    }

    /// Plays a move for the user. `ply`, if given, must be the number of moves played.
    ///
    /// Checks, in this order: 404 unknown game; 403 bad credentials or no seat; 409 game
    /// over, stale move number, or not the user's turn; 422 a move that does not parse or
    /// is not legal.
    ///
    /// # Errors
    /// As above.
    pub fn play(
        &self,
        id: i64,
        credentials: &Credentials,
        text: &str,
        ply: Option<usize>,
    ) -> Result<GameView, ApiError> {
        let mut user = None;
        for _ in 0..ATTEMPTS {
            let row = self.load(id)?;
            let user = match &user {
                Some(u) => u,
                None => user.insert(self.authenticate(credentials)?),
            };
            let seats = self.seated(&row, user)?;
            if self.expire_if_due(&row)? {
                // The deadline passed: the game changed (ended, or the bot moved for the
                // player); check again against the new state.
                continue;
            }
            let mut r = self.replay(&row, None)?;
            if r.derived.over {
                return Err(ApiError::conflict(
                    "game_over",
                    format!("board {id} is over: {}", self.result_text(&r, &row.players)),
                ));
            }
            if let Some(n) = ply
                && n != row.moves.len()
            {
                return Err(stale(id, n, row.moves.len()));
            }
            let seat = r
                .derived
                .to_move_seat
                .ok_or_else(|| ApiError::internal("an active game without a seat to move"))?;
            if !seats.contains(&seat) {
                return Err(ApiError::conflict(
                    "not_your_turn",
                    format!(
                        "it is {} ({})'s turn on board {id}, not {user}'s",
                        row.players[seat],
                        r.game.seat_name(&r.options, seat)
                    ),
                ));
            }
            let canonical = r.state.play(text).map_err(|e| match e {
                MoveError::Malformed(m) | MoveError::Illegal(m) => {
                    ApiError::new(422, "illegal_move", m)
                }
            })?;
            match self.commit_move(&row, &mut r, seat, canonical, Source::Player, user) {
                Ok(view) => return Ok(view),
                Err(WriteError::Stale { .. } | WriteError::Changed) if ply.is_none() => {}
                Err(WriteError::Stale { ply: now, ended }) => {
                    return Err(if ended {
                        ApiError::conflict("game_over", format!("board {id} is over"))
                    } else {
                        stale(id, row.moves.len(), now)
                    });
                }
                Err(WriteError::Changed) => {}
                Err(WriteError::Missing) => return Err(ApiError::no_game(id)),
                Err(WriteError::Store(e)) => return Err(e.into()),
            }
        }
        Err(ApiError::new(
            503,
            "busy",
            format!("board {id} keeps changing; try again"),
        ))
    }

    /// Writes a move just played on `r` (and the moves the rules force after it).
    fn commit_move(
        &self,
        row: &GameRow,
        r: &mut Replayed,
        seat: usize,
        canonical: String,
        source: Source,
        actor: &str,
    ) -> Result<GameView, WriteError> {
        let now = self.now();
        let start = row.moves.len();
        let mut moves = vec![MoveRow {
            ply: start,
            seat,
            text: canonical.clone(),
            source,
            at: now,
        }];
        play_forced(r.state.as_mut(), &mut moves, start + 1, now)
            .map_err(|e| WriteError::Store(StoreError::Corrupt(e.message)))?;
        r.ply = start + moves.len();
        r.derived = derive(r.state.as_ref(), None).map_err(|e| {
            WriteError::Store(StoreError::Corrupt(format!(
                "the game does not replay: {e}"
            )))
        })?;
        let seat_name = r.game.seat_name(&r.options, seat);
        let mut summary = format!(
            "{} ({seat_name}) played {canonical}{}",
            row.players[seat],
            if source == Source::Bot && row.players[seat] != BOT {
                " (by the bot, on time)"
            } else {
                ""
            }
        );
        for m in &moves[1..] {
            summary.push_str(&format!(
                "; {} ({}) had to play {}",
                row.players[m.seat],
                r.game.seat_name(&r.options, m.seat),
                m.text
            ));
        }
        let status_line = self.status_line(row, r);
        let notes = self.notes_for(row, actor, &summary, &status_line, r);
        let w = Write {
            game_id: row.id,
            expected_ply: start,
            expected_revision: row.revision,
            moves,
            ending: None,
            offers: OfferChange::Clear,
            cache: self.cache_of(r, &row.players, now),
            notes,
            event: "move",
            reminded_ply: None,
            now,
        };
        self.store.write(&w)?;
        self.after_write(row.id, r, &row.players);
        let mut new_row = row.clone();
        new_row.moves.extend(w.moves);
        new_row.revision += 1;
        new_row.offers.clear();
        Ok(self.view_of(&new_row, r))
    }

    fn status_line(&self, row: &GameRow, r: &Replayed) -> String {
        match r.derived.to_move_seat {
            _ if r.derived.over => format!("Game over: {}", self.result_text(r, &row.players)),
            Some(s) => format!(
                "{} ({}) to move",
                row.players[s],
                r.game.seat_name(&r.options, s)
            ),
            None => String::new(),
        }
    }

    /// Notes to every person holding a seat except `actor`.
    fn notes_for(
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

    fn after_write(&self, id: i64, r: &Replayed, players: &[String]) {
        self.changed();
        if !r.derived.over
            && let Some(seat) = r.derived.to_move_seat
            && players.get(seat).is_some_and(|p| p == BOT)
        {
            self.schedule_bot(id);
        }
    }

    /// Plays one bot move on game `id` if the bot is to move there. Returns whether it
    /// moved. The search runs before the write transaction.
    ///
    /// # Errors
    /// Storage failure, or a game that does not replay.
    pub fn bot_turn(&self, id: i64) -> Result<bool, ApiError> {
        for _ in 0..ATTEMPTS {
            let row = self.load(id)?;
            let mut r = self.replay(&row, None)?;
            let Some(seat) = r.derived.to_move_seat.filter(|_| !r.derived.over) else {
                return Ok(false);
            };
            if row.players[seat] != BOT {
                return Ok(false);
            }
            let Some(text) = r.state.bot_move(&self.config.bot_budget) else {
                return Ok(false);
            };
            let canonical = r
                .state
                .play(&text)
                .map_err(|e| ApiError::internal(format!("the bot's move {text}: {e}")))?;
            match self.commit_move(&row, &mut r, seat, canonical, Source::Bot, BOT) {
                Ok(_) => return Ok(true),
                Err(WriteError::Stale { .. } | WriteError::Changed) => {}
                Err(WriteError::Missing) => return Err(ApiError::no_game(id)),
                Err(WriteError::Store(e)) => return Err(e.into()),
            }
        }
        Ok(false)
    }

    /// Resigns for the user (his one seat, or the seat to move if he holds several).
    ///
    /// # Errors
    /// 404, 403, 409 (game over), 422 when the rules do not let the seat leave (a
    /// free-for-all game with several opponents left).
    pub fn resign(&self, id: i64, credentials: &Credentials) -> Result<GameView, ApiError> {
        let mut user = None;
        for _ in 0..ATTEMPTS {
            let row = self.load(id)?;
            let user = match &user {
                Some(u) => u,
                None => user.insert(self.authenticate(credentials)?),
            };
            let seats = self.seated(&row, user)?;
            if self.expire_if_due(&row)? {
                continue;
            }
            let r = self.replay(&row, None)?;
            self.check_active(&row, &r)?;
            let seat = match r.derived.to_move_seat {
                Some(s) if seats.contains(&s) => s,
                _ => seats[0],
            };
            r.state
                .winners_without(seat)
                .map_err(|e| ApiError::new(422, "illegal_move", e))?;
            let ending = Ending {
                ply: row.moves.len(),
                kind: EndKind::Resignation,
                seat: Some(seat),
                at: self.now(),
            };
            let summary = format!(
                "{} ({}) resigned",
                row.players[seat],
                r.game.seat_name(&r.options, seat)
            );
            match self.commit_ending(&row, r, ending, &summary, user) {
                Ok(v) => return Ok(v),
                Err(WriteError::Stale { .. } | WriteError::Changed) => {}
                Err(WriteError::Missing) => return Err(ApiError::no_game(id)),
                Err(WriteError::Store(e)) => return Err(e.into()),
            }
        }
        Err(ApiError::new(
            503,
            "busy",
            format!("board {id} keeps changing; try again"),
        ))
    }

    fn check_active(&self, row: &GameRow, r: &Replayed) -> Result<(), ApiError> {
        if r.derived.over {
            return Err(ApiError::conflict(
                "game_over",
                format!(
                    "board {} is over: {}",
                    row.id,
                    self.result_text(r, &row.players)
                ),
            ));
        }
        Ok(())
    }

    fn commit_ending(
        &self,
        row: &GameRow,
        mut r: Replayed,
        ending: Ending,
        summary: &str,
        actor: &str,
    ) -> Result<GameView, WriteError> {
        r.derived = derive(r.state.as_ref(), Some(&ending))
            .map_err(|e| WriteError::Store(StoreError::Corrupt(e)))?;
        let status = self.status_line(row, &r);
        let notes = self.notes_for(row, actor, summary, &status, &r);
        let w = Write {
            game_id: row.id,
            expected_ply: row.moves.len(),
            expected_revision: row.revision,
            moves: Vec::new(),
            ending: Some(ending),
            offers: OfferChange::Clear,
            cache: self.cache_of(&r, &row.players, turn_since(row)),
            notes,
            event: ending.kind.as_str(),
            reminded_ply: None,
            now: ending.at,
        };
        self.store.write(&w)?;
        self.after_write(row.id, &r, &row.players);
        let mut new_row = row.clone();
        new_row.ending = Some(ending);
        new_row.revision += 1;
        new_row.offers.clear();
        Ok(self.view_of(&new_row, &r))
    }

    /// `propose`, `accept` or `reject` a draw.
    ///
    /// A draw is agreed when every person holding a seat has proposed or accepted it at the
    /// current move number; a move withdraws every offer. The bot never agrees to a draw.
    ///
    /// # Errors
    /// 404, 403, 409 (game over; nothing to accept or reject; a bot in the game), 400 for
    /// another action.
    pub fn draw(
        &self,
        id: i64,
        credentials: &Credentials,
        action: &str,
    ) -> Result<GameView, ApiError> {
        if !matches!(action, "propose" | "accept" | "reject") {
            return Err(ApiError::bad_request(format!(
                "`{}`: expected propose, accept or reject",
                excerpt(action)
            )));
        }
        let mut user = None;
        for _ in 0..ATTEMPTS {
            let row = self.load(id)?;
            let user = match &user {
                Some(u) => u,
                None => user.insert(self.authenticate(credentials)?),
            };
            let seats = self.seated(&row, user)?;
            if self.expire_if_due(&row)? {
                continue;
            }
            let r = self.replay(&row, None)?;
            self.check_active(&row, &r)?;
            let others_offer = row.offers.iter().any(|s| !seats.contains(s));
            if row.players.iter().any(|p| p == BOT) && action != "reject" {
                return Err(ApiError::conflict(
                    "declined",
                    "the bot does not agree to draws",
                ));
            }
            if matches!(action, "accept" | "reject") && !others_offer {
                return Err(ApiError::conflict(
                    "no_offer",
                    format!("nobody offers a draw on board {id} now"),
                ));
            }
            let now = self.now();
            let result = if action == "reject" {
                let summary = format!("{user} rejected the draw offer");
                let status = self.status_line(&row, &r);
                let w = Write {
                    game_id: id,
                    expected_ply: row.moves.len(),
                    expected_revision: row.revision,
                    moves: Vec::new(),
                    ending: None,
                    offers: OfferChange::Clear,
                    cache: self.cache_of(&r, &row.players, turn_since(&row)),
                    notes: self.notes_for(&row, user, &summary, &status, &r),
                    event: "draw_rejected",
                    reminded_ply: None,
                    now,
                };
                self.store.write(&w).map(|_| {
                    self.changed();
                    let mut new_row = row.clone();
                    new_row.offers.clear();
                    new_row.revision += 1;
                    self.view_of(&new_row, &r)
                })
            } else {
                let mut agreed: Vec<usize> = row.offers.clone();
                agreed.extend(&seats);
                let all = (0..row.players.len()).all(|s| agreed.contains(&s));
                if all {
                    let ending = Ending {
                        ply: row.moves.len(),
                        kind: EndKind::Agreement,
                        seat: None,
                        at: now,
                    };
                    let summary = format!("{user} accepted the draw");
                    self.commit_ending(&row, r, ending, &summary, user)
                } else {
                    let summary = format!("{user} offers a draw (accept or reject)");
                    let status = self.status_line(&row, &r);
                    let w = Write {
                        game_id: id,
                        expected_ply: row.moves.len(),
                        expected_revision: row.revision,
                        moves: Vec::new(),
                        ending: None,
                        offers: OfferChange::Add(seats.clone()),
                        cache: self.cache_of(&r, &row.players, turn_since(&row)),
                        notes: self.notes_for(&row, user, &summary, &status, &r),
                        event: "draw_offer",
                        reminded_ply: None,
                        now,
                    };
                    let res = self.store.write(&w);
                    res.map(|_| {
                        self.changed();
                        let mut new_row = row.clone();
                        new_row.offers = agreed;
                        new_row.offers.sort_unstable();
                        new_row.offers.dedup();
                        new_row.revision += 1;
                        self.view_of(&new_row, &r)
                    })
                }
            };
            match result {
                Ok(v) => return Ok(v),
                Err(WriteError::Stale { .. } | WriteError::Changed) => {}
                Err(WriteError::Missing) => return Err(ApiError::no_game(id)),
                Err(WriteError::Store(e)) => return Err(e.into()),
            }
        }
        Err(ApiError::new(
            503,
            "busy",
            format!("board {id} keeps changing; try again"),
        ))
    }

    // ----------------------------------------------------------------------------------
    // Timers.
    // ----------------------------------------------------------------------------------

    /// Applies every timer due now: reminders, and forfeits on time. Returns the boards
    /// changed.
    ///
    /// # Errors
    /// Storage failure.
    pub fn sweep_timers(&self) -> Result<Vec<i64>, ApiError> {
        let mut changed = Vec::new();
        for id in self.store.games_due(self.now())? {
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
    fn expire_if_due(&self, row: &GameRow) -> Result<bool, ApiError> {
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
                    let mut r = r;
                    let Some(text) = r.state.bot_move(&self.config.bot_budget) else {
                        return Ok(false);
                    };
                    let canonical = r
                        .state
                        .play(&text)
                        .map_err(|e| ApiError::internal(format!("the bot's move {text}: {e}")))?;
                    let _ = self.commit_move(row, &mut r, seat, canonical, Source::Bot, "");
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
            let w = Write {
                game_id: row.id,
                expected_ply: row.moves.len(),
                expected_revision: row.revision,
                moves: Vec::new(),
                ending: None,
                offers: OfferChange::Keep,
                cache: self.cache_of(&r, &row.players, since),
                notes: vec![Note {
                    userid: player.clone(),
                    game_id: Some(row.id),
                    subject: format!("{} {}: reminder - your move", row.game, row.id),
                    body: format!(
                        "It is your move on board {} since {}.{deadline}\n\n{}",
                        row.id,
                        format_duration(now - since),
                        r.state.render_text()
                    ),
                }],
                event: "reminder",
                reminded_ply: Some(row.moves.len()),
                now,
            };
            match self.store.write(&w) {
                Ok(_) | Err(WriteError::Stale { .. } | WriteError::Changed) => {}
                Err(WriteError::Missing) => return Err(ApiError::no_game(row.id)),
                Err(WriteError::Store(e)) => return Err(e.into()),
            }
        }
        Ok(false)
    }

    // ----------------------------------------------------------------------------------
    // Checks.
    // ----------------------------------------------------------------------------------

    /// Replays every game from its log and compares the result with the cached columns.
    ///
    /// # Errors
    /// Storage failure.
    pub fn check(&self) -> Result<(usize, Vec<CheckProblem>), ApiError> {
        let ids = self.store.game_ids()?;
        let mut problems = Vec::new();
        for &id in &ids {
            let outcome = (|| -> Result<(), ApiError> {
                let row = self.load(id)?;
                let r = self.replay(&row, None)?;
                let expected = self.cache_of(&r, &row.players, turn_since(&row));
                let stored = self.store.cache(id)?.ok_or_else(|| ApiError::no_game(id))?;
                if stored != expected {
                    return Err(ApiError::internal(format!(
                        "cache {stored:?} but the log gives {expected:?}"
                    )));
                }
                for (i, m) in row.moves.iter().enumerate() {
                    if m.ply != i {
                        return Err(ApiError::internal(format!("move {i} misnumbered")));
                    }
                }
                Ok(())
            })();
            if let Err(e) = outcome {
                problems.push(CheckProblem {
                    id,
                    problem: e.message,
                });
            }
        }
        Ok((ids.len(), problems))
    }
}

fn stale(id: i64, given: usize, actual: usize) -> ApiError {
    ApiError::conflict(
        "stale",
        format!(
            "board {id} has {} played; a move numbered #{given} is stale",
            plural(actual, "move", "moves")
        ),
    )
}

/// When the player to move began to think: the last move, or the creation.
fn turn_since(row: &GameRow) -> i64 {
    row.moves.last().map_or(row.created_at, |m| m.at)
}

/// Plays every move the rules force, appending them to `moves` from `first_ply`.
fn play_forced(
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
fn derive(state: &dyn Match, ending: Option<&Ending>) -> Result<Derived, String> {
    if let Some(e) = ending {
        let winners = match (e.kind, e.seat) {
            (EndKind::Agreement, _) => Vec::new(),
            (_, Some(seat)) => state.winners_without(seat)?,
            (_, None) => return Err("an ending without its seat".to_owned()),
        };
        return Ok(Derived {
            over: true,
            to_move_seat: None,
            winners,
            reason: Some(e.kind.as_str().to_owned()),
        });
    }
    Ok(match state.outcome() {
        Some(o) => Derived {
            over: true,
            to_move_seat: None,
            winners: o.winners,
            reason: Some(o.reason),
        },
        None => Derived {
            over: false,
            to_move_seat: state.to_move(),
            winners: Vec::new(),
            reason: None,
        },
    })
}

/// Reads the server's own options (`-deadline`, `-reminder`); anything else is refused.
fn timer_options(
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
    let bad = || {
        format!(
            "`{}` is not a duration such as 7d, 36h, 90m or 1d12h",
            excerpt(text)
        )
    };
    let mut total: i64 = 0;
    let mut number: Option<i64> = None;
    for c in text.chars() {
        if let Some(d) = c.to_digit(10) {
            let n = number.unwrap_or(0);
            number = Some(
                n.checked_mul(10)
                    .and_then(|n| n.checked_add(i64::from(d)))
                    .filter(|&n| n <= 100_000_000)
                    .ok_or_else(bad)?,
            );
            continue;
        }
        let unit = match c {
            's' => 1,
            'm' => 60,
            'h' => 3600,
            'd' => 86_400,
            _ => return Err(bad()),
        };
        total += number.take().ok_or_else(bad)? * unit;
    }
    if number.is_some() || !(1..=1000 * 86_400).contains(&total) {
        return Err(bad());
    }
    Ok(total)
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
