//! The bodies of the cargo-fuzz targets in `fuzz/` (feature `fuzzing`; not a stable API).
//!
//! Each function takes arbitrary bytes, must never panic on them, and asserts the
//! properties of one parser: text that parses writes canonical text that parses back to the
//! same value; what is read can be used (moves checked and played, positions searched for
//! moves, records replayed) without a panic. The crate's own tests run every body over a
//! few thousand generated inputs, so that CI exercises them on stable Rust.

use crate::geometry::{MAX_SIZE, MIN_SIZE};
use crate::json_lines::moves_line as protocol_moves_line;
use crate::{Cell, Game, Move, Options, Position, Record, RuleSet};

/// The options a byte selects: size 2 to 7, 2 to 4 players, a rule set.
fn options_of(byte: u8) -> Options {
    let size = 2 + byte % 6;
    let players = 2 + (byte / 6) % 3;
    let rules = RuleSet::ALL[usize::from(byte / 18) % 3];
    Options::new(size, players, rules).expect("in range")
}

/// Move text: a move that parses writes itself in lower case and reads back the same; on
/// every board size it is checked without a panic.
pub fn move_text(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    match text.parse::<Move>() {
        Ok(mv) => {
            let canonical = mv.to_string();
            assert_eq!(canonical, canonical.to_ascii_lowercase());
            assert_eq!(canonical.parse::<Move>().ok(), Some(mv));
            assert_eq!(Move::from_code(mv.code()), Some(mv));
            if let Move::Place(cell) = mv {
                assert_eq!(cell.to_string().parse::<Cell>().ok(), Some(cell));
                for size in [MIN_SIZE, 6, MAX_SIZE] {
                    let pos = Position::new(Options::new(size, 2, RuleSet::Default).unwrap());
                    let legal = pos.check(mv).is_ok();
                    assert_eq!(legal, pos.legal_moves().contains(&mv));
                }
            }
        }
        Err(e) => assert!(!e.to_string().is_empty()),
    }
}

/// Position strings: what parses writes the same string back, reads as the same position
/// (hash and status included), and each of its legal moves plays and unmakes exactly.
pub fn position_string(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    match text.parse::<Position>() {
        Ok(pos) => {
            let canonical = pos.to_string();
            let again: Position = canonical.parse().expect("canonical text parses");
            assert_eq!(again, pos);
            assert_eq!(again.hash(), pos.hash());
            assert_eq!(again.status(), pos.status());
            assert_eq!(again.to_string(), canonical);
            let mut probe = pos.clone();
            for mv in pos.legal_moves() {
                let undo = probe.play(mv).expect("a legal move plays");
                assert_eq!(probe.hash(), probe.compute_hash());
                probe.unmake(undo);
                assert_eq!(probe, pos);
                assert_eq!(probe.hash(), pos.hash());
            }
        }
        Err(e) => assert!(!e.to_string().is_empty()),
    }
}

/// Game records: what parses writes canonical text that parses back the same; a record
/// that replays gives a game whose record (with the same result) is the same.
pub fn record(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    match text.parse::<Record>() {
        Ok(record) => {
            let canonical = record.to_string();
            let again: Record = canonical.parse().expect("canonical text parses");
            assert_eq!(again, record);
            if let Ok(game) = record.replay() {
                let mut rewritten = game.record();
                rewritten.result = record.result;
                assert_eq!(rewritten, record);
            }
        }
        Err(e) => assert!(!e.to_string().is_empty()),
    }
}

