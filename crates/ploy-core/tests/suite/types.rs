//! The small value types: squares, directions, flags, piece kinds, pieces, moves
//! (`docs/rules.md` sections 1 to 3).

use ploy_core::{Direction, Flags, Move, MoveIndexError, Piece, PieceKind, Seat, Square};
use std::collections::HashSet;

#[test]
fn square_names_round_trip() {
    let files = "abcdefghi";
    let ranks = "123456789";
    let mut seen = HashSet::new();
    for (r, rank) in ranks.chars().enumerate() {
        for (f, file) in files.chars().enumerate() {
            let name = format!("{file}{rank}");
            let square: Square = name.parse().unwrap();
            assert_eq!(square.to_string(), name);
            assert_eq!((square.file() as usize, square.rank() as usize), (f, r));
            assert_eq!(square, Square::new(f as u8, r as u8));
            assert_eq!(Square::from_ascii(name.as_bytes()), Ok(square));
            assert!(seen.insert(square));
        }
    }
    assert_eq!(seen.len(), 81);
    assert_eq!(Square::ALL.len(), 81);
    assert_eq!("a1".parse::<Square>().unwrap(), Square::A1);
    assert_eq!("e5".parse::<Square>().unwrap(), Square::E5);
    assert_eq!("i9".parse::<Square>().unwrap(), Square::I9);
    // a1 is the lower left corner: one step north is a2, one step east is b1.
    assert_eq!(Square::A1.step(Direction::N), Some(Square::A2));
    assert_eq!(Square::A1.step(Direction::E), Some(Square::B1));
    assert_eq!(Square::A1.step(Direction::S), None);
    assert_eq!(
        Square::I5.step(Direction::E),
        None,
        "no wrap to the next rank"
    );
}

#[test]
fn square_rejects_bad_text() {
    for bad in [
        "", "e", "e44", "j1", "a0", "a10", "E4", " e4", "e4 ", "44", "ee", "`1", "i:", "é4", "\0\0",
    ] {
        assert!(bad.parse::<Square>().is_err(), "{bad:?}");
    }
    assert!(Square::from_index(81).is_none());
    assert!(Square::try_new(9, 0).is_none());
    assert!(Square::try_new(0, 9).is_none());
}

#[test]
fn directions_follow_the_rule_book() {
    // `docs/rules.md` section 2: bit, name, (dfile, drank).
    let table = [
        (Direction::N, "N", (0, 1)),
        (Direction::NE, "NE", (1, 1)),
        (Direction::E, "E", (1, 0)),
        (Direction::SE, "SE", (1, -1)),
        (Direction::S, "S", (0, -1)),
        (Direction::SW, "SW", (-1, -1)),
        (Direction::W, "W", (-1, 0)),
        (Direction::NW, "NW", (-1, 1)),
    ];
    for (bit, (dir, name, delta)) in table.into_iter().enumerate() {
        assert_eq!(dir.index(), bit);
        assert_eq!(dir.name(), name);
        assert_eq!(dir.delta(), delta);
        assert_eq!(Flags::from(dir).bits(), 1 << bit);
        assert_eq!(Direction::ALL[bit], dir);
    }
    assert_eq!(Direction::N.rotate(3), Direction::SE);
    assert_eq!(Direction::NW.rotate(1), Direction::N);
}

#[test]
fn flags_rotate() {
    // The rules' example: a shield pointing N (mask 1) turned by 3 points SE (mask 8).
    assert_eq!(Flags::new(1).rotate(3), Flags::new(8));
    // Bit k goes to bit (k + r) mod 8, for every mask and rotation.
    for mask in 0..=255u8 {
        for r in 0..8u8 {
            let mut expected = 0u8;
            for k in 0..8 {
                if mask & (1 << k) != 0 {
                    expected |= 1 << ((k + r) % 8);
                }
            }
            assert_eq!(Flags::new(mask).rotate(r).bits(), expected, "{mask} by {r}");
            assert_eq!(Flags::new(mask).rotate(r).count(), Flags::new(mask).count());
        }
    }
    assert_eq!(Flags::new(170).rotate(2), Flags::new(170));
    assert_eq!(Flags::new(170).rotate(1), Flags::new(85));
    assert_eq!(Flags::new(17).rotate(4), Flags::new(17));
}

