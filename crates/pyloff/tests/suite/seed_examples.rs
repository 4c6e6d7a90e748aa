//! The three worked examples of the game's original help page (board points named there
//! in plain letters, here in the cell notation), and its over/under and all-freedoms
//! diagrams.

use pyloff::{Cell, Move, Options, Player, Point, Position, RuleSet, Setup};

/// The position with `pieces` placed cell by cell (each on the cell's lowest empty point),
/// `to_move` to move.
fn setup(rules: RuleSet, pieces: &[(&str, u8)], to_move: u8) -> Position {
    let options = Options::new(6, 2, rules).unwrap();
    let mut placed: Vec<(Point, Player)> = Vec::new();
    for &(cell, player) in pieces {
        let cell: Cell = cell.parse().unwrap();
        let point = cell
            .points(6)
            .find(|p| !placed.iter().any(|(q, _)| q == p))
            .unwrap();
        placed.push((point, Player::new(player).unwrap()));
    }
    Setup {
        options,
        pieces: placed,
        to_move: Player::new(to_move).unwrap(),
        plies: 20,
    }
    .position()
    .unwrap()
}

fn cell(s: &str) -> Cell {
    s.parse().unwrap()
}

fn occupied(pos: &Position, c: &str) -> Vec<Option<Player>> {
    cell(c).points(pos.size()).map(|p| pos.get(p)).collect()
}

const X: u8 = 1;
const O: u8 = 2;

/// O on A1 A2 A3 B1 B2 B3 (a1 a3 a5 c1 c3 c5), X on C1 C2 C3 B4 (e1 e3 e5 c7).
const SURROUND: [(&str, u8); 10] = [
    ("a1", O),
    ("a3", O),
    ("a5", O),
    ("c1", O),
    ("c3", O),
    ("c5", O),
    ("e1", X),
    ("e3", X),
    ("e5", X),
    ("c7", X),
];

#[test]
fn surround_captures_the_whole_group() {
    for rules in RuleSet::ALL {
        let mut pos = setup(rules, &SURROUND, X);
        assert_eq!(pos.score(Player::TWO), 6);
        pos.play(Move::Place(cell("a7"))).unwrap();
        assert_eq!(pos.score(Player::TWO), 0, "{rules}");
        assert_eq!(pos.score(Player::ONE), 5);
        for c in ["a1", "a3", "a5", "c1", "c3", "c5"] {
            assert_eq!(pos.top(cell(c)), None, "{c} emptied");
        }
    }
}

#[test]
fn bridge_keeps_two_freedoms() {
    // Plus O on C4 (e7) and O on level 1 over B3 C3 B4 C4 (d6).
    let mut pieces = SURROUND.to_vec();
    pieces.push(("e7", O));
    pieces.push(("d6", O));
    let mut pos = setup(RuleSet::Default, &pieces, X);
    pos.play(Move::Place(cell("a7"))).unwrap();
    assert_eq!(pos.score(Player::TWO), 8, "nothing is captured");
    let group = pos.group(Point::new(0, 0, 0)).unwrap();
    assert_eq!(group.pieces.len(), 8);
    let freedoms: Vec<String> = group
        .freedoms
        .iter()
        .map(|p| p.cell().to_string())
        .collect();
    assert_eq!(freedoms, ["e9", "g7"], "C5 and D4");
}

#[test]
fn zombies_stay_under_the_enemy_piece() {
    // Plus O on level 1 over A1 (b2) and over B1 (d2), X on level 1 over B2 (d4).
    let mut pieces = SURROUND.to_vec();
    pieces.push(("b2", O));
    pieces.push(("d2", O));
    pieces.push(("d4", X));
    let mut pos = setup(RuleSet::Default, &pieces, X);
    pos.play(Move::Place(cell("a7"))).unwrap();
    for gone in ["a1", "a3", "a5", "c1", "b2", "d2"] {
        assert_eq!(pos.top(cell(gone)), None, "{gone} removed");
    }
    for stays in ["c3", "c5"] {
        assert_eq!(
            occupied(&pos, stays),
            [Some(Player::TWO), None],
            "{stays} stays"
        );
    }
    assert_eq!(pos.score(Player::TWO), 2);
    // The zombies are ordinary pieces again: alive or not by the usual rules.
    assert!(pos.get(Point::new(1, 1, 1)) == Some(Player::ONE));
}

