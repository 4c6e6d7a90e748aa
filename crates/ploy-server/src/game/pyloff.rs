//! Pyloff on the server, through the `pyloff` crate.
//!
//! - Options, pbmserv's: `-size=N` (2 to 13, default 6), `-all_freedoms`, `-cut_down`
//!   (which implies all freedoms). Two to four players, `player 1` first.
//! - Moves are cells (`c3`: the cell's lowest empty point), `swap` (player 2's second move
//!   of a two-player game) and `pass`, stored in lower case; `legal` lists the placements by
//!   column letter then row number, `swap` last.
//! - Nobody passes by choice: when the player to move has no legal placement and another
//!   player has one, [`GameType::forced_move`] is `pass` and the server plays it.
//! - The game ends when nobody can place, or after `4 x n(n+1)(2n+1)/6` moves (swap and
//!   passes included: 364 on size 6), and the score decides: pieces on the board, every
//!   level. The highest score wins, equal highest scores share the win, all equal is a draw.
//! - The bot is the crate's engine, told the move cap.

use std::fmt::Write as _;

use pyloff::{Engine, Evaluation, Game, Move, Options as PyloffOptions, Player, Point, RuleSet};
use serde_json::json;

use crate::game::{
    BOT_TABLE_BYTES, BotPlay, Budget, GameInfo, GameType, MoveError, OptionSpec, Options, Outcome,
    RecordFile, ServerEnding, bot_choice, excerpt, game_facts, write_last_and_position,
};

/// The version of the rules the adapter plays (stored with every game).
pub const PYLOFF_RULES_VERSION: u32 = 1;

const OPTIONS: &[OptionSpec] = &[
    OptionSpec::number("size", 2, 13, "the board's side, 2 to 13 (default 6)"),
    OptionSpec::flag(
        "all_freedoms",
        "a piece on any level has a freedom at an empty point of its level resting on four \
         pieces",
    ),
    OptionSpec::flag(
        "cut_down",
        "all freedoms, life does not flow down, and an empty neighbour of the same level is a \
         freedom even before it rests on four pieces",
    ),
];

const HELP: &str = "\
Pyloff (Cameron Browne, 2006): Go with marbles that stack into a pyramid, for 2 to 4
players. Place a piece on an empty board point or on four occupied points; groups of the
other colours left without a freedom are captured (top down; a piece that something resting
on it holds stays); suicide is illegal. As his second move in a two-player game player 2 may
`swap` (take player 1's piece). Nobody passes by choice: a player without a legal placement
passes, and the server plays that pass for him.
The game ends when nobody can place, or after 4 x n(n+1)(2n+1)/6 moves (passes and swap
included: 364 on size 6); the player with the most pieces on the board wins.
Seats: player 1 (x, first), player 2 (o), player 3 (+), player 4 (*).
Moves: a cell of the (2n-1)x(2n-1) grid: board points on odd letters and odd rows (a1, c3),
level 1 on even ones (b2), level 2 on c3, e5... (a cell plays its lowest empty point);
`swap`; `pass`.";

/// Pyloff, as a [`GameType`].
#[derive(Clone, Copy, Debug, Default)]
pub struct PyloffType;

fn options_of(options: &Options, players: usize) -> Result<PyloffOptions, String> {
    let size = options
        .number("size")
        .map_or(Ok(pyloff::DEFAULT_SIZE), u8::try_from)
        .map_err(|_| "option -size: expected a number from 2 to 13".to_owned())?;
    let rules = RuleSet::from_flags(options.has("all_freedoms"), options.has("cut_down"));
    let players = u8::try_from(players).unwrap_or(u8::MAX);
    PyloffOptions::new(size, players, rules).map_err(|e| e.to_string())
}

/// Whether the game has reached its move cap.
fn capped(game: &Game) -> bool {
    game.position().plies() >= game.options().move_cap()
}

/// Whether the game is over, by the rules or by the move cap.
fn ended(game: &Game) -> bool {
    game.position().is_over() || capped(game)
}

/// Every point of the pyramid, board first.
fn points(size: u8) -> impl Iterator<Item = Point> {
    (0..size).flat_map(move |k| {
        (0..size - k).flat_map(move |j| (0..size - k).map(move |i| Point::new(k, i, j)))
    })
}

/// The last move, its player and the points it emptied.
fn last_move(game: &Game) -> Option<(Player, Move, Vec<Point>)> {
    let &(player, mv) = game.moves().last()?;
    let mut before = game.clone();
    before.undo();
    let size = game.options().size();
    let emptied = points(size)
        .filter(|&p| before.position().get(p).is_some() && game.position().get(p).is_none())
        .collect();
    Some((player, mv, emptied))
}

fn point_json(p: Point) -> serde_json::Value {
    json!({"cell": p.cell().to_string(), "level": p.level, "i": p.i, "j": p.j})
}

fn status_word(game: &Game) -> &'static str {
    if game.position().is_over() {
        "over"
    } else if capped(game) {
        "capped"
    } else {
        match game.position().status() {
            pyloff::Status::MustPass => "must_pass",
            _ => "place",
        }
    }
}

