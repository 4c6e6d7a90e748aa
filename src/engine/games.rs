//! The `Game` option: which game the protocol plays (Ploy, Pente or Pyloff), the games
//! not chosen now (kept with their options), the other games' engines on the search thread,
//! and the error for an option of another game.

use std::fmt::Display;

use ploy_search::{Info, Score};

use super::pente_game::PenteProtocol;
use super::pyloff_game::PyloffProtocol;
use super::{Engines as AllEngines, PloyProtocol, ProtocolGame, QUOTE, Session, excerpt};

/// The `uci` line of the `Game` option.
pub(super) const GAME_OPTION_LINE: &str =
    "option name Game type combo default ploy var ploy var pente var pyloff";

/// The games, in the order of the `Game` option's values.
const NAMES: [&str; 3] = ["ploy", "pente", "pyloff"];

/// The option keys of each game (lower case, without spaces and hyphens), in the order of
/// [`NAMES`]: for the error that names the game an option belongs to.
const KEYS: [&[&str]; 3] = [
    &[
        "multipv",
        "variant",
        "rules",
        "elimination",
        "rotation",
        "repetitiondraw",
        "nocapturelimit",
        "partnerelimination",
        "barecommander",
    ],
    &["size", "tournamentrule"],
    &["multipv", "size", "players", "allfreedoms", "cutdown"],
];

/// The key of an option name: lower case, letters and digits only.
fn key_of(name: &str) -> String {
    name.chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

/// The error for option `name` when the current game (`current`) does not have it but
/// another game does; `None` when no game has it.
pub(super) fn other_games_option(name: &str, current: &dyn ProtocolGame) -> Option<String> {
    let key = key_of(name);
    let owners: Vec<&str> = NAMES
        .iter()
        .zip(KEYS)
        .filter(|(game, keys)| **game != current.name() && keys.contains(&key.as_str()))
        .map(|(game, _)| *game)
        .collect();
    if owners.is_empty() {
        return None;
    }
    Some(format!(
        "option `{}` is not an option of {} games (it is one of {}); choose the game first: \
         `setoption name Game value {}`",
        excerpt(name, QUOTE),
        current.name(),
        owners.join(" and "),
        owners[0]
    ))
}

/// The games not chosen now, each with its options as last set (made when first chosen).
#[derive(Default)]
pub(super) struct Parked {
    games: [Option<Box<dyn ProtocolGame>>; 3],
}

/// The other games' engines, made on the search thread when first needed (with the table
/// size of the `Hash` option).
#[derive(Default)]
pub(super) struct Engines {
    pub(super) pente: Option<pente::Engine>,
    pub(super) pyloff: Option<pyloff::Engine>,
}

impl AllEngines {
    /// Pente's engine (full strength), made now if there is none.
    pub(super) fn pente(&mut self) -> &mut pente::Engine {
        let mb = self.hash_mb;
        self.games
            .pente
            .get_or_insert_with(|| super::pente_game::new_engine(mb))
    }

    /// Pyloff's engine, made now if there is none.
    pub(super) fn pyloff(&mut self) -> &mut pyloff::Engine {
        let mb = self.hash_mb;
        self.games
            .pyloff
            .get_or_insert_with(|| super::pyloff_game::new_engine(mb))
    }
}

impl Session {
    /// `setoption name Game value <game>`: another game becomes the current one, at its
    /// start position (with its options as last set), its engine's table cleared. Choosing
    /// the current game changes nothing.
    pub(super) fn choose_game(&mut self, value: &str) -> Result<(), String> {
        let wanted = value.trim().to_ascii_lowercase();
        let Some(index) = NAMES.iter().position(|&n| n == wanted) else {
            return Err(format!(
                "option `Game`: bad value `{}`; expected ploy, pente or pyloff",
                excerpt(value, QUOTE)
            ));
        };
        if self.game.name() == NAMES[index] {
            return Ok(());
        }
        let next: Box<dyn ProtocolGame> = match self.parked.games[index].take() {
            Some(game) => game,
            None => match index {
                0 => Box::new(PloyProtocol::new()),
                1 => Box::new(PenteProtocol::new()),
                _ => Box::new(PyloffProtocol::new()),
            },
        };
        let old = std::mem::replace(&mut self.game, next);
        let old_index = NAMES
            .iter()
            .position(|&n| n == old.name())
            .expect("a game of the list");
        self.parked.games[old_index] = Some(old);
        let job = self.game.new_game();
        self.send(job);
        Ok(())
    }
}

/// `true`/`false` (also `yes`/`no`, `on`/`off`, `1`/`0`) of a check option's lower-case
/// value.
pub(super) fn yes_no(v: &str) -> Option<bool> {
    match v {
        "true" | "yes" | "on" | "1" => Some(true),
        "false" | "no" | "off" | "0" => Some(false),
        _ => None,
    }
}

/// The share in whole percent as the `info` lines write it: 100 and 0 only for a forced
/// result.
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
