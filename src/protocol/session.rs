//! The protocol's session on the input side: commands, options, the clock words of `go`,
//! the jobs sent to the search thread, and reading bounded lines.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use ploy_engine::MAX_HASH_MB;
use ploy_search::multi::SearchKind;
use ploy_search::{Level, Limits};

use super::game::{GoRequest, ProtocolGame};
use super::*;

/// Soft and hard time for one move from the time `left`, the increment and (if given) the
/// moves to the next time control: without it as [`Limits::clock`]; with `m` moves to go
/// (at most 30 counted), aim at `left / m + 3/4 increment` and never use more than
/// `4 left / (m + 3) + increment` (all of it for the last move), keeping 10 ms in reserve.
pub(super) fn clock_budget(
    left: Duration,
    inc: Duration,
    moves_to_go: Option<u64>,
) -> (Duration, Duration) {
    match moves_to_go {
        None => {
            let c = Limits::clock(left, inc);
            (
                c.soft_time.unwrap_or_default(),
                c.hard_time.unwrap_or_default(),
            )
        }
        Some(m) => {
            let m = m.clamp(1, 30) as u32;
            let usable = left.saturating_sub(Duration::from_millis(10));
            let target = (usable / m).saturating_add(inc * 3 / 4).min(usable);
            let hard = (usable * 4 / (m + 3)).saturating_add(inc).min(usable);
            (target / 2, hard)
        }
    }
}

/// The search running on the search thread.
pub(super) struct Running {
    stop: Arc<AtomicBool>,
    /// `go infinite` or `go ponder` before `ponderhit`: stopped, not waited for, when
    /// another command needs the thread or the input ends.
    open_ended: bool,
    /// The `ponderhit` flag of a pondering search.
    ponder: Option<Arc<AtomicBool>>,
}

/// The common options (`Hash` and `Threads` go to the game's engine).
pub(super) struct Options {
    pub(super) multipv: usize,
    pub(super) ponder: bool,
    /// The `Level` option: every game's engine plays at this level.
    pub(super) level: Level,
    /// The `Search` option: the multi-player search of three- and four-player games, or
    /// `None` (`default`) for each game's own default.
    pub(super) search: Option<SearchKind>,
    /// The `Threads` value the session started with (what `uci` calls its default).
    pub(super) start_threads: usize,
}

/// The protocol's state on the input side.
pub(super) struct Session {
    pub(super) game: Box<dyn ProtocolGame>,
    pub(super) options: Options,
    pub(super) jobs: mpsc::Sender<Job>,
    pub(super) done: mpsc::Receiver<()>,
    /// Jobs sent and not yet done.
    pub(super) pending: usize,
    pub(super) running: Option<Running>,
    pub(super) out: Out,
    /// The games not chosen now, kept with their options.
    #[cfg(feature = "cli")]
    pub(super) parked: super::game_option::Parked,
}

impl Session {
    fn say(&self, line: &str) {
        say(&self.out, line);
    }

    pub(super) fn error(&self, why: &str) {
        self.say(&format!(
            "info string error {}",
            excerpt(why, MAX_ERROR_CHARS)
        ));
    }

    pub(super) fn send(&mut self, job: Job) {
        if self.jobs.send(job).is_ok() {
            self.pending += 1;
        }
    }

    /// Notes the jobs done so far.
    fn poll(&mut self) {
        while self.pending > 0 && self.done.try_recv().is_ok() {
            self.pending -= 1;
        }
        if self.pending == 0 {
            self.running = None;
        }
    }

    /// Waits until every job sent is done.
    pub(super) fn wait_idle(&mut self) {
        while self.pending > 0 {
            if self.done.recv().is_err() {
                self.pending = 0;
            }
            self.pending = self.pending.saturating_sub(1);
        }
        self.running = None;
    }

    /// Waits for the search thread; a search without an end of its own (`go infinite`,
    /// pondering) is stopped first.
    fn finish(&mut self) {
        if let Some(run) = &self.running {
            if run.open_ended
                || run
                    .ponder
                    .as_ref()
                    .is_some_and(|p| !p.load(Ordering::Relaxed))
            {
                run.stop.store(true, Ordering::Relaxed);
            }
        }
        self.wait_idle();
    }

