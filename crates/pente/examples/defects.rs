//! Measures the positions of issue 24's defects: the blind spot (`K10 J10 H7 J12 J13 G12
//! H11 H12 K12 J8`, and after `L11`) at a node budget, and what depth 1 alone costs there.
//!
//! `cargo run --release -p pente --example defects -- [NODES] [WIDTH]`
use pente::{Engine, Position, Rules, Size, Strength, Tuning};
use ploy_search::Limits;

fn line(s: &str) -> Position {
    let moves: Vec<pente::Move> = s.split_whitespace().map(|m| m.parse().unwrap()).collect();
    Position::from_moves(Rules::new(Size::S19), &moves)
        .map_err(|(_, e)| e)
        .unwrap()
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let nodes: u64 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(400_000);
    let width: u16 = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(8);
    let tuning = Tuning {
        width,
        ..Tuning::default()
    };
    for (name, l) in [
        ("blind spot", "K10 J10 H7 J12 J13 G12 H11 H12 K12 J8"),
        ("after L11", "K10 J10 H7 J12 J13 G12 H11 H12 K12 J8 L11"),
    ] {
        let pos = line(l);
        let mut e = Engine::new(Strength::Full).with_tuning(tuning);
        let a = e.search(&pos, &Limits::nodes(nodes), |i| {
            if std::env::var_os("VERBOSE").is_some() {
                println!(
                    "  depth {} {} nodes {} pv {:?}",
                    i.depth,
                    i.score,
                    i.nodes,
                    i.pv.iter()
                        .take(6)
                        .map(|m| m.to_string())
                        .collect::<Vec<_>>()
                );
            }
        });
        println!(
            "{name}: {:?} {} depth {} nodes {} threats {} pv {:?}",
            a.best_move.map(|m| m.to_string()),
            a.score,
            a.depth,
            a.nodes,
            a.by_threats,
            a.pv.iter().map(|m| m.to_string()).collect::<Vec<_>>()
        );
        let mut e = Engine::new(Strength::Full).with_tuning(tuning);
        let a = e.search(&pos, &Limits::depth(1), |_| {});
        println!("{name}: depth 1 alone: {} nodes, {:?}", a.nodes, a.time);
    }
}
