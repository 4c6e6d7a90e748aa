//! The line protocols of the conformance examples `moves` and `perft`, as library functions
//! so that they can be tested and fuzzed in-process; the examples only do the I/O.
//!
//! # `moves`
//!
//! Each input line is a position string of any variant (two-player `<board> b`, or
//! four-player `ffa <board> ...` / `partnership <board> ...`, see [`crate::four_player`]), or
//! one of the words `start` (the two-player start position), `ffa` and `partnership` (the
//! four-player start positions), optionally followed by ` | ` and university move strings
//! separated by whitespace, to be played first. [`moves_line`] answers with exactly one line:
//!
//! ```text
//! <legal moves, sorted by their university strings, single spaces> ; <position string after the plays> ; <outcome>
//! ```
//!
//! where the first field is empty when there are no legal moves (the line then starts with
//! ` ; `) and the outcome is `ongoing`, `draw`, or the winner: `b` or `w` in a two-player
//! game, the winning seat letters in turn order in a four-player game (`g`, `r`, `y`, `b`,
//! or a team such as `gy` or `rb`); or `error: <message>` when the
//! line is malformed, the position is not valid, or a move is malformed or not legal. Any
//! bytes give one such line, never a panic.
//!
//! Options ([`MovesOptions`]): the *university* rules unless `--draw-rules` asks for the
//! *standard* draw rules (the moves are then played as a game, and a game ended by a draw
//! lists no moves); one flag per rule option: `--single-step` (single-step rotation),
//! `--relaxed` (relaxed elimination), `--plays-on` (an eliminated partner plays on) and
//! `--bare-commander-removed` (a bare commander leaves the board);
//! `--algebraic` writes the legal moves in Tensi's notation, in the same order, and reads the
//! moves to play as algebraic text (which accepts every university move string as well).
//!
//! Leniency of the line: the position must be followed by exactly one space before the `|`;
//! the moves after it may be separated by any ASCII whitespace. Line endings are the
//! caller's business (the example strips `\n` and `\r\n`).
//!
//! # `perft`
//!
//! Arguments `<position string> <depth> [--divide] [--single-step] [--relaxed]
//! [--plays-on] [--bare-commander-removed]`, in any order of options ([`perft_command`]);
//! the position may also be `start`, `ffa` or `partnership`. With `--divide` one line `<move> <count>` per legal
//! move, sorted by university move string; always the total alone on the last line. The
//! rules are the university rules unless an option says otherwise.

use core::fmt::Write as _;

use ploy_core::{
    BareCommander, Elimination, Game, Move, Outcome, PartnerElimination, Position, Rotation, Rules,
    Variant, divide, perft,
};

use crate::{
    AlgebraicMove, PositionString, Side, UniversityMove, check_legal, excerpt, seat_letter,
};

/// A command line could not be understood, or its position is not valid.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct CommandError(pub String);

/// The options of the `moves` example.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MovesOptions {
    /// `--algebraic`: write (and read) moves in Tensi's notation.
    pub algebraic: bool,
    /// `--draw-rules`: play as a game with the standard draw rules.
    pub draw_rules: bool,
    /// `--single-step`: the single-step rotation rule.
    pub single_step: bool,
    /// `--relaxed`: relaxed elimination.
    pub relaxed: bool,
    /// `--plays-on`: in a partnership game an eliminated player plays on.
    pub plays_on: bool,
    /// `--bare-commander-removed`: a bare commander leaves the board.
    pub bare_commander_removed: bool,
}

impl MovesOptions {
    /// Reads the options from command-line arguments (without the program name).
    ///
    /// # Errors
    /// [`CommandError`] for an argument that is not one of the options.
    pub fn from_args<I, S>(args: I) -> Result<MovesOptions, CommandError>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        let mut opts = MovesOptions::default();
        let mut flags = RuleFlags::default();
        for arg in args {
            match arg.as_ref() {
                "--algebraic" => opts.algebraic = true,
                "--draw-rules" => opts.draw_rules = true,
                flag if flags.set(flag) => {}
                other => {
                    return Err(CommandError(format!(
                        "unknown argument `{}`; expected --algebraic, --draw-rules, \
                         --single-step, --relaxed, --plays-on or --bare-commander-removed",
                        excerpt(other.as_bytes())
                    )));
                }
            }
        }
        opts.single_step = flags.single_step;
        opts.relaxed = flags.relaxed;
        opts.plays_on = flags.plays_on;
        opts.bare_commander_removed = flags.bare_commander_removed;
        Ok(opts)
    }

    /// The rules these options ask for.
    #[must_use]
    pub fn rules(&self) -> Rules {
        let base = if self.draw_rules {
            Rules::standard()
        } else {
            Rules::university()
        };
        RuleFlags {
            single_step: self.single_step,
            relaxed: self.relaxed,
            plays_on: self.plays_on,
            bare_commander_removed: self.bare_commander_removed,
        }
        .apply(base)
    }
}

