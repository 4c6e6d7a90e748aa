//! What the server does, whatever the way in (the command language or the HTTP API):
//! accounts, challenges, moves, resignations, draw offers, timers and bots.
//!
//! Every state-changing call follows the same steps (`Service::with_game`): read the
//! game, authenticate (the argon2id verification runs here, outside any transaction),
//! replay the log, check and play the move (and any moves the rules force, and compute a
//! bot's move the same way), then write everything in one `BEGIN IMMEDIATE` transaction
//! that first checks the move number again ([`Store::write`]). When the game moved on in
//! between, a call that named its move number gets 409; one that did not is computed again.
//!
//! The use cases live in the child modules: [`accounts`], [`challenges`],
//! [`invitations`], [`moves`], [`endings`], [`timers`], [`check`]; [`replay`] and [`view`]
//! read games for all of them. Bot moves of `ployd serve` are queued fairly across users:
//! in memory on SQLite (the private `bots` module), in the database on PostgreSQL, where
//! several processes share the queue (`shared_bots`).

use std::sync::{Arc, Mutex};

use crate::auth::{BOT, HashParams};
use crate::game::{Budget, DynGame, Registry, excerpt};
use crate::store::{GameRow, Quotas, Store, WriteError};

pub mod accounts;
mod bots;
pub mod challenges;
pub mod check;
pub mod clock;
pub mod endings;
pub mod error;
pub mod hashing;
pub mod invitations;
pub mod moves;
pub mod ratings;
pub mod replay;
mod shared_bots;
pub mod throttle;
pub mod timers;
pub mod view;

pub use accounts::{Credentials, Verdicts};
pub use challenges::Setup;
pub use check::CheckProblem;
pub use clock::{Clock, FixedClock, SystemClock};
pub use error::ApiError;
pub use hashing::{HashTicket, HashWorkers};
pub use throttle::{Limits, Rate};
pub use timers::{format_duration, parse_duration};
pub use view::{GAMES_PAGE, GameView, HistoryLine};

use replay::Replayed;

/// The most moves the server plays by itself after one move (forced passes), a guard
/// against an adapter that would force moves for ever.
const MAX_FORCED: usize = 10_000;

/// Attempts of a write whose game changed under it before giving up with 503.
const ATTEMPTS: usize = 20;

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
    /// The most games one user may have waiting for a bot move at once (`ployd serve`);
    /// the move or challenge that would make one more is refused (429
    /// `too_many_bot_games`).
    pub bot_games_per_user: usize,
    /// The most invitations one challenger may have open (games waiting for someone to
    /// join); one more is refused (429 `too_many_invitations`).
    pub max_invitations: usize,
    /// Threads that compute password hashes: at most this many argon2id computations run
    /// at once (default: the number of cores).
    pub hash_workers: usize,
    /// Computations that may wait for a hash thread; beyond them `503 busy` (default 64).
    pub hash_queue: usize,
    /// The throttles of clients on the network ([`Credentials::Remote`], new accounts).
    pub limits: Limits,
    /// On PostgreSQL, how often the bot workers look for games in the queue without being
    /// notified: the longest a game claimed by a process that died waits before another
    /// process plays it (default 10 s).
    pub bot_recheck: std::time::Duration,
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
            bot_games_per_user: 8,
            max_invitations: 20,
            hash_workers: std::thread::available_parallelism().map_or(2, usize::from),
            hash_queue: 64,
            limits: Limits::default(),
            bot_recheck: std::time::Duration::from_secs(10),
        }
    }
}

/// How bot moves are made.
enum Bots {
    /// Queued for worker threads (`ployd serve`), fairly across users.
    Pool(Arc<bots::FairQueue>),
    /// Claimed from the database's queue by worker threads (`ployd serve` on PostgreSQL,
    /// where several processes share the queue).
    Shared(Arc<shared_bots::SharedBots>),
    /// Collected, and played when the caller asks ([`Service::run_pending_bots`]; `ployd
    /// cmd`).
    Inline(Mutex<Vec<i64>>),
}