    /// Stops the running search, if any, and waits for its `bestmove` (with no search
    /// running, returns at once even while a table is being made).
    fn stop(&mut self) {
        if let Some(run) = &self.running {
            run.stop.store(true, Ordering::Relaxed);
            self.wait_idle();
        }
    }

    /// At the end of the input: an open-ended search stops at once, one with a budget
    /// gets at most [`END_OF_INPUT_GRACE`] more.
    pub(super) fn end_of_input(&mut self) {
        self.poll();
        if let Some(run) = &self.running {
            let pondering = run
                .ponder
                .as_ref()
                .is_some_and(|p| !p.load(Ordering::Relaxed));
            let stop = run.stop.clone();
            if run.open_ended || pondering {
                stop.store(true, Ordering::Relaxed);
            } else {
                let deadline = Instant::now() + END_OF_INPUT_GRACE;
                while self.pending > 0 {
                    let left = deadline.saturating_duration_since(Instant::now());
                    match self.done.recv_timeout(left) {
                        Ok(()) => self.pending -= 1,
                        Err(mpsc::RecvTimeoutError::Timeout) => {
                            stop.store(true, Ordering::Relaxed);
                            break;
                        }
                        Err(mpsc::RecvTimeoutError::Disconnected) => {
                            self.pending = 0;
                        }
                    }
                }
            }
        }
        self.wait_idle();
    }

    fn hello(&self) {
        self.say(&format!("id name {NAME}"));
        self.say(&format!("id author {AUTHOR}"));
        self.say(&format!(
            "option name Hash type spin default {DEFAULT_HASH_MB} min 1 max {MAX_HASH_MB}"
        ));
        if self.game.has_multipv() {
            self.say(&format!(
                "option name MultiPV type spin default 1 min 1 max {MAX_MULTIPV}"
            ));
        }
        if self.game.has_threads() {
            self.say(&format!(
                "option name Threads type spin default {} min 1 max {MAX_THREADS}",
                self.options.start_threads
            ));
        }
        self.say("option name Ponder type check default false");
        self.say(&format!(
            "option name Level type spin default {} min {} max {}",
            Level::MAX,
            Level::MIN,
            Level::MAX
        ));
        self.say(&format!(
            "option name Search type combo default default var default var {}",
            SearchKind::NAMES.join(" var ")
        ));
        for line in self.game.option_lines() {
            self.say(&line);
        }
        #[cfg(feature = "cli")]
        self.say(super::game_option::GAME_OPTION_LINE);
        self.say("uciok");
    }

    /// Handles one line; `false` ends the session.
    pub(super) fn line(&mut self, line: &str) -> bool {
        self.poll();
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some((&cmd, args)) = words.split_first() else {
            return true;
        };
        match cmd {
            "quit" => {
                self.stop();
                return false;
            }
            "uci" => self.hello(),
            "isready" => {
                // During a search at once; otherwise when the work before it (a new table,
                // a cleared one) is done.
                if self.running.is_none() {
                    self.wait_idle();
                }
                self.say("readyok");
            }
            "stop" => self.stop(),
            "ponderhit" => match &self.running {
                Some(Running {
                    ponder: Some(flag), ..
                }) if !flag.load(Ordering::Relaxed) => flag.store(true, Ordering::Relaxed),
                _ => self.error("`ponderhit` without a `go ponder` pondering"),
            },
            "newgame" | "ucinewgame" => {
                self.finish();
                let job = self.game.new_game();
                self.send(job);
            }
            "setoption" => {
                self.finish();
                if let Err(e) = self.set_option(args) {
                    self.error(&e);
                }
            }
            "position" => {
                self.finish();
                if let Err(e) = self.game.set_position(args) {
                    self.error(&e);
                }
            }
            "go" => {
                self.finish();
                if let Err(e) = self.go(args) {
                    self.error(&e);
                }
            }
            "d" | "show" => {
                for line in self.game.show() {
                    self.say(&line);
                }
            }
            other => self.error(&format!(
                "unknown command `{}`; expected uci, isready, setoption, newgame, position, go, \
                 stop, ponderhit, d or quit",
                excerpt(other, QUOTE)
            )),
        }
        true
    }

