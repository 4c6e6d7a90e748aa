//! The session: the game, its players and clocks, the engine, and the moves made and
//! taken back; what the loop and the commands act on.

use std::fmt::Write as _;
use std::io::{self, Write};
use std::time::{Duration, Instant};

use super::files::today;
use super::render::{
    clock_text, describe, ending_text, is_time_forfeit_of, line_text, rate, score_label, secs,
    wrap_items,
};
use super::{Options, Player, Strength, board_picture_turned, kind_name, seat_char, title};
use ploy_core::{Ending, Game, Move, Outcome, Seat, Variant, WinReason};
use ploy_engine::{Engine, Level};
use ploy_notation::AlgebraicMove;
use ploy_search::{Info, Limits, SearchResult};
use ploy_sheet::ResultText;

/// What a command asks the loop to do next.
pub(super) enum Flow {
    Continue,
    Quit,
}

pub(super) struct Session<W: Write> {
    pub(super) out: W,
    pub(super) opts: Options,
    pub(super) game: Game,
    pub(super) header: ploy_sheet::Header,
    pub(super) players: [Player; 4],
    pub(super) strength: Strength,
    /// The level of the engine's own moves (hints and draw offers are judged at full
    /// strength).
    pub(super) level: Level,
    pub(super) engine: Engine,
    /// Time left per seat (clock mode) when its turn began; the mover's clock runs down
    /// from there (see [`Session::time_left`]).
    pub(super) clocks: [Duration; 4],
    /// The clocks before each move of the game, for `undo`.
    pub(super) clock_log: Vec<[Duration; 4]>,
    /// Moves played or taken back since the game was last saved, loaded or started.
    pub(super) dirty: bool,
    /// A command that was refused once because of unsaved moves; repeating it goes ahead.
    pub(super) confirm: Option<String>,
    /// After `undo`, the engine waits for `go` or a person's move.
    pub(super) paused: bool,
    /// When the current player's turn began (for the clocks).
    pub(super) turn_started: Instant,
    /// The date the game began (UTC, `YYYY-MM-DD`), written in saved games.
    pub(super) started: String,
    /// What `undo` took back, the last taken back last: `redo` plays it again.
    pub(super) redo: Vec<Undone>,
    /// The seat whose side of the board is shown at the bottom.
    pub(super) view: Seat,
    /// The board is shown turned round from `view` (`flip`).
    pub(super) flipped: bool,
}

/// One thing `undo` took back.
#[derive(Clone, Copy, Debug)]
pub(super) enum Undone {
    Move(Move),
    Ending(Ending),
}

/// Records again an ending that `undo` took back.
pub(super) fn redo_ending(game: &mut Game, e: Ending) -> Result<(), ploy_core::GameError> {
    let (seat, reason) = match e {
        Ending::Withdrawal(w) => (w.seat, w.reason),
        Ending::Result(Outcome::Win { winners, reason }) => {
            let loser = game
                .position()
                .in_play()
                .iter()
                .find(|&s| !winners.contains(s))
                .ok_or(ploy_core::GameError::NothingToUndo)?;
            (loser, reason)
        }
        Ending::Result(_) => return game.agree_draw(),
    };
    if reason == WinReason::TimeForfeit {
        game.forfeit_on_time(seat)
    } else {
        game.resign(seat)
    }
}

impl<W: Write> Session<W> {
    pub(super) fn new(out: W, opts: Options) -> Session<W> {
        let game = Game::start(opts.variant, opts.rules);
        let engine = Engine::with_hash_mb(opts.hash_mb)
            .with_seed(opts.seed)
            .with_ffa_search(opts.search);
        let players = opts.players;
        let strength = opts.strength;
        let level = opts.level;
        let mut s = Session {
            out,
            opts,
            game,
            header: ploy_sheet::Header::default(),
            players,
            strength,
            level,
            engine,
            clocks: [Duration::ZERO; 4],
            clock_log: Vec::new(),
            dirty: false,
            confirm: None,
            paused: false,
            turn_started: Instant::now(),
            started: today(),
            redo: Vec::new(),
            view: Seat::Green,
            flipped: false,
        };
        s.view = s.default_view();
        s.reset_clocks();
        s
    }

