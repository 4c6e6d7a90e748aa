//! The Gomocup (Piskvork) brain protocol, which five-in-a-row programs speak, with a Pente
//! extension.
//!
//! The manager writes one command a line; the brain answers on its standard output:
//!
//! | command | answer |
//! |---|---|
//! | `START S` | `OK`, or `ERROR ...` unless `S` is an odd size from 7 to 19 |
//! | `RECTSTART W,H` | `OK` for a square odd board, else `ERROR ...` |
//! | `RESTART` | `OK` (a new game on the same board) |
//! | `BEGIN` | the brain's move: it plays White (first, on the centre) |
//! | `TURN X,Y` | the brain's move after the opponent's `X,Y` |
//! | `BOARD`, then `X,Y,F` lines, then `DONE` | the brain's move (see below) |
//! | `TAKEBACK X,Y` | `OK` if `X,Y` was the last move, which is taken back |
//! | `INFO KEY VALUE` | nothing; `timeout_turn`, `timeout_match`, `time_left` (ms) set the time, `pente_tournament_rule` (`0` or `1`) the rule; others are ignored |
//! | `ABOUT` | `name="...", version="...", author="...", country="..."` |
//! | `END` | nothing; the brain stops |
//!
//! Coordinates: `X` the column from the left (`A` is 0), `Y` the row from the top (row `S`
//! is 0), so `K10` on 19x19 is `9,9`. A move is answered `X,Y`; an unknown command
//! `UNKNOWN ...`, an illegal move or a malformed command `ERROR ...` (the game is then
//! unchanged).
//!
//! **The Pente extension.** Captures make the stones on the board an incomplete record
//! of a game: the capture counts, the turn and the tournament rule's move are not on the
//! board. So in `BOARD` the lines are **every move of the game in the order played**,
//! including stones captured since; `F` is 1 for the brain's moves and 2 for the
//! opponent's. The brain replays them under the rules (captures happen as they did) and
//! answers its move; a sequence that is not a legal game is an `ERROR`. A bad line inside
//! `BOARD` (not `X,Y,F`, a point off the board, a field other than 1 or 2; in particular
//! `3`, Gomocup's mark of a continuous game, which Pente does not have) does not end the
//! list: the brain reads on to `DONE`, then answers exactly one `ERROR <reason>` (for the
//! first bad line) and keeps the game it had before `BOARD`. The first move
//! listed is White's; the brain is the player to move after the list. `INFO
//! pente_tournament_rule 0` switches the tournament rule off (it is on by default) for the
//! next game. Time: a move takes at most `timeout_turn` and, when the match has a clock,
//! a thirtieth of `time_left`; 5 s by default.

use std::time::Duration;

use crate::engine::{Engine, Strength};
use crate::game::Game;
use crate::types::{Color, Move, Point, Rules, Size};
use ploy_search::Limits;

/// A brain: the game, the engine and the protocol's state.
#[derive(Debug)]
pub struct Brain {
    rules: Rules,
    tournament_rule: bool,
    game: Option<Game>,
    engine: Engine,
    timeout_turn: Option<u64>,
    time_left: Option<u64>,
    board: Option<BoardList>,
    done: bool,
}

/// The lines of a `BOARD` command read so far, up to its `DONE`.
#[derive(Debug, Default)]
struct BoardList {
    /// The moves in order, each with its field (1 the brain's, 2 the opponent's).
    moves: Vec<(Move, u8)>,
    /// The answer to the first bad line, given at `DONE` instead of a move.
    error: Option<String>,
}

impl Default for Brain {
    fn default() -> Brain {
        Brain::new()
    }
}

impl Brain {
    /// A brain waiting for `START`.
    #[must_use]
    pub fn new() -> Brain {
        Brain {
            rules: Rules::default(),
            tournament_rule: true,
            game: None,
            engine: Engine::new(Strength::Full).with_book(Some(crate::book::Book::builtin())),
            timeout_turn: None,
            time_left: None,
            board: None,
            done: false,
        }
    }

