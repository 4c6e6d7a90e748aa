//! The `Game` option: which game the protocol plays (Ploy, Pente or Pyloff), the games
//! not chosen now (kept with their options), the other games' engines on the search thread,
//! and the error for an option of another game.

use super::game::ProtocolGame;
use super::{QUOTE, excerpt};

/// The `uci` line of the `Game` option.
pub(super) const GAME_OPTION_LINE: &str =
    "option name Game type combo default ploy var ploy var pente var pyloff";

/// The games, in the order of the `Game` option's values.
pub(super) const NAMES: [&str; 3] = ["ploy", "pente", "pyloff"];

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
    &["size", "tournamentrule", "ownbook"],
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
    pub(super) games: [Option<Box<dyn ProtocolGame>>; 3],
}

/// The other games' engines, made on the search thread when first needed (with the table
/// size of the `Hash` option).
#[derive(Default)]
pub(super) struct Engines {
    pub(super) pente: Option<pente::Engine>,
    pub(super) pyloff: Option<pyloff::Engine>,
}
