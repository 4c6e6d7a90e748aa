//! Pente on the server, through the `pente` crate.
//!
//! - Options: `-size=N` (alias `-board_size=N`; odd, 7 to 19, default 19) and
//!   `-no_tournament_rule`.
//! - Seats: White (first; the first stone goes on the centre) and Black.
//! - Moves are points (`K10`, either case) and are stored and listed in upper case; `legal`
//!   lists them row by row from row 1, each row from column A.
//! - The game ends by the rules only (five in a row, ten captured stones, a full board);
//!   resigning or running out of time gives the game to the other player.
//! - The bot is the crate's engine at the game's level (full strength by default), within
//!   the server's budget.

use std::fmt::Write as _;

use pente::{Color, Engine, Game, Move, Outcome as PenteOutcome, Point, Rules, Size, Strength};
use serde_json::json;

use crate::game::{
    BOT_TABLE_BYTES, BotPlay, Budget, GameInfo, GameType, MoveError, OptionSpec, Options, Outcome,
    RecordFile, ServerEnding, bot_choice, excerpt, game_facts, write_last_and_position,
};

/// The version of the rules the adapter plays (stored with every game).
pub const PENTE_RULES_VERSION: u32 = 1;

const OPTIONS: &[OptionSpec] = &[
    OptionSpec::number(
        "size",
        7,
        19,
        "the board's side: an odd number from 7 to 19 (default 19)",
    )
    .with_aliases(&["board_size"]),
    OptionSpec::flag(
        "no_tournament_rule",
        "White's second stone may go anywhere (by default it must lie at least three \
         points from the centre)",
    ),
];

const HELP: &str = "\
Pente (Gary Gabrel, 1977): place a stone on an empty point. Five or more in an unbroken
line wins; so do ten captured stones (bracket exactly two enemy stones between two of yours
to take them).
Seats: White (first) and Black. White's first stone goes on the centre (K10 on 19x19); by
the tournament rule White's second stone lies at least three points from the centre.
Moves: a point, the column letter (A to T without I) then the row from 1 at the bottom:
`K10`, `g7` (stored in upper case).";

/// Pente, as a [`GameType`].
#[derive(Clone, Copy, Debug, Default)]
pub struct PenteType;

/// The rules `options` ask for.
fn rules_of(options: &Options) -> Result<Rules, String> {
    let size = match options.number("size") {
        Some(n) => Size::new(n).map_err(|e| format!("option -size: {e}"))?,
        None => Size::S19,
    };
    Ok(Rules::new(size).with_tournament_rule(!options.has("no_tournament_rule")))
}

fn seat_of(colour: Color) -> usize {
    colour.index()
}

fn reason_word(outcome: PenteOutcome) -> &'static str {
    match outcome {
        PenteOutcome::Win { reason, .. } => match reason {
            pente::WinReason::Five => "five",
            pente::WinReason::Captures => "captures",
            pente::WinReason::FiveAndCaptures => "five_and_captures",
        },
        PenteOutcome::Draw => "full_board",
    }
}

/// The last move and the points whose stones it captured.
fn last_move(game: &Game) -> Option<(Move, Vec<Point>)> {
    let mv = *game.moves().last()?;
    let mut before = game.clone();
    before.undo();
    let captured = before
        .position()
        .stones_iter()
        .filter(|&(p, _)| game.position().stone_at(p).is_none())
        .map(|(p, _)| p)
        .collect();
    Some((mv, captured))
}

/// A line of five or more through the last stone, if the last move made one.
fn winning_line(game: &Game) -> Vec<Point> {
    let Some(&Move(last)) = game.moves().last() else {
        return Vec::new();
    };
    let pos = game.position();
    let Some(colour) = pos.stone_at(last) else {
        return Vec::new();
    };
    let step = |p: Point, (dc, dr): (i32, i32)| {
        let c = u8::try_from(i32::from(p.col()) + dc).ok()?;
        let r = u8::try_from(i32::from(p.row()) + dr).ok()?;
        Point::new(c, r).filter(|&q| pos.size().contains(q))
    };
    for dir in [(1, 0), (0, 1), (1, 1), (1, -1)] {
        let mut line = vec![last];
        for d in [dir, (-dir.0, -dir.1)] {
            let mut p = last;
            while let Some(q) = step(p, d).filter(|&q| pos.stone_at(q) == Some(colour)) {
                line.push(q);
                p = q;
            }
        }
        if line.len() >= 5 {
            line.sort_by_key(|p| (p.row(), p.col()));
            return line;
        }
    }
    Vec::new()
}

