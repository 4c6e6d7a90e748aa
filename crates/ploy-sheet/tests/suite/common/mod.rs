//! Random games for the tests.
#![allow(dead_code)]

use ploy_core::{
    BareCommander, Elimination, Game, Move, PartnerElimination, Position, Rotation, Rules, Seat,
    Variant,
};
use ploy_sheet::SavedGame;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

pub const VARIANTS: [Variant; 3] = [
    Variant::TwoPlayer,
    Variant::FreeForAll,
    Variant::Partnership,
];

/// Random rule options.
pub fn rules(rng: &mut StdRng) -> Rules {
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
    match rng.random_range(0..4) {
        0 => r.no_capture_limit = Some(rng.random_range(0..60)),
        1 => r.no_capture_limit = None,
        _ => {}
    }
    if rng.random_bool(0.5) {
        r.partner_elimination = PartnerElimination::PlaysOn;
    }
    if rng.random_bool(0.5) {
        r.bare_commander = BareCommander::Removed;
    }
    r
}

/// A random move of `game`, captures preferred with probability `greed`.
pub fn pick(game: &Game, rng: &mut StdRng, greed: f64) -> Option<Move> {
    let moves = game.legal_moves();
    if moves.is_empty() {
        return None;
    }
    let pos = game.position();
    let captures: Vec<Move> = moves
        .iter()
        .copied()
        .filter(|m| !m.is_direction_move() && pos.board().piece_at(m.to()).is_some())
        .collect();
    Some(if !captures.is_empty() && rng.random_bool(greed) {
        captures[rng.random_range(0..captures.len())]
    } else {
        moves[rng.random_range(0..moves.len())]
    })
}

/// A random game of `variant` with at most `plies` moves: random rules, sometimes a
/// two-player start from the middle of a game, sometimes a recorded ending.
pub fn game(seed: u64, variant: Variant, plies: usize) -> Game {
    let mut rng = StdRng::seed_from_u64(seed);
    let rules = rules(&mut rng);
    let mut start = Position::start(variant, rules);
    if variant == Variant::TwoPlayer && rng.random_bool(0.25) {
        for _ in 0..rng.random_range(1..40) {
            let moves = start.legal_moves();
            if moves.is_empty() {
                break;
            }
            start.make_move(moves[rng.random_range(0..moves.len())]);
        }
        start = start.with_rules(rules).expect("valid");
    }
    let mut game = Game::from_position(start);
    let greed = rng.random_range(0.0..1.0);
    for _ in 0..plies {
        // Now and then a free-for-all player leaves while the game goes on.
        if variant == Variant::FreeForAll && rng.random_bool(0.01) {
            let _ = game.resign(Seat::ALL[rng.random_range(0..4)]);
        }
        match pick(&game, &mut rng, greed) {
            Some(mv) => game.play(mv).expect("legal"),
            None => break,
        }
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
pub fn saved(seed: u64, variant: Variant, plies: usize) -> SavedGame {
    let mut saved = SavedGame::new(game(seed, variant, plies));
    let mut rng = StdRng::seed_from_u64(seed ^ 0x5eed);
    let names = ["Alice", "Bob", "Carol Ann", "Dörte", "x: y", "#1", "Round"];
    for seat in variant.seats().iter() {
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

/// A sheet written with tabs shown as `→` (as in the crate docs) turned into a real sheet.
pub fn tabs(text: &str) -> String {
    text.replace('→', "\t")
}
