//! The name of a multi-player search, as engines and command lines choose one.

use core::fmt;
use core::str::FromStr;

/// Which of the multi-player searches a game's engine runs for three or four players.
///
/// Text forms (for options and command lines): `paranoid`, `brs`, `brs+` (also `brsplus`)
/// and `mcts`, in any case.
///
/// ```
/// use ploy_search::multi::SearchKind;
///
/// let kind: SearchKind = "BRS+".parse().unwrap();
/// assert_eq!(kind, SearchKind::BrsPlus);
/// assert_eq!(kind.to_string(), "brs+");
/// assert!("minimax".parse::<SearchKind>().is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum SearchKind {
    /// [`crate::multi::Paranoid`]: every opponent against the root player.
    Paranoid,
    /// [`crate::multi::Brs`] with [`crate::multi::BrsPlayers::Pass`]: Best-Reply Search.
    Brs,
    /// [`crate::multi::Brs`] with [`crate::multi::BrsPlayers::Policy`]: BRS+.
    #[cfg_attr(feature = "serde", serde(rename = "brs+"))]
    BrsPlus,
    /// [`crate::multi::Mcts`]: Monte-Carlo tree search by UCT.
    Mcts,
}

impl SearchKind {
    /// Every kind, in the order of their text forms in [`SearchKind::NAMES`].
    pub const ALL: [SearchKind; 4] = [
        SearchKind::Paranoid,
        SearchKind::Brs,
        SearchKind::BrsPlus,
        SearchKind::Mcts,
    ];
    /// The text forms, as [`fmt::Display`] writes them.
    pub const NAMES: [&'static str; 4] = ["paranoid", "brs", "brs+", "mcts"];

    /// The text form.
    pub fn name(self) -> &'static str {
        match self {
            SearchKind::Paranoid => "paranoid",
            SearchKind::Brs => "brs",
            SearchKind::BrsPlus => "brs+",
            SearchKind::Mcts => "mcts",
        }
    }
}

impl fmt::Display for SearchKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Text that names no multi-player search.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{text}` is not a multi-player search: paranoid, brs, brs+ or mcts")]
pub struct SearchKindError {
    text: String,
}

impl FromStr for SearchKind {
    type Err = SearchKindError;

    fn from_str(s: &str) -> Result<SearchKind, SearchKindError> {
        let t = s.trim().to_ascii_lowercase();
        match t.as_str() {
            "paranoid" => Ok(SearchKind::Paranoid),
            "brs" => Ok(SearchKind::Brs),
            "brs+" | "brsplus" => Ok(SearchKind::BrsPlus),
            "mcts" => Ok(SearchKind::Mcts),
            _ => Err(SearchKindError { text: s.to_owned() }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_reads_back() {
        for (kind, name) in SearchKind::ALL.iter().zip(SearchKind::NAMES) {
            assert_eq!(kind.to_string(), name);
            assert_eq!(name.parse::<SearchKind>(), Ok(*kind));
        }
    }
}