/// The server's logic over one [`Store`].
pub struct Service {
    store: Store,
    registry: Registry,
    clock: Arc<dyn Clock>,
    config: Config,
    bots: Bots,
    hashers: HashWorkers,
    throttle: throttle::Throttle,
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
    /// A service that collects bot turns for [`Service::run_pending_bots`], with its
    /// `config.hash_workers` password-hash threads.
    ///
    /// # Panics
    /// The operating system cannot start a thread.
    #[must_use]
    pub fn new(store: Store, registry: Registry, clock: Arc<dyn Clock>, config: Config) -> Service {
        let hashers = HashWorkers::start(config.hash_workers, config.hash_queue)
            .expect("the password-hash threads can start");
        Service {
            store,
            registry,
            clock,
            throttle: throttle::Throttle::new(config.limits),
            config,
            bots: Bots::Inline(Mutex::new(Vec::new())),
            hashers,
            on_change: Mutex::new(None),
        }
    }

    /// Starts `threads` bot workers (at least one); bot turns are queued for them from now
    /// on, taken round-robin across the users who queued them, at most
    /// [`Config::bot_games_per_user`] waiting per user; every game already waiting for the
    /// bot is queued (for its first human player).
    ///
    /// # Errors
    /// Storage failure while looking for waiting games.
    pub fn start_bot_workers(self: &mut Arc<Service>, threads: usize) -> Result<(), ApiError> {
        if self.store.is_postgres() {
            let shared = Arc::new(shared_bots::SharedBots::default());
            let recheck = self.config.bot_recheck;
            let service = Arc::get_mut(self).ok_or_else(|| {
                ApiError::internal("bot workers must start before the service is shared")
            })?;
            service.bots = Bots::Shared(Arc::clone(&shared));
            return shared_bots::start(self, &shared, threads, recheck)
                .map_err(|e| ApiError::internal(format!("cannot start a bot thread: {e}")));
        }
        let queue = Arc::new(bots::FairQueue::new(self.config.bot_games_per_user));
        let service = Arc::get_mut(self).ok_or_else(|| {
            ApiError::internal("bot workers must start before the service is shared")
        })?;
        service.bots = Bots::Pool(Arc::clone(&queue));
        for i in 0..threads.max(1) {
            let queue = Arc::clone(&queue);
            let weak = Arc::downgrade(self);
            std::thread::Builder::new()
                .name(format!("bot-{i}"))
                .spawn(move || {
                    while let Some(id) = queue.next() {
                        let Some(service) = weak.upgrade() else { break };
                        if let Err(e) = service.bot_turn(id) {
                            eprintln!("ployd: bot on board {id}: {e}");
                        }
                        queue.finish(id);
                    }
                })
                .map_err(|e| ApiError::internal(format!("cannot start a bot thread: {e}")))?;
        }
        for id in self.store.games_waiting_for(BOT)? {
            if let Some(row) = self.store.load_game(id)? {
                self.schedule_bot(id, first_human(&row.players));
            }
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

    /// Queues game `id` for the bot, counted for `owner` (unless it is queued already).
    fn schedule_bot(&self, id: i64, owner: &str) {
        match &self.bots {
            Bots::Pool(queue) => queue.schedule(id, owner),
            // The write queued it in the database (and notified every process).
            Bots::Shared(shared) => shared.wake(),
            Bots::Inline(pending) => pending
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .push(id),
        }
    }

    /// Holds a place in the bot queue for one more game of `owner` when `r` leaves the bot
    /// to move (nothing otherwise, and nothing for `ployd cmd`, whose bots move before the
    /// command answers).
    ///
    /// # Errors
    /// 429 `too_many_bot_games`.
    fn bot_ticket(
        &self,
        owner: &str,
        r: &Replayed,
        players: &[String],
    ) -> Result<Option<bots::Ticket>, ApiError> {
        let bot_next = !r.derived.over
            && !r.derived.invited
            && r.derived
                .to_move_seat
                .is_some_and(|s| players.get(s).is_some_and(|p| p == BOT));
        match &self.bots {
            Bots::Pool(queue) if bot_next => queue.ticket(owner).map(Some),
            _ => Ok(None),
        }
    }

    /// The limits a write by `actor` checks in its transaction: on PostgreSQL with shared
    /// bot workers, a person's write that leaves the bot to move counts for him in the
    /// database's bot queue, at most [`Config::bot_games_per_user`]; a challenge with
    /// invitations, at most [`Config::max_invitations`] open (on both databases).
    fn quotas(&self, actor: &str) -> Quotas {
        let person = !actor.is_empty() && actor != BOT;
        let shared = matches!(self.bots, Bots::Shared(_));
        Quotas {
            bot_owner: (person && shared).then(|| actor.to_owned()),
            bot_games: (person && shared).then_some(self.config.bot_games_per_user),
            invitations: Some(self.config.max_invitations),
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
                Bots::Pool(_) | Bots::Shared(_) => None,
            };
            let Some(id) = next else { break };
            if let Err(e) = self.bot_turn(id) {
                eprintln!("ployd: bot on board {id}: {e}");
            }
        }
    }

    // ----------------------------------------------------------------------------------
    // Shared by the use cases.
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

    /// The loop that every change a player asks for goes through: load game `id`,
    /// authenticate once, find the user's seats (403 if none), apply a timer now due (and
    /// read the game again if it changed), replay the log, then `act` on it.
    ///
    /// `act` gets the stored row, the userid, the user's seats and the replayed game; it
    /// answers `Ok(Some(value))` when done, `Ok(None)` when the game changed under it and
    /// the whole attempt must run again on a fresh read, or the refusal. After
    /// [`ATTEMPTS`] attempts the answer is 503 `busy`.
    fn with_game<T>(
        &self,
        id: i64,
        credentials: &Credentials,
        mut act: impl FnMut(&GameRow, &str, &[usize], Replayed) -> Result<Option<T>, ApiError>,
    ) -> Result<T, ApiError> {
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
            let r = self.replay(&row, None)?;
            if let Some(done) = act(&row, user, &seats, r)? {
                return Ok(done);
            }
        }
        Err(ApiError::new(
            503,
            "busy",
            format!("board {id} keeps changing; try again"),
        ))
    }