/// The `moves` protocol: byte 0 selects the options, the rest is one input line. The
/// answer is one line, a JSON object: the error object exactly when the move list does not
/// read or play, the legal moves of the game otherwise.
pub fn moves_line(data: &[u8]) {
    let Some((&first, line)) = data.split_first() else {
        return;
    };
    let options = options_of(first);
    let answer = protocol_moves_line(line, options);
    assert!(!answer.contains('\n'));
    assert!(answer.starts_with('{') && answer.ends_with('}'));
    match Game::from_moves(options, &String::from_utf8_lossy(line)) {
        Ok(game) => {
            assert!(answer.starts_with("{\"legal\": ["), "{answer}");
            assert_eq!(answer, crate::json_lines::moves_json(&game));
        }
        Err(_) => assert!(answer.starts_with("{\"error\": \""), "{answer}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mix(mut z: u64) -> u64 {
        z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Inputs: each seed as is, then mutated (bytes replaced, inserted, deleted, cut),
    /// and random bytes from an alphabet that reaches the parsers' branches.
    fn inputs(seeds: &[&str], alphabet: &[u8], count: usize) -> Vec<Vec<u8>> {
        let mut out: Vec<Vec<u8>> = seeds.iter().map(|s| s.as_bytes().to_vec()).collect();
        let mut z = 17;
        while out.len() < count {
            z = mix(z);
            let mut v = if z % 4 == 0 || seeds.is_empty() {
                let len = (z >> 8) as usize % 24;
                (0..len)
                    .map(|i| alphabet[(mix(z + i as u64) % alphabet.len() as u64) as usize])
                    .collect()
            } else {
                seeds[(z >> 8) as usize % seeds.len()].as_bytes().to_vec()
            };
            for k in 0..1 + (z >> 16) % 3 {
                let r = mix(z ^ k);
                if v.is_empty() {
                    v.push(alphabet[(r % alphabet.len() as u64) as usize]);
                    continue;
                }
                let at = (r >> 8) as usize % v.len();
                match r % 4 {
                    0 => v[at] = alphabet[((r >> 20) % alphabet.len() as u64) as usize],
                    1 => v.insert(at, alphabet[((r >> 20) % alphabet.len() as u64) as usize]),
                    2 => {
                        v.remove(at);
                    }
                    _ => v.truncate(at),
                }
            }
            out.push(v);
        }
        out
    }

    const TEXT: &[u8] = b"abcdeyzAK0123456789 \n\t./:xo+*-_=swappassresultovercappeddrawpyloff\xff";

    #[test]
    fn move_text_inputs() {
        for data in inputs(
            &["a1", "K11", "swap", "PASS", "y25", "z1", "a2", "c03"],
            TEXT,
            3000,
        ) {
            move_text(&data);
        }
    }

    /// Games of random legal moves on assorted options.
    fn random_games(count: usize) -> Vec<Game> {
        let mut z = 99;
        (0..count)
            .map(|n| {
                let mut game = Game::new(options_of((n * 7 % 256) as u8));
                z = mix(z);
                for _ in 0..z % 60 {
                    let moves = game.position().legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    z = mix(z);
                    game.play(moves[(z % moves.len() as u64) as usize]).unwrap();
                }
                game
            })
            .collect()
    }

    #[test]
    fn position_string_inputs() {
        let texts: Vec<String> = random_games(200)
            .iter()
            .map(|g| g.position().to_string())
            .collect();
        let seeds: Vec<&str> = texts.iter().map(String::as_str).collect();
        let mut parsed = 0;
        for data in inputs(&seeds, b".xo+*.xo+*.. 0123456789:/", 1500) {
            position_string(&data);
            parsed += usize::from(String::from_utf8_lossy(&data).parse::<Position>().is_ok());
        }
        assert!(parsed >= 200, "only {parsed} inputs parse");
        for data in inputs(&[], TEXT, 500) {
            position_string(&data);
        }
    }

    #[test]
    fn record_inputs() {
        let texts: Vec<String> = random_games(100)
            .iter()
            .map(|g| g.record().to_string())
            .collect();
        let mut seeds: Vec<&str> = texts.iter().map(String::as_str).collect();
        seeds.push("pyloff size=3 players=3 rules=default\n1 a1\n2 c3\n3 e5\nresult ongoing\n");
        seeds.push("pyloff size=2 players=2 rules=all_freedoms\n1 a1\nresult capped 1\n");
        let mut replayed = 0;
        for data in inputs(&seeds, b"0123 acegiswapps\n", 1500) {
            record(&data);
            replayed += usize::from(
                String::from_utf8_lossy(&data)
                    .parse::<Record>()
                    .is_ok_and(|r| r.replay().is_ok()),
            );
        }
        assert!(replayed > 100, "only {replayed} inputs replay");
        for data in inputs(&[], TEXT, 500) {
            record(&data);
        }
    }

    #[test]
    fn moves_line_inputs() {
        let seeds = [
            "\x00",
            "\x05a1 c3",
            "\x10c3 swap e5",
            "\x2ea1 a1",
            "\x01a1 b2 pass",
        ];
        for data in inputs(&seeds, TEXT, 1500) {
            moves_line(&data);
        }
    }
}
