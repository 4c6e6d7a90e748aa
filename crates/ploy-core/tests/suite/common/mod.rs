//! Helpers shared by the integration tests: the reference generator, a minimal reader for
//! the university board string (`docs/notation.md` section 4), position builders and proptest
//! strategies for random valid positions.
#![allow(dead_code)]

pub mod reference;

use ploy_core::{
    Bitboard, Board, Direction, Elimination, Flags, Move, Piece, PieceKind, Position, Rotation,
    Rules, Seat, Setup, Square,
};
use proptest::prelude::*;

/// The two-player start position as a board string, as `docs/rules.md` section 5 gives it.
pub const START_BOARD: &str = ",w84,w41,w56,w170,w56,w41,w84,/,,w24,w40,w17,w40,w48,,/,,,w16,w16,w16,,,/,,,,,,,,/,,,,,,,,/,,,,,,,,/,,,b1,b1,b1,,,/,,b3,b130,b17,b130,b129,,/,b69,b146,b131,b170,b131,b146,b69,";

/// Reads a board string (ranks 9 down to 1 separated by `/`, squares `a`..`i` by `,`, a
/// square empty or `b`/`w` and a mask). Panics on malformed input: test data only.
pub fn parse_board(text: &str) -> Board {
    let ranks: Vec<&str> = text.trim().split('/').collect();
    assert_eq!(ranks.len(), 9, "a board string has 9 ranks");
    let mut board = Board::empty();
    for (i, rank_text) in ranks.iter().enumerate() {
        let rank = 8 - i as u8;
        let fields: Vec<&str> = rank_text.split(',').collect();
        assert_eq!(fields.len(), 9, "rank {} has 9 squares", rank + 1);
        for (file, field) in fields.iter().enumerate() {
            let field = field.trim();
            if field.is_empty() {
                continue;
            }
            let colour = match &field[..1] {
                "b" => Seat::BLACK,
                "w" => Seat::WHITE,
                c => panic!("bad colour {c}"),
            };
            let mask: u8 = field[1..].parse().expect("a mask");
            let piece = Piece::new(colour, Flags::new(mask)).expect("a piece mask");
            board.put(Square::new(file as u8, rank), piece);
        }
    }
    board
}

/// Reads a four-player position string (`ffa <board> <turn> <controllers> <out>` or
/// `partnership ...`, the format of `ploy_notation::four_player`): colours `g r y b`, the
/// seat to move, the controller of each colour in turn order, the seats out of play or `-`.
/// Panics on malformed input: test data only.
pub fn parse_four_player(text: &str) -> Setup {
    let seat = |c: char| match c {
        'g' => Seat::Green,
        'r' => Seat::Red,
        'y' => Seat::Yellow,
        'b' => Seat::Blue,
        _ => panic!("bad seat letter {c}"),
    };
    let fields: Vec<&str> = text.split(' ').collect();
    let [variant, board_text, turn, controllers, out] = fields[..] else {
        panic!("expected 5 fields: {text}");
    };
    let variant = match variant {
        "ffa" => ploy_core::Variant::FreeForAll,
        "partnership" => ploy_core::Variant::Partnership,
        v => panic!("bad variant {v}"),
    };
    let mut board = Board::empty();
    for (i, rank_text) in board_text.split('/').enumerate() {
        let rank = 8 - i as u8;
        for (file, field) in rank_text.split(',').enumerate() {
            if field.is_empty() {
                continue;
            }
            let colour = seat(field.chars().next().unwrap());
            let mask: u8 = field[1..].parse().expect("a mask");
            board.put(Square::new(file as u8, rank), piece(colour, mask));
        }
    }
    let mut controllers_out = [Seat::Green; 4];
    for (i, c) in controllers.chars().enumerate() {
        controllers_out[i] = seat(c);
    }
    let mut in_play = ploy_core::SeatSet::ALL;
    if out != "-" {
        for c in out.chars() {
            in_play = in_play.without(seat(c));
        }
    }
    Setup {
        board,
        variant,
        turn: seat(turn.chars().next().unwrap()),
        controllers: controllers_out,
        in_play,
    }
}

/// The documented order of a generated move list: by start square (index order), then
/// motion moves before direction moves, then by end square, then by rotation.
pub fn generation_order(mv: &Move) -> (usize, bool, usize, u8) {
    (
        mv.from().index(),
        mv.is_direction_move(),
        mv.to().index(),
        mv.rotation(),
    )
}

/// Checks the board's derived square sets (per colour, kind and flag direction, occupied)
/// against its squares, read one at a time through `piece_at`.
pub fn check_board_sets(board: &Board) {
    let mut occupied = Bitboard::EMPTY;
    let mut colour = [Bitboard::EMPTY; 4];
    let mut kind = [Bitboard::EMPTY; 4];
    let mut flag = [Bitboard::EMPTY; 8];
    for sq in Square::ALL {
        if let Some(p) = board.piece_at(sq) {
            occupied.insert(sq);
            colour[p.colour().index()].insert(sq);
            kind[p.kind().index()].insert(sq);
            for d in Direction::ALL {
                if (p.flags().bits() >> d.index()) & 1 == 1 {
                    flag[d.index()].insert(sq);
                }
            }
        }
    }
    assert_eq!(board.occupied(), occupied, "occupied of {board:?}");
    for s in Seat::ALL {
        assert_eq!(board.by_colour(s), colour[s.index()], "{s} in {board:?}");
    }
    for k in PieceKind::ALL {
        assert_eq!(board.by_kind(k), kind[k.index()], "{k}s in {board:?}");
    }
    for d in Direction::ALL {
        assert_eq!(
            board.with_flag(d),
            flag[d.index()],
            "flags {d} in {board:?}"
        );
    }
}

