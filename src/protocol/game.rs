//! What every game of the protocol is: [`ProtocolGame`], the `go` request it searches,
//! and the helpers the games share for their `info` lines and check options.

use std::fmt::Display;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use ploy_search::multi::SearchKind;
#[cfg(feature = "cli")]
use ploy_search::{Info, Score};
use ploy_search::{Level, Limits, SearchOptions};

use super::{Job, Out, QUOTE, SearchJob, excerpt};

/// What a `go` asks for, whatever the game.
pub(super) struct GoRequest {
    pub(super) limits: Limits,
    /// When the `go` arrived: time budgets count from here.
    pub(super) received: Instant,
    /// Lines to search (the `MultiPV` option).
    pub(super) lines: usize,
    /// `go mate N`: a forced win within N of the engine's own moves.
    pub(super) mate: Option<u32>,
    /// `go ponder`: raised by `ponderhit`.
    pub(super) ponder: Option<Arc<AtomicBool>>,
    /// `go searchmoves ...`, as written.
    pub(super) searchmoves: Vec<String>,
    /// Whether `bestmove` also names the expected reply (the `Ponder` option).
    pub(super) ponder_move: bool,
    /// The strength to play at (the `Level` option, common to every game; 8 is full
    /// strength). Each game's search hands it to its engine.
    pub(super) level: Level,
    /// The multi-player search of a three- or four-player game (the `Search` option, common
    /// to every game), or `None` for the game's default. Two-player games ignore it.
    // Read by Pyloff, which is built with the `cli` feature only.
    #[cfg_attr(not(feature = "cli"), allow(dead_code))]
    pub(super) search: Option<SearchKind>,
}

/// One game the protocol can play: Ploy, and with the `cli` feature Pente and Pyloff
/// (chosen through the `Game` option; see the `games` module). Everything else (the threads, `go`,
/// `stop`, `ponderhit`, `isready`, the input) is common.
pub(super) trait ProtocolGame: Send {
    /// The game's name, as the `Game` option writes it.
    #[cfg_attr(not(feature = "cli"), allow(dead_code))]
    fn name(&self) -> &'static str;
    /// Whether `go` can search several lines (the `MultiPV` option).
    fn has_multipv(&self) -> bool {
        true
    }
    /// Whether the game's search can use several threads (the `Threads` option).
    fn has_threads(&self) -> bool {
        false
    }
    /// The `option name ...` lines of this game's options.
    fn option_lines(&self) -> Vec<String>;
    /// Sets one of this game's options (`key`: the name in lower case without spaces or
    /// hyphens). `None` if it is not one of them; an error changes nothing.
    fn set_option(&mut self, key: &str, name: &str, value: &str) -> Option<Result<(), String>>;
    /// Work for the search thread that makes the table `mb` MiB.
    fn set_hash(&mut self, mb: usize) -> Job;
    /// Starts a new game; returns the work that clears the engine's tables.
    fn new_game(&mut self) -> Job;
    /// `position ...` (the words after `position`); an error changes nothing.
    fn set_position(&mut self, args: &[&str]) -> Result<(), String>;
    /// The lines `d` writes.
    fn show(&self) -> Vec<String>;
    /// The letters of the seats in `wtime`/`btime`-style words, and the letter of the
    /// player to move.
    fn clock_letters(&self) -> (&'static [char], char);
    /// The search for `request`, checked now (an error for bad `searchmoves`).
    fn search(&self, request: GoRequest, out: Out) -> Result<SearchJob, String>;
}

/// The words of a `position` command split at `moves`: those naming the start position,
/// and the moves after it (none without `moves`). Every game reads its command this way.
pub(super) fn split_at_moves<'a, 'w>(args: &'a [&'w str]) -> (&'a [&'w str], &'a [&'w str]) {
    match args.iter().position(|&w| w == "moves") {
        Some(i) => (&args[..i], &args[i + 1..]),
        None => (args, &[][..]),
    }
}

/// The start position of `position startpos | fen <string>` in a game with a position
/// string (Pente, Pyloff): `fresh()` for `startpos`, the parsed string for `fen <string>`.
/// `game` names the game in the messages of the errors.
#[cfg(feature = "cli")]
pub(super) fn start_position<P>(
    pos_words: &[&str],
    game: &str,
    fresh: impl FnOnce() -> Result<P, String>,
) -> Result<P, String>
where
    P: std::str::FromStr,
    P::Err: Display,
{
    match pos_words {
        ["startpos"] => fresh(),
        [] => Err("expected `position startpos` or `position fen <string>`".into()),
        ["fen"] => Err(format!("`position fen` needs a {game} position string")),
        ["fen", rest @ ..] => rest
            .join(" ")
            .parse::<P>()
            .map_err(|e| excerpt(&format!("bad {game} position string: {e}"), 200)),
        [first, ..] => Err(format!(
            "unexpected `{} ...`: expected `startpos` or `fen <string>`",
            excerpt(first, QUOTE)
        )),
    }
}

