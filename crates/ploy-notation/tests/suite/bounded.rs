//! Error messages quote a bounded excerpt of the input, however long the input is.

use ploy_notation::conformance::{MovesOptions, PerftCommand, moves_line};

/// A token far longer than any message should be.
fn huge(fill: u8) -> Vec<u8> {
    vec![fill; 5 << 20]
}

/// Messages stay short: a few hundred bytes at most.
const MESSAGE_MAX: usize = 400;

#[test]
fn moves_line_quotes_a_bounded_excerpt_of_a_long_move() {
    for opts in [
        MovesOptions::default(),
        MovesOptions {
            algebraic: true,
            ..MovesOptions::default()
        },
    ] {
        let mut line = b"start | e3-e4-0 ".to_vec();
        line.extend(huge(b'x'));
        let out = moves_line(&line, &opts);
        assert!(out.starts_with("error: move 2 `xxx"), "{}", &out[..80]);
        assert!(out.len() <= MESSAGE_MAX, "{} bytes", out.len());
    }
}

#[test]
fn command_errors_quote_a_bounded_excerpt() {
    let long = String::from_utf8(huge(b'7')).unwrap();
    let flag = format!("--{long}");
    for args in [
        vec!["start", long.as_str()],
        vec!["start", "2", flag.as_str()],
    ] {
        let err = PerftCommand::from_args(args).unwrap_err().to_string();
        assert!(err.len() <= MESSAGE_MAX, "{} bytes", err.len());
    }
    let err = MovesOptions::from_args([flag.as_str()])
        .unwrap_err()
        .to_string();
    assert!(err.len() <= MESSAGE_MAX, "{} bytes", err.len());
}