    pub(super) fn reset_clocks(&mut self) {
        let base = match self.strength {
            Strength::Clock { base, .. } => base,
            _ => Duration::ZERO,
        };
        self.clocks = [base; 4];
        self.clock_log.clear();
        self.turn_started = Instant::now();
    }

    pub(super) fn say(&mut self, text: &str) -> io::Result<()> {
        writeln!(self.out, "{text}")
    }

    pub(super) fn variant(&self) -> Variant {
        self.game.position().variant()
    }

    /// The seats of the variant the engine cannot play are made human, with a notice.
    pub(super) fn check_players(&mut self) -> io::Result<()> {
        let variant = self.variant();
        if Engine::supports(variant) {
            return Ok(());
        }
        let mut changed = false;
        for seat in variant.seats().iter() {
            if self.players[seat.index()] == Player::Engine {
                self.players[seat.index()] = Player::Human;
                changed = true;
            }
        }
        if changed {
            let msg = format!(
                "note: the engine cannot play {} games yet; every seat is played by people",
                variant.name()
            );
            self.say(&msg)?;
        }
        Ok(())
    }

    fn last_move(&self) -> Option<(Move, bool, String)> {
        let n = self.game.moves().len();
        let mv = *self.game.moves().last()?;
        let before = &self.game.positions()[n - 1];
        let (text, captured) = describe(before, mv);
        let who = title(before.mover());
        let mut msg = format!("Last move: {who} {text}");
        if let Some(p) = captured {
            let _ = write!(
                msg,
                " (captured {}'s {})",
                p.colour().name(),
                kind_name(p.kind())
            );
        }
        Some((mv, captured.is_some(), msg))
    }

    pub(super) fn show_board(&mut self) -> io::Result<()> {
        let pos = self.game.position().clone();
        let last = self.last_move();
        let picture = board_picture_turned(
            &pos,
            last.as_ref().map(|l| (l.0, l.1)),
            self.opts.colour,
            self.quarter_turns(),
        );
        write!(self.out, "\n{picture}")?;
        let seats: Vec<String> = pos
            .variant()
            .seats()
            .iter()
            .map(|s| {
                let mut t = format!(
                    "{}={}{} {}",
                    seat_char(s).to_ascii_uppercase(),
                    title(s),
                    match (pos.variant(), s) {
                        (Variant::TwoPlayer, Seat::Green) => "/b",
                        (Variant::TwoPlayer, _) => "/w",
                        _ => "",
                    },
                    match self.players[s.index()] {
                        Player::Human => "(human)",
                        Player::Engine => "(engine)",
                    }
                );
                if !pos.in_play().contains(s) {
                    t.push_str(" [out]");
                }
                let c = pos.controller(s);
                if c != s {
                    let _ = write!(t, " [pieces moved by {}]", c.name());
                }
                t
            })
            .collect();
        let mut items: Vec<String> = seats;
        items.push("capital = commander".into());
        items.push("| - / \\ = flags".into());
        if pos.variant() == Variant::TwoPlayer {
            items.push("b/w = the sides' letters in position strings".into());
        }
        let legend = wrap_items(&items, "   ", 80);
        self.say(&legend)?;
        if let Some((_, _, msg)) = last {
            self.say(&msg)?;
        }
        if matches!(self.strength, Strength::Clock { .. }) {
            let clocks: Vec<String> = pos
                .variant()
                .seats()
                .iter()
                .map(|s| format!("{} {}", title(s), clock_text(self.time_left(s))))
                .collect();
            self.say(&format!("Clocks: {}", clocks.join("  ")))?;
        }
        self.status()
    }

    pub(super) fn status(&mut self) -> io::Result<()> {
        if let Some(o) = self.game.outcome() {
            let msg = format!("Game over: {}.", ResultText(Some(o)));
            return self.say(&msg);
        }
        let pos = self.game.position();
        let turn = pos.turn();
        let mover = pos.mover();
        let ply = self.game.moves().len() + 1;
        let who = match self.players[mover.index()] {
            Player::Human => "human",
            Player::Engine => "engine",
        };
        let msg = if mover == turn {
            format!("Ply {ply}: {} to move ({who}).", title(turn))
        } else {
            format!(
                "Ply {ply}: {}'s turn, played by {} ({who}).",
                title(turn),
                title(mover)
            )
        };
        self.say(&msg)
    }