/// The error of option `name` given a value it does not take.
pub(super) fn bad_value(name: &str, value: &str) -> String {
    format!(
        "option `{}`: bad value `{}`",
        excerpt(name, QUOTE),
        excerpt(value, QUOTE)
    )
}

/// `true`/`false` (also `yes`/`no`, `on`/`off`, `1`/`0`) of a check option's lower-case
/// value.
#[cfg(feature = "cli")]
pub(super) fn yes_no(v: &str) -> Option<bool> {
    match v {
        "true" | "yes" | "on" | "1" => Some(true),
        "false" | "no" | "off" | "0" => Some(false),
        _ => None,
    }
}

/// The share in whole percent as the `info` lines write it: 100 and 0 only for a forced
/// result.
#[cfg(feature = "cli")]
pub(super) fn share_percent(score: Score, share: f64) -> u32 {
    if score.is_win() {
        100
    } else if score.is_loss() {
        0
    } else {
        // A percentage, clamped to 1..=99 before the conversion.
        share.round().clamp(1.0, 99.0) as u32
    }
}

/// The text after `info ` of another game's iteration, as Ploy's: `depth D score S view V
/// share P [multipv K] nodes N nps R time MS pv M1 M2 ...`, the moves in the game's
/// notation, `view` the player to move (`white`, `black`; Pyloff's player number).
#[cfg(feature = "cli")]
pub(super) fn info_text<M: Display>(info: &Info<'_, M>, view: &str) -> String {
    let mut text = format!(
        "depth {} score {} view {view} share {}",
        info.depth,
        info.score,
        share_percent(info.score, info.share)
    );
    if let Some(k) = info.multipv {
        text.push_str(&format!(" multipv {k}"));
    }
    text.push_str(&format!(
        " nodes {} nps {} time {} pv",
        info.nodes,
        info.nps,
        info.time.as_millis()
    ));
    for mv in info.pv {
        text.push_str(&format!(" {mv}"));
    }
    text
}

/// The limits with their time budgets shortened by the time since `received` (unless the
/// search ponders: its budgets count from `ponderhit`).
pub(super) fn count_from(mut limits: Limits, received: Instant, pondering: bool) -> Limits {
    if !pondering {
        let late = received.elapsed();
        limits.soft_time = limits.soft_time.map(|t| t.saturating_sub(late));
        limits.hard_time = limits.hard_time.map(|t| t.saturating_sub(late));
    }
    limits
}

/// The `bestmove` line of a search's answer: `bestmove none` without a move, and with the
/// `Ponder` option the expected reply (the principal variation's second move, when the
/// variation starts with the best move). `show` writes a move in the game's notation.
pub(super) fn bestmove_line<M: Copy + PartialEq, D: Display>(
    best: Option<M>,
    pv: &[M],
    ponder_move: bool,
    show: impl Fn(M) -> D,
) -> String {
    let Some(mv) = best else {
        return "bestmove none".to_owned();
    };
    let mut line = format!("bestmove {}", show(mv));
    if ponder_move {
        if let Some(&reply) = pv.get(1).filter(|_| pv[0] == mv) {
            line.push_str(&format!(" ponder {}", show(reply)));
        }
    }
    line
}

/// The answer to `go` in a game that is over: an `info string game over: RESULT` line, then
/// `bestmove none`.
pub(super) fn game_over(out: &Out, result: impl Display) -> String {
    super::say(out, &format!("info string game over: {result}"));
    "bestmove none".to_owned()
}

/// The search options of `request` for a game whose moves `read` reads: only the
/// `searchmoves` (checked now), the `MultiPV` lines, `go mate N` as `mate_plies(N)` plies,
/// and pondering.
pub(super) fn search_options<M>(
    request: &GoRequest,
    read: impl Fn(&str) -> Result<M, String>,
    mate_plies: impl Fn(u32) -> u32,
) -> Result<SearchOptions<M>, String> {
    let mut root_moves = Vec::new();
    for text in &request.searchmoves {
        root_moves.push(read(text).map_err(|e| format!("`go searchmoves`: {e}"))?);
    }
    let mut options = SearchOptions::default()
        .with_root_moves(root_moves)
        .with_lines(request.lines);
    if let Some(n) = request.mate {
        options = options.with_mate_plies(mate_plies(n));
    }
    if let Some(flag) = &request.ponder {
        options = options.with_ponder(flag.clone());
    }
    Ok(options)
}

/// The lines `d` writes for a game: its position string and its outcome (`ongoing` while
/// it goes on).
pub(super) fn show_lines(position: impl Display, outcome: Option<String>) -> Vec<String> {
    vec![
        format!("info string position {position}"),
        format!(
            "info string outcome {}",
            outcome.unwrap_or_else(|| "ongoing".to_owned())
        ),
    ]
}

