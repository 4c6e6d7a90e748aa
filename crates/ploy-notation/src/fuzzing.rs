//! The bodies of the cargo-fuzz targets in `fuzz/` (feature `fuzzing`; not a stable API).
//!
//! Each function takes arbitrary bytes, must never panic on them, and asserts the properties
//! of one parser: text that parses writes canonical text that parses back to the same value,
//! and error offsets lie within the input. The crate's own tests run every body over a few
//! thousand generated inputs, so that CI exercises them on stable Rust.

use ploy_core::{
    BareCommander, Elimination, PartnerElimination, Position, Rotation, Rules, Variant,
};

use crate::conformance::{MovesOptions, moves_line as protocol_moves_line};
use crate::{
    AlgebraicMove, BoardString, FourPlayerBoardString, FourPlayerPositionString, IllegalMoveError,
    ParseMoveError, PositionString, TwoPlayerPositionString, UniversityMove, check_legal,
};

/// The rule sets the bodies try a parsed position with (every option of both games comes
/// up).
fn rule_sets() -> [Rules; 4] {
    [
        Rules::university(),
        Rules::university().with_rotation(Rotation::SingleStep),
        Rules::standard().with_elimination(Elimination::Relaxed),
        Rules::university()
            .with_partner_elimination(PartnerElimination::PlaysOn)
            .with_bare_commander(BareCommander::Removed),
    ]
}

/// The variants, by index.
const VARIANTS: [Variant; 3] = [
    Variant::TwoPlayer,
    Variant::FreeForAll,
    Variant::Partnership,
];

/// Board strings of both forms: parse, write, parse again; the validity stage never panics.
pub fn board_string(data: &[u8]) {
    match FourPlayerBoardString::from_ascii(data) {
        Ok(board) => {
            let text = board.to_string();
            let again =
                FourPlayerBoardString::from_ascii(text.as_bytes()).expect("canonical text parses");
            assert_eq!(again, board);
            if let Ok(core) = board.to_board() {
                assert_eq!(FourPlayerBoardString::from_board(&core), board);
            }
        }
        Err(e) => {
            assert!(e.offset() <= data.len());
            let _ = e.to_string();
        }
    }
    match BoardString::from_ascii(data) {
        Ok(board) => {
            let text = board.to_string();
            assert!(
                !text.bytes().any(|b| b.is_ascii_whitespace()),
                "canonical text has no whitespace"
            );
            let again = BoardString::from_ascii(text.as_bytes()).expect("canonical text parses");
            assert_eq!(again, board);
            if let Ok(core) = board.to_board() {
                assert_eq!(
                    BoardString::from_board(&core).expect("two-player pieces"),
                    board
                );
            }
        }
        Err(e) => {
            assert!(
                e.offset() <= data.len(),
                "offset {} beyond {} bytes",
                e.offset(),
                data.len()
            );
            let _ = e.to_string();
        }
    }
}

/// Position strings of both forms: no text is both; parse, write, parse again; a valid
/// position writes the same string, reads back as the same state, and every legal move in
/// it round-trips through both notations.
pub fn position_string(data: &[u8]) {
    let two = TwoPlayerPositionString::from_ascii(data);
    let four = FourPlayerPositionString::from_ascii(data);
    assert!(
        two.is_err() || four.is_err(),
        "both a two-player and a four-player string"
    );
    match PositionString::from_ascii(data) {
        Ok(parsed) => {
            assert!(
                matches!(
                    (&parsed, &two, &four),
                    (PositionString::TwoPlayer(p), Ok(t), _) if p == t
                ) || matches!(
                    (&parsed, &two, &four),
                    (PositionString::FourPlayer(p), _, Ok(f)) if p == f
                ),
                "the dispatcher reads what the form's own parser reads"
            );
            let text = parsed.to_string();
            let again = PositionString::from_ascii(text.as_bytes()).expect("canonical text parses");
            assert_eq!(again, parsed);
            assert_eq!(again.to_string(), text);
            for rules in rule_sets() {
                match parsed.to_position(rules) {
                    Ok(pos) => {
                        assert_eq!(PositionString::from_position(&pos), parsed);
                        let back = parsed.to_position(rules).expect("valid once, valid again");
                        assert!(back.same_state(&pos));
                        assert_eq!(back.hash(), pos.compute_hash());
                        check_every_move(&pos);
                    }
                    Err(e) => {
                        let _ = e.to_string();
                    }
                }
            }
        }
        Err(e) => {
            assert!(
                e.offset() <= data.len(),
                "offset {} beyond {} bytes",
                e.offset(),
                data.len()
            );
            let _ = e.to_string();
        }
    }
}

