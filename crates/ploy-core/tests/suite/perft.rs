//! Perft from the positions in `tests/data/*.perft`, checked with the fast generator up to a
//! node limit and with the reference generator of `common/reference.rs` where it is quick.
//!
//! File format (one record per block, blank lines between records, `#` starts a comment):
//!
//! ```text
//! id <name>
//! setup <board string> <side to move: b or w>
//! rules <strict|relaxed> <any|single-step> ...  (optional; default: strict any)
//! perft <depth> <nodes>                         (one line per depth)
//! ```
//!
//! `setup` also takes a four-player position string (`ffa <board> <turn> <controllers>
//! <out>` or `partnership ...`, the format of `ploy_notation::four_player`), or the words
//! `ffa` and `partnership` alone for the four-player start positions. `rules` also takes
//! `absorbed` / `plays-on` (partner elimination) and `bare-commander-stays` /
//! `bare-commander-removed`.
//!
//! The draw rules never matter: a position has no history (`docs/rules.md` section 6).

use crate::common::reference::{self, RefState};
use crate::common::{parse_board, parse_four_player};
use ploy_core::{
    BareCommander, Elimination, PartnerElimination, Position, Rotation, Rules, Seat, Setup,
    Variant, divide, perft, perft_full,
};
use std::time::Instant;

/// The fast generator checks every depth with at most this many nodes.
const NODE_LIMIT: u64 = 3_100_000;
/// The reference generator checks a depth when the depth before it has at most this many
/// nodes (the last ply is counted in bulk, so that is the number of generator calls).
const REFERENCE_LIMIT: u64 = 30_000;

struct Record {
    id: String,
    position: Position,
    perft: Vec<(u32, u64)>,
}

fn parse_records(text: &str) -> Vec<Record> {
    let mut records = Vec::new();
    let mut id = None;
    let mut setup = None;
    let mut rules = Rules::university();
    let mut counts = Vec::new();
    let mut flush = |id: &mut Option<String>,
                     setup: &mut Option<Setup>,
                     rules: &mut Rules,
                     counts: &mut Vec<(u32, u64)>| {
        if let Some(name) = id.take() {
            let setup = setup.take().unwrap_or_else(|| panic!("{name}: no setup"));
            let position =
                Position::from_setup(setup, *rules).unwrap_or_else(|e| panic!("{name}: {e}"));
            records.push(Record {
                id: name,
                position,
                perft: std::mem::take(counts),
            });
        }
        *rules = Rules::university();
    };
    for line in text.lines().map(str::trim) {
        if line.starts_with('#') {
            continue;
        }
        if line.is_empty() {
            flush(&mut id, &mut setup, &mut rules, &mut counts);
            continue;
        }
        let (key, value) = line.split_once(' ').unwrap_or((line, ""));
        match key {
            "id" => id = Some(value.to_string()),
            "setup" if value == "ffa" => setup = Some(Setup::start_of(Variant::FreeForAll)),
            "setup" if value == "partnership" => {
                setup = Some(Setup::start_of(Variant::Partnership));
            }
            "setup" if value.starts_with("ffa ") || value.starts_with("partnership ") => {
                setup = Some(parse_four_player(value));
            }
            "setup" => {
                let (board, turn) = value.rsplit_once(' ').expect("setup <board> <b|w>");
                let turn = match turn {
                    "b" => Seat::BLACK,
                    "w" => Seat::WHITE,
                    t => panic!("bad side to move {t}"),
                };
                setup = Some(Setup::two_player(parse_board(board), turn));
            }
            "rules" => {
                for word in value.split_whitespace() {
                    rules = match word {
                        "strict" => rules.with_elimination(Elimination::Strict),
                        "relaxed" => rules.with_elimination(Elimination::Relaxed),
                        "any" => rules.with_rotation(Rotation::Any),
                        "single-step" => rules.with_rotation(Rotation::SingleStep),
                        "absorbed" => rules.with_partner_elimination(PartnerElimination::Absorbed),
                        "plays-on" => rules.with_partner_elimination(PartnerElimination::PlaysOn),
                        "bare-commander-stays" => rules.with_bare_commander(BareCommander::Stays),
                        "bare-commander-removed" => {
                            rules.with_bare_commander(BareCommander::Removed)
                        }
                        w => panic!("unknown rule {w}"),
                    };
                }
            }
            "perft" => {
                let (depth, nodes) = value.split_once(' ').expect("perft <depth> <nodes>");
                counts.push((depth.parse().unwrap(), nodes.parse().unwrap()));
            }
            k => panic!("unknown key {k}"),
        }
    }
    flush(&mut id, &mut setup, &mut rules, &mut counts);
    records
}

fn records() -> Vec<Record> {
    let mut records = parse_records(include_str!("../data/start.perft"));
    records.extend(parse_records(include_str!("../data/four_player.perft")));
    assert!(!records.is_empty());
    records
}

