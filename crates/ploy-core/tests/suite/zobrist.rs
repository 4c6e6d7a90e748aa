//! The Zobrist keys are part of the stable API: this test derives them again from the
//! documented recipe (SplitMix64 from `ZOBRIST_SEED`, drawn in the documented order) and
//! checks the hashes of real positions against it.

use ploy_core::{Move, Position, Rules, Seat, Square, Variant, ZOBRIST_SEED};

struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

struct Keys {
    colour: Vec<Vec<u64>>,
    flag: Vec<Vec<u64>>,
    turn: Vec<u64>,
}

fn keys() -> Keys {
    let mut g = SplitMix(ZOBRIST_SEED);
    let colour = (0..4)
        .map(|_| (0..81).map(|_| g.next()).collect())
        .collect();
    let flag = (0..8)
        .map(|_| (0..81).map(|_| g.next()).collect())
        .collect();
    let turn = (0..4).map(|_| g.next()).collect();
    Keys { colour, flag, turn }
}

fn expected(pos: &Position, k: &Keys) -> u64 {
    let mut h = k.turn[pos.turn().index()];
    for (sq, p) in pos.board().pieces() {
        h ^= k.colour[p.colour().index()][sq.index()];
        for d in p.flags() {
            h ^= k.flag[d.index()][sq.index()];
        }
    }
    h
}

#[test]
fn hashes_follow_the_documented_recipe() {
    let k = keys();
    let mut pos = Position::new();
    assert_eq!(pos.hash(), expected(&pos, &k));
    for m in [
        Move::new(Square::E3, Square::E4, 5),
        Move::turn(Square::E9, 1),
        Move::new(Square::D1, Square::D1, 3),
    ] {
        pos.play(m).unwrap();
        assert_eq!(pos.hash(), expected(&pos, &k));
    }
    for v in [Variant::FreeForAll, Variant::Partnership] {
        let p = Position::start(v, Rules::standard());
        assert_eq!(p.turn(), Seat::Green);
        assert_eq!(p.hash(), expected(&p, &k));
    }
}