#[cfg(test)]
mod tests {
    use std::io::{self, Cursor, Write};
    use std::sync::{Arc, Mutex};

    use rand::rngs::StdRng;
    use rand::seq::IndexedRandom;
    use rand::{Rng, SeedableRng};

    /// The output of a protocol run, shared with the test.
    #[derive(Clone, Default)]
    struct Shared(Arc<Mutex<Vec<u8>>>);

    impl Write for Shared {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            self.0.lock().expect("not poisoned").extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    /// Words of every game's commands, good and bad.
    const WORDS: [&str; 40] = [
        "K10",
        "k10",
        "A1",
        "T19",
        "E5",
        "Z9",
        "c3",
        "a1",
        "e5",
        "b2",
        "swap",
        "pass",
        "e3-e4-0",
        "e3-e4",
        "c3+3",
        "0",
        "1",
        "9",
        "13",
        "19",
        "-1",
        "true",
        "false",
        "ffa",
        "fen",
        "startpos",
        "moves",
        "value",
        "name",
        "depth",
        "nodes",
        "wtime",
        "btime",
        "time",
        "searchmoves",
        "mate",
        "x",
        "",
        "\u{e9}",
        "99999999999999999999999",
    ];

    fn random_line(rng: &mut StdRng) -> String {
        let pick = |rng: &mut StdRng, n: usize| -> String {
            (0..n)
                .map(|_| *WORDS.choose(rng).expect("words"))
                .collect::<Vec<_>>()
                .join(" ")
        };
        let games = ["ploy", "pente", "pyloff", "PENTE", "chess"];
        let options = [
            "Size",
            "Tournament rule",
            "Players",
            "All freedoms",
            "Cut down",
            "MultiPV",
            "Variant",
            "Rules",
            "Ponder",
            "Hash",
        ];
        match rng.random_range(0..12) {
            0 => format!(
                "setoption name Game value {}",
                games.choose(rng).expect("games")
            ),
            1 | 2 => {
                let name = options.choose(rng).expect("options");
                let value = match *name {
                    "Hash" => "1".to_owned(),
                    _ => pick(rng, 1),
                };
                format!("setoption name {name} value {value}")
            }
            3..=5 => {
                let n = rng.random_range(0..6);
                format!("position startpos moves {}", pick(rng, n))
            }
            6 => format!("position {}", pick(rng, 3)),
            7 => ["go depth 1", "go nodes 200", "go depth 2 nodes 500"]
                .choose(rng)
                .expect("go")
                .to_string(),
            8 => format!("go {}", pick(rng, 3)),
            9 => ["d", "isready", "ucinewgame", "uci", "stop"]
                .choose(rng)
                .expect("command")
                .to_string(),
            _ => pick(rng, 4),
        }
    }

    /// Random sessions across the three games: the engine never panics, exits only at the
    /// end of the input, and writes only lines of the protocol.
    #[test]
    fn random_sessions_across_the_games_keep_to_the_protocol() {
        let mut rng = StdRng::seed_from_u64(13);
        // Best moves seen in each game's notation: Ploy's, Pente's, Pyloff's.
        let mut seen = [0; 3];
        for _ in 0..4 {
            let lines: Vec<String> = (0..150).map(|_| random_line(&mut rng)).collect();
            let input = lines.join("\n") + "\nisready\n";
            let out = Shared::default();
            super::super::run_protocol(Cursor::new(input.into_bytes()), out.clone())
                .expect("reading a buffer");
            let text = String::from_utf8(out.0.lock().expect("not poisoned").clone())
                .expect("UTF-8 output");
            let written: Vec<&str> = text.lines().collect();
            // The last `isready` was answered (at once if a search was running).
            assert!(written.contains(&"readyok"), "{text}");
            for line in &written {
                assert!(
                    [
                        "id ",
                        "option name ",
                        "uciok",
                        "readyok",
                        "info ",
                        "bestmove "
                    ]
                    .iter()
                    .any(|p| line.starts_with(p)),
                    "{line}"
                );
                assert!(line.chars().count() <= 330 || line.starts_with("info depth"));
            }
            let gos = lines.iter().filter(|l| l.starts_with("go")).count();
            let bests = written
                .iter()
                .filter(|l| l.starts_with("bestmove "))
                .count();
            assert!(bests <= gos, "{bests} bestmoves for {gos} go commands");
            for line in &written {
                if let Some(mv) = line.strip_prefix("bestmove ") {
                    let mv = mv.split(' ').next().unwrap_or_default();
                    if mv.contains('-') {
                        seen[0] += 1;
                    } else if mv.starts_with(|c: char| c.is_ascii_uppercase()) {
                        seen[1] += 1;
                    } else if mv != "none" {
                        seen[2] += 1;
                    }
                }
            }
        }
        assert!(
            seen.iter().all(|&n| n > 0),
            "searches in each game: {seen:?}"
        );
    }
}