    /// Whether `END` was received.
    #[must_use]
    pub fn finished(&self) -> bool {
        self.done
    }

    /// The current game, if one was started.
    #[must_use]
    pub fn game(&self) -> Option<&Game> {
        self.game.as_ref()
    }

    fn point_text(&self, p: Point) -> String {
        let n = self.rules.size.get();
        format!("{},{}", p.col(), n - 1 - p.row())
    }

    /// The point of a `TURN` or `TAKEBACK` command and the game it is played in, or the
    /// answer when the point is malformed or there is no game.
    fn point_and_game(&mut self, text: &str) -> Result<(Point, &mut Game), Vec<String>> {
        let p = self
            .parse_point(text)
            .map_err(|e| vec![format!("ERROR {e}")])?;
        let Some(game) = &mut self.game else {
            return Err(vec!["ERROR no game: send START first".to_owned()]);
        };
        Ok((p, game))
    }

    fn parse_point(&self, text: &str) -> Result<Point, String> {
        parse_xy(self.rules.size, text)
    }

    fn limits(&self) -> Limits {
        let mut ms = self.timeout_turn.unwrap_or(5000);
        if let Some(left) = self.time_left {
            ms = ms.min(left / 30);
        }
        // Keep a margin for the answer to travel.
        let ms = ms.saturating_sub(ms / 10 + 20).max(10);
        Limits::move_time(Duration::from_millis(ms))
    }

    fn think(&mut self) -> String {
        let limits = self.limits();
        let Some(game) = &mut self.game else {
            return "ERROR no game: send START first".to_owned();
        };
        if game.position().is_over() {
            return "ERROR the game is over".to_owned();
        }
        let pos = game.position().clone();
        let analysis = self.engine.search(&pos, &limits, |_| {});
        let mv = analysis.best_move.expect("the game goes on");
        game.play(mv).expect("the engine plays legal moves");
        let n = self.rules.size.get();
        format!("{},{}", mv.point().col(), n - 1 - mv.point().row())
    }

    fn start(&mut self, size: u32) -> String {
        match Size::new(size) {
            Ok(s) => {
                self.rules = Rules::new(s).with_tournament_rule(self.tournament_rule);
                self.game = Some(Game::new(self.rules));
                self.engine.clear();
                "OK".to_owned()
            }
            Err(e) => format!("ERROR {e}"),
        }
    }

