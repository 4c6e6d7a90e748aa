//! The bodies of the cargo-fuzz targets in `fuzz/` (feature `fuzzing`; not a stable API).
//!
//! Each function takes arbitrary bytes (read as UTF-8, invalid sequences replaced), must
//! never panic on them, and asserts the readers' properties: a text that reads gives a game
//! that writes in both formats and reads back as the same game; an error points at a line
//! and column inside the text. The crate's own tests run every body over a few thousand
//! generated inputs (valid sheets and records of random games, then damaged), so that CI
//! exercises them on stable Rust.

use crate::{Format, ReadError, SavedGame, WriteError};

/// Score sheets: [`crate::read_sheet`].
pub fn read_sheet(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    check(&text, crate::read_sheet(&text));
}

/// Game records: [`crate::read_record`].
pub fn read_record(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    check(&text, crate::read_record(&text));
}

/// Either format, told apart by [`crate::detect`].
pub fn read_any(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    check(&text, crate::read(&text).map(|(_, saved)| saved));
}

fn check(text: &str, read: Result<SavedGame, ReadError>) {
    match read {
        Ok(saved) => round_trip(&saved),
        Err(e) => {
            let lines = text.split('\n').count();
            assert!(
                e.line >= 1 && e.line <= lines + 1,
                "line {} of {lines}",
                e.line
            );
            assert!(e.column >= 1, "column {}", e.column);
            if e.line <= lines {
                let line = text.split('\n').nth(e.line - 1).unwrap_or("");
                assert!(
                    e.column <= line.chars().count() + 2,
                    "column {} of {:?}",
                    e.column,
                    line
                );
            }
            // Quotes are bounded excerpts: a message stays short whatever the input.
            let message = e.to_string();
            assert!(message.len() < 600, "{message}");
        }
    }
}

/// A game that was read writes in both formats, and each reads back as the same game.
pub fn round_trip(saved: &SavedGame) {
    match saved.to_sheet() {
        Ok(sheet) => {
            let again = crate::read_sheet(&sheet)
                .unwrap_or_else(|e| panic!("written sheet reads: {e}\n{sheet}"));
            assert_eq!(&again, saved, "sheet round trip:\n{sheet}");
            assert_eq!(crate::detect(&sheet), Format::Sheet);
        }
        Err(e) => assert!(matches!(e, WriteError::Text { .. }), "{e}"),
    }
    match saved.to_record() {
        Ok(record) => {
            let text = record.to_string();
            let again = crate::read_record(&text)
                .unwrap_or_else(|e| panic!("written record reads: {e}\n{text}"));
            assert_eq!(&again, saved, "record round trip:\n{text}");
            assert_eq!(crate::detect(&text), Format::Record);
            assert_eq!(record.replay().as_ref(), Ok(saved));
        }
        Err(e) => assert!(matches!(e, WriteError::Text { .. }), "{e}"),
    }
}

/// Generated inputs for the bodies: sheets and records of random games, damaged line by
/// line and byte by byte.
#[cfg(test)]
pub(crate) mod inputs {
    use ploy_core::{
        BareCommander, Elimination, Game, Move, PartnerElimination, Position, Rotation, Rules,
        Seat, Variant,
    };
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    use crate::SavedGame;

    /// Random rule options.
    pub(crate) fn rules(rng: &mut StdRng) -> Rules {
        let mut r = if rng.random_bool(0.5) {
            Rules::standard()
        } else {
            Rules::university()
        };
        if rng.random_bool(0.3) {
            r.elimination = Elimination::Relaxed;
        }
        if rng.random_bool(0.3) {
            r.rotation = Rotation::SingleStep;
        }
        if rng.random_bool(0.3) {
            r.repetition_draw = !r.repetition_draw;
        }
        if rng.random_bool(0.3) {
            r.no_capture_limit = Some(rng.random_range(1..40));
        }
        if rng.random_bool(0.4) {
            r.partner_elimination = PartnerElimination::PlaysOn;
        }
        if rng.random_bool(0.4) {
            r.bare_commander = BareCommander::Removed;
        }
        r
    }