/// The levels that hold a piece or a point one may place on, side by side.
fn board_picture(game: &Game) -> String {
    let pos = game.position();
    let n = pos.size();
    let mut blocks: Vec<Vec<String>> = Vec::new();
    for k in 0..n {
        let m = n - k;
        let level = |i, j| Point::new(k, i, j);
        let shown = (0..m).any(|j| (0..m).any(|i| pos.get(level(i, j)).is_some()))
            || (0..m).any(|j| (0..m).any(|i| pos.is_valid(level(i, j))));
        if !shown && k > 0 {
            break;
        }
        let mut block = vec![format!("level {k}")];
        for j in (0..m).rev() {
            let mut line = format!("{:>2} ", 2 * j + k + 1);
            for i in 0..m {
                let p = level(i, j);
                line.push(match pos.get(p) {
                    Some(pl) if pos.is_buried(p) => pl.symbol().to_ascii_uppercase(),
                    Some(pl) => pl.symbol(),
                    None if pos.is_valid(p) => '.',
                    None => '-',
                });
                line.push(' ');
            }
            block.push(line.trim_end().to_owned());
        }
        let mut letters = String::from("   ");
        for i in 0..m {
            letters.push(char::from(b'a' + 2 * i + k));
            letters.push(' ');
        }
        block.push(letters.trim_end().to_owned());
        blocks.push(block);
    }
    // Rows of blocks at most about 72 columns wide, bottoms aligned.
    let width = |b: &Vec<String>| b.iter().map(|l| l.chars().count()).max().unwrap_or(0) + 4;
    let mut out = String::new();
    let mut start = 0;
    while start < blocks.len() {
        let mut end = start + 1;
        let mut total = width(&blocks[start]);
        while end < blocks.len() && total + width(&blocks[end]) <= 72 {
            total += width(&blocks[end]);
            end += 1;
        }
        let height = blocks[start..end].iter().map(Vec::len).max().unwrap_or(0);
        for row in 0..height {
            let mut line = String::new();
            for b in &blocks[start..end] {
                let offset = height - b.len();
                let text = if row >= offset {
                    b[row - offset].as_str()
                } else {
                    ""
                };
                let _ = write!(line, "{text:<w$}", w = width(b));
            }
            out.push_str(line.trim_end());
            out.push('\n');
        }
        start = end;
    }
    out
}

impl GameInfo for PyloffType {
    game_facts!(
        name: "pyloff",
        rules_version: PYLOFF_RULES_VERSION,
        options: OPTIONS,
        help: HELP,
        players: 2..=4,
    );

    fn seat_name(&self, _options: &Options, seat: usize) -> String {
        format!("player {}", seat + 1)
    }
}

impl GameType for PyloffType {
    type State = Game;

    fn new_game(&self, options: &Options, players: usize) -> Result<Game, String> {
        Ok(Game::new(options_of(options, players)?))
    }

    fn play(&self, game: &mut Game, text: &str) -> Result<String, MoveError> {
        let text = text.trim();
        let mv: Move = text
            .parse()
            .map_err(|e: pyloff::ParseMoveError| MoveError::Malformed(e.to_string()))?;
        if capped(game) {
            return Err(MoveError::Illegal(format!(
                "the game is over: its {} moves are played",
                game.options().move_cap()
            )));
        }
        game.play(mv).map_err(|e| {
            MoveError::Illegal(format!(
                "`{}` by player {}: {}",
                excerpt(text),
                e.player,
                e.reason
            ))
        })?;
        Ok(mv.to_string())
    }