fn point_json(p: Point) -> serde_json::Value {
    json!({"point": p.to_string(), "col": p.col(), "row": p.row()})
}

impl GameInfo for PenteType {
    game_facts!(
        name: "pente",
        rules_version: PENTE_RULES_VERSION,
        options: OPTIONS,
        help: HELP,
        players: 2..=2,
    );

    fn seat_name(&self, _options: &Options, seat: usize) -> String {
        match seat {
            0 => "White".to_owned(),
            1 => "Black".to_owned(),
            _ => format!("seat {seat}"),
        }
    }
}

impl GameType for PenteType {
    type State = Game;

    fn new_game(&self, options: &Options, players: usize) -> Result<Game, String> {
        if players != 2 {
            return Err("a Pente game takes 2 players".to_owned());
        }
        Ok(Game::new(rules_of(options)?))
    }

    fn play(&self, game: &mut Game, text: &str) -> Result<String, MoveError> {
        let text = text.trim();
        // A point is a letter and at most two digits: anything longer is no point.
        let mv: Move = if text.len() > 3 {
            Err(MoveError::Malformed(format!(
                "`{}` is not a point (a column letter A to T without I, then a row number)",
                excerpt(text)
            )))
        } else {
            text.parse().map_err(|e: pente::ParsePointError| {
                MoveError::Malformed(format!("`{}` is not a point: {e}", excerpt(text)))
            })
        }?;
        game.play(mv).map_err(|e| {
            let mut m = format!("`{mv}`: {}", e.reason);
            if e.reason == pente::IllegalMove::OffBoard {
                let n = game.rules().size.get();
                let last = Point::new(n - 1, n - 1)
                    .map(|p| p.to_string())
                    .unwrap_or_default();
                m.push_str(&format!(" (A1 to {last} on this {n}x{n} board)"));
            }
            MoveError::Illegal(m)
        })?;
        Ok(mv.to_string())
    }