#[test]
fn overpass_cuts_the_link_below() {
    // Board: O on B1 C1 (c1 e1), X on B2 C2 (c3 e3), O on B3 C3 (c5 e5); O on level 1
    // over B1 (d2) and over B2 (d4): the O overpass crosses the X pair B2-C2.
    let pieces = [
        ("c1", O),
        ("e1", O),
        ("c3", X),
        ("e3", X),
        ("c5", O),
        ("e5", O),
        ("d2", O),
        ("d4", O),
    ];
    for rules in RuleSet::ALL {
        let pos = setup(rules, &pieces, X);
        let b2 = pos.group(Point::new(0, 1, 1)).unwrap();
        assert_eq!(b2.pieces, [Point::new(0, 1, 1)], "{rules}: B2 alone");
        let c2 = pos.group(Point::new(0, 2, 1)).unwrap();
        assert_eq!(c2.pieces, [Point::new(0, 2, 1)], "{rules}: C2 alone");
        // The overpass and the O pieces under it form one group.
        let o = pos.group(Point::new(1, 1, 0)).unwrap();
        assert_eq!(o.pieces.len(), 6, "{rules}");
    }
    // Without the overpass's second piece, B2 and C2 are linked.
    let pos = setup(RuleSet::Default, &pieces[..7], X);
    assert_eq!(pos.group(Point::new(0, 1, 1)).unwrap().pieces.len(), 2);
}

#[test]
fn all_freedoms_keeps_the_group_alive() {
    // O on A1 A2 A3 B1 B2 B3, X on C1 C2 C3 B4, O on level 1 over B1 (d2); X plays A4.
    let mut pieces = SURROUND.to_vec();
    pieces.push(("d2", O));
    let mut pos = setup(RuleSet::AllFreedoms, &pieces, X);
    pos.play(Move::Place(cell("a7"))).unwrap();
    assert_eq!(pos.score(Player::TWO), 7, "nothing is captured");
    let group = pos.group(Point::new(1, 1, 0)).unwrap();
    let freedoms: Vec<String> = group
        .freedoms
        .iter()
        .map(|p| p.cell().to_string())
        .collect();
    assert_eq!(freedoms, ["b2", "d4"], "two level-1 freedoms");
    // Under the default rules the same move captures all seven pieces.
    let mut pos = setup(RuleSet::Default, &pieces, X);
    pos.play(Move::Place(cell("a7"))).unwrap();
    assert_eq!(pos.score(Player::TWO), 0);
    // Under cut_down too: the board pieces reach the level-1 piece through same-level
    // links to B1 or B2 and one step up.
    let mut pos = setup(RuleSet::CutDown, &pieces, X);
    pos.play(Move::Place(cell("a7"))).unwrap();
    assert_eq!(pos.score(Player::TWO), 7);
}

#[test]
fn cut_down_captures_an_upper_piece_alone() {
    // O on a1 c1 e1 a3 c3 (free at g1) and on level 1 at b2; X on e3 a5 c5 and at b4 on
    // level 1. X plays d2: the O piece at b2 has no empty same-level neighbour left.
    let pieces = [
        ("a1", O),
        ("c1", O),
        ("e1", O),
        ("a3", O),
        ("c3", O),
        ("b2", O),
        ("e3", X),
        ("a5", X),
        ("c5", X),
        ("b4", X),
    ];
    let mut pos = setup(RuleSet::CutDown, &pieces, X);
    pos.play(Move::Place(cell("d2"))).unwrap();
    assert_eq!(pos.score(Player::TWO), 5, "only the upper piece goes");
    assert_eq!(pos.top(cell("b2")), None);
    // The other rule sets link it down to the living board group.
    for rules in [RuleSet::Default, RuleSet::AllFreedoms] {
        let mut pos = setup(rules, &pieces, X);
        pos.play(Move::Place(cell("d2"))).unwrap();
        assert_eq!(pos.score(Player::TWO), 6, "{rules}");
    }
}

#[cfg(feature = "serde")]
#[test]
fn serde_round_trips() {
    let game = pyloff::Game::from_moves(Options::default(), "c3 swap e5").unwrap();
    let record = game.record();
    let json = serde_json::to_string(&record).unwrap();
    assert!(json.contains("\"c3\""), "{json}");
    let back: pyloff::Record = serde_json::from_str(&json).unwrap();
    assert_eq!(back, record);
    let bad = json.replace("\"size\":6", "\"size\":14");
    assert!(serde_json::from_str::<pyloff::Record>(&bad).is_err());
    let outcome = pyloff::Outcome::Win(pyloff::Players::EMPTY.with(Player::ONE));
    let text = serde_json::to_string(&outcome).unwrap();
    assert_eq!(
        serde_json::from_str::<pyloff::Outcome>(&text).unwrap(),
        outcome
    );
}
