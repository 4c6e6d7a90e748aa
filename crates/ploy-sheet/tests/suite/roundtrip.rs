//! Property tests: random complete and unfinished games of every variant and many rule
//! options go to a sheet or record and back, and replaying them gives the same game.

use crate::common::{VARIANTS, pick, saved};
use ploy_core::Game;
use ploy_sheet::{Format, SavedGame, read, read_record, read_sheet};
use proptest::prelude::*;
use rand::SeedableRng;
use rand::rngs::StdRng;

/// The game that was read is the game that was written, and goes on the same way.
fn same_game(back: &SavedGame, saved: &SavedGame, seed: u64) -> Result<(), TestCaseError> {
    let (a, b) = (&back.game, &saved.game);
    prop_assert_eq!(a.position(), b.position());
    prop_assert_eq!(a.positions(), b.positions());
    prop_assert_eq!(a.moves(), b.moves());
    prop_assert_eq!(a.outcome(), b.outcome());
    prop_assert_eq!(a.plies_since_capture(), b.plies_since_capture());
    prop_assert_eq!(a.repetitions(), b.repetitions());
    prop_assert_eq!(&back.header, &saved.header);
    prop_assert_eq!(back, saved);
    // Replaying the moves (and free-for-all players' leavings) from the start through
    // ploy-core gives the same final state.
    prop_assert_eq!(
        a.withdrawals().collect::<Vec<_>>(),
        b.withdrawals().collect::<Vec<_>>()
    );
    let mut replayed = Game::from_position(b.start_position().clone());
    let mut left = b.withdrawals().peekable();
    for (i, &mv) in b.moves().iter().enumerate() {
        while let Some(w) = left.next_if(|w| w.ply <= i) {
            replayed.resign(w.seat).expect("can leave");
        }
        replayed.play(mv).expect("legal");
    }
    for w in left {
        replayed.resign(w.seat).expect("can leave");
    }
    prop_assert_eq!(replayed.position(), a.position());
    // Both go on alike: the draw rules see the same history.
    let (mut a, mut b) = (a.clone(), b.clone());
    let mut rng = StdRng::seed_from_u64(seed);
    for _ in 0..12 {
        let Some(mv) = pick(&a, &mut rng, 0.3) else {
            break;
        };
        a.play(mv).expect("legal in the game read back");
        b.play(mv).expect("legal in the original");
        prop_assert_eq!(a.outcome(), b.outcome());
        prop_assert_eq!(a.repetitions(), b.repetitions());
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 120, ..ProptestConfig::default() })]

    #[test]
    fn sheet_round_trip(seed: u64, v in 0..3usize, plies in 0..300usize) {
        let saved = saved(seed, VARIANTS[v], plies);
        let text = saved.to_sheet().expect("writable");
        let back = read_sheet(&text).map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
        same_game(&back, &saved, seed)?;
        prop_assert_eq!(back.to_sheet().expect("writable"), text);
    }

    #[test]
    fn record_round_trip(seed: u64, v in 0..3usize, plies in 0..300usize) {
        let saved = saved(seed, VARIANTS[v], plies);
        let record = saved.to_record().expect("writable");
        let text = record.to_string();
        let back = read_record(&text).map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
        same_game(&back, &saved, seed)?;
        prop_assert_eq!(&back.to_record().expect("writable"), &record);
        prop_assert_eq!(record.replay().expect("replays"), saved);
    }

    #[test]
    fn sheet_to_record_and_back(seed: u64, v in 0..3usize, plies in 0..300usize) {
        let saved = saved(seed, VARIANTS[v], plies);
        let sheet = saved.to_sheet().expect("writable");
        let (format, from_sheet) = read(&sheet).expect("reads");
        prop_assert_eq!(format, Format::Sheet);
        let record = from_sheet.to_record().expect("writable").to_string();
        let (format, from_record) = read(&record).expect("reads");
        prop_assert_eq!(format, Format::Record);
        prop_assert_eq!(from_record.to_sheet().expect("writable"), sheet);
    }

    /// Windows line ends, blank lines and trailing tabs change nothing.
    #[test]
    fn damaged_line_ends(seed: u64, v in 0..3usize, plies in 0..200usize) {
        let saved = saved(seed, VARIANTS[v], plies);
        let sheet = saved.to_sheet().expect("writable");
        let damaged: String = sheet
            .lines()
            .enumerate()
            .map(|(i, l)| match i % 3 {
                0 => format!("{l}\t\t\r\n\r\n"),
                1 => format!("{l}\r\n\t\n"),
                _ => format!("  {l} \n"),
            })
            .collect();
        prop_assert_eq!(read_sheet(&damaged).expect("reads"), saved.clone());
        let record = saved.to_record().expect("writable").to_string().replace('\n', "\r\n\r\n");
        prop_assert_eq!(read_record(&record).expect("reads"), saved);
    }
}

#[cfg(feature = "serde")]
proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn record_serde_round_trip(seed: u64, v in 0..3usize, plies in 0..300usize) {
        let saved = saved(seed, VARIANTS[v], plies);
        let record = saved.to_record().expect("writable");
        let json = serde_json::to_string(&record).expect("serializes");
        let back: ploy_sheet::Record = serde_json::from_str(&json).expect("deserializes");
        prop_assert_eq!(&back, &record);
        prop_assert_eq!(back.replay().expect("replays"), saved);
    }

    #[test]
    fn saved_game_serde_round_trip(seed: u64, v in 0..3usize, plies in 0..300usize) {
        let saved = saved(seed, VARIANTS[v], plies);
        let json = serde_json::to_string(&saved).expect("serializes");
        let back: SavedGame = serde_json::from_str(&json).expect("deserializes");
        prop_assert_eq!(&back, &saved);
        prop_assert_eq!(back.game.outcome(), saved.game.outcome());
        // Moves travel as their text.
        if let Some(&first) = saved.game.moves().first() {
            let quoted = format!("\"{first}\"");
            prop_assert!(json.contains(&quoted), "{}", json);
        }
    }
}

#[cfg(feature = "serde")]
#[test]
fn tampered_saved_games_are_refused() {
    let mut game = Game::new(ploy_core::Rules::standard());
    game.play("e3-e4-0".parse().unwrap()).unwrap();
    let mut saved = SavedGame::new(game);
    saved.header.event = Some("Club night".into());
    let json = serde_json::to_string(&saved).unwrap();
    assert!(json.contains(r#""moves":["e3-e4-0"]"#), "{json}");
    assert_eq!(serde_json::from_str::<SavedGame>(&json).unwrap(), saved);
    for tampered in [
        json.replace("e3-e4-0", "e3-e5-0"),
        json.replace(r#""moves":["e3-e4-0"]"#, r#""moves":[1234]"#),
        json.replace(r#""flags":170"#, r#""flags":255"#),
        json.replace(r#""event""#, r#""venue""#),
        json.replace(r#"{"header""#, r#"{"extra":1,"header""#),
    ] {
        assert_ne!(tampered, json);
        assert!(
            serde_json::from_str::<SavedGame>(&tampered).is_err(),
            "accepted: {tampered}"
        );
    }
}