    pub(super) fn prompt(&mut self) -> io::Result<()> {
        let p = self.prompt_text(false);
        write!(self.out, "{p}")?;
        self.out.flush()
    }

    /// `green> `, or with the running clock `green 4:59.3> `; `ploy> ` once the game is
    /// over.
    pub(super) fn prompt_text(&self, clock: bool) -> String {
        if self.game.outcome().is_some() {
            return "ploy> ".to_owned();
        }
        let mover = self.game.position().mover();
        if clock {
            format!("{} {}> ", mover.name(), clock_text(self.time_left(mover)))
        } else {
            format!("{}> ", mover.name())
        }
    }

    /// The time left to the person to move while his clock runs; `None` without clocks,
    /// once the game is over, or while the engine waits.
    pub(super) fn running_clock(&self) -> Option<Duration> {
        if !self.clocked() || self.game.outcome().is_some() {
            return None;
        }
        let mover = self.game.position().mover();
        if self.players[mover.index()] == Player::Engine {
            return None;
        }
        Some(self.time_left(mover))
    }

    /// Whether the game is played with clocks.
    fn clocked(&self) -> bool {
        matches!(self.strength, Strength::Clock { .. })
    }

    /// The time `seat` has left now: his clock at the start of his turn, less the time
    /// since, while it is his turn in a game that goes on.
    fn time_left(&self, seat: Seat) -> Duration {
        let left = self.clocks[seat.index()];
        let running = self.game.outcome().is_none()
            && self.game.position().mover() == seat
            && !(self.paused && self.players[seat.index()] == Player::Engine);
        if running {
            left.saturating_sub(self.turn_started.elapsed())
        } else if self
            .game
            .outcome()
            .is_some_and(|o| is_time_forfeit_of(o, seat))
        {
            Duration::ZERO
        } else {
            left
        }
    }

    /// In a game with clocks, ends it with a time forfeit if the mover's time is up (the
    /// message says so); whether it did.
    pub(super) fn flag_fell(&mut self) -> io::Result<bool> {
        if !self.clocked() || self.game.outcome().is_some() {
            return Ok(false);
        }
        let seat = self.game.position().mover();
        if self.paused && self.players[seat.index()] == Player::Engine {
            return Ok(false);
        }
        if !self.time_left(seat).is_zero() {
            return Ok(false);
        }
        self.say(&format!("{}'s time is up.", title(seat)))?;
        match self.game.forfeit_on_time(seat) {
            Ok(()) => {
                self.dirty = true;
                self.redo.clear();
                self.status()?;
            }
            Err(e) => self.say(&format!("(The clock cannot end this game: {e}.)"))?,
        }
        Ok(true)
    }

    /// Charges the mover's clock for the time since the turn began, adds the increment,
    /// and starts the next turn.
    fn charge_clock(&mut self, seat: Seat) {
        if let Strength::Clock { increment, .. } = self.strength {
            let used = self.turn_started.elapsed();
            let left = &mut self.clocks[seat.index()];
            *left = left.saturating_sub(used) + increment;
        }
        self.turn_started = Instant::now();
    }

    fn limits_for(&self, seat: Seat) -> Limits {
        match self.strength {
            Strength::MoveTime(t) => Limits::move_time(t),
            Strength::Clock { increment, .. } => {
                let left = self.clocks[seat.index()].saturating_sub(self.turn_started.elapsed());
                Limits::clock(left.max(Duration::from_millis(20)), increment)
            }
            Strength::Nodes(n) => Limits::nodes(n),
            Strength::Depth(d) => Limits::depth(d),
        }
    }