/// The rule-option flags every example takes: `--single-step`, `--relaxed`, `--plays-on`,
/// `--bare-commander-removed`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RuleFlags {
    /// `--single-step`: the single-step rotation rule.
    pub single_step: bool,
    /// `--relaxed`: relaxed elimination.
    pub relaxed: bool,
    /// `--plays-on`: in a partnership game an eliminated player plays on.
    pub plays_on: bool,
    /// `--bare-commander-removed`: a bare commander leaves the board.
    pub bare_commander_removed: bool,
}

impl RuleFlags {
    /// Sets the flag `arg` names; `false` if it names none.
    pub fn set(&mut self, arg: &str) -> bool {
        match arg {
            "--single-step" => self.single_step = true,
            "--relaxed" => self.relaxed = true,
            "--plays-on" => self.plays_on = true,
            "--bare-commander-removed" => self.bare_commander_removed = true,
            _ => return false,
        }
        true
    }

    /// `base` with the options these flags ask for.
    #[must_use]
    pub fn apply(self, base: Rules) -> Rules {
        let mut rules = base;
        if self.single_step {
            rules = rules.with_rotation(Rotation::SingleStep);
        }
        if self.relaxed {
            rules = rules.with_elimination(Elimination::Relaxed);
        }
        if self.plays_on {
            rules = rules.with_partner_elimination(PartnerElimination::PlaysOn);
        }
        if self.bare_commander_removed {
            rules = rules.with_bare_commander(BareCommander::Removed);
        }
        rules
    }
}

/// The sort key of a move: the byte order of its university string (`e3-e4-0`), the order
/// in which the `moves` and `perft --divide` protocols list moves.
///
/// ```
/// use ploy_core::{Move, Square};
/// use ploy_notation::conformance::university_key;
/// let a = Move::new(Square::A1, Square::A2, 0);
/// let b = Move::new(Square::B1, Square::B2, 0);
/// assert!(university_key(a) < university_key(b));
/// ```
#[must_use]
pub fn university_key(mv: Move) -> (u8, u8, u8, u8, u8) {
    (
        mv.from().file(),
        mv.from().rank(),
        mv.to().file(),
        mv.to().rank(),
        mv.rotation(),
    )
}

/// Reads a position string, or `start`, `ffa` or `partnership` (the start positions), into a
/// position played by `rules`, as the examples take it on their command lines.
///
/// # Errors
/// A message that says what is wrong with the text, starting with `position: `.
pub fn read_position_arg(text: &[u8], rules: Rules) -> Result<Position, String> {
    crate::read_position_bytes(text, rules).map_err(|e| format!("position: {e}"))
}

/// Answers one input line of the `moves` example (without its line ending): exactly one
/// line, without a line ending. See the [module docs](self).
#[must_use]
pub fn moves_line(line: &[u8], opts: &MovesOptions) -> String {
    moves_line_with_rules(line, opts.algebraic, opts.rules())
}

/// [`moves_line`] with the rules given whole (so that every rule option can be chosen, the
/// draw rules' details included) and `algebraic` as `--algebraic`.
#[must_use]
pub fn moves_line_with_rules(line: &[u8], algebraic: bool, rules: Rules) -> String {
    match moves_line_inner(line, algebraic, rules) {
        Ok(out) => out,
        Err(message) => format!("error: {message}"),
    }
}

fn moves_line_inner(line: &[u8], algebraic: bool, rules: Rules) -> Result<String, String> {
    let (pos_text, moves_text) = match line.iter().position(|&b| b == b'|') {
        Some(bar) => {
            let pos_text = line[..bar]
                .strip_suffix(b" ")
                .ok_or("expected ` | ` between the position and the moves")?;
            (pos_text, &line[bar + 1..])
        }
        None => (line, &[][..]),
    };
    let mut game = Game::from_position(read_position_arg(pos_text, rules)?);
    let words = moves_text
        .split(u8::is_ascii_whitespace)
        .filter(|w| !w.is_empty());
    for (i, word) in words.enumerate() {
        let shown = excerpt(word);
        let context = |e: &dyn core::fmt::Display| format!("move {} `{shown}`: {e}", i + 1);
        let mv = if algebraic {
            AlgebraicMove::from_ascii(word).map(AlgebraicMove::as_move)
        } else {
            UniversityMove::from_ascii(word).map(UniversityMove::as_move)
        }
        .map_err(|e| context(&e))?;
        if game.outcome().is_some() {
            return Err(context(&"not legal here: the game is over"));
        }
        check_legal(game.position(), mv)
            .map_err(|e| context(&format_args!("not legal here: {e}")))?;
        game.play(mv).map_err(|e| context(&e))?;
    }
    let mut moves = game.legal_moves();
    moves.sort_unstable_by_key(|&mv| university_key(mv));
    let pos = game.position();
    let mut out = String::with_capacity(moves.len() * 8 + 200);
    for (i, &mv) in moves.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        // Writing into a String cannot fail.
        let _ = if algebraic {
            write!(out, "{}", AlgebraicMove::from_move(pos, mv))
        } else {
            write!(out, "{}", UniversityMove::from(mv))
        };
    }
    let _ = write!(
        out,
        " ; {} ; {}",
        PositionString::from_position(pos),
        OutcomeWord(game.outcome(), pos.variant())
    );
    Ok(out)
}

