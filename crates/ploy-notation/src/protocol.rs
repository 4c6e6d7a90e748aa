//! The line protocols of the conformance examples `moves` and `perft`, as library functions
//! so that they can be tested and fuzzed in-process; the examples only do the I/O.
//!
//! # `moves`
//!
//! Each input line is a position string (or `start` for the two-player start position),
//! optionally followed by ` | ` and university move strings separated by whitespace, to be
//! played first. [`moves_line`] answers with exactly one line:
//!
//! ```text
//! <legal moves, sorted by their university strings, single spaces> ; <position string after the plays> ; <outcome>
//! ```
//!
//! where the first field is empty when there are no legal moves (the line then starts with
//! ` ; `) and the outcome is `ongoing`, `b`, `w` or `draw`; or `error: <message>` when the
//! line is malformed, the position is not valid, or a move is malformed or not legal. Any
//! bytes give one such line, never a panic.
//!
//! Options ([`MovesOptions`]): the *university* rules unless `--draw-rules` asks for the
//! *standard* draw rules (the moves are then played as a game, and a game ended by a draw
//! lists no moves); `--single-step` and `--relaxed` choose those rule options;
//! `--algebraic` writes the legal moves in Tensi's notation, in the same order, and reads the
//! moves to play as algebraic text (which accepts every university move string as well).
//!
//! Leniency of the line: the position must be followed by exactly one space before the `|`;
//! the moves after it may be separated by any ASCII whitespace. Line endings are the
//! caller's business (the example strips `\n` and `\r\n`).
//!
//! # `perft`
//!
//! Arguments `<position string> <depth> [--divide] [--single-step] [--relaxed]`, in any
//! order of options ([`perft_command`]). With `--divide` one line `<move> <count>` per legal
//! move, sorted by university move string; always the total alone on the last line. The
//! rules are the university rules unless an option says otherwise.

use core::fmt::Write as _;

use ploy_core::{
    Elimination, Game, Move, Outcome, Position, Rotation, Rules, Variant, divide, perft,
};

use crate::{AlgebraicMove, PositionString, Side, UniversityMove, check_legal};

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
}

impl MovesOptions {
    /// Reads the options from command-line arguments (without the program name).
    ///
    /// # Errors
    /// [`CommandError`] for an argument that is not one of the four options.
    pub fn from_args<I, S>(args: I) -> Result<MovesOptions, CommandError>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        let mut opts = MovesOptions::default();
        for arg in args {
            match arg.as_ref() {
                "--algebraic" => opts.algebraic = true,
                "--draw-rules" => opts.draw_rules = true,
                "--single-step" => opts.single_step = true,
                "--relaxed" => opts.relaxed = true,
                other => {
                    return Err(CommandError(format!(
                        "unknown argument `{other}`; expected --algebraic, --draw-rules, \
                         --single-step or --relaxed"
                    )));
                }
            }
        }
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
        rules_with(base, self.single_step, self.relaxed)
    }
}

fn rules_with(base: Rules, single_step: bool, relaxed: bool) -> Rules {
    let mut rules = base;
    if single_step {
        rules = rules.with_rotation(Rotation::SingleStep);
    }
    if relaxed {
        rules = rules.with_elimination(Elimination::Relaxed);
    }
    rules
}

/// The sort key of a move: the byte order of its university string.
fn university_key(mv: Move) -> (u8, u8, u8, u8, u8) {
    (
        mv.from().file(),
        mv.from().rank(),
        mv.to().file(),
        mv.to().rank(),
        mv.rotation(),
    )
}

/// Reads a position string, or `start`, into a position played by `rules`.
fn read_position_arg(text: &[u8], rules: Rules) -> Result<Position, String> {
    if text == b"start" {
        return Ok(Position::start(Variant::TwoPlayer, rules));
    }
    let parsed = PositionString::from_ascii(text).map_err(|e| format!("position: {e}"))?;
    parsed
        .to_position(rules)
        .map_err(|e| format!("position: {e}"))
}

/// Answers one input line of the `moves` example (without its line ending): exactly one
/// line, without a line ending. See the [module docs](self).
#[must_use]
pub fn moves_line(line: &[u8], opts: &MovesOptions) -> String {
    match moves_line_inner(line, opts) {
        Ok(out) => out,
        Err(message) => format!("error: {message}"),
    }
}

fn moves_line_inner(line: &[u8], opts: &MovesOptions) -> Result<String, String> {
    let (pos_text, moves_text) = match line.iter().position(|&b| b == b'|') {
        Some(bar) => {
            let pos_text = line[..bar]
                .strip_suffix(b" ")
                .ok_or("expected ` | ` between the position and the moves")?;
            (pos_text, &line[bar + 1..])
        }
        None => (line, &[][..]),
    };
    let mut game = Game::from_position(read_position_arg(pos_text, opts.rules())?);
    let words = moves_text
        .split(u8::is_ascii_whitespace)
        .filter(|w| !w.is_empty());
    for (i, word) in words.enumerate() {
        let shown = String::from_utf8_lossy(word);
        let context = |e: &dyn core::fmt::Display| format!("move {} `{shown}`: {e}", i + 1);
        let mv = if opts.algebraic {
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
        let _ = if opts.algebraic {
            write!(out, "{}", AlgebraicMove::from_move(pos, mv))
        } else {
            write!(out, "{}", UniversityMove::from(mv))
        };
    }
    let _ = write!(
        out,
        " ; {} ; {}",
        PositionString::from_position(pos),
        outcome_word(game.outcome())
    );
    Ok(out)
}

fn outcome_word(outcome: Option<Outcome>) -> &'static str {
    match outcome {
        None => "ongoing",
        Some(o) if o.is_draw() => "draw",
        Some(o) => match o.winner().and_then(Side::from_seat) {
            Some(Side::Black) => "b",
            Some(Side::White) => "w",
            // Teams and four-player seats do not occur in the two-player game.
            None => "won",
        },
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
    /// Reads `<position string> <depth> [--divide] [--single-step] [--relaxed]` (without the
    /// program name). `start` stands for the two-player start position.
    ///
    /// # Errors
    /// [`CommandError`] for a missing or extra argument, an unknown option, a depth that is
    /// not a whole number, or a position that is malformed or not valid.
    pub fn from_args<I, S>(args: I) -> Result<PerftCommand, CommandError>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        let (mut divide, mut single_step, mut relaxed) = (false, false, false);
        let mut positional = Vec::new();
        for arg in args {
            match arg.as_ref() {
                "--divide" => divide = true,
                "--single-step" => single_step = true,
                "--relaxed" => relaxed = true,
                other if other.starts_with("--") => {
                    return Err(CommandError(format!(
                        "unknown option `{other}`; expected --divide, --single-step or --relaxed"
                    )));
                }
                other => positional.push(other.to_owned()),
            }
        }
        let [position, depth] = positional.as_slice() else {
            return Err(CommandError(format!(
                "expected a position string (or `start`) and a depth, found {} arguments; \
                 usage: perft \"<position string>\" <depth> [--divide]",
                positional.len()
            )));
        };
        let depth: u32 = depth.parse().map_err(|_| {
            CommandError(format!("depth: expected a whole number, found `{depth}`"))
        })?;
        let rules = rules_with(Rules::university(), single_step, relaxed);
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
