//! The commands a person types (see the [module docs](super)): the dispatch of a line, and
//! the commands that act on the game beyond its moves (draws, saving, new games, players).

use std::io::{self, Write};
use std::path::Path;
use std::time::Instant;

use super::files::{read_game_file, replaces_another_game, today, write_atomically};
use super::render::{count_moves, history_text, rules_text, score_label};
use super::session::{Flow, Session};
use super::{
    DRAW_SHARE_MARGIN, DRAW_THRESHOLD, HELP, Player, Strength, apply_new_words, parse_player,
    parse_strength, seat_from_name, title,
};
use ploy_core::{Game, Move, Position, Seat, Variant};
use ploy_engine::{Engine, Level};
use ploy_notation::{AlgebraicMove, ParseMoveError, PositionString, ReadMoveError, read_algebraic};
use ploy_search::{Info, Score};
use ploy_sheet::{ResultText, SavedGame};

/// Reads a move typed by a person; errors name the character where the text goes wrong
/// (counting from 1), not the byte.
pub(super) fn read_typed_move(game: &Game, text: &str) -> Result<Move, String> {
    if let Some(o) = game.outcome() {
        return Err(format!(
            "`{text}`: the game is over ({})",
            ResultText(Some(o))
        ));
    }
    match read_algebraic(game.position(), text) {
        Ok(mv) if game.is_legal(mv) => Ok(mv),
        Ok(_) => Err(format!("`{text}`: not legal here")),
        Err(ReadMoveError::Malformed(e)) => Err(format!("`{text}`: {}", malformed(text, &e))),
        Err(e) => Err(format!("`{text}`: {e}")),
    }
}

/// What is wrong with a malformed move, by character.
pub(super) fn malformed(text: &str, e: &ParseMoveError) -> String {
    let offset = e.offset().min(text.len());
    let at = (0..=offset)
        .rev()
        .find(|&i| text.is_char_boundary(i))
        .unwrap_or(0);
    let n = text[..at].chars().count() + 1;
    let found = text[at..]
        .chars()
        .next()
        .map_or("the end of the move".to_owned(), |c| match c {
            ' ' => "a space".to_owned(),
            c if c.is_control() => format!("the control character {}", c.escape_unicode()),
            c => format!("`{c}`"),
        });
    let expected = match e {
        ParseMoveError::Length { .. } => {
            return format!(
                "expected exactly 7 characters such as `e3-e4-0`, found {}",
                text.chars().count()
            );
        }
        ParseMoveError::File { .. } => "a file `a`..`i`",
        ParseMoveError::Rank { .. } => "a rank `1`..`9`",
        ParseMoveError::Unexpected { expected, .. } => expected,
        ParseMoveError::Rotation { .. } => "a rotation digit `0`..`7`",
        ParseMoveError::Trailing { .. } => "the end of the move",
        other => return other.to_string(),
    };
    format!("character {n}: expected {expected}, found {found}")
}