/// A square from its name.
pub fn sq(name: &str) -> Square {
    name.parse().expect("a square name")
}

/// A piece of `colour` with `mask`.
pub fn piece(colour: Seat, mask: u8) -> Piece {
    Piece::new(colour, Flags::new(mask)).expect("a piece mask")
}

/// A board from `(square, colour, mask)` triples.
pub fn board_of(pieces: &[(&str, Seat, u8)]) -> Board {
    let mut board = Board::empty();
    for &(name, colour, mask) in pieces {
        assert!(
            board.put(sq(name), piece(colour, mask)).is_none(),
            "{name} used twice"
        );
    }
    board
}

/// A valid two-player position from `(square, colour, mask)` triples.
pub fn position(pieces: &[(&str, Seat, u8)], turn: Seat, rules: Rules) -> Position {
    Position::from_setup(Setup::two_player(board_of(pieces), turn), rules)
        .expect("a valid test position")
}

/// Like [`position`], with the commanders the pieces lack added out of the way (green on a1,
/// red on i9, both with mask 170) and a spare shield each (green a9 pointing W, red i1 pointing E), so that
/// nobody is eliminated and the test pieces stand alone.
pub fn with_commanders(pieces: &[(&str, Seat, u8)], turn: Seat, rules: Rules) -> Position {
    let has_commander = |colour: Seat| {
        pieces
            .iter()
            .any(|&(_, c, mask)| c == colour && mask.count_ones() == 4)
    };
    let mut all = vec![("a9", Seat::Green, 64), ("i1", Seat::Red, 4)];
    if !has_commander(Seat::Green) {
        all.push(("a1", Seat::Green, 170));
    }
    if !has_commander(Seat::Red) {
        all.push(("i9", Seat::Red, 170));
    }
    all.extend_from_slice(pieces);
    position(&all, turn, rules)
}

/// Every mask with `n` flags.
pub fn masks_with(n: u32) -> Vec<u8> {
    (1..=255u8).filter(|m| m.count_ones() == n).collect()
}

/// Random rules: elimination and rotation (the draw rules do not touch a position).
pub fn any_rules() -> impl Strategy<Value = Rules> {
    (any::<bool>(), any::<bool>()).prop_map(|(relaxed, single)| {
        Rules::university()
            .with_elimination(if relaxed {
                Elimination::Relaxed
            } else {
                Elimination::Strict
            })
            .with_rotation(if single {
                Rotation::SingleStep
            } else {
                Rotation::Any
            })
    })
}

/// One colour's pieces as masks: at most 1 commander (usually present), 6 lances, 5 probes,
/// 3 shields, masks with the right flag count.
fn army() -> impl Strategy<Value = Vec<u8>> {
    // A third of the time a kind is missing altogether, so that armies of commanders alone
    // (eliminated under strict rules, playing on under relaxed ones) come up often.
    let kind = |n: u32, max: usize| {
        let masks = masks_with(n);
        prop_oneof![
            1 => Just(Vec::new()),
            2 => proptest::collection::vec(proptest::sample::select(masks), 0..=max),
        ]
    };
    (
        prop::bool::weighted(0.9),
        kind(4, 1),
        kind(3, 6),
        kind(2, 5),
        kind(1, 3),
    )
        .prop_map(|(commander, c, l, p, s)| {
            let mut all = Vec::new();
            if commander {
                all.extend(c);
            }
            all.extend(l);
            all.extend(p);
            all.extend(s);
            all
        })
}

/// A random valid two-player position: armies within the start army, placed anywhere, a
/// random side to move and random rules. Built through `Setup::two_player` and
/// `Position::from_setup`.
pub fn any_position() -> impl Strategy<Value = Position> {
    (
        army(),
        army(),
        Just(Square::ALL.to_vec()).prop_shuffle(),
        any::<bool>(),
        any_rules(),
    )
        .prop_map(|(green, red, squares, green_to_move, rules)| {
            let mut board = Board::empty();
            let mut squares = squares.into_iter();
            let mut green = green;
            if !green.iter().chain(&red).any(|m| m.count_ones() == 4) {
                // No game reaches a board without commanders: give green one.
                green.push(170);
            }
            for (colour, masks) in [(Seat::Green, green), (Seat::Red, red)] {
                for mask in masks {
                    board.put(
                        squares.next().expect("at most 30 pieces"),
                        piece(colour, mask),
                    );
                }
            }
            let turn = if green_to_move {
                Seat::Green
            } else {
                Seat::Red
            };
            Position::from_setup(Setup::two_player(board, turn), rules)
                .expect("armies within the start army are valid")
        })
}

/// A tiny deterministic generator (SplitMix64) for playouts driven by a proptest seed.
pub struct SplitMix(pub u64);

impl SplitMix {
    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number below `n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}
