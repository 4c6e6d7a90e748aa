//! What no game can reach is rejected, and canonical formats are strict where they say so.

use ploy_core::Rules;
use ploy_notation::{PositionString, ReadPositionError, read_position};

#[test]
fn two_spaces_before_the_side_to_move_are_rejected() {
    let start = PositionString::start().to_string();
    assert!(read_position(&start, Rules::university()).is_ok());
    let two_spaces = start.replace(" b", "  b");
    let err = read_position(&two_spaces, Rules::university()).expect_err(&two_spaces);
    assert!(matches!(err, ReadPositionError::Malformed(_)), "{err}");
}

#[test]
fn four_player_fields_are_separated_by_single_spaces() {
    let ffa = PositionString::start_of(ploy_core::Variant::FreeForAll).to_string();
    assert!(read_position(&ffa, Rules::university()).is_ok());
    for bad in [
        ffa.replacen("ffa ", "ffa  ", 1),
        ffa.replacen(" g gryb", "  g gryb", 1),
    ] {
        let err = read_position(&bad, Rules::university()).expect_err(&bad);
        assert!(matches!(err, ReadPositionError::Malformed(_)), "{err}");
    }
}

#[test]
fn a_two_player_board_without_commanders_is_rejected() {
    // Shields only: the game would have ended at the first commander capture.
    let text =
        ",,,,,,,,/,,,,,,,,/,,,,w16,,,,/,,,,,,,,/,,,,,,,,/,,,,,,,,/,,,,b1,,,,/,,,,,,,,/,,,,,,,, b";
    for rules in [Rules::university(), Rules::standard()] {
        let err = read_position(text, rules).expect_err("no commander on the board");
        assert!(matches!(err, ReadPositionError::Invalid(_)), "{err}");
    }
}