/// The number of characters in `data` as a lossy conversion counts them.
fn char_count(data: &[u8]) -> usize {
    String::from_utf8_lossy(data).chars().count()
}

/// A move-text error: its place lies within the input, everything before it is ASCII (so
/// the character it names is the byte offset plus one), and the message is short.
fn check_move_error(data: &[u8], e: &ParseMoveError) {
    assert!(e.offset() <= data.len());
    assert!(data[..e.offset()].is_ascii(), "non-ASCII before {e:?}");
    assert!(e.character() <= char_count(data) + 1, "{e:?}");
    let message = e.to_string();
    assert!(message.len() < 120, "{message}");
}

/// University move strings: a string that parses is canonical (it writes itself back),
/// is ploy-core's move text, and reads as the same move in algebraic notation.
pub fn university_move(data: &[u8]) {
    let core = ploy_core::Move::from_ascii(data);
    match UniversityMove::from_ascii(data) {
        Ok(mv) => {
            assert_eq!(mv.to_string().as_bytes(), data);
            assert_eq!(core, Ok(mv.as_move()));
            let alg = AlgebraicMove::from_ascii(data).expect("a university string is algebraic");
            assert_eq!(alg.as_move(), mv.as_move());
        }
        Err(e) => {
            assert_eq!(core, Err(e));
            check_move_error(data, &e);
        }
    }
}

/// Algebraic moves: parse, write, parse again; case does not matter; a separator may be
/// left out.
pub fn algebraic_move(data: &[u8]) {
    match AlgebraicMove::from_ascii(data) {
        Ok(mv) => {
            let text = mv.to_string();
            let again = AlgebraicMove::from_ascii(text.as_bytes()).expect("canonical text parses");
            assert_eq!(again, mv);
            assert_eq!(again.to_string(), text);
            for cased in [data.to_ascii_uppercase(), data.to_ascii_lowercase()] {
                let same = AlgebraicMove::from_ascii(&cased).expect("case does not matter");
                assert_eq!(same.as_move(), mv.as_move());
            }
            if matches!(data.get(2), Some(b'-' | b'x' | b'X'))
                && data.get(3).is_some_and(|b| b.is_ascii_alphabetic())
            {
                let mut joined = data.to_vec();
                joined.remove(2);
                let same = AlgebraicMove::from_ascii(&joined).expect("the separator may go");
                assert_eq!(same.as_move(), mv.as_move());
            }
        }
        Err(e) => check_move_error(data, &e),
    }
}

/// Resolution: the first byte picks a variant, rules and a few plies of a playout from the
/// start, the rest is move text in both notations. A move that resolves is legal and its
/// canonical texts resolve to it; a move that does not is not legal, and the error says why.
pub fn resolve_move(data: &[u8]) {
    let Some((&plies, text)) = data.split_first() else {
        return;
    };
    let variant = VARIANTS[usize::from(plies >> 6) % 3];
    let rules = rule_sets()[usize::from(plies) % 4];
    let mut pos = Position::start(variant, rules);
    for i in 0..(plies & 63) {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let pick = text.get(usize::from(i)).copied().unwrap_or(i);
        pos.make_move(moves[usize::from(pick) % moves.len()]);
    }
    if let Ok(alg) = AlgebraicMove::from_ascii(text) {
        check_resolution(&pos, alg.as_move(), alg.to_move(&pos));
    }
    if let Ok(uni) = UniversityMove::from_ascii(text) {
        check_resolution(&pos, uni.as_move(), uni.to_move(&pos));
    }
}