#[test]
fn the_data_file_starts_with_the_rule_books_start_position() {
    let records = records();
    assert_eq!(records[0].id, "start");
    assert_eq!(
        records[0].position,
        Position::new().with_rules(Rules::university()).unwrap()
    );
    // The pinned start counts, also checked by an independent implementation.
    for (depth, nodes) in [(1, 145), (2, 21_025), (3, 3_032_381)] {
        assert!(
            records[0].perft.contains(&(depth, nodes)),
            "perft {depth} {nodes}"
        );
    }
}

#[test]
fn the_four_player_start_positions_are_pinned() {
    let records = records();
    for (id, variant, counts) in [
        ("ffa", Variant::FreeForAll, [84, 7_056, 592_704]),
        ("partnership", Variant::Partnership, [86, 7_396, 637_346]),
    ] {
        let record = records.iter().find(|r| r.id == id).expect("a record");
        assert_eq!(
            record.position,
            Position::start(variant, Rules::university())
        );
        for (depth, nodes) in (1..).zip(counts) {
            assert!(record.perft.contains(&(depth, nodes)), "{id} perft {depth}");
        }
    }
}

#[test]
fn fast_perft() {
    for record in records() {
        for &(depth, nodes) in &record.perft {
            if nodes > NODE_LIMIT {
                continue;
            }
            assert_eq!(
                perft(&record.position, depth),
                nodes,
                "{} perft {depth}",
                record.id
            );
            if nodes <= 200_000 {
                assert_eq!(
                    perft_full(&record.position, depth),
                    nodes,
                    "{} perft_full",
                    record.id
                );
                let split = divide(&record.position, depth);
                assert_eq!(split.len(), record.position.legal_moves().len());
                assert_eq!(
                    split.iter().map(|(_, n)| n).sum::<u64>(),
                    nodes,
                    "{} divide",
                    record.id
                );
            }
        }
    }
}

/// At every node of a two-ply walk from each record: the set-wise counter agrees with the
/// length of the generated list, which is in the documented order and has no duplicates,
/// and the board's square sets agree with its squares (after make and after unmake).
#[test]
fn counter_and_board_sets_along_the_trees() {
    fn walk(pos: &mut Position, depth: u32) {
        let moves = pos.legal_moves();
        assert_eq!(pos.count_legal_moves(), moves.len(), "{pos:?}");
        assert!(
            moves.is_sorted_by_key(crate::common::generation_order),
            "{pos:?}"
        );
        crate::common::check_board_sets(pos.board());
        if depth == 0 {
            return;
        }
        for &mv in moves.iter() {
            let undo = pos.make_move(mv);
            walk(pos, depth - 1);
            pos.unmake_move(mv, undo);
        }
        crate::common::check_board_sets(pos.board());
    }
    for record in records() {
        walk(&mut record.position.clone(), 2);
    }
}

#[test]
fn reference_perft() {
    for record in records() {
        let state = RefState::of(&record.position);
        let mut before = 1;
        let mut counts = record.perft.clone();
        counts.sort_unstable();
        for (depth, nodes) in counts {
            if before > REFERENCE_LIMIT {
                break;
            }
            assert_eq!(
                reference::perft(&state, depth),
                nodes,
                "{} reference perft {depth}",
                record.id
            );
            before = nodes;
        }
    }
}

/// Perft 4 from the start position with the reference generator: run it with
/// `cargo test --release -p ploy-core --test perft -- --ignored`.
#[test]
#[ignore = "slow: run in release mode"]
fn reference_perft_4_from_the_start() {
    let start = Instant::now();
    let nodes = reference::perft(&RefState::of(&Position::new()), 4);
    println!(
        "reference perft 4 from the start position: {nodes} nodes in {:.1?}",
        start.elapsed()
    );
    let record = &records()[0];
    assert_eq!(
        record.perft.iter().find(|&&(d, _)| d == 4),
        Some(&(4, nodes))
    );
}

/// Prints the reference counts (and the fast ones) of every record whose id starts with
/// `PLOY_REFERENCE_ID` (default: all), up to `PLOY_REFERENCE_DEPTH` (default 3): how the
/// numbers in the data file were made.
#[test]
#[ignore = "a tool for adding records to the data file"]
fn print_reference_counts() {
    let max: u32 = std::env::var("PLOY_REFERENCE_DEPTH")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3);
    let prefix = std::env::var("PLOY_REFERENCE_ID").unwrap_or_default();
    for record in records().into_iter().filter(|r| r.id.starts_with(&prefix)) {
        let state = RefState::of(&record.position);
        for depth in 1..=max {
            let nodes = reference::perft(&state, depth);
            let fast = perft(&record.position, depth);
            println!("{} perft {depth} {nodes} (fast: {fast})", record.id);
        }
    }
}
