//! Pyloff speed: legal moves, make/unmake, evaluation and search, on positions reached by
//! seeded random games under each rule set.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use ploy_search::{Config, Evaluator, Limits};
use pyloff::{Engine, Evaluation, Game, Move, Options, Position, RuleSet, SearchPosition};

fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// 16 positions of `options` after 10 to 160 random moves (seed 7); games that end early
/// are left out.
fn positions(options: Options) -> Vec<Position> {
    let mut z = 7;
    let mut out = Vec::new();
    let mut plies = 10;
    while out.len() < 16 {
        let mut game = Game::new(options);
        for _ in 0..plies {
            let moves = game.position().legal_moves();
            if moves.is_empty() {
                break;
            }
            z = mix(z);
            game.play(moves[(z % moves.len() as u64) as usize]).unwrap();
        }
        if !game.position().is_over() {
            out.push(game.position().clone());
        }
        plies += 10;
    }
    out
}

fn bench(c: &mut Criterion) {
    for (name, options) in [
        ("default6", Options::new(6, 2, RuleSet::Default).unwrap()),
        (
            "all_freedoms6",
            Options::new(6, 2, RuleSet::AllFreedoms).unwrap(),
        ),
        ("cut_down6", Options::new(6, 2, RuleSet::CutDown).unwrap()),
        ("default13", Options::new(13, 2, RuleSet::Default).unwrap()),
        (
            "four_players9",
            Options::new(9, 4, RuleSet::Default).unwrap(),
        ),
    ] {
        let set = positions(options);
        let total: usize = set.iter().map(|p| p.legal_moves().len()).sum();
        println!(
            "{name}: {} positions, {total} legal moves in all",
            set.len()
        );
        c.bench_function(&format!("legal_moves/{name}"), |b| {
            let mut list: Vec<Move> = Vec::new();
            b.iter(|| {
                let mut n = 0;
                for p in &set {
                    list.clear();
                    black_box(p).generate(&mut list);
                    n += list.len();
                }
                n
            })
        });
        c.bench_function(&format!("make_unmake/{name}"), |b| {
            let mut probes: Vec<(Position, Vec<Move>)> =
                set.iter().map(|p| (p.clone(), p.legal_moves())).collect();
            b.iter(|| {
                let mut n = 0u64;
                for (p, moves) in &mut probes {
                    for &mv in moves.iter() {
                        let undo = p.play(mv).expect("legal");
                        n ^= p.hash();
                        p.unmake(undo);
                    }
                }
                n
            })
        });
        c.bench_function(&format!("evaluate/{name}"), |b| {
            let eval = Evaluation::default();
            let games: Vec<SearchPosition> =
                set.iter().map(|p| SearchPosition::new(p.clone())).collect();
            b.iter(|| {
                games
                    .iter()
                    .map(|g| eval.evaluate(black_box(g)))
                    .sum::<i32>()
            })
        });
    }
    let mut group = c.benchmark_group("search");
    group.sample_size(10);
    for (name, options) in [
        ("default6", Options::new(6, 2, RuleSet::Default).unwrap()),
        (
            "all_freedoms6",
            Options::new(6, 2, RuleSet::AllFreedoms).unwrap(),
        ),
        (
            "three_players6",
            Options::new(6, 3, RuleSet::Default).unwrap(),
        ),
    ] {
        let set = positions(options);
        // 4 positions, 5,000 nodes each, a 1 MiB table cleared before each search.
        group.bench_function(format!("nodes20000/{name}"), |b| {
            let config = Config {
                table_bytes: 1 << 20,
                ..Engine::default_config()
            };
            let mut engine = Engine::with(config, Evaluation::default());
            b.iter(|| {
                let mut nodes = 0;
                for p in set.iter().take(4) {
                    engine.clear();
                    let g = SearchPosition::new(p.clone());
                    let r = engine
                        .searcher()
                        .search(&g, &[], &Limits::nodes(5000), |_| {});
                    nodes += r.nodes;
                }
                nodes
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
