//! The position string.
//!
//! ```text
//! <board> <players> <rules> <to move> <moves made>
//! ```
//!
//! - **board**: the levels from the board (level 0) up, separated by `:`; each level's rows
//!   from the top (its highest row) down, separated by `/`; each row from the left. A point
//!   is `.` (empty), `x`, `o`, `+` or `*` (players 1 to 4). A board of size `n` has `n`
//!   levels, level `k` has `n - k` rows of `n - k` points: the size is read from the board.
//! - **players**: 2 to 4.
//! - **rules**: `default`, `all_freedoms` or `cut_down`.
//! - **to move**: the player to move, 1 to the number of players.
//! - **moves made**: the number of moves made so far (placements, swaps and passes); it
//!   matters only for the swap, which is legal when it is 1 in a two-player game.
//!
//! The empty default board, player 1 to move:
//!
//! ```text
//! ....../....../....../....../....../......:...../...../...../...../.....:..../..../..../....:.../.../...:../..:. 2 default 1 0
//! ```
//!
//! Reading is strict about the board (exact row and level lengths, the five symbols) and
//! ignores extra whitespace between and around the fields. A position is checked: every
//! piece above the board rests on four pieces, every piece belongs to one of the players,
//! and a two-player position after one move holds player 1's single piece with player 2 to
//! move. Nothing else is checked (any such position can be set up, reachable or not).

use core::fmt;
use core::str::FromStr;

use crate::error::{ParsePositionError, excerpt};
use crate::geometry::{MAX_SIZE, MIN_SIZE, Point};
use crate::position::{Position, Setup};
use crate::types::{Options, Player, RuleSet};

fn symbol(c: u8) -> char {
    match c {
        0 => '.',
        c => Player::SYMBOLS[usize::from(c) - 1],
    }
}

fn owner_of(ch: u8) -> Option<u8> {
    match ch {
        b'.' => Some(0),
        b'x' => Some(1),
        b'o' => Some(2),
        b'+' => Some(3),
        b'*' => Some(4),
        _ => None,
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use fmt::Write;
        let n = self.size();
        let o = self.owners();
        let geo = self.geometry();
        for k in 0..n {
            if k > 0 {
                f.write_char(':')?;
            }
            let m = n - k;
            for j in (0..m).rev() {
                if j + 1 < m {
                    f.write_char('/')?;
                }
                for i in 0..m {
                    f.write_char(symbol(o[geo.index(Point::new(k, i, j)) as usize]))?;
                }
            }
        }
        write!(
            f,
            " {} {} {} {}",
            self.players(),
            self.rules(),
            self.to_move(),
            self.plies()
        )
    }
}

impl FromStr for Position {
    type Err = ParsePositionError;

    fn from_str(s: &str) -> Result<Position, ParsePositionError> {
        let fields: Vec<&str> = s.split_ascii_whitespace().collect();
        if fields.len() != 5 {
            return Err(ParsePositionError::Fields(fields.len()));
        }
        let levels: Vec<&str> = fields[0].split(':').collect();
        let n = levels.len();
        if !(usize::from(MIN_SIZE)..=usize::from(MAX_SIZE)).contains(&n) {
            return Err(ParsePositionError::Board(format!(
                "{n} levels: a board of size 2 to 13 has as many levels as its size"
            )));
        }
        let players = match fields[1] {
            "2" => 2,
            "3" => 3,
            "4" => 4,
            other => return Err(ParsePositionError::Players(excerpt(other))),
        };
        let rules: RuleSet = fields[2].parse()?;
        let options = Options::new(n as u8, players, rules)?;
        let to_move = fields[3]
            .parse::<u8>()
            .ok()
            .and_then(Player::new)
            .filter(|p| p.number() <= players)
            .ok_or_else(|| ParsePositionError::ToMove(excerpt(fields[3])))?;
        if fields[4].len() > 1 && fields[4].starts_with('0') {
            return Err(ParsePositionError::Plies(excerpt(fields[4])));
        }
        let plies = fields[4]
            .parse::<u32>()
            .ok()
            .filter(|_| fields[4].bytes().all(|b| b.is_ascii_digit()))
            .ok_or_else(|| ParsePositionError::Plies(excerpt(fields[4])))?;
        let mut pieces = Vec::new();
        for (k, level) in levels.iter().enumerate() {
            let m = n - k;
            let rows: Vec<&str> = level.split('/').collect();
            if rows.len() != m {
                return Err(ParsePositionError::Board(format!(
                    "level {k} has {} rows, not {m}",
                    rows.len()
                )));
            }
            for (r, row) in rows.iter().enumerate() {
                let j = m - 1 - r;
                if row.len() != m {
                    return Err(ParsePositionError::Board(format!(
                        "level {k}, row {} has {} points, not {m}",
                        j + 1,
                        row.chars().count()
                    )));
                }
                for (i, ch) in row.bytes().enumerate() {
                    let c = owner_of(ch).ok_or_else(|| {
                        ParsePositionError::Board(format!(
                            "`{}` is not a point (. x o + *)",
                            String::from_utf8_lossy(&[ch])
                        ))
                    })?;
                    if let Some(p) = Player::new(c) {
                        pieces.push((Point::new(k as u8, i as u8, j as u8), p));
                    }
                }
            }
        }
        let setup = Setup {
            options,
            pieces,
            to_move,
            plies,
        };
        Ok(setup.position()?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::SetupError;

    #[test]
    fn start_string() {
        let p = Position::new(Options::default());
        let s = p.to_string();
        assert_eq!(
            s,
            "....../....../....../....../....../......:...../...../...../...../.....:..../..../..../....:.../.../...:../..:. 2 default 1 0"
        );
        assert_eq!(s.parse::<Position>().unwrap(), p);
    }

    #[test]
    fn rejects() {
        assert!(matches!(
            "../..:. 2 default 1".parse::<Position>(),
            Err(ParsePositionError::Fields(4))
        ));
        assert!(matches!(
            "../..:x 2 default 1 0".parse::<Position>(),
            Err(ParsePositionError::Setup(SetupError::Floating(_)))
        ));
        assert!("o./..:. 2 default 1 0".parse::<Position>().is_ok());
        assert!(matches!(
            "+./..:. 2 default 1 0".parse::<Position>(),
            Err(ParsePositionError::Setup(SetupError::Colour(3)))
        ));
        assert!(matches!(
            "../..:. 2 default 3 0".parse::<Position>(),
            Err(ParsePositionError::ToMove(_))
        ));
        assert!("../x.:. 2 default 2 1".parse::<Position>().is_ok());
        assert!(matches!(
            "../o.:. 2 default 2 1".parse::<Position>(),
            Err(ParsePositionError::Setup(SetupError::FirstMove))
        ));
    }
}
