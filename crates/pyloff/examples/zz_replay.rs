//! tmp
use pyloff::{Point, Record};
fn show(pos: &pyloff::Position) {
    let n = pos.size();
    for k in 0..3u8 {
        let mut any = false;
        let mut out = format!("level {k}\n");
        for j in (0..n - k).rev() {
            let row: String = (0..n - k)
                .map(|i| match pos.get(Point::new(k, i, j)) {
                    None => '.',
                    Some(p) => {
                        if pos.is_buried(Point::new(k, i, j)) {
                            p.symbol().to_ascii_uppercase()
                        } else {
                            p.symbol()
                        }
                    }
                })
                .collect();
            if row.chars().any(|c| c != '.') {
                any = true;
            }
            out += &format!("  {row}\n");
        }
        if any {
            print!("{out}");
        }
    }
}
fn main() {
    let path = std::env::args().nth(1).unwrap();
    let from: usize = std::env::args().nth(2).unwrap().parse().unwrap();
    let to: usize = std::env::args().nth(3).unwrap().parse().unwrap();
    let every: usize = std::env::args()
        .nth(4)
        .map(|s| s.parse().unwrap())
        .unwrap_or(1);
    let text = std::fs::read_to_string(path).unwrap();
    let rec: Record = text.parse().unwrap();
    let mut game = pyloff::Game::new(rec.options);
    for (i, &(p, mv)) in rec.moves.iter().enumerate() {
        if i >= from && i <= to && (i - from) % every == 0 {
            println!(
                "before {i}: {p} plays {mv}, scores {:?}, legal {}",
                game.position().scores(),
                game.position().legal_moves().len()
            );
            show(game.position());
        }
        game.play(mv).unwrap();
    }
    println!("final scores {:?}", game.position().scores());
}