impl<W: Write> Session<W> {
    pub(super) fn command(&mut self, line: &str) -> io::Result<Flow> {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some((&cmd, args)) = words.split_first() else {
            return Ok(Flow::Continue);
        };
        let cmd_lower = cmd.to_ascii_lowercase();
        let keep_confirm = matches!(cmd_lower.as_str(), "quit" | "exit" | "q" | "new" | "load");
        if !keep_confirm {
            self.confirm = None;
        }
        let one_arg = |what: &str| -> Result<&str, String> {
            match args {
                [a] => Ok(a),
                _ => Err(format!("`{cmd}` needs {what}")),
            }
        };
        match cmd_lower.as_str() {
            "help" | "?" | "h" => self.say(HELP)?,
            "quit" | "exit" | "q" => {
                if self.may_discard("quit")? {
                    return Ok(Flow::Quit);
                }
            }
            "board" | "b" => self.show_board()?,
            "undo" | "u" => self.undo()?,
            "redo" => self.redo()?,
            "history" | "record" => self.history()?,
            "flip" => {
                self.flipped = !self.flipped;
                self.show_board()?;
            }
            "view" => match one_arg("a seat: green, red, yellow or blue") {
                Ok(who) => self.set_view(&who.to_ascii_lowercase())?,
                Err(e) => self.say(&e)?,
            },
            "hint" => self.hint()?,
            "go" => {
                if self.game.outcome().is_some() {
                    self.say("The game is over.")?;
                } else {
                    self.unpause();
                    self.engine_move()?;
                }
            }
            "save" | "sheet" => match args {
                [path] => self.save(path, cmd_lower == "sheet", false)?,
                [path, force] if force.eq_ignore_ascii_case("force") => {
                    self.save(path, cmd_lower == "sheet", true)?;
                }
                _ => self.say(&format!(
                    "`{cmd}` needs a file name (and `force` to replace another game)"
                ))?,
            },
            "load" => match one_arg("a file name") {
                Ok(path) => {
                    if self.may_discard("load")? {
                        self.load(path)?;
                    }
                }
                Err(e) => self.say(&e)?,
            },
            "new" => self.new_game(args)?,
            "green" | "red" | "yellow" | "blue" | "all" => match one_arg("human or engine") {
                Ok(what) => self.set_player(&cmd_lower, what)?,
                Err(e) => self.say(&e)?,
            },
            "players" => self.players_text()?,
            "level" => match args {
                [] => {
                    let msg = format!("Level {}.", self.level_text());
                    self.say(&msg)?;
                }
                [n] => match n.parse::<Level>() {
                    Ok(level) => {
                        self.level = level;
                        let msg = format!("Level {}.", self.level_text());
                        self.say(&msg)?;
                    }
                    Err(e) => self.say(&format!("{e}."))?,
                },
                _ => self.say(
                    "`level` needs a level from 1 (weakest) to 8 (full strength); the search \
                     budget is `budget time S | clock M+I | nodes N | depth D`",
                )?,
            },
            "budget" => match args {
                [] => {
                    let msg = format!("Engine: {}.", self.strength);
                    self.say(&msg)?;
                }
                [kind, value] => match parse_strength(kind, value) {
                    Ok(s) => {
                        self.strength = s;
                        if matches!(s, Strength::Clock { .. }) {
                            self.reset_clocks();
                        }
                        self.say(&format!("Engine: {s}."))?;
                    }
                    Err(e) => self.say(&e)?,
                },
                _ => self.say("`budget` needs: time S | clock M+I | nodes N | depth D")?,
            },
            "moves" => {
                let pos = self.game.position().clone();
                let list: Vec<String> = self
                    .game
                    .legal_moves()
                    .iter()
                    .map(|&m| AlgebraicMove::from_move(&pos, m).to_string())
                    .collect();
                let msg = format!("{} legal moves: {}", list.len(), list.join(" "));
                self.say(&msg)?;
            }
            "position" | "fen" => {
                let msg = PositionString::from_position(self.game.position()).to_string();
                self.say(&msg)?;
            }
            "rules" => {
                let msg = rules_text(&self.game.rules(), self.variant());
                self.say(&msg)?;
            }
            "resign" => self.resign()?,
            "draw" => self.offer_draw()?,
            _ => {
                if words.len() > 1 {
                    self.say(&format!(
                        "Unknown command `{cmd}`; type `help` for the commands."
                    ))?;
                } else {
                    match read_typed_move(&self.game, cmd) {
                        Ok(mv) => {
                            self.unpause();
                            self.play(mv)?;
                        }
                        Err(e) => {
                            let looks_like_move =
                                cmd.bytes().next().is_some_and(|b| {
                                    (b'a'..=b'i').contains(&b.to_ascii_lowercase())
                                }) && cmd.as_bytes().get(1).is_some_and(u8::is_ascii_digit);
                            if looks_like_move {
                                self.say(&format!("Not a legal move: {e}."))?;
                            } else {
                                self.say(&format!(
                                    "`{cmd}` is neither a move nor a command; type `help`."
                                ))?;
                            }
                        }
                    }
                }
            }
        }
        Ok(Flow::Continue)
    }

    fn hint(&mut self) -> io::Result<()> {
        if self.game.outcome().is_some() {
            return self.say("The game is over: no hint.");
        }
        let limits = self.hint_limits();
        let pos = self.game.position().clone();
        if let Some((mv, r)) = self.think(&limits)? {
            let (score, depth) = (r.score, r.depth);
            let text = AlgebraicMove::from_move(&pos, mv);
            self.say(&format!(
                "Hint: {text}   [depth {depth}, score {}]",
                score_label(score, &pos)
            ))?;
        }
        Ok(())
    }

    /// The numbered moves of the game: one line per round, each move after its seat's
    /// letter in four-player games; players who left and the result too.
    fn history(&mut self) -> io::Result<()> {
        let text = history_text(&self.game);
        self.say(&text)
    }

    fn set_view(&mut self, who: &str) -> io::Result<()> {
        match seat_from_name(who) {
            Some(seat) if self.variant().seats().contains(seat) => {
                self.view = seat;
                self.flipped = false;
                self.show_board()
            }
            _ => self.say(&format!("No seat `{who}` in this game.")),
        }
    }

