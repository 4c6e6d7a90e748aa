//! `ploy moves` and the `moves` example: the legal moves of positions read from standard
//! input, one answer line per input line (the line protocol of
//! [`ploy_notation::conformance`]).
//!
//! Input lines longer than [`MAX_LINE_BYTES`] are answered with an error line (and the rest
//! of such a line is skipped), so that no input can make the program hold an unbounded line
//! in memory.

use std::io::{BufRead, Write};

use clap::Parser;
use ploy_core::Rules;
use ploy_notation::conformance::moves_line_with_rules;

use super::{Failure, RuleArgs};

/// The longest input line read whole: 1 MiB (a position string with more than 100,000
/// moves to play); a longer line is answered with an error.
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// List the legal moves of positions read from standard input, one answer line per line.
#[derive(Parser, Clone, Debug, PartialEq, Eq)]
#[command(
    name = "moves",
    version,
    after_help = "Each input line: a position string (or start, ffa, partnership), optionally \
                  followed by ` | ` and moves to play first. Each answer: \
                  `<legal moves> ; <position string> ; <outcome>` or `error: <message>`. \
                  The rules are the university rules unless a rule option says otherwise \
                  (--standard, also spelt --draw-rules, plays the moves as a game with the \
                  draw rules)."
)]
pub struct MovesArgs {
    /// Write the legal moves in Tensi's algebraic notation (and read the moves to play as
    /// algebraic text, which includes every university move string).
    #[arg(long)]
    pub algebraic: bool,
    /// The rules.
    #[command(flatten)]
    pub rules: RuleArgs,
}

/// One input line: its bytes without the line ending, or `None` at the end of the input.
/// A line longer than `max` bytes comes back as `Err(())` (its bytes are skipped).
fn read_line(input: &mut impl BufRead, max: usize) -> std::io::Result<Option<Result<Vec<u8>, ()>>> {
    let mut line = Vec::new();
    let n = std::io::Read::take(&mut *input, max as u64 + 1).read_until(b'\n', &mut line)?;
    if n == 0 {
        return Ok(None);
    }
    if line.last() == Some(&b'\n') {
        line.pop();
        if line.last() == Some(&b'\r') {
            line.pop();
        }
        return Ok(Some(Ok(line)));
    }
    if line.len() <= max {
        // The last line, without a line ending.
        if line.last() == Some(&b'\r') {
            line.pop();
        }
        return Ok(Some(Ok(line)));
    }
    // Too long: skip to the end of the line.
    loop {
        let buf = input.fill_buf()?;
        if buf.is_empty() {
            break;
        }
        match buf.iter().position(|&b| b == b'\n') {
            Some(i) => {
                input.consume(i + 1);
                break;
            }
            None => {
                let len = buf.len();
                input.consume(len);
            }
        }
    }
    Ok(Some(Err(())))
}

/// Answers every line of `input` on `output`, flushing after each answer.
///
/// # Errors
/// A failure to read the input (status 1), or to write the output (a closed pipe ends
/// quietly).
pub fn answer(
    args: &MovesArgs,
    mut input: impl BufRead,
    mut output: impl Write,
) -> Result<(), Failure> {
    let rules = args.rules.rules(Rules::university());
    loop {
        let line = read_line(&mut input, MAX_LINE_BYTES)
            .map_err(|e| Failure::failed(format!("cannot read standard input: {e}")))?;
        let answer = match line {
            None => return Ok(()),
            Some(Ok(line)) => moves_line_with_rules(&line, args.algebraic, rules),
            Some(Err(())) => format!("error: the line is longer than {} bytes", MAX_LINE_BYTES),
        };
        writeln!(output, "{answer}")?;
        output.flush()?;
    }
}

/// Runs `moves` on standard input and output.
///
/// # Errors
/// As [`answer`].
pub fn run(args: &MovesArgs) -> Result<(), Failure> {
    answer(args, std::io::stdin().lock(), std::io::stdout().lock())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(input: &[u8], max: usize) -> Vec<Result<Vec<u8>, ()>> {
        let mut r = input;
        let mut out = Vec::new();
        while let Some(line) = read_line(&mut r, max).unwrap() {
            out.push(line);
        }
        out
    }

    #[test]
    fn lines_are_bounded() {
        assert_eq!(
            lines(b"ab\r\ncd\n\nlast", 8),
            vec![
                Ok(b"ab".to_vec()),
                Ok(b"cd".to_vec()),
                Ok(vec![]),
                Ok(b"last".to_vec())
            ]
        );
        assert_eq!(
            lines(b"0123456789\nok\n0123456789", 8),
            vec![Err(()), Ok(b"ok".to_vec()), Err(())]
        );
        assert_eq!(lines(b"01234567\n", 8), vec![Ok(b"01234567".to_vec())]);
    }

    #[test]
    fn answers_every_line() {
        let args = MovesArgs {
            algebraic: false,
            rules: RuleArgs::default(),
        };
        let mut out = Vec::new();
        answer(&args, &b"start\nnonsense\n"[..], &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 2);
        assert_eq!(lines[0].split(' ').take_while(|w| *w != ";").count(), 145);
        assert!(lines[1].starts_with("error: "));
    }
}