#[test]
fn kinds_and_ranges() {
    for mask in 0..=255u8 {
        let kind = match mask.count_ones() {
            1 => Some((PieceKind::Shield, 1)),
            2 => Some((PieceKind::Probe, 2)),
            3 => Some((PieceKind::Lance, 3)),
            4 => Some((PieceKind::Commander, 1)),
            _ => None,
        };
        assert_eq!(
            Flags::new(mask).kind().map(|k| (k, k.range())),
            kind,
            "mask {mask}"
        );
        let p = Piece::new(Seat::Red, Flags::new(mask));
        assert_eq!(p.is_ok(), kind.is_some(), "mask {mask}");
        if let Ok(p) = p {
            assert_eq!(p.kind(), kind.unwrap().0);
            assert_eq!(p.colour(), Seat::Red);
            assert_eq!(p.flags().bits(), mask);
        }
    }
}

#[test]
fn move_packing_round_trips() {
    let mut seen = HashSet::new();
    for from in Square::ALL {
        for to in Square::ALL {
            for r in 0..8 {
                let mv = Move::new(from, to, r);
                assert_eq!((mv.from(), mv.to(), mv.rotation()), (from, to, r));
                assert_eq!(mv.is_direction_move(), from == to, "{mv:?}");
                let packed = mv.to_u16();
                assert_eq!(Move::from_u16(packed), Some(mv));
                assert_eq!(Move::try_from(packed), Ok(mv));
                assert_eq!(u16::from(mv), packed);
                assert_eq!(format!("{mv:?}"), format!("{from}-{to}-{r}"));
                assert!(seen.insert(packed), "{mv:?} packs like another move");
            }
        }
    }
    assert_eq!(seen.len(), 81 * 81 * 8);
    for v in (81 * 81 * 8)..=u16::MAX {
        assert_eq!(Move::from_u16(v), None, "{v}");
        assert_eq!(Move::try_from(v), Err(MoveIndexError(v)));
    }
    assert_eq!(
        Move::turn(Square::D2, 5),
        Move::new(Square::D2, Square::D2, 5)
    );
    assert_eq!(Move::try_new(Square::D2, Square::D3, 8), None);
    assert_eq!(std::mem::size_of::<Move>(), 2);
}

#[test]
fn rule_presets() {
    // `docs/rules.md` section 6: standard has both draw rules (N = 200), university none; the
    // library's default is standard; both use strict elimination and any rotation.
    let standard = ploy_core::Rules::standard();
    assert!(standard.repetition_draw);
    assert_eq!(standard.no_capture_limit, Some(200));
    let university = ploy_core::Rules::university();
    assert!(!university.repetition_draw);
    assert_eq!(university.no_capture_limit, None);
    assert_eq!(ploy_core::Rules::default(), standard);
    for rules in [standard, university] {
        assert_eq!(rules.elimination, ploy_core::Elimination::Strict);
        assert_eq!(rules.rotation, ploy_core::Rotation::Any);
    }
}

proptest::proptest! {
    /// Any bytes: the square reader never panics and accepts exactly a file letter a..i
    /// followed by a rank digit 1..9.
    #[test]
    fn square_reader_takes_any_bytes(bytes in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..4)) {
        let valid = bytes.len() == 2
            && (b'a'..=b'i').contains(&bytes[0])
            && (b'1'..=b'9').contains(&bytes[1]);
        let parsed = Square::from_ascii(&bytes);
        proptest::prop_assert_eq!(parsed.is_ok(), valid);
        if let Ok(square) = parsed {
            proptest::prop_assert_eq!(square.to_string().into_bytes(), bytes);
        }
    }
}