    /// `draw`: people agree at once; an engine playing an opponent of the player to move
    /// first judges the position and declines if it is winning (see [`DRAW_THRESHOLD`]).
    fn offer_draw(&mut self) -> io::Result<()> {
        if let Some(o) = self.game.outcome() {
            return self.say(&format!(
                "Cannot agree a draw: the game is over ({}).",
                ResultText(Some(o))
            ));
        }
        let pos = self.game.position().clone();
        let variant = pos.variant();
        let proposer = pos.mover();
        let judges: Vec<Seat> = pos
            .in_play()
            .iter()
            .filter(|&s| {
                self.players[s.index()] == Player::Engine && !variant.team(proposer).contains(s)
            })
            .collect();
        for seat in judges {
            let Some((score, seen)) = self.judge(seat)? else {
                continue;
            };
            let winning = if variant == Variant::FreeForAll {
                let equal = 100.0 / f64::from(seen.in_play().count());
                ploy_engine::win_share(&seen, score) >= equal + (100.0 - equal) * DRAW_SHARE_MARGIN
            } else {
                score.is_win() || score.raw() >= DRAW_THRESHOLD
            };
            if winning {
                let msg = format!(
                    "{} (engine) declines the draw: it judges the position winning \
                     (score {}).",
                    title(seat),
                    score_label(score, &seen)
                );
                return self.say(&msg);
            }
        }
        match self.game.agree_draw() {
            Ok(()) => {
                self.dirty = true;
                self.redo.clear();
                self.status()
            }
            Err(e) => self.say(&format!("Cannot agree a draw: {e}.")),
        }
    }