    fn set_option(&mut self, args: &[&str]) -> Result<(), String> {
        let (name, value) = match args {
            ["name", rest @ ..] => match rest.iter().position(|&w| w == "value") {
                Some(i) => (rest[..i].join(" "), rest[i + 1..].join(" ")),
                None => (rest.join(" "), String::new()),
            },
            _ => return Err("expected `setoption name <option> value <value>`".to_owned()),
        };
        let key: String = name
            .chars()
            .filter(char::is_ascii_alphanumeric)
            .map(|c| c.to_ascii_lowercase())
            .collect();
        let v = value.trim().to_ascii_lowercase();
        let bad = || {
            format!(
                "option `{}`: bad value `{}`",
                excerpt(&name, QUOTE),
                excerpt(&value, QUOTE)
            )
        };
        match key.as_str() {
            "hash" => {
                let mb: usize = v.parse().map_err(|_| bad())?;
                if !(1..=MAX_HASH_MB).contains(&mb) {
                    return Err(format!(
                        "option `Hash`: {mb} is not within 1..={MAX_HASH_MB}"
                    ));
                }
                let job = self.game.set_hash(mb);
                self.send(Box::new(move |engines: &mut Engines| {
                    engines.set_hash_mb(mb);
                    job(engines);
                }));
            }
            "multipv" if !self.game.has_multipv() => {
                return Err(self.not_here(&name));
            }
            "threads" => {
                let n: usize = v.parse().map_err(|_| bad())?;
                if !(1..=MAX_THREADS).contains(&n) {
                    return Err(format!(
                        "option `Threads`: {n} is not within 1..={MAX_THREADS}"
                    ));
                }
                if !self.game.has_threads() {
                    return Err(format!(
                        "option `Threads`: {} games search on one thread",
                        self.game.name()
                    ));
                }
                self.send(Box::new(move |engines: &mut Engines| {
                    engines.set_threads(n);
                }));
            }
            "multipv" => {
                let k: usize = v.parse().map_err(|_| bad())?;
                if !(1..=MAX_MULTIPV).contains(&k) {
                    return Err(format!(
                        "option `MultiPV`: {k} is not within 1..={MAX_MULTIPV}"
                    ));
                }
                self.options.multipv = k;
            }
            "level" => {
                self.options.level = value.parse().map_err(|e| format!("option `Level`: {e}"))?;
            }
            "search" => {
                self.options.search = if v == "default" {
                    None
                } else {
                    Some(value.parse().map_err(|e| format!("option `Search`: {e}"))?)
                };
            }
            "ponder" => {
                self.options.ponder = match v.as_str() {
                    "true" | "yes" | "on" | "1" => true,
                    "false" | "no" | "off" | "0" => false,
                    _ => return Err(bad()),
                };
            }
            #[cfg(feature = "cli")]
            "game" => self.choose_game(&value)?,
            _ => match self.game.set_option(&key, &name, &value) {
                Some(result) => result?,
                None => return Err(self.not_here(&name)),
            },
        }
        Ok(())
    }

    /// The error for an option the current game does not have: unknown, or (with the
    /// `cli` feature) an option of another game.
    fn not_here(&self, name: &str) -> String {
        #[cfg(feature = "cli")]
        if let Some(e) = super::game_option::other_games_option(name, self.game.as_ref()) {
            return e;
        }
        format!("unknown option `{}`", excerpt(name, QUOTE))
    }