    /// Whether the game is over, as a 409 refusal.
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

    /// After a write by `actor`: tells the event streams, and queues the bot if it is to
    /// move (for `actor`, or the first human player when the bot or a timer wrote).
    fn after_write(&self, id: i64, r: &Replayed, players: &[String], actor: &str) {
        self.changed();
        if !r.derived.over
            && !r.derived.invited
            && let Some(seat) = r.derived.to_move_seat
            && players.get(seat).is_some_and(|p| p == BOT)
        {
            let owner = if actor.is_empty() || actor == BOT {
                first_human(players)
            } else {
                actor
            };
            self.schedule_bot(id, owner);
        }
    }
}

impl Drop for Service {
    fn drop(&mut self) {
        match &self.bots {
            Bots::Pool(queue) => queue.close(),
            Bots::Shared(shared) => shared.close(),
            Bots::Inline(_) => {}
        }
    }
}

/// The first player who is not the bot (the bot itself when all seats are its).
fn first_human(players: &[String]) -> &str {
    players
        .iter()
        .find(|p| *p != BOT)
        .map_or(BOT, String::as_str)
}

/// What a write came to, for [`Service::with_game`]'s loop: the value, `None` to try again
/// when the game changed under the write, or the refusal.
fn settle<T>(id: i64, written: Result<T, WriteError>) -> Result<Option<T>, ApiError> {
    match written {
        Ok(v) => Ok(Some(v)),
        Err(WriteError::Stale { .. } | WriteError::Changed) => Ok(None),
        Err(WriteError::Missing) => Err(ApiError::no_game(id)),
        Err(WriteError::Store(e)) => Err(e.into()),
    }
}