    /// Runs the engine on the current position, with the thinking line; `None` (after a
    /// message) if it cannot.
    pub(super) fn think(
        &mut self,
        limits: &Limits,
    ) -> io::Result<Option<(Move, SearchResult<Move>)>> {
        let pos = self.game.position().clone();
        let live = self.opts.live;
        let out = &mut self.out;
        let mut wrote_live = false;
        let result = self
            .engine
            .search(&self.game, limits, |info: &Info<'_, Move>| {
                let mut line = format!(
                    "thinking: depth {} score {}, nodes/s {} time {} s line {}",
                    info.depth,
                    score_label(info.score, &pos),
                    rate(info.nps),
                    secs(info.time),
                    line_text(&pos, info.pv)
                );
                if live {
                    line.truncate(79); // one line of an 80-column terminal: no wrap to undo
                    let _ = write!(out, "\r\x1b[K{line}");
                    wrote_live = true;
                } else {
                    let _ = writeln!(out, "{line}");
                }
                let _ = out.flush();
            });
        if wrote_live {
            write!(self.out, "\r\x1b[K")?;
        }
        Ok(result.best_move.map(|m| (m, result)))
    }

    pub(super) fn engine_move(&mut self) -> io::Result<()> {
        let seat = self.game.position().mover();
        let limits = self.limits_for(seat);
        self.engine.set_level(self.level);
        let thought = self.think(&limits);
        self.engine.set_level(Level::MAX);
        let Some((mv, r)) = thought? else {
            self.paused = true;
            return Ok(());
        };
        let (score, depth, nps, time) =
            (r.score, r.depth, ploy_search::nps(r.nodes, r.time), r.time);
        let before = self.game.position().clone();
        let (text, _) = describe(&before, mv);
        let msg = format!(
            "{} (engine) plays {text}   [depth {depth}, score {}, {} nodes/s, {} s]",
            title(seat),
            score_label(score, &before),
            rate(nps),
            secs(time)
        );
        self.say(&msg)?;
        self.play(mv)
    }

    pub(super) fn play(&mut self, mv: Move) -> io::Result<()> {
        let seat = self.game.position().mover();
        if self.flag_fell()? {
            return Ok(()); // the time ran out before the move was made
        }
        let clocks = self.clocks;
        if let Err(e) = self.game.play(mv) {
            return self.say(&format!("Cannot play that: {e}."));
        }
        self.clock_log.push(clocks);
        self.dirty = true;
        self.charge_clock(seat);
        match self.redo.last() {
            Some(Undone::Move(m)) if *m == mv => {
                self.redo.pop();
            }
            _ => self.redo.clear(),
        }
        self.show_board()
    }

    /// Takes back a resignation, time forfeit or agreed draw (only that), or else the last
    /// move and the engine's moves before it, back to a person's turn.
    pub(super) fn undo(&mut self) -> io::Result<()> {
        if let Ok(ending) = self.game.take_back_ending() {
            self.redo.push(Undone::Ending(ending));
            self.dirty = true;
            self.paused = true;
            self.turn_started = Instant::now();
            let msg = format!("Took back {}; the game goes on.", ending_text(ending));
            self.say(&msg)?;
            return self.show_board();
        }
        if self.game.moves().is_empty() {
            return self.say("Nothing to take back.");
        }
        let mut taken = Vec::new();
        loop {
            let n = self.game.moves().len();
            let before = self.game.positions()[n - 1].clone();
            let Ok(mv) = self.game.undo() else { break };
            self.redo.push(Undone::Move(mv));
            if let Some(c) = self.clock_log.pop() {
                self.clocks = c;
            }
            taken.push(AlgebraicMove::from_move(&before, mv).to_string());
            // A free-for-all player who left after the move before comes back too.
            while let Ok(ending) = self.game.take_back_ending() {
                self.redo.push(Undone::Ending(ending));
                taken.push(ending_text(ending));
            }
            let mover = self.game.position().mover();
            if !self.any_human()
                || self.players[mover.index()] == Player::Human
                || self.game.moves().is_empty()
            {
                break;
            }
        }
        self.dirty = true;
        self.paused = true;
        self.turn_started = Instant::now();
        let msg = format!("Took back {}.", taken.join(", "));
        self.say(&msg)?;
        self.show_board()?;
        self.engine_waits()
    }

    fn engine_waits(&mut self) -> io::Result<()> {
        if self.players[self.game.position().mover().index()] == Player::Engine
            && self.game.outcome().is_none()
        {
            self.say("The engine waits: type `go` to let it move.")?;
        }
        Ok(())
    }

    fn any_human(&self) -> bool {
        self.variant()
            .seats()
            .iter()
            .any(|s| self.players[s.index()] == Player::Human)
    }

    /// Plays again what `undo` took back: one step, and on through the engine's moves up
    /// to a person's turn (as `undo` took them back).
    pub(super) fn redo(&mut self) -> io::Result<()> {
        if self.redo.is_empty() {
            return self.say("Nothing to redo.");
        }
        let mut done = Vec::new();
        while let Some(step) = self.redo.pop() {
            let pos = self.game.position().clone();
            let ok = match step {
                Undone::Move(mv) => {
                    let r = self.game.play(mv);
                    if r.is_ok() {
                        self.clock_log.push(self.clocks);
                        done.push(AlgebraicMove::from_move(&pos, mv).to_string());
                    }
                    r
                }
                Undone::Ending(e) => {
                    let r = redo_ending(&mut self.game, e);
                    if r.is_ok() {
                        done.push(ending_text(e));
                    }
                    r
                }
            };
            if let Err(e) = ok {
                self.redo.clear();
                self.say(&format!("Cannot redo: {e}."))?;
                break;
            }
            // Leavings that came right after this step come back with it.
            while let Some(Undone::Ending(Ending::Withdrawal(w))) = self.redo.last() {
                if w.ply != self.game.moves().len() {
                    break;
                }
                let e = Ending::Withdrawal(*w);
                self.redo.pop();
                if redo_ending(&mut self.game, e).is_ok() {
                    done.push(ending_text(e));
                }
            }
            let mover = self.game.position().mover();
            let next_is_move = matches!(self.redo.last(), Some(Undone::Move(_)));
            if !next_is_move
                || self.game.outcome().is_some()
                || (self.any_human() && self.players[mover.index()] == Player::Human)
            {
                break;
            }
        }
        self.dirty = true;
        self.paused = true;
        self.turn_started = Instant::now();
        if !done.is_empty() {
            let msg = format!("Played again: {}.", done.join(", "));
            self.say(&msg)?;
        }
        self.show_board()?;
        self.engine_waits()
    }

    /// The seat shown at the bottom at the start: the one person's, if one person plays.
    pub(super) fn default_view(&self) -> Seat {
        let humans: Vec<Seat> = self
            .variant()
            .seats()
            .iter()
            .filter(|s| self.players[s.index()] == Player::Human)
            .collect();
        match humans[..] {
            [one] => one,
            _ => Seat::Green,
        }
    }

    /// Quarter turns (counterclockwise) of the picture that put `view`'s side at the
    /// bottom (his corner at the bottom left in a free-for-all game).
    fn quarter_turns(&self) -> u8 {
        let base = match (self.variant(), self.view) {
            (_, Seat::Green) => 0,
            (Variant::FreeForAll, Seat::Red) => 1,
            (Variant::FreeForAll, Seat::Yellow) => 2,
            (Variant::FreeForAll, Seat::Blue) => 3,
            (Variant::Partnership, Seat::Yellow) => 0,
            _ => 2,
        };
        (base + if self.flipped { 2 } else { 0 }) % 4
    }

    pub(super) fn hint_limits(&self) -> Limits {
        match self.strength {
            Strength::Clock { .. } => Limits::move_time(Duration::from_secs(1)),
            _ => self.limits_for(self.game.position().mover()),
        }
    }

    /// Ends the pause after `undo`; an engine's clock, stopped while it waited, starts now.
    pub(super) fn unpause(&mut self) {
        if self.paused && self.players[self.game.position().mover().index()] == Player::Engine {
            self.turn_started = Instant::now();
        }
        self.paused = false;
    }

    pub(super) fn engine_to_move(&self) -> bool {
        self.game.outcome().is_none()
            && !self.paused
            && self.players[self.game.position().mover().index()] == Player::Engine
            && Engine::supports(self.variant())
    }
}
