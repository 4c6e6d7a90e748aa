//! The command language, pbmserv style: one command a line, words separated by spaces.
//!
//! ```text
//! signup USER PASSWORD
//! password USER OLD NEW
//! help [GAME]
//! list
//! inbox USER PASSWORD
//! email USER PASSWORD ADDRESS|none
//! confirm USER PASSWORD CODE
//! GAME challenge [OPTIONS] [--] USER1 PASSWORD USER2 [USER3 USER4]
//! GAME move BOARD USER PASSWORD MOVE[#N]
//! GAME show BOARD[#N]
//! GAME history BOARD
//! GAME games USER [active|next|all]
//! GAME resign BOARD USER PASSWORD
//! GAME propose|accept|reject BOARD USER PASSWORD
//! GAME join|decline BOARD USER PASSWORD
//! ```
//!
//! The first line of every reply is `ok ...` or `error CODE: reason`, where CODE is the HTTP
//! status the API gives for the same failure (400, 403, 404, 409, 413, 422, 429, 503, 500). The lines
//! after it are for people. [`execute`] gives the reply; `ployd cmd` and `POST /api/command`
//! print each reply followed by a line holding a single `.` (a reply line starting with `.`
//! gets a second `.` in front, as in SMTP, so that no line of a reply is a lone `.`).

use std::fmt::Write as _;
use std::net::IpAddr;
use std::sync::Arc;

use crate::auth::BOT;
use crate::game::{LEVEL_OPTION, OptionKind, RATED_OPTION, excerpt};
use crate::service::{ApiError, Credentials, GameView, Service, Verdicts};
use crate::store::Source;

mod ratings;

