//! The schema: the numbered migrations compiled into the binary, and their application.

use rusqlite::{Connection, TransactionBehavior};

use super::{StoreError, to_i64, to_usize};

/// The schema, one migration per entry; entry `i` moves `user_version` from `i` to `i + 1`.
pub const MIGRATIONS: &[&str] = &[
    // 1: users, sessions, games with their seats, move log, endings, draw offers, outbox,
    //    events.
    "
    CREATE TABLE users (
        userid TEXT PRIMARY KEY NOT NULL COLLATE NOCASE,
        password_hash TEXT NOT NULL,
        created_at INTEGER NOT NULL
    );
    CREATE TABLE sessions (
        token_hash TEXT PRIMARY KEY NOT NULL,
        userid TEXT NOT NULL REFERENCES users(userid),
        created_at INTEGER NOT NULL,
        expires_at INTEGER NOT NULL
    ) WITHOUT ROWID;
    CREATE TABLE games (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        game TEXT NOT NULL,
        options TEXT NOT NULL,
        rules_version INTEGER NOT NULL,
        deadline INTEGER,
        reminder INTEGER,
        created_at INTEGER NOT NULL,
        revision INTEGER NOT NULL DEFAULT 0,
        ply INTEGER NOT NULL DEFAULT 0,
        status TEXT NOT NULL DEFAULT 'active',
        to_move_seat INTEGER,
        winners TEXT NOT NULL DEFAULT '[]',
        result TEXT NOT NULL DEFAULT '',
        turn_since INTEGER NOT NULL,
        reminded_ply INTEGER
    );
    INSERT INTO sqlite_sequence(name, seq) VALUES ('games', 100);
    CREATE INDEX games_by_status ON games(status, id);
    CREATE TABLE seats (
        game_id INTEGER NOT NULL REFERENCES games(id),
        seat INTEGER NOT NULL,
        userid TEXT NOT NULL COLLATE NOCASE,
        PRIMARY KEY (game_id, seat)
    ) WITHOUT ROWID;
    CREATE INDEX seats_by_user ON seats(userid, game_id);
    CREATE TABLE moves (
        game_id INTEGER NOT NULL REFERENCES games(id),
        ply INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        text TEXT NOT NULL,
        source TEXT NOT NULL,
        at INTEGER NOT NULL,
        PRIMARY KEY (game_id, ply)
    ) WITHOUT ROWID;
    CREATE TRIGGER moves_no_update BEFORE UPDATE ON moves
        BEGIN SELECT RAISE(ABORT, 'the move log is append-only'); END;
    CREATE TRIGGER moves_no_delete BEFORE DELETE ON moves
        BEGIN SELECT RAISE(ABORT, 'the move log is append-only'); END;
    CREATE TABLE endings (
        game_id INTEGER PRIMARY KEY NOT NULL REFERENCES games(id),
        ply INTEGER NOT NULL,
        kind TEXT NOT NULL,
        seat INTEGER,
        at INTEGER NOT NULL
    );
    CREATE TRIGGER endings_no_update BEFORE UPDATE ON endings
        BEGIN SELECT RAISE(ABORT, 'endings are append-only'); END;
    CREATE TRIGGER endings_no_delete BEFORE DELETE ON endings
        BEGIN SELECT RAISE(ABORT, 'endings are append-only'); END;
    CREATE TABLE draw_offers (
        game_id INTEGER NOT NULL REFERENCES games(id),
        seat INTEGER NOT NULL,
        ply INTEGER NOT NULL,
        at INTEGER NOT NULL,
        PRIMARY KEY (game_id, seat)
    ) WITHOUT ROWID;
    CREATE TABLE outbox (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        userid TEXT NOT NULL COLLATE NOCASE,
        game_id INTEGER,
        at INTEGER NOT NULL,
        subject TEXT NOT NULL,
        body TEXT NOT NULL,
        sent_at INTEGER
    );
    CREATE INDEX outbox_by_user ON outbox(userid, id);
    CREATE TABLE events (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        game_id INTEGER NOT NULL,
        ply INTEGER NOT NULL,
        kind TEXT NOT NULL,
        at INTEGER NOT NULL
    );
    ",
    // 2: invitations. Who started each game (unknown, NULL, for older games) and the people
    //    he seated, with the time each joined; a game with someone not joined yet has the
    //    status `invited`. Older games have no invitations: they started when created.
    "
    ALTER TABLE games ADD COLUMN challenger TEXT COLLATE NOCASE;
    CREATE TABLE invitations (
        game_id INTEGER NOT NULL REFERENCES games(id),
        userid TEXT NOT NULL COLLATE NOCASE,
        joined_at INTEGER,
        PRIMARY KEY (game_id, userid)
    ) WITHOUT ROWID;
    CREATE INDEX invitations_waiting ON invitations(userid, game_id) WHERE joined_at IS NULL;
    CREATE INDEX games_by_challenger ON games(challenger, status);
    CREATE TRIGGER invitations_no_delete BEFORE DELETE ON invitations
        BEGIN SELECT RAISE(ABORT, 'invitations are kept'); END;
    ",
    // 3: mail. Each user's e-mail address, with the confirmation code waiting for it
    //    (hashed) until it is confirmed; the queue of mail to send (kept after sending,
    //    with the relay's last refusal).
    "
    CREATE TABLE mail_addresses (
        userid TEXT PRIMARY KEY NOT NULL COLLATE NOCASE REFERENCES users(userid),
        address TEXT NOT NULL,
        confirmed_at INTEGER,
        code_hash TEXT,
        code_expires INTEGER,
        tries_left INTEGER NOT NULL DEFAULT 0
    );
    CREATE INDEX mail_addresses_by_address ON mail_addresses(address COLLATE NOCASE);
    CREATE TABLE mail_queue (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        userid TEXT COLLATE NOCASE,
        recipient TEXT NOT NULL,
        subject TEXT NOT NULL,
        body TEXT NOT NULL,
        thread TEXT,
        in_reply_to TEXT,
        queued_at INTEGER NOT NULL,
        attempts INTEGER NOT NULL DEFAULT 0,
        next_try INTEGER NOT NULL,
        last_error TEXT,
        sent_at INTEGER,
        failed_at INTEGER
    );
    CREATE INDEX mail_queue_waiting ON mail_queue(id) WHERE sent_at IS NULL AND failed_at IS NULL;
    CREATE INDEX mail_queue_threads ON mail_queue(thread, recipient, id);
    ",
    // 4: withdrawals. A free-for-all player who leaves a game that goes on is a log entry
    //    of its own (source `withdrawal`, the text `resignation` or `time`), replayed with
    //    the moves; a game left to bots alone ends `abandoned`. The log takes only the
    //    kinds of entry this server knows.
    "
    CREATE TRIGGER moves_known_source BEFORE INSERT ON moves
        WHEN NEW.source NOT IN ('player', 'bot', 'forced', 'withdrawal')
        BEGIN SELECT RAISE(ABORT, 'unknown kind of log entry'); END;
    ",
    // 5: ratings. Whether a game is rated (`-rated`, two people); each person's Glicko-2
    //    rating per game type and board size; and, for each rated game that ended, the
    //    rating of each of its two players before and after it (one rating period), kept
    //    so that `ployd check` can recompute the ratings. Older games are unrated.
    "
    ALTER TABLE games ADD COLUMN rated INTEGER NOT NULL DEFAULT 0 CHECK (rated IN (0, 1));
    CREATE TABLE ratings (
        userid TEXT NOT NULL COLLATE NOCASE REFERENCES users(userid),
        game TEXT NOT NULL,
        size INTEGER NOT NULL CHECK (size > 0),
        rating REAL NOT NULL,
        deviation REAL NOT NULL CHECK (deviation > 0),
        volatility REAL NOT NULL CHECK (volatility > 0),
        games INTEGER NOT NULL CHECK (games > 0),
        updated_at INTEGER NOT NULL,
        PRIMARY KEY (userid, game, size)
    ) WITHOUT ROWID;
    CREATE INDEX ratings_by_board ON ratings(game, size, rating DESC, userid);
    CREATE TABLE rating_changes (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        game_id INTEGER NOT NULL REFERENCES games(id),
        seat INTEGER NOT NULL,
        userid TEXT NOT NULL COLLATE NOCASE REFERENCES users(userid),
        score REAL NOT NULL CHECK (score IN (0, 0.5, 1)),
        before_rating REAL NOT NULL,
        before_deviation REAL NOT NULL,
        before_volatility REAL NOT NULL,
        after_rating REAL NOT NULL,
        after_deviation REAL NOT NULL,
        after_volatility REAL NOT NULL,
        at INTEGER NOT NULL,
        UNIQUE (game_id, seat)
    );
    CREATE TRIGGER rating_changes_no_update BEFORE UPDATE ON rating_changes
        BEGIN SELECT RAISE(ABORT, 'rating changes are append-only'); END;
    CREATE TRIGGER rating_changes_no_delete BEFORE DELETE ON rating_changes
        BEGIN SELECT RAISE(ABORT, 'rating changes are append-only'); END;
    ",
    // 6: what several servers on one database share (the PostgreSQL backend uses these
    //    tables; one SQLite server keeps the same things in memory, and its tables stay
    //    empty). The bot queue: each game waiting for a bot move, the user it is counted
    //    for, its place in line and the process computing it (the backend pid and start of
    //    that process's presence connection); each user's last turn in the queue. The
    //    throttles: per limit and key (a client network, or a network and a userid), the
    //    rate limiter's state and the lock of failed password checks. An event's place in
    //    the order of commits (`pos`: PostgreSQL's; on SQLite `seq` is that order).
    "
    CREATE TABLE bot_queue (
        game_id INTEGER PRIMARY KEY NOT NULL REFERENCES games(id),
        owner TEXT NOT NULL COLLATE NOCASE,
        line INTEGER NOT NULL,
        claimed_by INTEGER,
        claimer_start TEXT
    );
    CREATE INDEX bot_queue_by_owner ON bot_queue(owner, line);
    CREATE TABLE bot_owners (
        owner TEXT PRIMARY KEY NOT NULL COLLATE NOCASE,
        served INTEGER NOT NULL
    ) WITHOUT ROWID;
    ALTER TABLE events ADD COLUMN pos INTEGER;
    CREATE TABLE throttles (
        kind TEXT NOT NULL,
        key TEXT NOT NULL,
        tat INTEGER NOT NULL,
        locked_until INTEGER NOT NULL DEFAULT 0,
        strikes INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (kind, key)
    ) WITHOUT ROWID;
    ",
];

pub(super) fn migrate(conn: &mut Connection) -> Result<(), StoreError> {
    let known = to_i64(MIGRATIONS.len());
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    let found: i64 = tx.query_row("PRAGMA user_version", [], |r| r.get(0))?;
    if found > known {
        return Err(StoreError::TooNew { found, known });
    }
    for (i, sql) in MIGRATIONS.iter().enumerate().skip(to_usize(found)?) {
        tx.execute_batch(sql)?;
        tx.pragma_update(None, "user_version", to_i64(i + 1))?;
    }
    tx.commit()?;
    Ok(())
}
