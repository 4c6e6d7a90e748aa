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