/// The commands, for `help`.
pub const HELP: &str = "\
Commands (one a line; words separated by spaces):
  signup USER PASSWORD                        create an account (a password is 8 to
                                              1024 bytes, no spaces)
  password USER OLD NEW                       change your password (ends your other
                                              sessions)
  help [GAME]                                 this text, or a game's options and moves
  list                                        the game types
  inbox USER PASSWORD                         your notifications
  email USER PASSWORD ADDRESS|none            have mail sent to ADDRESS (a code is mailed
                                              to it), or no mail (none)
  confirm USER PASSWORD CODE                  confirm the address with the code mailed
                                              to it (good for 24 hours and 5 tries)
  GAME challenge [OPTIONS] [--] USER1 PASSWORD USER2 [USER3 USER4]
                                              start a game (USER1 takes the first seat;
                                              the userid `bot` is the built-in bot; the
                                              others are invited and must join; `--`
                                              ends the options; `bot USER PASSWORD ...`
                                              seats the bot first)
  GAME join BOARD USER PASSWORD               join a game you are invited to
  GAME decline BOARD USER PASSWORD            decline it (the challenger: cancel it)
  GAME move BOARD USER PASSWORD MOVE[#N]      play a move (#N: the number of moves played
                                              before it; a stale number is refused)
  GAME show BOARD[#N]                         the board (after N moves)
  GAME history BOARD                          the moves
  GAME record BOARD                           the game's record in its game's format
  GAME games USER [active|next|all]           a user's games (next: where it is his move,
                                              and invitations waiting for him)
  GAME resign BOARD USER PASSWORD             resign
  GAME rematch BOARD USER PASSWORD            a new game after a finished one: the same
                                              options, every player one seat on
  GAME propose|accept|reject BOARD USER PASSWORD
                                              offer, accept or reject a draw
  GAME ratings [SIZE] [PAGE]                  the leaderboard of GAME on boards of side
                                              SIZE (the game's default board if left out)
Every game also takes -deadline=DURATION (time per move; a player out of time forfeits)
and -reminder=DURATION (a reminder before that), durations such as 7d, 36h, 90m, and a
game with a bot seat -level=N (the bot's strength, 1 weakest to 8 full strength, default 8).
A game of two people may be -rated: its end changes both players' ratings.
The first line of a reply is `ok ...` or `error CODE: reason`.";

/// A reply: the first line and the lines for people.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reply {
    /// `ok ...` or `error CODE: reason`.
    pub first: String,
    /// The rest.
    pub body: Vec<String>,
}

impl Reply {
    fn ok(first: impl Into<String>) -> Reply {
        Reply {
            first: format!("ok {}", first.into()),
            body: Vec::new(),
        }
    }

    /// The reply `error STATUS: message` of `e`.
    #[must_use]
    pub fn error(e: &ApiError) -> Reply {
        Reply {
            first: format!("error {}: {}", e.status, one_line(&e.message)),
            body: Vec::new(),
        }
    }

    fn with_text(mut self, text: &str) -> Reply {
        self.body.extend(text.lines().map(str::to_owned));
        self
    }

    /// Whether it is an `ok` reply.
    #[must_use]
    pub fn is_ok(&self) -> bool {
        self.first.starts_with("ok")
    }

    /// The reply as `ployd cmd` prints it: every line (dot-stuffed), then `.`.
    #[must_use]
    pub fn framed(&self) -> String {
        let mut out = String::new();
        for line in std::iter::once(&self.first).chain(&self.body) {
            if line.starts_with('.') {
                out.push('.');
            }
            out.push_str(line);
            out.push('\n');
        }
        out.push_str(".\n");
        out
    }
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

fn one_line(text: &str) -> String {
    text.replace(['\n', '\r'], " ")
}

fn usage(text: &str) -> ApiError {
    ApiError::bad_request(format!("usage: {text}"))
}

fn board_number(text: &str) -> Result<i64, ApiError> {
    match text.parse::<i64>() {
        Ok(n) if n > 0 && text.bytes().all(|b| b.is_ascii_digit()) => Ok(n),
        _ => Err(ApiError::bad_request(format!(
            "`{}` is not a board number",
            excerpt(text)
        ))),
    }
}

/// Splits `TEXT#N` into the text and the number (none if there is no `#` followed by
/// digits only).
fn split_number(text: &str) -> Result<(&str, Option<usize>), ApiError> {
    match text.rsplit_once('#') {
        Some((head, n)) if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => {
            let n = n.parse::<usize>().map_err(|_| {
                ApiError::bad_request(format!("`#{}` is not a move number", excerpt(n)))
            })?;
            Ok((head, Some(n)))
        }
        _ => Ok((text, None)),
    }
}

/// Who runs commands: the local machine (`ployd cmd`), or a client of `POST /api/command`
/// with its address, its session and the verdicts of its request's password checks.
#[derive(Clone, Debug, Default)]
pub struct Caller {
    /// The user of the session cookie, if any: where a command takes `USER PASSWORD`, the
    /// password `*` stands for the session if USER is the session's user.
    pub session: Option<String>,
    /// The session's token, kept when the session's user changes the password.
    pub session_token: Option<String>,
    /// The client's address (`None`: the local machine, not throttled).
    pub client: Option<IpAddr>,
    /// The verdicts of the password checks of the request: a (userid, password) pair is
    /// checked once in it.
    pub verdicts: Arc<Verdicts>,
}

/// Runs one command line and gives the reply.
pub fn execute(service: &Service, line: &str) -> Reply {
    execute_for(service, line, &Caller::default())
}

/// Runs one command line for a client signed in as `session` (`POST /api/command` with the
/// session cookie): where a command takes `USER PASSWORD`, the password `*` stands for the
/// session if USER is the session's user.
pub fn execute_as(service: &Service, line: &str, session: Option<&str>) -> Reply {
    let caller = Caller {
        session: session.map(str::to_owned),
        ..Caller::default()
    };
    execute_for(service, line, &caller)
}

/// Runs one command line for `caller`.
pub fn execute_for(service: &Service, line: &str, caller: &Caller) -> Reply {
    let words: Vec<&str> = line.split_whitespace().collect();
    let reply = run(service, &words, caller).unwrap_or_else(|e| Reply::error(&e));
    service.run_pending_bots();
    reply
}

fn password(user: &str, password: &str, caller: &Caller) -> Credentials {
    if password == "*"
        && let Some(s) = &caller.session
        && s.eq_ignore_ascii_case(user)
    {
        return Credentials::Session(s.clone());
    }
    Credentials::from_client(user, password, caller.client).in_request(&caller.verdicts)
}

fn run(service: &Service, words: &[&str], session: &Caller) -> Result<Reply, ApiError> {
    let Some((&first, rest)) = words.split_first() else {
        return Err(ApiError::bad_request("an empty command; `help` lists them"));
    };
    match first {
        "signup" => {
            let [user, pass] = rest else {
                return Err(usage("signup USER PASSWORD"));
            };
            let user = service.signup_from(user, pass, session.client)?;
            Ok(Reply::ok(format!("signed up {user}")))
        }
        "password" => {
            let [user, old, new] = rest else {
                return Err(usage("password USER OLD NEW"));
            };
            let keep = session
                .session
                .as_deref()
                .filter(|s| s.eq_ignore_ascii_case(user))
                .and(session.session_token.as_deref());
            let user = service.change_password(&password(user, old, session), new, keep)?;
            Ok(Reply::ok(format!("password changed for {user}")))
        }
        "email" => {
            let [user, pass, address] = rest else {
                return Err(usage("email USER PASSWORD ADDRESS|none"));
            };
            match service.set_email(&password(user, pass, session), address)? {
                crate::mail::EmailChange::CodeSent { userid, address } => Ok(Reply::ok(format!(
                    "a code for {userid} is mailed to {address}"
                ))
                .with_text(&format!(
                    "No other mail goes there until `confirm {userid} PASSWORD CODE`."
                ))),
                crate::mail::EmailChange::Removed { userid } => {
                    Ok(Reply::ok(format!("no mail for {userid}")))
                }
            }
        }
        "confirm" => {
            let [user, pass, code] = rest else {
                return Err(usage("confirm USER PASSWORD CODE"));
            };
            let (user, address) = service.confirm_email(&password(user, pass, session), code)?;
            Ok(Reply::ok(format!("{address} confirmed for {user}")))
        }
        "help" => match rest {
            [] => Ok(Reply::ok("help").with_text(HELP)),
            [game] => game_help(service, game),
            _ => Err(usage("help [GAME]")),
        },
        "list" => {
            if !rest.is_empty() {
                return Err(usage("list"));
            }
            let n = service.registry().iter().count();
            let mut reply = Reply::ok(plural(n, "game type", "game types"));
            for g in service.registry().iter() {
                let opts: Vec<String> = g
                    .options()
                    .iter()
                    .chain([&LEVEL_OPTION, &RATED_OPTION])
                    .map(|o| format!("-{}", o.name))
                    .collect();
                reply
                    .body
                    .push(format!("{}  options: {}", g.name(), opts.join(" ")));
            }
            Ok(reply)
        }
        "inbox" => {
            let [user, pass] = rest else {
                return Err(usage("inbox USER PASSWORD"));
            };
            let user = service.authenticate(&password(user, pass, session))?;
            let notes = service.inbox(&user, 0)?;
            let invitations = service.invitations_for(&user)?;
            let mut first = plural(notes.len(), "notification", "notifications");
            if !invitations.is_empty() {
                first.push_str(&format!(
                    ", {}",
                    plural(invitations.len(), "invitation", "invitations")
                ));
            }
            let mut reply = Reply::ok(first);
            for g in invitations {
                reply.body.push(format!(
                    "invitation: board {} {} {}: waiting for {}",
                    g.id,
                    g.game,
                    g.players.join(" "),
                    g.waiting_for.join(", ")
                ));
            }
            for n in notes {
                reply.body.push(format!("[{}] {}", n.id, n.note.subject));
            }
            Ok(reply)
        }
        game => {
            let Some((&verb, args)) = rest.split_first() else {
                return if service.registry().get(game).is_some() {
                    Err(usage(&format!(
                        "{game} challenge|join|decline|move|show|history|games|resign|propose|accept|reject|ratings ..."
                    )))
                } else {
                    Err(ApiError::bad_request(format!(
                        "unknown command `{}`; `help` lists them",
                        excerpt(game)
                    )))
                };
            };
            service.game_type(game)?;
            game_command(service, game, verb, args, session)
        }
    }
}

fn game_help(service: &Service, game: &str) -> Result<Reply, ApiError> {
    let g = service.game_type(game)?;
    let mut text = String::new();
    let _ = writeln!(text, "{}", g.help());
    let _ = writeln!(text, "Options:");
    for o in g.options().iter().chain([&LEVEL_OPTION, &RATED_OPTION]) {
        let form = match o.kind {
            OptionKind::Flag => format!("-{}", o.name),
            OptionKind::Number { min, max } => format!("-{}=N ({min}..{max})", o.name),
            OptionKind::Choice(words) => format!("-{}={}", o.name, words.join("|")),
        };
        let alias = if o.aliases.is_empty() {
            String::new()
        } else {
            format!(" (also -{})", o.aliases.join(", -"))
        };
        let _ = writeln!(text, "  {form}{alias}: {}", o.help);
    }
    let _ = writeln!(
        text,
        "  -deadline=DURATION: time per move (7d); -reminder=DURATION: remind before it (3d)"
    );
    Ok(Reply::ok(format!("help {}", g.name())).with_text(&text))
}

/// Loads a board and checks it is of game type `game`.
fn board_of(
    service: &Service,
    game: &str,
    id: i64,
    ply: Option<usize>,
) -> Result<GameView, ApiError> {
    let view = service.view(id, ply)?;
    if view.game != game {
        return Err(ApiError::not_found(format!(
            "there is no {game} board {id}"
        )));
    }
    Ok(view)
}

fn check_type(service: &Service, game: &str, id: i64) -> Result<(), ApiError> {
    match service.store().game_kind(id)? {
        Some(kind) if kind == game => Ok(()),
        _ => Err(ApiError::not_found(format!(
            "there is no {game} board {id}"
        ))),
    }
}

fn status_text(view: &GameView) -> String {
    if view.over {
        format!("Game over: {}", view.result)
    } else if view.invited {
        format!("Waiting for {} to join", view.waiting_for.join(", "))
    } else {
        match (&view.to_move, view.to_move_seat) {
            (Some(u), Some(s)) => format!("{u} ({}) to move", view.seats[s]),
            _ => String::new(),
        }
    }
}

fn board_text(view: &GameView) -> String {
    let players: Vec<String> = view
        .players
        .iter()
        .zip(&view.seats)
        .map(|(p, s)| format!("{p} ({s})"))
        .collect();
    let mut text = format!(
        "Board {} ({}{}{}), move {}\nPlayers: {}\n{}\n",
        view.id,
        view.game,
        if view.options.is_empty() { "" } else { " " },
        view.options.join(" "),
        view.ply,
        players.join(", "),
        status_text(view)
    );
    if !view.draw_offers.is_empty() {
        let _ = writeln!(text, "Draw offered by: {}", view.draw_offers.join(", "));
    }
    text.push_str(&view.board);
    text
}

fn game_command(
    service: &Service,
    game: &str,
    verb: &str,
    args: &[&str],
    session: &Caller,
) -> Result<Reply, ApiError> {
    match verb {
        "help" => game_help(service, game),
        "challenge" => {
            // The options run up to the first word that does not begin with `-`, or to
            // `--`, which ends them (so that a userid such as `-x` can follow).
            let n_opts = args
                .iter()
                .take_while(|a| a.starts_with('-') && **a != "--")
                .count();
            let (opts, people) = args.split_at(n_opts);
            let people = match people.split_first() {
                Some((&"--", rest)) => rest,
                _ => people,
            };
            // The bot has no password: bots named first take the first seats, and the
            // user and password after them authenticate (`challenge bot ann PASSWORD`).
            let bots = people
                .iter()
                .take_while(|p| p.eq_ignore_ascii_case(BOT))
                .count();
            let (user, pass, others) = match &people[bots..] {
                [user, pass, others @ ..]
                    if bots + 1 + others.len() >= 2 && bots + 1 + others.len() <= 4 =>
                {
                    (*user, *pass, others)
                }
                _ => {
                    return Err(usage(&format!(
                        "{game} challenge [OPTIONS] [--] [bot...] USER1 PASSWORD USER2 [USER3 USER4]"
                    )));
                }
            };
            let options: Vec<String> = opts.iter().map(|s| (*s).to_owned()).collect();
            let mut players = vec![BOT.to_owned(); bots];
            players.push(user.to_owned());
            players.extend(others.iter().map(|s| (*s).to_owned()));
            let view =
                service.challenge(game, &options, &password(user, pass, session), &players)?;
            let view = service.view(view.id, None).unwrap_or(view);
            Ok(Reply::ok(format!("board {}", view.id)).with_text(&board_text(&view)))
        }
        "move" => {
            let [board, user, pass, mv] = args else {
                return Err(usage(&format!("{game} move BOARD USER PASSWORD MOVE[#N]")));
            };
            let id = board_number(board)?;
            check_type(service, game, id)?;
            let (text, ply) = split_number(mv)?;
            let view = service.play(id, &password(user, pass, session), text, ply)?;
            // The move written last may be a pass the rules forced after the user's move:
            // the user's move is the last one before those.
            let mut mine = view.ply.saturating_sub(1);
            let mut forced = Vec::new();
            if let Ok((_, lines)) = service.history(id) {
                while mine > 0
                    && ply.is_none_or(|n| mine > n)
                    && lines.get(mine).is_some_and(|l| l.source == Source::Forced)
                {
                    let l = &lines[mine];
                    forced.push(format!(
                        "; {} ({}) had to play {}",
                        l.userid, l.seat_name, l.text
                    ));
                    mine -= 1;
                }
            }
            forced.reverse();
            let mut first = format!(
                "board {id} move {}: {}",
                mine + 1,
                view.moves.get(mine).cloned().unwrap_or_default()
            );
            first.extend(forced);
            // Bots may answer at once (inline): show the board as it is now.
            service.run_pending_bots();
            let now = service.view(id, None).unwrap_or(view);
            Ok(Reply::ok(first).with_text(&board_text(&now)))
        }
        "show" => {
            let [board] = args else {
                return Err(usage(&format!("{game} show BOARD[#N]")));
            };
            let (board, ply) = split_number(board)?;
            let id = board_number(board)?;
            let view = board_of(service, game, id, ply)?;
            Ok(Reply::ok(format!(
                "board {id} after {}",
                plural(view.ply, "move", "moves")
            ))
            .with_text(&board_text(&view)))
        }
        "record" => {
            let [board] = args else {
                return Err(usage(&format!("{game} record BOARD")));
            };
            let id = board_number(board)?;
            check_type(service, game, id)?;
            let (file, name) = service.record(id)?;
            Ok(Reply::ok(format!("board {id}: record {name}")).with_text(&file.text))
        }
        "history" => {
            let [board] = args else {
                return Err(usage(&format!("{game} history BOARD")));
            };
            let id = board_number(board)?;
            check_type(service, game, id)?;
            let (view, lines) = service.history(id)?;
            let mut reply = Reply::ok(format!(
                "board {id}: {}",
                plural(lines.len(), "move", "moves")
            ));
            for l in lines {
                let by = match l.source {
                    Source::Player => String::new(),
                    Source::Bot if l.userid != "bot" => " (played by the bot on time)".to_owned(),
                    Source::Bot => String::new(),
                    Source::Forced => " (forced)".to_owned(),
                    Source::Withdrawal => " (withdrew: his pieces left the board)".to_owned(),
                };
                reply.body.push(format!(
                    "{}. {} ({}) {}{by}",
                    l.ply + 1,
                    l.userid,
                    l.seat_name,
                    l.text
                ));
            }
            reply.body.push(status_text(&view));
            Ok(reply)
        }
        "games" => {
            let (user, filter) = match args {
                [user] => (*user, "active"),
                [user, filter] => (*user, *filter),
                _ => return Err(usage(&format!("{game} games USER [active|next|all]"))),
            };
            let list = service.games(Some(user), filter)?;
            let list: Vec<_> = list.into_iter().filter(|g| g.game == game).collect();
            let mut reply = Reply::ok(plural(list.len(), "game", "games"));
            for g in list {
                let state = if g.over {
                    format!("over: {}", g.result)
                } else if g.invited {
                    format!("invited, waiting for {}", g.waiting_for.join(", "))
                } else {
                    let who = g
                        .to_move_seat
                        .and_then(|s| g.players.get(s).cloned())
                        .unwrap_or_default();
                    format!("{who} to move")
                };
                reply.body.push(format!(
                    "{} {} {}: {} ({} moves)",
                    g.id,
                    g.game,
                    g.players.join(" "),
                    state,
                    g.ply
                ));
            }
            Ok(reply)
        }
        "resign" => {
            let [board, user, pass] = args else {
                return Err(usage(&format!("{game} resign BOARD USER PASSWORD")));
            };
            let id = board_number(board)?;
            check_type(service, game, id)?;
            let view = service.resign(id, &password(user, pass, session))?;
            Ok(Reply::ok(format!("board {id}: {}", view.result)).with_text(&board_text(&view)))
        }
        "rematch" => {
            let [board, user, pass] = args else {
                return Err(usage(&format!("{game} rematch BOARD USER PASSWORD")));
            };
            let id = board_number(board)?;
            check_type(service, game, id)?;
            let view = service.rematch(id, &password(user, pass, session))?;
            let view = service.view(view.id, None).unwrap_or(view);
            Ok(Reply::ok(format!("board {}", view.id)).with_text(&board_text(&view)))
        }
        "join" | "decline" => {
            let [board, user, pass] = args else {
                return Err(usage(&format!("{game} {verb} BOARD USER PASSWORD")));
            };
            let id = board_number(board)?;
            check_type(service, game, id)?;
            let creds = password(user, pass, session);
            let view = if verb == "join" {
                service.join(id, &creds)?
            } else {
                service.decline(id, &creds)?
            };
            let first = if view.over {
                format!("board {id}: {}", view.result)
            } else if view.invited {
                format!(
                    "board {id}: joined; waiting for {}",
                    view.waiting_for.join(", ")
                )
            } else {
                format!("board {id}: started")
            };
            // The bot may move first (inline): show the board as it is now.
            service.run_pending_bots();
            let now = service.view(id, None).unwrap_or(view);
            Ok(Reply::ok(first).with_text(&board_text(&now)))
        }
        "propose" | "accept" | "reject" => {
            let [board, user, pass] = args else {
                return Err(usage(&format!("{game} {verb} BOARD USER PASSWORD")));
            };
            let id = board_number(board)?;
            check_type(service, game, id)?;
            let view = service.draw(id, &password(user, pass, session), verb)?;
            let first = if view.over {
                format!("board {id}: {}", view.result)
            } else if verb == "reject" {
                format!("board {id}: draw offer rejected")
            } else {
                format!(
                    "board {id}: draw offered by {}",
                    view.draw_offers.join(", ")
                )
            };
            Ok(Reply::ok(first).with_text(&board_text(&view)))
        }
        "ratings" => ratings::leaderboard(service, game, args),
        other => Err(ApiError::bad_request(format!(
            "unknown command `{game} {}`; `help` lists them",
            excerpt(other)
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_split() {
        assert_eq!(split_number("e3-e4-0#7").unwrap(), ("e3-e4-0", Some(7)));
        assert_eq!(split_number("e4xf5##3").unwrap(), ("e4xf5#", Some(3)));
        assert_eq!(split_number("e4xf5#").unwrap(), ("e4xf5#", None));
        assert_eq!(split_number("101").unwrap(), ("101", None));
        assert!(split_number("x#99999999999999999999999").is_err());
        assert!(board_number("0").is_err());
        assert!(board_number("+5").is_err());
        assert_eq!(board_number("101").unwrap(), 101);
    }

    /// Generated command lines (words from the language, numbers, junk) never panic and
    /// always answer `ok ...` or `error CODE: ...` with a client error code.
    #[test]
    fn generated_commands_always_get_a_reply() {
        use crate::game::Registry;
        use crate::service::{Config, FixedClock, Service};
        use crate::store::Store;
        use std::sync::Arc;

        let dir = std::env::temp_dir().join(format!("ployd-gen-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let mut config = Config::default();
        config.hash.memory_kib = 64;
        config.hash.iterations = 1;
        config.bot_budget.nodes = Some(50);
        let service = Service::new(
            Store::open(dir.join("gen.db")).unwrap(),
            Registry::standard(),
            Arc::new(FixedClock::new(1_000_000)),
            config,
        );
        assert!(execute(&service, "signup alice pa-secret").is_ok());
        assert!(execute(&service, "signup bob pb-secret").is_ok());
        assert!(execute(&service, "ploy challenge alice pa-secret bob").is_ok());
        assert!(
            execute(
                &service,
                "ploy challenge -variant=ffa alice pa-secret bot bob bot"
            )
            .is_ok()
        );
        assert!(execute(&service, "pente challenge -size=7 alice pa-secret bob").is_ok());
        assert!(execute(&service, "pyloff challenge -size=2 alice pa-secret bob bot").is_ok());
        let words = [
            "ploy",
            "pente",
            "pyloff",
            "103",
            "104",
            "D4",
            "d4#0",
            "k10",
            "c3",
            "a1#1",
            "swap",
            "pass",
            "-size=2",
            "-board_size=9",
            "-no_tournament_rule",
            "-all_freedoms",
            "-cut_down",
            "signup",
            "help",
            "list",
            "inbox",
            "challenge",
            "move",
            "show",
            "history",
            "record",
            "games",
            "resign",
            "rematch",
            "propose",
            "accept",
            "reject",
            "alice",
            "pa-secret",
            "bob",
            "pb-secret",
            "bot",
            "101",
            "102",
            "0",
            "-1",
            "101#0",
            "101#1",
            "e3-e4",
            "e3-e4-0#0",
            "e7-e6#1",
            "a1-a1-9",
            "-variant=ffa",
            "-variant=",
            "-relaxed",
            "-size=6",
            "-deadline=7d",
            "-reminder=99999999999d",
            "next",
            "all",
            "#",
            "##",
            "é",
            "\u{0}",
            "99999999999999999999",
        ];
        let mut x: u64 = 12345;
        let mut next = |n: usize| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x % n as u64) as usize
        };
        for _ in 0..3000 {
            let len = next(7);
            let mut line: Vec<String> = (0..len)
                .map(|_| words[next(words.len())].to_owned())
                .collect();
            if next(5) == 0 {
                let junk: String = (0..next(40))
                    .map(|_| char::from_u32(next(0x3000) as u32).unwrap_or('?'))
                    .collect();
                line.push(junk);
            }
            let line = line.join(" ");
            let reply = execute(&service, &line);
            let first = &reply.first;
            let well_formed = first == "ok"
                || first.starts_with("ok ")
                || ["400", "403", "404", "409", "422"]
                    .iter()
                    .any(|c| first.starts_with(&format!("error {c}: ")));
            assert!(well_formed, "{line:?} -> {first:?}");
            assert!(!first.contains('\n'));
        }
        let (_, problems) = service.check().unwrap();
        assert!(problems.is_empty(), "{problems:?}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn replies_are_framed() {
        let r = Reply {
            first: "ok x".into(),
            body: vec![".".into(), "a".into()],
        };
        assert_eq!(r.framed(), "ok x\n..\na\n.\n");
    }
}
