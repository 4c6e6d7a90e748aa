//! Serde (feature `serde`): the value types as their text, records and settings as
//! structures, round trips through JSON.
#![cfg(feature = "serde")]

use pente::{
    Color, Game, Level, Move, Outcome, Point, Position, Record, Rules, Size, Strength, WinReason,
};
use serde_json::json;

#[test]
fn values_as_text() {
    let m: Move = "K10".parse().unwrap();
    assert_eq!(serde_json::to_value(m).unwrap(), json!("K10"));
    assert_eq!(
        serde_json::from_value::<Point>(json!("k10")).unwrap(),
        m.point()
    );
    assert!(serde_json::from_value::<Point>(json!("I5")).is_err());
    assert_eq!(serde_json::to_value(Color::Black).unwrap(), json!("black"));
    assert_eq!(serde_json::to_value(Size::S13).unwrap(), json!(13));
    assert!(serde_json::from_value::<Size>(json!(12)).is_err());
    let pos = Position::from_moves(Rules::new(Size::S9), &["E5".parse().unwrap()]).unwrap();
    let text = serde_json::to_value(&pos).unwrap();
    assert_eq!(text, json!("9/9/9/9/4w4/9/9/9/9 b 0 0 t"));
    assert_eq!(serde_json::from_value::<Position>(text).unwrap(), pos);
    let o = Outcome::Win {
        winner: Color::White,
        reason: WinReason::FiveAndCaptures,
    };
    let v = serde_json::to_value(o).unwrap();
    assert_eq!(serde_json::from_value::<Outcome>(v).unwrap(), o);
}

#[test]
fn records_and_strengths_round_trip() {
    let moves: Vec<Move> = ["E5", "F6", "B3"]
        .iter()
        .map(|s| s.parse().unwrap())
        .collect();
    let game = Game::from_moves(Rules::new(Size::S9).without_tournament_rule(), &moves).unwrap();
    let record = Record::from_game(&game, "Ann", "");
    let v = serde_json::to_value(&record).unwrap();
    assert_eq!(v["moves"], json!(["E5", "F6", "B3"]));
    assert_eq!(v["rules"], json!({"size": 9, "tournament_rule": false}));
    assert_eq!(serde_json::from_value::<Record>(v).unwrap(), record);
    let s = Strength::Level(Level::new(3).unwrap());
    let v = serde_json::to_value(&s).unwrap();
    assert_eq!(serde_json::from_value::<Strength>(v).unwrap(), s);
}