    fn go(&mut self, args: &[&str]) -> Result<(), String> {
        let received = Instant::now();
        let (letters, mover) = self.game.clock_letters();
        let mut limits = Limits::default();
        let mut infinite = false;
        let mut ponder = false;
        let mut mate = None;
        let mut searchmoves = Vec::new();
        let mut own_time: Option<u64> = None;
        let mut own_inc: u64 = 0;
        let mut any_clock = false;
        let mut moves_to_go = None;
        let mut it = args.iter().peekable();
        while let Some(&word) = it.next() {
            let mut num = |what: &str| -> Result<u64, String> {
                let v = it
                    .next()
                    .ok_or_else(|| format!("`go {what}` needs a number"))?;
                v.parse::<u64>().map_err(|_| {
                    format!("`go {what}`: `{}` is not a whole number", excerpt(v, QUOTE))
                })
            };
            // Clock words: `time`/`inc` for the player to move, and `<letter>time`,
            // `<letter>inc` with the position string's letters of the seats.
            let clock_word = word
                .strip_suffix("time")
                .map(|l| (l, true))
                .or_else(|| word.strip_suffix("inc").map(|l| (l, false)))
                .filter(|(l, _)| l.chars().count() <= 1);
            match word {
                "depth" => {
                    let d = num("depth")?;
                    if d == 0 {
                        return Err("`go depth`: the depth must be at least 1".into());
                    }
                    limits.depth = Some(u32::try_from(d).unwrap_or(u32::MAX));
                }
                "nodes" => limits.nodes = Some(num("nodes")?),
                "movetime" => {
                    let t = Limits::move_time(Duration::from_millis(num("movetime")?.min(MAX_MS)));
                    limits.soft_time = t.soft_time;
                    limits.hard_time = t.hard_time;
                }
                "movestogo" => moves_to_go = Some(num("movestogo")?),
                "mate" => {
                    let n = num("mate")?;
                    if n == 0 {
                        return Err("`go mate`: the number of moves must be at least 1".into());
                    }
                    mate = Some(u32::try_from(n).unwrap_or(u32::MAX));
                }
                "infinite" => infinite = true,
                "ponder" => ponder = true,
                "searchmoves" => {
                    while let Some(&&m) = it.peek() {
                        if GO_WORDS.contains(&m) || is_clock_word(m) {
                            break;
                        }
                        searchmoves.push(m.to_owned());
                        it.next();
                    }
                    if searchmoves.is_empty() {
                        return Err("`go searchmoves` needs at least one move".into());
                    }
                }
                _ => match clock_word {
                    Some((letter, is_time)) => {
                        let letter = letter.chars().next();
                        let own = match letter {
                            None => true,
                            Some(l) if letters.contains(&l) => l == mover,
                            Some(_) if letters.is_empty() => {
                                return Err(format!(
                                    "`go {}`: the players of this game have no clock \
                                     letters; give the clock of the player to move as \
                                     `time` and `inc`",
                                    excerpt(word, QUOTE)
                                ));
                            }
                            Some(_) => {
                                let list: Vec<String> =
                                    letters.iter().map(char::to_string).collect();
                                return Err(format!(
                                    "`go {word}`: the players of this position are {}",
                                    list.join(", ")
                                ));
                            }
                        };
                        let v = num(word)?.min(MAX_MS);
                        any_clock = true;
                        if own && is_time {
                            own_time = Some(v);
                        } else if own {
                            own_inc = v;
                        }
                    }
                    None => {
                        return Err(format!(
                            "`go`: unknown word `{}`; expected depth, nodes, movetime, wtime, \
                             btime, winc, binc (gtime, rtime, ytime, ginc, rinc, yinc in \
                             four-player games), time, inc, movestogo, mate, searchmoves, \
                             ponder or infinite",
                            excerpt(word, QUOTE)
                        ));
                    }
                },
            }
        }
        if let Some(t) = own_time {
            let (soft, hard) = clock_budget(
                Duration::from_millis(t),
                Duration::from_millis(own_inc),
                moves_to_go,
            );
            limits.soft_time = Some(limits.soft_time.map_or(soft, |s| s.min(soft)));
            limits.hard_time = Some(limits.hard_time.map_or(hard, |h| h.min(hard)));
        }
        if infinite {
            limits = Limits::default();
        } else if limits.depth.is_none()
            && limits.nodes.is_none()
            && limits.hard_time.is_none()
            && mate.is_none()
            && !(any_clock && own_time.is_some())
        {
            // A bare `go` (or one with only the others' clocks) thinks for one second.
            let t = Limits::move_time(Duration::from_secs(1));
            limits.soft_time = t.soft_time;
            limits.hard_time = t.hard_time;
        }
        let stop = Arc::new(AtomicBool::new(false));
        let ponder_flag = ponder.then(|| Arc::new(AtomicBool::new(false)));
        let request = GoRequest {
            limits: limits.with_stop(stop.clone()),
            received,
            lines: self.options.multipv,
            mate,
            ponder: ponder_flag.clone(),
            searchmoves,
            ponder_move: self.options.ponder,
            level: self.options.level,
            search: self.options.search,
        };
        let search = self.game.search(request, self.out.clone())?;
        let out = self.out.clone();
        let (hold_stop, hold_ponder) = (stop.clone(), ponder_flag.clone());
        self.send(Box::new(move |engines: &mut Engines| {
            let answer = search(engines);
            // `go infinite` answers only when stopped, `go ponder` only after `ponderhit`
            // (or when stopped).
            loop {
                let stopped = hold_stop.load(Ordering::Relaxed);
                let pondering = hold_ponder
                    .as_ref()
                    .is_some_and(|p| !p.load(Ordering::Relaxed));
                if stopped || !(infinite || pondering) {
                    break;
                }
                thread::sleep(Duration::from_millis(2));
            }
            say(&out, &answer);
        }));
        self.running = Some(Running {
            stop,
            open_ended: infinite,
            ponder: ponder_flag,
        });
        Ok(())
    }
}