    fn legal_moves(&self, game: &Game) -> Vec<String> {
        game.position()
            .legal_moves()
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    fn to_move(&self, game: &Game) -> Option<usize> {
        game.position().side_to_move().map(seat_of)
    }

    fn outcome(&self, game: &Game) -> Option<Outcome> {
        game.outcome().map(|o| Outcome {
            winners: o.winner().map(seat_of).into_iter().collect(),
            reason: reason_word(o).to_owned(),
        })
    }

    fn render_text(&self, game: &Game) -> String {
        let pos = game.position();
        let mut out = pente::display::board(pos, false);
        if !out.ends_with('\n') {
            out.push('\n');
        }
        let _ = writeln!(
            out,
            "Captured: White {}, Black {}",
            pos.captures(Color::White),
            pos.captures(Color::Black)
        );
        let last = last_move(game).map(|(mv, captured)| {
            let names = captured.iter().map(ToString::to_string).collect();
            (mv.to_string(), names)
        });
        write_last_and_position(&mut out, last, pos);
        out
    }

    fn render_json(&self, game: &Game) -> serde_json::Value {
        let pos = game.position();
        let rules = pos.rules();
        let n = usize::from(pos.size().get());
        let stones: Vec<serde_json::Value> = pos
            .stones_iter()
            .map(|(p, c)| {
                let mut v = point_json(p);
                v["colour"] = json!(c.name());
                v
            })
            .collect();
        json!({
            "size": pos.size().get(),
            "tournament_rule": rules.tournament_rule,
            "columns": pente::COLUMNS[..n].iter().map(|&c| (c as char).to_string()).collect::<Vec<_>>(),
            "turn": pos.turn().name(),
            "stones": stones,
            "captures": {
                "white": pos.captures(Color::White),
                "black": pos.captures(Color::Black),
            },
            "last_move": last_move(game).map(|(mv, captured)| json!({
                "move": mv.to_string(),
                "colour": pos.stone_at(mv.0).map(Color::name),
                "captured": captured.iter().map(ToString::to_string).collect::<Vec<_>>(),
            })),
            "winning_line": winning_line(game).iter().map(ToString::to_string).collect::<Vec<_>>(),
            "position": pos.to_string(),
        })
    }

    fn record(
        &self,
        game: &Game,
        players: &[String],
        ending: Option<ServerEnding>,
    ) -> Result<RecordFile, String> {
        let name = |i: usize| players.get(i).map_or("", String::as_str);
        let mut record = pente::Record::from_game(game, name(0), name(1));
        // White is seat 0: whoever leaves, the other wins.
        let loses = |seat: usize| {
            if seat == 0 {
                pente::GameResult::BlackWins
            } else {
                pente::GameResult::WhiteWins
            }
        };
        match ending {
            Some(ServerEnding::Resigned(s)) => {
                record.result = loses(s);
                record
                    .tags
                    .push(("Termination".to_owned(), "resignation".to_owned()));
            }
            Some(ServerEnding::OutOfTime(s)) => {
                record.result = loses(s);
                record
                    .tags
                    .push(("Termination".to_owned(), "time".to_owned()));
            }
            Some(ServerEnding::Agreed) => {
                record.result = pente::GameResult::Draw;
                record
                    .tags
                    .push(("Termination".to_owned(), "agreement".to_owned()));
            }
            None => {}
        }
        Ok(RecordFile {
            text: record.to_string(),
            extension: "pente",
            media_type: "text/plain; charset=utf-8",
        })
    }

    fn bot_move(&self, game: &Game, budget: &Budget, play: BotPlay) -> Option<String> {
        let pos = game.position();
        if pos.is_over() {
            return None;
        }
        let config = ploy_search::Config {
            table_bytes: BOT_TABLE_BYTES,
            ..pente::engine::full_strength_config()
        };
        let strength = if play.level.is_full() {
            Strength::Full
        } else {
            Strength::Level(play.level)
        };
        let mut engine = Engine::with_config(strength, config, pente::Evaluation::default())
            .with_seed(play.seed);
        let answer = engine.search(pos, &budget.limits(), |_| {});
        bot_choice(answer.best_move, |mv| pos.is_legal(mv), &pos.legal_moves())
            .map(|mv| mv.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn opts(texts: &[&str]) -> Options {
        Options::of(OPTIONS, texts)
    }

    fn play_all(g: &mut Game, moves: &[&str]) {
        for m in moves {
            PenteType.play(g, m).unwrap();
        }
    }

    #[test]
    fn options_give_the_rules() {
        assert_eq!(rules_of(&opts(&[])).unwrap(), Rules::default());
        let r = rules_of(&opts(&["-board_size=9", "-no_tournament_rule"])).unwrap();
        assert_eq!(r.size, Size::S9);
        assert!(!r.tournament_rule);
        assert_eq!(opts(&["-board_size=9"]).to_texts(), ["-size=9"]);
        assert!(PenteType.new_game(&opts(&["-size=8"]), 2).is_err());
        assert!(PenteType.new_game(&opts(&[]), 3).is_err());
        let mut rest = Vec::new();
        assert!(Options::parse(OPTIONS, ["-size=21"], &mut rest).is_err());
    }

    #[test]
    fn moves_are_canonical_and_refusals_change_nothing() {
        let mut g = PenteType.new_game(&opts(&["-size=9"]), 2).unwrap();
        assert_eq!(PenteType.to_move(&g), Some(0));
        assert!(matches!(
            PenteType.play(&mut g, "A1"),
            Err(MoveError::Illegal(m)) if m.contains("centre")
        ));
        assert_eq!(
            PenteType.play(&mut g, "K10"),
            Err(MoveError::Illegal(
                "`K10`: the point is not on the board (A1 to J9 on this 9x9 board)".to_owned()
            ))
        );
        assert_eq!(PenteType.play(&mut g, "e5").unwrap(), "E5");
        assert_eq!(PenteType.to_move(&g), Some(1));
        for bad in ["", "I5", "Z1", "E0", "E55", "E5 F6", &"x".repeat(1000)] {
            assert!(
                matches!(PenteType.play(&mut g, bad), Err(MoveError::Malformed(_))),
                "{bad}"
            );
        }
        assert!(matches!(
            PenteType.play(&mut g, "E5"),
            Err(MoveError::Illegal(_))
        ));
        assert_eq!(g.moves().len(), 1);
        assert_eq!(PenteType.play(&mut g, "F6").unwrap(), "F6");
        // The tournament rule: White's second stone is not in the middle 5x5.
        let legal = PenteType.legal_moves(&g);
        assert!(!legal.contains(&"E6".to_owned()));
        assert!(legal.contains(&"E8".to_owned()));
        assert_eq!(legal.len(), 56);
        assert!(matches!(
            PenteType.play(&mut g, "E6"),
            Err(MoveError::Illegal(_))
        ));
        assert_eq!(PenteType.winners_without(&g, 1).unwrap(), [0]);
    }

    #[test]
    fn five_in_a_row_and_captures_end_the_game() {
        let mut g = PenteType.new_game(&opts(&["-size=9"]), 2).unwrap();
        play_all(&mut g, &["E5", "A9", "B5", "B9", "C5", "C9", "D5", "D9"]);
        assert!(PenteType.outcome(&g).is_none());
        PenteType.play(&mut g, "F5").unwrap();
        let o = PenteType.outcome(&g).unwrap();
        assert_eq!((o.winners, o.reason.as_str()), (vec![0], "five"));
        assert_eq!(PenteType.to_move(&g), None);
        assert!(PenteType.legal_moves(&g).is_empty());
        assert!(PenteType.play(&mut g, "A1").is_err());
        let json = PenteType.render_json(&g);
        assert_eq!(json["winning_line"], json!(["B5", "C5", "D5", "E5", "F5"]));

        // A capture: White brackets F5 G5 with E5 and H5.
        let mut g = PenteType.new_game(&opts(&["-size=9"]), 2).unwrap();
        play_all(&mut g, &["E5", "F5", "B2", "G5", "H5"]);
        let json = PenteType.render_json(&g);
        assert_eq!(json["captures"], json!({"white": 2, "black": 0}));
        assert_eq!(json["last_move"]["captured"], json!(["F5", "G5"]));
        assert_eq!(json["last_move"]["colour"], "white");
        assert_eq!(json["stones"].as_array().unwrap().len(), 3);
        assert_eq!(json["turn"], "black");
        assert!(PenteType.render_text(&g).contains("captured F5 G5"));
        // The example of docs/server.md.
        assert_eq!(
            json,
            json!({
                "size": 9,
                "tournament_rule": true,
                "columns": ["A", "B", "C", "D", "E", "F", "G", "H", "J"],
                "turn": "black",
                "stones": [{"point": "B2", "col": 1, "row": 1, "colour": "white"},
                           {"point": "E5", "col": 4, "row": 4, "colour": "white"},
                           {"point": "H5", "col": 7, "row": 4, "colour": "white"}],
                "captures": {"white": 2, "black": 0},
                "last_move": {"move": "H5", "colour": "white", "captured": ["F5", "G5"]},
                "winning_line": [],
                "position": "9/9/9/9/4w2w1/9/9/1w7/9 b 2 0 t"
            })
        );
    }

    #[test]
    fn the_bot_plays_a_legal_move() {
        let mut g = PenteType.new_game(&opts(&["-size=9"]), 2).unwrap();
        let budget = Budget {
            nodes: Some(500),
            ..Budget::default()
        };
        for _ in 0..4 {
            let mv = PenteType.bot_move(&g, &budget, BotPlay::default()).unwrap();
            PenteType.play(&mut g, &mv).unwrap();
        }
        assert_eq!(g.moves().len(), 4);
    }
}
