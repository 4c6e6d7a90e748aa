//! `serde`: moves and squares travel as their text, positions and games as validated data;
//! random positions and games of every variant round-trip through JSON, and tampered JSON
//! is refused (never an impossible position or game).
#![cfg(feature = "serde")]

use crate::common::{SplitMix, any_position};
use ploy_core::{
    Elimination, Game, Move, Outcome, PartnerElimination, Position, Rotation, Rules, Seat, SeatSet,
    Square, Variant, WinReason,
};
use proptest::prelude::*;
use serde_json::{Value, json};

#[test]
fn moves_and_squares_are_text() {
    let mv = Move::new(Square::C8, Square::C6, 0);
    assert_eq!(serde_json::to_string(&mv).unwrap(), r#""c8-c6-0""#);
    assert_eq!(serde_json::from_str::<Move>(r#""c8-c6-0""#).unwrap(), mv);
    for bad in [
        r#""c8-c6""#,
        r#""C8-C6-0""#,
        r#""c8-c6-8""#,
        "1234",
        r#""""#,
    ] {
        assert!(serde_json::from_str::<Move>(bad).is_err(), "{bad}");
    }
    assert_eq!(serde_json::to_string(&Square::E4).unwrap(), r#""e4""#);
    assert!(serde_json::from_str::<Square>(r#""j1""#).is_err());
    assert!(serde_json::from_str::<Square>("31").is_err());
    let team = SeatSet::only(Seat::Green).with(Seat::Yellow);
    assert_eq!(
        serde_json::to_string(&team).unwrap(),
        r#"["Green","Yellow"]"#
    );
    assert_eq!(
        serde_json::from_str::<SeatSet>(r#"["Yellow","Green"]"#).unwrap(),
        team
    );
    assert!(serde_json::from_str::<SeatSet>("[\"Purple\"]").is_err());
    assert!(serde_json::from_str::<SeatSet>("255").is_err());
}

#[test]
fn the_start_position_as_json() {
    let json = serde_json::to_value(Position::new()).unwrap();
    assert_eq!(json["variant"], "TwoPlayer");
    assert_eq!(json["turn"], "Green");
    assert_eq!(json["in_play"], json!(["Green", "Red"]));
    assert_eq!(
        json["pieces"]["e1"],
        json!({"colour": "Green", "flags": 170})
    );
    assert_eq!(json["pieces"].as_object().unwrap().len(), 30);
    assert_eq!(
        serde_json::from_value::<Position>(json).unwrap(),
        Position::new()
    );
}

/// Random rules with every option.
fn rules_from(bits: u8) -> Rules {
    let mut rules = if bits & 1 == 0 {
        Rules::standard()
    } else {
        Rules::university()
    };
    if bits & 2 != 0 {
        rules = rules.with_elimination(Elimination::Relaxed);
    }
    if bits & 4 != 0 {
        rules = rules.with_rotation(Rotation::SingleStep);
    }
    if bits & 8 != 0 {
        rules = rules.with_partner_elimination(PartnerElimination::PlaysOn);
    }
    if bits & 16 != 0 {
        rules = rules.with_no_capture_limit(Some(12));
    }
    rules
}

/// A random game: `plies` random moves from the start of `variant` (fewer if it ends),
/// preferring captures so that games end and players go out.
fn random_game(variant: Variant, rules: Rules, seed: u64, plies: usize) -> Game {
    let mut rng = SplitMix(seed);
    let mut game = Game::start(variant, rules);
    for _ in 0..plies {
        let moves = game.legal_moves();
        if moves.is_empty() {
            break;
        }
        let pos = game.position();
        let captures: Vec<Move> = (&moves)
            .into_iter()
            .filter(|m| !m.is_direction_move() && pos.board().piece_at(m.to()).is_some())
            .collect();
        let mv = if !captures.is_empty() && rng.below(3) > 0 {
            captures[rng.below(captures.len())]
        } else {
            moves[rng.below(moves.len())]
        };
        game.play(mv).unwrap();
    }
    game
}

fn any_variant() -> impl Strategy<Value = Variant> {
    prop_oneof![
        Just(Variant::TwoPlayer),
        Just(Variant::FreeForAll),
        Just(Variant::Partnership)
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn random_positions_round_trip(pos in any_position()) {
        let json = serde_json::to_string(&pos).unwrap();
        let back: Position = serde_json::from_str(&json).unwrap();
        prop_assert_eq!(&back, &pos);
        prop_assert_eq!(back.hash(), pos.hash());
    }

    #[test]
    fn random_games_round_trip(
        variant in any_variant(),
        bits in 0u8..32,
        seed in any::<u64>(),
        plies in 0usize..160,
        ending in 0u8..3,
    ) {
        let mut game = random_game(variant, rules_from(bits), seed, plies);
        // Perhaps an ending recorded on top of the moves.
        let mover = game.position().mover();
        let _ = match ending {
            1 => game.resign(mover),
            2 => game.agree_draw(),
            _ => Ok(()),
        };
        let json = serde_json::to_string(&game).unwrap();
        let back: Game = serde_json::from_str(&json).unwrap();
        prop_assert_eq!(&back, &game);
        prop_assert_eq!(back.outcome(), game.outcome());
        prop_assert_eq!(back.repetitions(), game.repetitions());
        // Every position of the game round-trips too.
        for pos in game.positions() {
            let back: Position = serde_json::from_str(&serde_json::to_string(pos).unwrap()).unwrap();
            prop_assert_eq!(&back, pos);
        }
    }
}

/// A change to a JSON value, to see it refused.
type Tamper = Box<dyn Fn(&mut Value)>;

fn game_json() -> Value {
    let mut game = Game::new(Rules::standard());
    for mv in ["e3-e4-0", "e9-e9-1"] {
        game.play(mv.parse().unwrap()).unwrap();
    }
    game.resign(Seat::Green).unwrap();
    let json = serde_json::to_value(&game).unwrap();
    assert_eq!(json["moves"], json!(["e3-e4-0", "e9-e9-1"]));
    assert_eq!(
        serde_json::from_value::<Game>(json.clone()).unwrap(),
        game,
        "untouched JSON reads back"
    );
    json
}

#[test]
fn tampered_games_are_refused() {
    let tampered: Vec<(&str, Tamper)> = vec![
        (
            "an illegal move",
            Box::new(|j| j["moves"][1] = json!("e9-e8-0")),
        ),
        ("a packed move", Box::new(|j| j["moves"][0] = json!(1234))),
        (
            "a move after the end",
            Box::new(|j| {
                j["ending"] = Value::Null;
                j["start"]["pieces"].as_object_mut().unwrap().remove("e9");
                j["start"]["pieces"]["e9"] = json!({"colour": "Red", "flags": 1});
            }),
        ),
        (
            "an ending the moves decide",
            Box::new(|j| {
                j["ending"] = json!({"Win": {"winners": ["Red"], "reason": "CommanderCaptured"}});
            }),
        ),
        (
            "a winner who was not the opponent",
            Box::new(|j| {
                j["ending"] = json!({"Win": {"winners": ["Yellow"], "reason": "Resignation"}});
            }),
        ),
        (
            "a draw by rule as an ending",
            Box::new(|j| {
                j["ending"] = json!({"Draw": {"reason": "Repetition"}});
            }),
        ),
        ("an unknown field", Box::new(|j| j["positions"] = json!([]))),
        (
            "no start",
            Box::new(|j| {
                j.as_object_mut().unwrap().remove("start");
            }),
        ),
    ];
    for (what, tamper) in tampered {
        let mut json = game_json();
        tamper(&mut json);
        assert!(
            serde_json::from_value::<Game>(json).is_err(),
            "{what} was accepted"
        );
    }
}

#[test]
fn tampered_positions_are_refused() {
    let tampered: Vec<(&str, Tamper)> = vec![
        (
            "a mask with five flags",
            Box::new(|j| j["pieces"]["e1"]["flags"] = json!(31)),
        ),
        (
            "two commanders",
            Box::new(|j| j["pieces"]["e5"] = json!({"colour": "Green", "flags": 85})),
        ),
        (
            "no commander at all",
            Box::new(|j| {
                let pieces = j["pieces"].as_object_mut().unwrap();
                pieces.remove("e1");
                pieces.remove("e9");
            }),
        ),
        (
            "a yellow piece in a two-player game",
            Box::new(|j| j["pieces"]["e5"] = json!({"colour": "Yellow", "flags": 1})),
        ),
        (
            "a square off the board",
            Box::new(|j| j["pieces"]["j5"] = json!({"colour": "Green", "flags": 1})),
        ),
        (
            "a seat out of play by hand",
            Box::new(|j| j["in_play"] = json!(["Green"])),
        ),
        (
            "a controller by hand",
            Box::new(|j| j["controllers"] = json!(["Red", "Red", "Yellow", "Blue"])),
        ),
        ("Blue to move", Box::new(|j| j["turn"] = json!("Blue"))),
        (
            "an unknown rule",
            Box::new(|j| j["rules"]["gravity"] = json!(true)),
        ),
        ("an unknown field", Box::new(|j| j["hash"] = json!(0))),
    ];
    for (what, tamper) in tampered {
        let mut json = serde_json::to_value(Position::new()).unwrap();
        tamper(&mut json);
        assert!(
            serde_json::from_value::<Position>(json).is_err(),
            "{what} was accepted"
        );
    }
    // A decided position is fine: it has its outcome.
    let mut json = serde_json::to_value(Position::new()).unwrap();
    json["pieces"].as_object_mut().unwrap().remove("e9");
    let pos: Position = serde_json::from_value(json).unwrap();
    assert_eq!(
        pos.outcome(),
        Some(Outcome::win(Seat::Green, WinReason::CommanderCaptured))
    );
}

/// A free-for-all player who resigns with two or more opponents in play leaves and the
/// game goes on: the JSON carries his leaving, and reading it replays it at its ply.
#[test]
fn free_for_all_withdrawals_round_trip() {
    let mut rng = SplitMix(0x5eed);
    let mut game = Game::start(Variant::FreeForAll, Rules::standard());
    for ply in 0..12 {
        if ply == 3 {
            let seat = game.position().turn();
            game.resign(seat).unwrap();
            assert_eq!(game.outcome(), None, "three opponents: the game goes on");
        }
        let moves = game.position().legal_moves();
        let mv = moves[(rng.next_u64() % moves.len() as u64) as usize];
        game.play(mv).unwrap();
    }
    assert_eq!(game.withdrawals().len(), 1);
    let json = serde_json::to_value(&game).unwrap();
    assert_eq!(json["withdrawals"][0]["ply"], 3);
    let back: Game = serde_json::from_value(json.clone()).unwrap();
    assert_eq!(back.position(), game.position());
    assert_eq!(back.moves(), game.moves());
    assert_eq!(
        back.withdrawals().collect::<Vec<_>>(),
        game.withdrawals().collect::<Vec<_>>()
    );
    // Without its withdrawal, the moves after it are no longer the same game's.
    let mut tampered = json.clone();
    tampered["withdrawals"] = json!([]);
    assert!(serde_json::from_value::<Game>(tampered).is_err());
    let mut late = json;
    late["withdrawals"][0]["ply"] = json!(999);
    assert!(serde_json::from_value::<Game>(late).is_err());
}

/// A partnership game won by strict elimination with the bare commander removed: the losing
/// side's commanders left the board with it, so the board alone would say "commander
/// captured". The position's JSON carries why it was won (a seed the property test found).
#[test]
fn a_win_by_only_commanders_keeps_its_reason() {
    let game = random_game(
        Variant::Partnership,
        rules_from(12),
        10_087_709_021_247_745_916,
        91,
    );
    let pos = game.position();
    let Some(Outcome::Win { reason, .. }) = pos.outcome() else {
        panic!("the game is won: {:?}", pos.outcome())
    };
    assert_eq!(reason, WinReason::OnlyCommanders);
    let json = serde_json::to_value(pos).unwrap();
    assert_eq!(json["won_by"], json!("OnlyCommanders"));
    let back: Position = serde_json::from_value(json.clone()).unwrap();
    assert_eq!(&back, pos);
    // A reason that does not fit is refused.
    let mut wrong = json;
    wrong["won_by"] = json!("Resignation");
    assert!(serde_json::from_value::<Position>(wrong).is_err());
}