    /// Handles one line from the manager and returns the answer lines (often one, none
    /// for `INFO`, `END` and inside `BOARD`).
    pub fn handle(&mut self, line: &str) -> Vec<String> {
        let line = line.trim();
        if let Some(board) = &mut self.board {
            if line.eq_ignore_ascii_case("DONE") {
                let list = self.board.take().unwrap_or_default();
                return vec![match list.error {
                    // The game stays as it was before BOARD.
                    Some(error) => error,
                    None => self.replay_board(&list.moves),
                }];
            }
            if board.error.is_some() {
                // Only the first bad line is reported; read on to DONE.
                return Vec::new();
            }
            match parse_board_line(self.rules.size, line) {
                Ok(entry) => board.moves.push(entry),
                Err(e) => board.error = Some(format!("ERROR {e}")),
            }
            return Vec::new();
        }
        let (word, rest) = line
            .split_once(char::is_whitespace)
            .map_or((line, ""), |(w, r)| (w, r.trim()));
        match word.to_ascii_uppercase().as_str() {
            "" => Vec::new(),
            "START" => {
                let size = rest.parse::<u32>().unwrap_or(0);
                vec![self.start(size)]
            }
            "RECTSTART" => {
                let dims: Vec<u32> = rest
                    .split(',')
                    .map(|s| s.trim().parse::<u32>().unwrap_or(0))
                    .collect();
                if dims.len() == 2 && dims[0] == dims[1] {
                    vec![self.start(dims[0])]
                } else {
                    vec!["ERROR Pente is played on square boards".to_owned()]
                }
            }
            "RESTART" => {
                let size = u32::from(self.rules.size.get());
                vec![self.start(size)]
            }
            "BEGIN" => {
                let Some(game) = &self.game else {
                    return vec!["ERROR no game: send START first".to_owned()];
                };
                if !game.moves().is_empty() {
                    return vec!["ERROR BEGIN comes before the first move".to_owned()];
                }
                vec![self.think()]
            }
            "TURN" => {
                let (p, game) = match self.point_and_game(rest) {
                    Ok(found) => found,
                    Err(answer) => return answer,
                };
                if let Err(e) = game.play(Move(p)) {
                    return vec![format!("ERROR {}: {}", rest, e.reason)];
                }
                if game.position().is_over() {
                    return vec![format!(
                        "MESSAGE the game is over: {}",
                        game.outcome().map_or(String::new(), |o| o.to_string())
                    )];
                }
                vec![self.think()]
            }
            "BOARD" => {
                // The list is read to DONE even without a game, to keep step with the
                // manager; the answer is then the one ERROR.
                self.board = Some(BoardList {
                    moves: Vec::new(),
                    error: self
                        .game
                        .is_none()
                        .then(|| "ERROR no game: send START first".to_owned()),
                });
                Vec::new()
            }
            "TAKEBACK" => {
                let (p, game) = match self.point_and_game(rest) {
                    Ok(found) => found,
                    Err(answer) => return answer,
                };
                if game.moves().last() == Some(&Move(p)) {
                    game.undo();
                    vec!["OK".to_owned()]
                } else {
                    vec!["ERROR that was not the last move".to_owned()]
                }
            }
            "INFO" => {
                let (key, value) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
                let value = value.trim();
                match key.to_ascii_lowercase().as_str() {
                    "timeout_turn" => self.timeout_turn = value.parse().ok().filter(|&v| v > 0),
                    "time_left" => self.time_left = value.parse().ok(),
                    "timeout_match" if value == "0" => self.time_left = None,
                    "pente_tournament_rule" => match value {
                        "0" => self.tournament_rule = false,
                        "1" => self.tournament_rule = true,
                        _ => return vec![format!("ERROR bad value {}", shown(value))],
                    },
                    _ => {}
                }
                Vec::new()
            }
            "ABOUT" => vec![format!(
                "name=\"pente\", version=\"{}\", author=\"The ploy developers\", country=\"-\"",
                env!("CARGO_PKG_VERSION")
            )],
            "END" => {
                self.done = true;
                Vec::new()
            }
            _ => vec![format!("UNKNOWN {}", shown(line))],
        }
    }

    /// Replays a `BOARD` list (the Pente extension: every move in order) and answers.
    fn replay_board(&mut self, moves: &[(Move, u8)]) -> String {
        let mut game = Game::new(self.rules);
        for (i, &(mv, _)) in moves.iter().enumerate() {
            if let Err(e) = game.play(mv) {
                return format!(
                    "ERROR move {} ({}): {}",
                    i + 1,
                    self.point_text(mv.point()),
                    e.reason
                );
            }
        }
        // The brain's moves are marked 1: they must be those of the colour to move now.
        let me = game.position().turn();
        for (i, &(_, field)) in moves.iter().enumerate() {
            let mover = if i % 2 == 0 {
                Color::White
            } else {
                Color::Black
            };
            if (field == 1) != (mover == me) {
                return format!(
                    "ERROR move {}: the fields must alternate, ending with the opponent's",
                    i + 1
                );
            }
        }
        self.game = Some(game);
        self.think()
    }
}