    fn legal_moves(&self, game: &Game) -> Vec<String> {
        if ended(game) {
            return Vec::new();
        }
        game.position()
            .legal_moves()
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    fn to_move(&self, game: &Game) -> Option<usize> {
        (!ended(game)).then(|| game.position().to_move().index())
    }

    fn forced_move(&self, game: &Game) -> Option<String> {
        (!ended(game) && game.position().status() == pyloff::Status::MustPass)
            .then(|| Move::Pass.to_string())
    }

    fn outcome(&self, game: &Game) -> Option<Outcome> {
        let pos = game.position();
        let (outcome, reason) = match pos.outcome() {
            Some(o) => (o, "score"),
            None if capped(game) => (pyloff::Outcome::from_scores(pos.scores()), "move_cap"),
            None => return None,
        };
        Some(Outcome {
            winners: outcome.winners().iter().map(Player::index).collect(),
            reason: reason.to_owned(),
        })
    }

    fn winners_without(&self, game: &Game, seat: usize) -> Result<Vec<usize>, String> {
        let pos = game.position();
        let scores = pos.scores();
        if seat >= scores.len() {
            return Err(format!("no seat {seat}"));
        }
        // The players who stay; of them, those with the highest score (all of them on a tie).
        let best = (0..scores.len())
            .filter(|&s| s != seat)
            .map(|s| scores[s])
            .max()
            .unwrap_or(0);
        Ok((0..scores.len())
            .filter(|&s| s != seat && scores[s] == best)
            .collect())
    }

    fn render_text(&self, game: &Game) -> String {
        let pos = game.position();
        let mut out = board_picture(game);
        let scores: Vec<String> = pos
            .options()
            .player_list()
            .map(|p| format!("player {p} ({}) {}", p.symbol(), pos.score(p)))
            .collect();
        let _ = writeln!(out, "Score: {}", scores.join(", "));
        let _ = writeln!(
            out,
            "Moves: {} of at most {}",
            pos.plies(),
            game.options().move_cap()
        );
        let last = last_move(game).map(|(player, mv, emptied)| {
            let names = emptied.iter().map(|p| p.cell().to_string()).collect();
            (format!("player {player} {mv}"), names)
        });
        write_last_and_position(&mut out, last, pos);
        out
    }

    fn render_json(&self, game: &Game) -> serde_json::Value {
        let pos = game.position();
        let options = game.options();
        let pieces: Vec<serde_json::Value> = points(options.size())
            .filter_map(|p| {
                let pl = pos.get(p)?;
                let mut v = point_json(p);
                v["player"] = json!(pl.number());
                v["seat"] = json!(pl.index());
                v["buried"] = json!(pos.is_buried(p));
                Some(v)
            })
            .collect();
        // Where each legal placement goes: its cell's lowest empty point.
        let targets: Vec<serde_json::Value> = if ended(game) {
            Vec::new()
        } else {
            pos.legal_moves()
                .iter()
                .filter_map(|mv| pos.lowest_empty(mv.cell()?))
                .map(point_json)
                .collect()
        };
        json!({
            "size": options.size(),
            "players": options.players(),
            "rules": options.rules().name(),
            "symbols": options.player_list().map(|p| p.symbol().to_string()).collect::<Vec<_>>(),
            "status": status_word(game),
            "player_to_move": (!ended(game)).then(|| pos.to_move().number()),
            "swap_allowed": !ended(game) && pos.swap_allowed(),
            "moves_made": pos.plies(),
            "move_cap": options.move_cap(),
            "scores": pos.scores(),
            "pieces": pieces,
            "targets": targets,
            "last_move": last_move(game).map(|(player, mv, emptied)| json!({
                "move": mv.to_string(),
                "player": player.number(),
                "captured": emptied.into_iter().map(point_json).collect::<Vec<_>>(),
            })),
            "position": pos.to_string(),
        })
    }

    fn record(
        &self,
        game: &Game,
        players: &[String],
        ending: Option<ServerEnding>,
    ) -> Result<RecordFile, String> {
        let mut record = game.record();
        if !game.position().is_over() && capped(game) {
            record.result = pyloff::RecordResult::Capped(pyloff::Outcome::from_scores(
                game.position().scores(),
            ));
        }
        // The format has no players and no endings but the rules': they go in comment
        // lines, which readers skip.
        let mut text = String::new();
        for (i, name) in players.iter().enumerate() {
            let _ = writeln!(text, "# player {}: {name}", i + 1);
        }
        let name = |i: usize| players.get(i).map_or("?", String::as_str);
        match ending {
            Some(ServerEnding::Resigned(i)) => {
                let _ = writeln!(text, "# ended: player {} ({}) resigned", i + 1, name(i));
            }
            Some(ServerEnding::OutOfTime(i)) => {
                let _ = writeln!(
                    text,
                    "# ended: player {} ({}) ran out of time",
                    i + 1,
                    name(i)
                );
            }
            Some(ServerEnding::Agreed) => {
                let _ = writeln!(text, "# ended: a draw by agreement");
            }
            None => {}
        }
        text.push_str(&record.to_string());
        Ok(RecordFile {
            text,
            extension: "pyloff",
            media_type: "text/plain; charset=utf-8",
        })
    }

    fn bot_move(&self, game: &Game, budget: &Budget, play: BotPlay) -> Option<String> {
        if ended(game) {
            return None;
        }
        let legal = game.position().legal_moves();
        if legal.len() == 1 {
            return Some(legal[0].to_string());
        }
        let config = ploy_search::Config {
            table_bytes: BOT_TABLE_BYTES,
            ..Engine::default_config()
        };
        let mut engine = Engine::with(config, Evaluation::default());
        engine.set_move_cap(Some(game.options().move_cap()));
        engine.set_level(play.level);
        engine.set_seed(play.seed);
        let answer = engine.search(game, &budget.limits());
        bot_choice(answer.best_move, |mv| game.position().is_legal(mv), &legal)
            .map(|mv| mv.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn opts(texts: &[&str]) -> Options {
        Options::of(OPTIONS, texts)
    }

    #[test]
    fn options_give_the_rules() {
        let o = options_of(&opts(&[]), 2).unwrap();
        assert_eq!((o.size(), o.players(), o.rules()), (6, 2, RuleSet::Default));
        let o = options_of(&opts(&["-size=4", "-all_freedoms"]), 3).unwrap();
        assert_eq!(
            (o.size(), o.players(), o.rules()),
            (4, 3, RuleSet::AllFreedoms)
        );
        let o = options_of(&opts(&["-cut_down"]), 4).unwrap();
        assert_eq!(o.rules(), RuleSet::CutDown);
        assert!(PyloffType.new_game(&opts(&[]), 5).is_err());
        let mut rest = Vec::new();
        assert!(Options::parse(OPTIONS, ["-size=14"], &mut rest).is_err());
        assert!(Options::parse(OPTIONS, ["-size=1"], &mut rest).is_err());
    }

    #[test]
    fn moves_are_canonical_and_refusals_change_nothing() {
        let mut g = PyloffType.new_game(&opts(&["-size=3"]), 2).unwrap();
        assert_eq!(PyloffType.play(&mut g, "C3").unwrap(), "c3");
        assert!(PyloffType.legal_moves(&g).contains(&"swap".to_owned()));
        for (bad, malformed) in [
            ("a2", true),
            ("zz", true),
            ("", true),
            ("c3", false),
            ("pass", false),
            ("g7", false),
        ] {
            let e = PyloffType.play(&mut g, bad).unwrap_err();
            assert_eq!(
                matches!(e, MoveError::Malformed(_)),
                malformed,
                "{bad}: {e}"
            );
        }
        assert_eq!(PyloffType.play(&mut g, "SWAP").unwrap(), "swap");
        assert_eq!(PyloffType.to_move(&g), Some(0));
        assert_eq!(g.moves().len(), 2);
        let json = PyloffType.render_json(&g);
        assert_eq!(json["pieces"][0]["player"], 2);
        assert_eq!(json["pieces"][0]["cell"], "c3");
        assert_eq!(json["scores"], json!([0, 1]));
        assert_eq!(json["move_cap"], 4 * 14);
        assert_eq!(json["targets"].as_array().unwrap().len(), 8);
        assert_eq!(
            json["targets"][0],
            json!({"cell": "a1", "level": 0, "i": 0, "j": 0})
        );
        // The example of docs/server.md (its `targets` shortened there).
        let mut shown = json.clone();
        shown["targets"] = json!([json["targets"][0], "..."]);
        assert_eq!(
            shown,
            json!({
                "size": 3,
                "players": 2,
                "rules": "default",
                "symbols": ["x", "o"],
                "status": "place",
                "player_to_move": 1,
                "swap_allowed": false,
                "moves_made": 2,
                "move_cap": 56,
                "scores": [0, 1],
                "pieces": [{"cell": "c3", "level": 0, "i": 1, "j": 1, "player": 2, "seat": 1,
                            "buried": false}],
                "targets": [{"cell": "a1", "level": 0, "i": 0, "j": 0}, "..."],
                "last_move": {"move": "swap", "player": 2, "captured": []},
                "position": ".../.o./...:../..:. 2 default 1 2"
            })
        );
    }

    /// Plays the first legal move until the end, the server's way (forced passes played).
    fn play_out(g: &mut Game) -> usize {
        let mut passes = 0;
        while PyloffType.to_move(g).is_some() {
            if let Some(f) = PyloffType.forced_move(g) {
                assert_eq!(PyloffType.legal_moves(g), ["pass"]);
                PyloffType.play(g, &f).unwrap();
                passes += 1;
                continue;
            }
            let legal = PyloffType.legal_moves(g);
            assert!(!legal.contains(&"pass".to_owned()));
            let mv = legal.iter().find(|m| *m != "swap").unwrap().clone();
            PyloffType.play(g, &mv).unwrap();
        }
        passes
    }

    #[test]
    fn the_move_cap_ends_the_game_and_the_score_decides() {
        // Size 2 never ends by the rules: the cap (4 x 5 = 20 moves) ends it.
        let mut g = PyloffType.new_game(&opts(&["-size=2"]), 2).unwrap();
        play_out(&mut g);
        assert_eq!(g.moves().len(), 20);
        let o = PyloffType.outcome(&g).unwrap();
        assert_eq!(o.reason, "move_cap");
        let scores = g.position().scores().to_vec();
        let expect: Vec<usize> = match pyloff::Outcome::from_scores(&scores) {
            pyloff::Outcome::Draw => Vec::new(),
            pyloff::Outcome::Win(w) => w.iter().map(Player::index).collect(),
        };
        assert_eq!(o.winners, expect);
        assert!(PyloffType.legal_moves(&g).is_empty());
        assert!(matches!(
            PyloffType.play(&mut g, "a1"),
            Err(MoveError::Illegal(_))
        ));
        assert_eq!(PyloffType.render_json(&g)["status"], "capped");
    }

    #[test]
    fn three_and_four_players_take_turns_and_leave() {
        let mut g = PyloffType.new_game(&opts(&["-size=3"]), 4).unwrap();
        for (n, mv) in ["a1", "e5", "a5", "e1"].iter().enumerate() {
            assert_eq!(PyloffType.to_move(&g), Some(n));
            PyloffType.play(&mut g, mv).unwrap();
        }
        assert_eq!(PyloffType.to_move(&g), Some(0));
        assert!(!PyloffType.legal_moves(&g).contains(&"swap".to_owned()));
        PyloffType.play(&mut g, "c1").unwrap();
        // Player 1 leads with two pieces: if player 2 leaves, player 1 wins.
        assert_eq!(PyloffType.winners_without(&g, 1).unwrap(), [0]);
        // If player 1 leaves, the other three share the lead.
        assert_eq!(PyloffType.winners_without(&g, 0).unwrap(), [1, 2, 3]);
        let text = PyloffType.render_text(&g);
        assert!(text.contains("player 4 (*) 1"), "{text}");
    }

    #[test]
    fn the_bot_plays_legal_moves() {
        let mut g = PyloffType.new_game(&opts(&["-size=3"]), 3).unwrap();
        let budget = Budget {
            nodes: Some(300),
            ..Budget::default()
        };
        for _ in 0..6 {
            if let Some(f) = PyloffType.forced_move(&g) {
                PyloffType.play(&mut g, &f).unwrap();
                continue;
            }
            let Some(mv) = PyloffType.bot_move(&g, &budget, BotPlay::default()) else {
                break;
            };
            PyloffType.play(&mut g, &mv).unwrap();
        }
        assert!(g.moves().len() >= 6 || PyloffType.outcome(&g).is_some());
    }
}