    /// The engine's score of the position for `seat` (a search at the hint's limits), with
    /// the position as `seat` sees it (`seat` to move in it).
    fn judge(&mut self, seat: Seat) -> io::Result<Option<(Score, Position)>> {
        let limits = self.hint_limits();
        let pos = self.game.position().clone();
        let mover = pos.mover();
        let variant = pos.variant();
        if variant == Variant::FreeForAll && seat != mover {
            // The paranoid search scores the player to move: judge as if `seat` were.
            let mut setup = pos.to_setup();
            setup.turn = seat;
            let Ok(p) = Position::from_setup(setup, pos.rules()) else {
                return Ok(None);
            };
            let game = Game::from_position(p.clone());
            let r = self.engine.search(&game, &limits, |_: &Info<'_, Move>| {});
            return Ok(Some((r.score, p)));
        }
        let r = self
            .engine
            .search(&self.game, &limits, |_: &Info<'_, Move>| {});
        let seen = if seat == mover {
            pos.clone()
        } else {
            // Only the side matters for a two-sided score: the position with `seat` to move
            // is for the label, if it is one.
            let mut setup = pos.to_setup();
            setup.turn = seat;
            Position::from_setup(setup, pos.rules()).unwrap_or(pos.clone())
        };
        Ok(Some({
            let score = if variant.team(mover).contains(seat) {
                r.score
            } else {
                -r.score
            };
            (score, seen)
        }))
    }

    fn resign(&mut self) -> io::Result<()> {
        let seat = self.game.position().mover();
        let before = self.game.position().in_play();
        match self.game.resign(seat) {
            Ok(()) => {
                self.dirty = true;
                self.redo.clear();
                if self.game.outcome().is_none() && before != self.game.position().in_play() {
                    let msg = format!(
                        "{} resigns and leaves the game; his pieces leave the board.",
                        title(seat)
                    );
                    self.say(&msg)?;
                    self.turn_started = Instant::now();
                    return self.show_board();
                }
                self.status()
            }
            Err(e) => self.say(&format!("Cannot resign: {e}.")),
        }
    }

    fn saved(&self) -> SavedGame {
        let mut header = self.header.clone();
        for seat in self.variant().seats().iter() {
            if header.players.get(seat).is_none() {
                let name = match self.players[seat.index()] {
                    Player::Human => "human".to_owned(),
                    Player::Engine if self.level.is_full() => {
                        format!("{} engine", crate::protocol::NAME)
                    }
                    Player::Engine => {
                        format!("{} engine, level {}", crate::protocol::NAME, self.level)
                    }
                };
                header.players.set(seat, Some(name));
            }
        }
        if header.date.is_none() {
            header.date = Some(self.started.clone());
        }
        if header.time_control.is_none() {
            header.time_control = Some(match self.strength {
                Strength::Clock { .. } => self.strength.to_string(),
                _ => format!("untimed (engine: {})", self.strength),
            });
        }
        SavedGame {
            header,
            game: self.game.clone(),
        }
    }

    fn save(&mut self, path: &str, sheet: bool, force: bool) -> io::Result<()> {
        let saved = self.saved();
        let text = if sheet {
            saved.to_sheet().map_err(|e| e.to_string())
        } else {
            saved
                .to_record()
                .map(|r| r.to_string())
                .map_err(|e| e.to_string())
        };
        let text = match text {
            Ok(t) => t,
            Err(e) => return self.say(&format!("Cannot write this game: {e}.")),
        };
        let cmd = if sheet { "sheet" } else { "save" };
        if !force {
            if let Some(why) = replaces_another_game(Path::new(path), &self.game) {
                return self.say(&format!(
                    "{path} {why}; type `{cmd} {path} force` to replace it."
                ));
            }
        }
        match write_atomically(Path::new(path), text.as_bytes()) {
            Ok(()) => {
                let what = if sheet {
                    "Score sheet exported to"
                } else {
                    self.dirty = false;
                    self.header = saved.header;
                    "Game saved to"
                };
                self.say(&format!(
                    "{what} {path} ({}).",
                    count_moves(self.game.moves().len())
                ))
            }
            Err(e) => self.say(&format!("Cannot write {path}: {e}.")),
        }
    }

    fn load(&mut self, path: &str) -> io::Result<()> {
        match read_game_file(path) {
            Ok((format, saved)) => self.loaded(path, format, saved),
            Err(e) => self.say(&format!("Cannot load {path}: {e}.")),
        }
    }

    /// Takes over a game read from `path`.
    pub(super) fn loaded(
        &mut self,
        path: &str,
        format: ploy_sheet::Format,
        saved: SavedGame,
    ) -> io::Result<()> {
        self.game = saved.game;
        self.header = saved.header;
        self.redo.clear();
        if !self.variant().seats().contains(self.view) {
            self.view = self.default_view();
        }
        self.dirty = false;
        self.paused = false;
        self.engine.clear();
        self.reset_clocks();
        let what = match format {
            ploy_sheet::Format::Sheet => "score sheet",
            _ => "game record",
        };
        let msg = format!(
            "Loaded the {what} {path}: {}, {}.",
            self.variant().name(),
            count_moves(self.game.moves().len())
        );
        self.say(&msg)?;
        self.check_players()?;
        self.show_board()
    }

    /// Whether a command that would drop the game may go ahead; if not, says why.
    fn may_discard(&mut self, command: &str) -> io::Result<bool> {
        if !self.dirty || self.game.moves().is_empty() || self.confirm.as_deref() == Some(command) {
            return Ok(true);
        }
        let n = count_moves(self.game.moves().len());
        self.say(&format!(
            "The game ({n}) is not saved. Type `save FILE` to keep it, or `{command}` again \
             to go ahead without saving."
        ))?;
        self.confirm = Some(command.to_owned());
        Ok(false)
    }

    fn new_game(&mut self, words: &[&str]) -> io::Result<()> {
        let mut variant = self.variant();
        let mut rules = self.game.rules();
        if let Err(e) = apply_new_words(words, &mut variant, &mut rules) {
            return self.say(&e);
        }
        if !self.may_discard("new")? {
            return Ok(());
        }
        self.game = Game::start(variant, rules);
        self.header = ploy_sheet::Header::default();
        self.started = today();
        self.redo.clear();
        self.view = self.default_view();
        self.flipped = false;
        self.dirty = false;
        self.paused = false;
        self.engine.clear();
        self.reset_clocks();
        let msg = format!("New game: {}.", rules_text(&rules, variant));
        self.say(&msg)?;
        self.check_players()?;
        self.show_board()
    }

    fn set_player(&mut self, who: &str, what: &str) -> io::Result<()> {
        let player = match parse_player(what) {
            Ok(p) => p,
            Err(e) => return self.say(&e),
        };
        let variant = self.variant();
        if player == Player::Engine && !Engine::supports(variant) {
            return self.say(&format!(
                "The engine cannot play {} games yet.",
                variant.name()
            ));
        }
        let seats: Vec<Seat> = if who == "all" {
            variant.seats().iter().collect()
        } else {
            match seat_from_name(who) {
                Some(s) if variant.seats().contains(s) => vec![s],
                _ => return self.say(&format!("No seat `{who}` in this game.")),
            }
        };
        for s in seats {
            self.players[s.index()] = player;
        }
        self.paused = false;
        self.players_text()
    }

    pub(super) fn players_text(&mut self) -> io::Result<()> {
        let list: Vec<String> = self
            .variant()
            .seats()
            .iter()
            .map(|s| {
                format!(
                    "{} {}",
                    title(s),
                    match self.players[s.index()] {
                        Player::Human => "human",
                        Player::Engine => "engine",
                    }
                )
            })
            .collect();
        let msg = format!(
            "Players: {}; engine: {}, level {}.",
            list.join(", "),
            self.strength,
            self.level_text()
        );
        self.say(&msg)
    }

    /// The level as `level` says it: `3 of 8` or `8 of 8 (full strength)`.
    fn level_text(&self) -> String {
        if self.level.is_full() {
            format!("{} of 8 (full strength)", self.level)
        } else {
            format!("{} of 8", self.level)
        }
    }
}