fn check_resolution(
    pos: &Position,
    named: ploy_core::Move,
    resolved: Result<ploy_core::Move, IllegalMoveError>,
) {
    match resolved {
        Ok(mv) => {
            assert_eq!(mv, named);
            assert!(pos.is_legal(mv));
            let written = AlgebraicMove::from_move(pos, mv).to_string();
            assert_eq!(
                written.parse::<AlgebraicMove>().map(|a| a.to_move(pos)),
                Ok(Ok(mv))
            );
        }
        Err(e) => {
            assert!(!pos.is_legal(named));
            let _ = e.to_string();
        }
    }
}

/// The `moves` example's line protocol: any line gives exactly one line, an error line or
/// three fields. The first byte chooses the options.
pub fn moves_line(data: &[u8]) {
    let Some((&flags, line)) = data.split_first() else {
        return;
    };
    let opts = MovesOptions {
        algebraic: flags & 1 != 0,
        draw_rules: flags & 2 != 0,
        single_step: flags & 4 != 0,
        relaxed: flags & 8 != 0,
        plays_on: flags & 16 != 0,
        bare_commander_removed: flags & 32 != 0,
    };
    let out = protocol_moves_line(line, &opts);
    assert!(
        !out.contains('\n') && !out.contains('\r'),
        "one line: {out:?}"
    );
    if out.starts_with("error: ") {
        // An error quotes a bounded excerpt of the line, however long it is.
        assert!(out.len() < 400, "{out}");
    }
    if !out.starts_with("error: ") {
        let fields: Vec<&str> = out.split(" ; ").collect();
        assert_eq!(fields.len(), 3, "three fields: {out:?}");
        let position =
            PositionString::from_ascii(fields[1].as_bytes()).expect("the position field parses");
        let outcome = fields[2];
        if position.variant() == Variant::TwoPlayer {
            assert!(
                ["ongoing", "b", "w", "draw"].contains(&outcome),
                "outcome: {out:?}"
            );
        } else {
            // A single seat, or a team, in turn order.
            assert!(
                ["ongoing", "draw", "g", "r", "y", "b", "gy", "rb"].contains(&outcome),
                "outcome: {out:?}"
            );
        }
        assert_eq!(fields[0].is_empty(), outcome != "ongoing", "moves: {out:?}");
    }
}

/// Every legal move of `pos` through each notation comes back as itself; every other
/// direction move of the mover's pieces is refused with a reason.
pub fn check_every_move(pos: &Position) {
    let legal = pos.legal_moves();
    for &mv in legal.iter() {
        let uni = UniversityMove::from(mv).to_string();
        assert_eq!(
            uni.parse::<UniversityMove>().map(|u| u.to_move(pos)),
            Ok(Ok(mv))
        );
        assert_eq!(
            uni.parse::<AlgebraicMove>().map(|a| a.to_move(pos)),
            Ok(Ok(mv))
        );
        let alg = AlgebraicMove::from_move(pos, mv).to_string();
        assert_eq!(
            alg.parse::<AlgebraicMove>().map(|a| a.to_move(pos)),
            Ok(Ok(mv))
        );
        assert!(check_legal(pos, mv).is_ok());
    }
}

/// Generated inputs for the bodies: canonical texts from short seeded playouts, mutated
/// byte by byte, and random bytes from the notations' alphabet.
#[cfg(test)]
pub(crate) mod inputs {
    use super::*;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    const ALPHABET: &[u8] = b"abcdefghijwryptEIX0123456789,/ x-+#|\t\n\xff\xc3\xa9";