/// The outcome field: `ongoing`, `draw`, `b`/`w` (two players) or the winning seat
/// letters in turn order (four players).
struct OutcomeWord(Option<Outcome>, Variant);

impl core::fmt::Display for OutcomeWord {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self.0 {
            None => f.write_str("ongoing"),
            Some(o) if o.is_draw() => f.write_str("draw"),
            Some(o) if self.1 == Variant::TwoPlayer => {
                match o.winner().and_then(Side::from_seat) {
                    Some(side) => write!(f, "{side}"),
                    // A two-player game is won by one of its two seats.
                    None => f.write_str("won"),
                }
            }
            Some(o) => o
                .winners()
                .iter()
                .try_for_each(|s| f.write_char(seat_letter(s))),
        }
    }
}

/// The arguments of the `perft` example.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PerftCommand {
    /// The position, played by the rules the options ask for.
    pub position: Position,
    /// The depth in plies.
    pub depth: u32,
    /// `--divide`: one line per legal move before the total.
    pub divide: bool,
}

impl PerftCommand {
    /// Reads `<position string> <depth> [--divide] [--single-step] [--relaxed] [--plays-on]
    /// [--bare-commander-removed]` (without the program name). `start` stands for the
    /// two-player start position, `ffa` and `partnership` for the four-player ones.
    ///
    /// # Errors
    /// [`CommandError`] for a missing or extra argument, an unknown option, a depth that is
    /// not a whole number, or a position that is malformed or not valid.
    pub fn from_args<I, S>(args: I) -> Result<PerftCommand, CommandError>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        let mut divide = false;
        let mut flags = RuleFlags::default();
        let mut positional = Vec::new();
        for arg in args {
            match arg.as_ref() {
                "--divide" => divide = true,
                flag if flags.set(flag) => {}
                other if other.starts_with("--") => {
                    return Err(CommandError(format!(
                        "unknown option `{}`; expected --divide, --single-step, --relaxed, \
                         --plays-on or --bare-commander-removed",
                        excerpt(other.as_bytes())
                    )));
                }
                other => positional.push(other.to_owned()),
            }
        }
        let [position, depth] = positional.as_slice() else {
            return Err(CommandError(format!(
                "expected a position string (or `start`, `ffa`, `partnership`) and a depth, \
                 found {} arguments; \
                 usage: perft \"<position string>\" <depth> [--divide]",
                positional.len()
            )));
        };
        let depth: u32 = depth.parse().map_err(|_| {
            CommandError(format!(
                "depth: expected a whole number, found `{}`",
                excerpt(depth.as_bytes())
            ))
        })?;
        let rules = flags.apply(Rules::university());
        let position = read_position_arg(position.as_bytes(), rules).map_err(CommandError)?;
        Ok(PerftCommand {
            position,
            depth,
            divide,
        })
    }

    /// Runs the count and writes the output lines (each ending in `\n`) into `out`.
    ///
    /// # Errors
    /// Only those of `out`.
    pub fn run(&self, out: &mut impl core::fmt::Write) -> core::fmt::Result {
        if self.divide && self.depth > 0 {
            let mut split = divide(&self.position, self.depth);
            split.sort_unstable_by_key(|&(mv, _)| university_key(mv));
            let mut total = 0;
            for (mv, n) in split {
                writeln!(out, "{} {n}", UniversityMove::from(mv))?;
                total += n;
            }
            writeln!(out, "{total}")
        } else {
            writeln!(out, "{}", perft(&self.position, self.depth))
        }
    }
}

/// The whole `perft` example on `args`: its output, or the error message.
///
/// # Errors
/// As [`PerftCommand::from_args`].
pub fn perft_command<I, S>(args: I) -> Result<String, CommandError>
where
    I: IntoIterator<Item = S>,
    S: AsRef<str>,
{
    let command = PerftCommand::from_args(args)?;
    let mut out = String::new();
    let _ = command.run(&mut out);
    Ok(out)
}
