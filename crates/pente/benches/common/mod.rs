//! Seeded positions for the benches: games of moves next to the stones already there.

use pente::{Move, Position, Rules};

fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// `n` positions on 19x19 after 8 to 40 plies of seeded play near the stones (unfinished
/// games only).
pub fn positions(n: usize) -> Vec<Position> {
    let mut out = Vec::new();
    let mut state = 7;
    while out.len() < n {
        state = mix(state);
        let plies = 8 + state % 33;
        let mut pos = Position::new(Rules::default());
        for _ in 0..plies {
            let legal = pos.legal_moves();
            let near: Vec<Move> = legal
                .iter()
                .copied()
                .filter(|m| pos.stones_iter().any(|(p, _)| p.distance(m.point()) <= 1))
                .collect();
            let pool = if near.is_empty() { &legal } else { &near };
            state = mix(state);
            if pool.is_empty() {
                break;
            }
            pos.play(pool[(state % pool.len() as u64) as usize])
                .expect("legal");
        }
        if !pos.is_over() {
            out.push(pos);
        }
    }
    out
}