    /// Seeds by kind: position strings, board strings, move texts, `moves` lines.
    pub(crate) fn seeds(rng: &mut StdRng) -> [Vec<Vec<u8>>; 4] {
        let mut out: [Vec<Vec<u8>>; 4] = Default::default();
        for i in 0..60 {
            let variant = VARIANTS[i % 3];
            let mut pos = Position::start(variant, rule_sets()[(i / 3) % 4]);
            let plies = rng.random_range(0..200);
            let mut line = String::from(match variant {
                Variant::TwoPlayer => "start |",
                Variant::FreeForAll => "ffa |",
                _ => "partnership |",
            });
            for _ in 0..plies {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let captures: Vec<_> = moves
                    .iter()
                    .copied()
                    .filter(|m| !m.is_direction_move() && pos.board().piece_at(m.to()).is_some())
                    .collect();
                let mv = if !captures.is_empty() && rng.random_bool(0.6) {
                    captures[rng.random_range(0..captures.len())]
                } else {
                    moves[rng.random_range(0..moves.len())]
                };
                out[2].push(UniversityMove::from(mv).to_string().into_bytes());
                let alg = AlgebraicMove::from_move(&pos, mv).to_string();
                // The lenient spellings people type: upper case, no separator.
                out[2].push(alg.to_ascii_uppercase().into_bytes());
                if !mv.is_direction_move() {
                    out[2].push(format!("{}{}", &alg[..2], &alg[3..]).into_bytes());
                }
                out[2].push(alg.into_bytes());
                line.push(' ');
                line.push_str(&UniversityMove::from(mv).to_string());
                pos.make_move(mv);
            }
            out[0].push(PositionString::from_position(&pos).to_string().into_bytes());
            out[1].push(match PositionString::from_position(&pos) {
                PositionString::TwoPlayer(two) => two.board().to_string().into_bytes(),
                PositionString::FourPlayer(four) => four.board().to_string().into_bytes(),
            });
            out[3].push(line.into_bytes());
        }
        out
    }

    /// `n` inputs: mutated seeds and random strings.
    pub(crate) fn generate(seed: u64, n: usize) -> Vec<Vec<u8>> {
        let mut rng = StdRng::seed_from_u64(seed);
        let seeds = seeds(&mut rng);
        (0..n)
            .map(|_| {
                if rng.random_bool(0.15) {
                    let len = rng.random_range(0..12);
                    return (0..len)
                        .map(|_| ALPHABET[rng.random_range(0..ALPHABET.len())])
                        .collect();
                }
                let kind = &seeds[rng.random_range(0..seeds.len())];
                let mut s = kind[rng.random_range(0..kind.len())].clone();
                for _ in 0..rng.random_range(0..4) {
                    let at = rng.random_range(0..=s.len());
                    let byte = ALPHABET[rng.random_range(0..ALPHABET.len())];
                    match rng.random_range(0..4) {
                        0 if at < s.len() => s[at] = byte,
                        1 => s.insert(at, byte),
                        2 if at < s.len() => {
                            s.remove(at);
                        }
                        _ => s.truncate(at),
                    }
                }
                s
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::inputs::generate;
    use super::*;

    fn run(body: fn(&[u8]), seed: u64, prefix: &[u8]) {
        for input in generate(seed, 3000) {
            let mut data = prefix.to_vec();
            data.extend_from_slice(&input);
            body(&data);
        }
    }

    #[test]
    fn fuzz_body_board_string() {
        run(board_string, 1, b"");
        // Board strings alone: strip the side to move from position strings.
        for input in generate(11, 3000) {
            let cut = input
                .iter()
                .rposition(|&b| b == b' ')
                .unwrap_or(input.len());
            board_string(&input[..cut]);
        }
    }

    #[test]
    fn fuzz_body_position_string() {
        run(position_string, 2, b"");
    }

    #[test]
    fn fuzz_body_university_move() {
        run(university_move, 3, b"");
    }

    #[test]
    fn fuzz_body_algebraic_move() {
        run(algebraic_move, 4, b"");
    }

    #[test]
    fn fuzz_body_resolve_move() {
        for (i, input) in generate(5, 3000).into_iter().enumerate() {
            let mut data = vec![(i * 37) as u8];
            data.extend_from_slice(&input);
            resolve_move(&data);
        }
    }

    #[test]
    fn fuzz_body_moves_line() {
        for (i, input) in generate(6, 3000).into_iter().enumerate() {
            let mut data = vec![(i % 64) as u8];
            data.extend_from_slice(&input);
            moves_line(&data);
        }
    }
}