/// Reads a `BOARD` line, `X,Y,F`: the point and the field (1 the brain's stone, 2 the
/// opponent's). The field 3 (a continuous game's stone in Gomocup) is refused: Pente has no
/// continuous game.
fn parse_board_line(size: Size, line: &str) -> Result<(Move, u8), String> {
    let (xy, f) = line
        .rsplit_once(',')
        .ok_or_else(|| format!("bad board line {}: expected X,Y,F", shown(line)))?;
    let field = match f.trim() {
        "1" => 1,
        "2" => 2,
        "3" => {
            return Err(format!(
                "bad board line {}: field 3 marks a continuous game, which Pente does not have",
                shown(line)
            ));
        }
        _ => {
            return Err(format!(
                "bad board line {}: the field is 1 (the brain's stone) or 2 (the opponent's)",
                shown(line)
            ));
        }
    };
    let p = parse_xy(size, xy).map_err(|e| format!("bad board line {}: {e}", shown(line)))?;
    Ok((Move(p), field))
}

/// Reads `X,Y` (column from the left, row from the top) on a board of `size`.
fn parse_xy(size: Size, text: &str) -> Result<Point, String> {
    let (x, y) = text
        .split_once(',')
        .ok_or_else(|| format!("expected X,Y, got {}", shown(text)))?;
    let n = u32::from(size.get());
    let num = |s: &str| -> Result<u32, String> {
        let s = s.trim();
        if s.is_empty() || s.len() > 3 || !s.bytes().all(|b| b.is_ascii_digit()) {
            return Err(format!("bad coordinate {}", shown(s)));
        }
        s.parse()
            .map_err(|_| format!("bad coordinate {}", shown(s)))
    };
    let (x, y) = (num(x)?, num(y)?);
    if x >= n || y >= n {
        return Err(format!("{x},{y} is off the {n}x{n} board"));
    }
    Ok(Point::new(x as u8, (n - 1 - y) as u8).expect("on the board"))
}

fn shown(s: &str) -> String {
    let mut out: String = s.chars().take(16).collect();
    if s.chars().count() > 16 {
        out.push('…');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_short_exchange() {
        let mut b = Brain::new();
        assert_eq!(b.handle("START 9"), vec!["OK"]);
        b.handle("INFO timeout_turn 200");
        assert_eq!(b.handle("BEGIN"), vec!["4,4"]); // E5, the centre
        let answer = b.handle("TURN 5,3");
        assert_eq!(answer.len(), 1);
        assert!(b.game().unwrap().moves().len() == 3);
        assert!(b.handle("TURN 4,4")[0].starts_with("ERROR"));
        assert_eq!(b.handle("START 8")[0].split(' ').next(), Some("ERROR"));
        assert!(b.handle("FOO")[0].starts_with("UNKNOWN"));
        assert!(b.handle("ABOUT")[0].starts_with("name=\"pente\""));
        b.handle("END");
        assert!(b.finished());
    }

    #[test]
    fn board_replays_the_moves_in_order() {
        let mut b = Brain::new();
        b.handle("START 19");
        b.handle("INFO timeout_turn 100");
        // White K10, Black L10, White A1, Black M10: the brain is White, to move.
        assert!(b.handle("BOARD").is_empty());
        for line in ["9,9,1", "10,9,2", "0,18,1", "11,9,2"] {
            assert!(b.handle(line).is_empty());
        }
        let answer = b.handle("DONE");
        // N10 captures the pair: the engine takes it.
        assert_eq!(answer, vec!["12,9"]);
        assert_eq!(b.game().unwrap().position().captures(Color::White), 2);
    }

    #[test]
    fn a_bad_board_line_is_one_error_at_done() {
        let mut b = Brain::new();
        b.handle("START 19");
        b.handle("INFO timeout_turn 100");
        b.handle("TURN 9,9");
        let before = b.game().unwrap().moves().to_vec();
        for bad in ["9,9,7", "9,9,3", "99,9,1", "9,9", "frob"] {
            assert!(b.handle("BOARD").is_empty());
            for line in ["9,9,2", bad, "10,9,1", "11,11,2"] {
                assert!(b.handle(line).is_empty(), "{bad}");
            }
            let answer = b.handle("DONE");
            assert_eq!(answer.len(), 1);
            assert!(answer[0].starts_with("ERROR "), "{answer:?}");
            assert_eq!(b.game().unwrap().moves(), &before[..], "{bad}");
        }
    }
}