/// The longest time a `go` word may give, in milliseconds (more than 30 years); longer
/// times count as this.
const MAX_MS: u64 = 1 << 40;

/// The words of `go` that end a `searchmoves` list.
const GO_WORDS: [&str; 10] = [
    "depth",
    "nodes",
    "movetime",
    "movestogo",
    "mate",
    "infinite",
    "ponder",
    "searchmoves",
    "time",
    "inc",
];

pub(super) fn is_clock_word(word: &str) -> bool {
    let stem = word
        .strip_suffix("time")
        .or_else(|| word.strip_suffix("inc"));
    stem.is_some_and(|l| l.len() == 1 && "wbgry".contains(l))
}

/// Reads one line of at most [`MAX_LINE_BYTES`] bytes (without its line ending) into
/// `buf`. `Ok(None)` at the end of the input; `Ok(Some(false))` for a longer line, which is
/// skipped whole.
pub(super) fn read_line<R: BufRead>(input: &mut R, buf: &mut Vec<u8>) -> io::Result<Option<bool>> {
    buf.clear();
    let limit = MAX_LINE_BYTES as u64 + 1;
    let n = io::Read::take(&mut *input, limit).read_until(b'\n', buf)?;
    if n == 0 {
        return Ok(None);
    }
    if buf.last() == Some(&b'\n') {
        buf.pop();
        if buf.last() == Some(&b'\r') {
            buf.pop();
        }
        return Ok(Some(true));
    }
    if buf.len() <= MAX_LINE_BYTES {
        // The last line, without a line ending.
        return Ok(Some(true));
    }
    // Too long: skip to the end of the line without keeping it.
    loop {
        let chunk = input.fill_buf()?;
        if chunk.is_empty() {
            break;
        }
        if let Some(i) = chunk.iter().position(|&b| b == b'\n') {
            input.consume(i + 1);
            break;
        }
        let len = chunk.len();
        input.consume(len);
    }
    buf.clear();
    Ok(Some(false))
}

#[cfg(feature = "cli")]
impl Session {
    /// `setoption name Game value <game>`: another game becomes the current one, at its
    /// start position (with its options as last set), its engine's table cleared. Choosing
    /// the current game changes nothing.
    pub(super) fn choose_game(&mut self, value: &str) -> Result<(), String> {
        let wanted = value.trim().to_ascii_lowercase();
        let Some(index) = super::game_option::NAMES.iter().position(|&n| n == wanted) else {
            return Err(format!(
                "option `Game`: bad value `{}`; expected ploy, pente or pyloff",
                excerpt(value, QUOTE)
            ));
        };
        if self.game.name() == super::game_option::NAMES[index] {
            return Ok(());
        }
        let next: Box<dyn ProtocolGame> = match self.parked.games[index].take() {
            Some(game) => game,
            None => match index {
                0 => Box::new(PloyProtocol::new()),
                1 => Box::new(super::pente::PenteProtocol::new()),
                _ => Box::new(super::pyloff::PyloffProtocol::new()),
            },
        };
        let old = std::mem::replace(&mut self.game, next);
        let old_index = super::game_option::NAMES
            .iter()
            .position(|&n| n == old.name())
            .expect("a game of the list");
        self.parked.games[old_index] = Some(old);
        let job = self.game.new_game();
        self.send(job);
        Ok(())
    }
}