    /// A random game of any variant: random rules, captures preferred so that games end,
    /// sometimes a start from the middle of a game, sometimes a recorded ending.
    pub(crate) fn game(rng: &mut StdRng) -> Game {
        let variant = [
            Variant::TwoPlayer,
            Variant::FreeForAll,
            Variant::Partnership,
        ][rng.random_range(0..3)];
        let rules = rules(rng);
        let mut start = Position::start(variant, rules);
        if rng.random_bool(0.2) {
            for _ in 0..rng.random_range(1..30) {
                let moves = start.legal_moves();
                if moves.is_empty() {
                    break;
                }
                start.make_move(moves[rng.random_range(0..moves.len())]);
            }
            start = start.with_rules(rules).expect("valid");
        }
        let mut game = Game::from_position(start);
        let plies = rng.random_range(0..250);
        let greed = rng.random_range(0.0..1.0);
        for _ in 0..plies {
            let moves = game.legal_moves();
            if moves.is_empty() {
                break;
            }
            let pos = game.position();
            let captures: Vec<Move> = moves
                .iter()
                .copied()
                .filter(|m| !m.is_direction_move() && pos.board().piece_at(m.to()).is_some())
                .collect();
            let mv = if !captures.is_empty() && rng.random_bool(greed) {
                captures[rng.random_range(0..captures.len())]
            } else {
                moves[rng.random_range(0..moves.len())]
            };
            game.play(mv).expect("legal");
        }
        if game.outcome().is_none() && rng.random_bool(0.3) {
            let seat = Seat::ALL[rng.random_range(0..4)];
            let _ = match rng.random_range(0..3) {
                0 => game.resign(seat),
                1 => game.forfeit_on_time(seat),
                _ => game.agree_draw(),
            };
        }
        game
    }

    /// A random game with a random header.
    pub(crate) fn saved(rng: &mut StdRng) -> SavedGame {
        let game = game(rng);
        let mut saved = SavedGame::new(game);
        let names = ["Alice", "Bob", "Carol Ann", "Dörte", "x: y", "#1"];
        for seat in saved.game.position().variant().seats().iter() {
            if rng.random_bool(0.7) {
                let name = names[rng.random_range(0..names.len())].to_owned();
                saved.header.players.set(seat, Some(name));
            }
        }
        if rng.random_bool(0.5) {
            saved.header.event = Some("Club night, round 3".into());
        }
        if rng.random_bool(0.5) {
            saved.header.date = Some("2026-11-22".into());
        }
        if rng.random_bool(0.3) {
            saved.header.time_control = Some("40 moves in 2 hours".into());
        }
        saved
    }

    const ALPHABET: &[u8] = b"abcdefghijx0123456789-+#: \t\r\n,/.Rrw\xc3\xa9";

    /// `n` inputs: sheets (`sheets`) or records of random games, damaged.
    pub(crate) fn generate(seed: u64, n: usize, sheets: bool) -> Vec<Vec<u8>> {
        let mut rng = StdRng::seed_from_u64(seed);
        let texts: Vec<String> = (0..60)
            .map(|_| {
                let saved = saved(&mut rng);
                if sheets {
                    saved.to_sheet().expect("writable")
                } else {
                    saved.to_record().expect("writable").to_string()
                }
            })
            .collect();
        (0..n)
            .map(|_| {
                let text = &texts[rng.random_range(0..texts.len())];
                let mut lines: Vec<String> = text.split('\n').map(str::to_owned).collect();
                for _ in 0..rng.random_range(0..3) {
                    let i = rng.random_range(0..lines.len());
                    let j = rng.random_range(0..lines.len());
                    match rng.random_range(0..7) {
                        0 => {
                            lines.remove(i);
                        }
                        1 => {
                            let l = lines[i].clone();
                            lines.insert(j, l);
                        }
                        2 => lines.swap(i, j),
                        3 => lines.insert(i, String::new()),
                        4 => lines[i].push('\r'),
                        5 => lines[i].push('\t'),
                        _ => lines.truncate(i.max(1)),
                    }
                }
                let mut bytes = lines.join("\n").into_bytes();
                for _ in 0..rng.random_range(0..3) {
                    let at = rng.random_range(0..=bytes.len());
                    let byte = ALPHABET[rng.random_range(0..ALPHABET.len())];
                    match rng.random_range(0..3) {
                        0 if at < bytes.len() => bytes[at] = byte,
                        1 => bytes.insert(at, byte),
                        _ if at < bytes.len() => {
                            bytes.remove(at);
                        }
                        _ => {}
                    }
                }
                bytes
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::inputs::generate;
    use super::*;

    #[test]
    fn fuzz_body_read_sheet() {
        for input in generate(1, 3000, true) {
            read_sheet(&input);
        }
    }

    #[test]
    fn fuzz_body_read_record() {
        for input in generate(2, 3000, false) {
            read_record(&input);
        }
    }

    #[test]
    fn fuzz_body_read_any() {
        for (i, input) in generate(3, 1000, true)
            .into_iter()
            .chain(generate(4, 1000, false))
            .enumerate()
        {
            read_any(&input);
            if i % 7 == 0 {
                read_any(&input[..input.len() / 2]);
            }
        }
    }
}
