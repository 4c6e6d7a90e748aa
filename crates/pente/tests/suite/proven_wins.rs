//! A proven win is kept and played out across moves: once the engine announces `win N`,
//! each of its next moves announces a win at most two plies shorter, and the game is won
//! within the first announced distance, whatever the opponent replies. The engine is driven
//! as the front ends drive it (`ploy pente play`, the Piskvork brain, the engine protocol):
//! one [`Engine`] for the game, [`Engine::search`] a move, its table and announced win
//! kept between moves.

use crate::common::line;
use pente::{Engine, Limits, Move, Position, Rules, Size, Strength};
use ploy_search::Score;

fn win_plies(score: Score) -> Option<u32> {
    score.is_win().then(|| score.plies_to_result()).flatten()
}

/// How the opponent replies once the engine has announced a win.
#[derive(Clone, Copy, Debug)]
enum Replies {
    /// The engine's own search at full strength, 50,000 nodes a move.
    Engine,
    /// A random legal move within two points of a stone, seeded.
    Random(u64),
}

/// Plays a game from `opening`: the engine at full strength (`nodes` a move, one
/// [`Engine`] for the game, as the front ends keep it) as White when `engine_white`,
/// against level 5 until it announces a win of five plies or more, then against
/// `replies`. From the announcement on, each of the engine's moves must announce a win at
/// least two plies shorter than the last, and the engine must win within the first
/// announced distance. Returns the announcements (empty when no win was announced in 120
/// plies).
fn play_out(opening: &str, engine_white: bool, nodes: u64, replies: Replies) -> Vec<u32> {
    let mut pos = line(Rules::new(Size::S19), opening);
    let me = if engine_white {
        pente::Color::White
    } else {
        pente::Color::Black
    };
    let limits = Limits::nodes(nodes);
    let mut engine = Engine::new(Strength::Full);
    let mut weak = Engine::new(Strength::Level(pente::Level::new(5).unwrap()));
    let mut opponent = Engine::new(Strength::Full);
    let mut said: Vec<u32> = Vec::new();
    let mut since = 0;
    while !pos.is_over() && pos.plies() < 120 {
        let mv = if pos.turn() == me {
            let a = engine.search(&pos, &limits, |_| {});
            match (win_plies(a.score), said.last()) {
                (Some(n), None) if n >= 5 => {
                    said.push(n);
                    since = pos.plies();
                }
                (_, None) => {}
                (Some(n), Some(&last)) => {
                    assert!(
                        n + 2 <= last,
                        "{opening}: announced {said:?}, then win {n} at {pos}"
                    );
                    said.push(n);
                }
                (None, Some(_)) => {
                    panic!("{opening}: announced {said:?}, then {} at {pos}", a.score)
                }
            }
            a.best_move.expect("a move")
        } else if said.is_empty() {
            weak.search(&pos, &limits, |_| {})
                .best_move
                .expect("a move")
        } else {
            match replies {
                Replies::Engine => opponent
                    .search(&pos, &Limits::nodes(50_000), |_| {})
                    .best_move
                    .expect("a move"),
                Replies::Random(seed) => near_reply(&pos, seed),
            }
        };
        pos.play(mv).unwrap();
    }
    if let Some(&first) = said.first() {
        let o = pos.outcome().expect("the game ended");
        assert_eq!(
            o.winner(),
            Some(me),
            "{opening}: announced {said:?}, lost at {pos}"
        );
        let plies = u32::from(pos.plies() - since);
        assert!(
            plies <= first,
            "{opening}: won in {plies} plies after win {first}"
        );
    }
    said
}

/// A random legal reply near the stones (within two points of one), seeded.
fn near_reply(pos: &Position, seed: u64) -> Move {
    let stones: Vec<_> = pos.stones_iter().map(|(p, _)| p).collect();
    let near: Vec<Move> = pos
        .legal_moves()
        .into_iter()
        .filter(|m| stones.iter().any(|s| s.distance(m.point()) <= 2))
        .collect();
    let mut rng = ploy_search::LevelRng::new(seed, pos.hash(), u64::from(pos.plies()));
    near[rng.below(near.len() as u64) as usize]
}

/// From three-stone openings (and the blind-spot position of `docs/pente.md`, Black to
/// move and winning), at two node budgets: once the engine announces a win, it wins within
/// that many plies against its own search's replies and against random replies near the
/// stones, each later announcement at least two plies shorter.
#[test]
fn an_announced_win_is_played_out_whatever_the_replies() {
    let openings = [
        ("K10 J10 H7 J12 J13 G12 H11 H12 K12 J8 L11", false),
        ("K10 L9 N12", true),
        ("K10 J11 K13", false),
        ("K10 K9 G10", true),
        ("K10 M11 N7", false),
        ("K10 L11 K7", false),
    ];
    let mut played = 0;
    for (opening, white) in openings {
        for nodes in [12_000, 40_000] {
            for replies in [Replies::Engine, Replies::Random(0)] {
                if !play_out(opening, white, nodes, replies).is_empty() {
                    played += 1;
                }
            }
        }
    }
    assert!(played >= 20, "{played} of 24 games announced a win");
}
