//! The user documentation (`docs/*.md`, the README) checked against the crates, so that the
//! text cannot drift from the code:
//!
//! - every board diagram and position string that follows a `<!-- diagram: ... -->` or
//!   `<!-- position: ... -->` marker is exactly what the code draws or writes for that
//!   position (with the squares a piece may move to, where the marker asks for them);
//! - the sample game of `docs/rules.md` replays under the standard rules, every move written
//!   canonically (`x`, `#`), to the outcome stated, and the claims its notes make about
//!   other moves hold;
//! - the move table of `docs/notation.md` reads and writes as it says, and the sample game's
//!   score sheet and game record read back to the same game;
//! - the move counts the rules state are what the move generator and the pinned perft data
//!   say;
//! - every link between documents is reference-style and has a rustdoc twin in
//!   `src/docs.rs` or `src/lib.rs`, so it works on a repository page and in rustdoc alike.
//!
//! After a deliberate change to the drawing or to a documented position, regenerate the
//! blocks with `PLOY_BLESS_DOCS=1 cargo test --test docs_rules -- --test-threads=1` (the
//! tests that write share files) and review the diff.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use ploy::core::{Game, Move, PieceKind, Position, Rotation, Rules, Seat, Square, Variant};
use ploy::notation::{
    AlgebraicMove, PositionString, UniversityMove, read_algebraic, read_position,
};
use ploy::sheet::{ResultText, SavedGame};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn read(rel: &str) -> String {
    std::fs::read_to_string(root().join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

fn bless() -> bool {
    std::env::var_os("PLOY_BLESS_DOCS").is_some()
}

// ----- drawing -------------------------------------------------------------------------------

/// The diagram of `pos` for the files and ranks of `window` (0-based, inclusive), with `*`
/// on the empty squares in `marks`: each square three characters wide and three lines tall,
/// the colour letter (capital for a commander) in the middle and a flag character on each
/// side it points to.
fn diagram(pos: &Position, window: (Square, Square), marks: &[Square]) -> String {
    let (lo, hi) = window;
    let mut out = String::new();
    for rank in (lo.rank()..=hi.rank()).rev() {
        let mut lines = [
            String::from("   "),
            format!(" {} ", rank + 1),
            String::from("   "),
        ];
        for file in lo.file()..=hi.file() {
            let sq = Square::new(file, rank);
            let cell = match pos.board().piece_at(sq) {
                Some(p) => {
                    let bits = p.flags().bits();
                    let f = |i: u8, c: char| if bits & (1 << i) != 0 { c } else { ' ' };
                    let mut letter = match p.colour() {
                        Seat::Green => 'g',
                        Seat::Red => 'r',
                        Seat::Yellow => 'y',
                        Seat::Blue => 'b',
                    };
                    if p.kind() == PieceKind::Commander {
                        letter = letter.to_ascii_uppercase();
                    }
                    [
                        [f(7, '\\'), f(0, '|'), f(1, '/')],
                        [f(6, '-'), letter, f(2, '-')],
                        [f(5, '/'), f(4, '|'), f(3, '\\')],
                    ]
                }
                None => {
                    let c = if marks.contains(&sq) { '*' } else { '.' };
                    [[' '; 3], [' ', c, ' '], [' '; 3]]
                }
            };
            for (line, chars) in lines.iter_mut().zip(cell) {
                line.push(' ');
                line.extend(chars);
            }
        }
        for line in lines {
            out.push_str(line.trim_end());
            out.push('\n');
        }
    }
    out.push_str("   ");
    for file in lo.file()..=hi.file() {
        out.push_str(&format!("  {} ", char::from(b'a' + file)));
    }
    out.truncate(out.trim_end().len());
    out.push('\n');
    out
}

// ----- the documents' markers ----------------------------------------------------------------

/// A marker `<!-- kind: args -->` and the fenced block right after it.
struct Marked {
    kind: String,
    args: String,
    /// Byte range of the block's content (between the fences) in the document.
    content: std::ops::Range<usize>,
}

/// Every marker of `kinds` in `doc`, each followed by a ```` ```text ```` block.
fn marked_blocks(doc: &str, kinds: &[&str]) -> Vec<Marked> {
    let mut out = Vec::new();
    let mut at = 0;
    while let Some(i) = doc[at..].find("<!-- ") {
        let start = at + i;
        let end = start + doc[start..].find("-->").expect("unclosed comment") + 3;
        at = end;
        let inner = doc[start + 5..end - 3].trim();
        let Some((kind, args)) = inner.split_once(':') else {
            continue;
        };
        if !kinds.contains(&kind) {
            continue;
        }
        let rest = &doc[end..];
        let fence = "\n```text\n";
        assert!(
            rest.starts_with(fence),
            "marker `{inner}`: expected a ```text block on the next line"
        );
        let body = end + fence.len();
        let close = doc[body..]
            .find("```")
            .unwrap_or_else(|| panic!("marker `{inner}`: unclosed block"));
        out.push(Marked {
            kind: kind.to_owned(),
            args: args.trim().to_owned(),
            content: body..body + close,
        });
    }
    out
}

/// Replaces the blocks (in bless mode) or checks them: `expected` gives the content for a
/// marker. Returns the document with the blocks replaced.
fn check_blocks(
    name: &str,
    doc: &str,
    kinds: &[&str],
    mut expected: impl FnMut(&Marked) -> String,
) -> String {
    let mut new = doc.to_owned();
    let mut failures = Vec::new();
    for m in marked_blocks(doc, kinds).iter().rev() {
        let want = expected(m);
        let have = &doc[m.content.clone()];
        if have != want {
            failures.push(format!(
                "{name}: block after `{}: {}` differs.\n--- in the document:\n{have}--- from the code:\n{want}",
                m.kind, m.args
            ));
            new.replace_range(m.content.clone(), &want);
        }
    }
    if !bless() {
        assert!(failures.is_empty(), "{}", failures.join("\n"));
    }
    new
}

fn write_if_blessing(rel: &str, old: &str, new: &str) {
    if bless() && old != new {
        std::fs::write(root().join(rel), new).expect("write the blessed document");
    }
}

// ----- positions the documents name ----------------------------------------------------------

fn square(text: &str) -> Square {
    text.trim()
        .parse()
        .unwrap_or_else(|_| panic!("not a square: {text}"))
}

/// `start`, `ffa`, `partnership`, `sample N` (the sample game after N plies) or a position
/// string (university rules).
fn source(text: &str) -> Position {
    let text = text.trim();
    match text {
        "start" => Position::new(),
        "ffa" => Position::start(Variant::FreeForAll, Rules::university()),
        "partnership" => Position::start(Variant::Partnership, Rules::university()),
        _ => match text.strip_prefix("sample ") {
            Some(n) => {
                let n: usize = n.parse().expect("sample N");
                sample_game().positions()[n].clone()
            }
            None => read_position(text, Rules::university())
                .unwrap_or_else(|e| panic!("position `{text}`: {e}")),
        },
    }
}

/// The arguments of a diagram marker: `<source> [; window a1-i9] [; targets sq] [; after mv]`.
fn diagram_for(args: &str) -> String {
    let mut parts = args.split(';');
    let mut pos = source(parts.next().expect("a source"));
    let mut window = (Square::A1, Square::I9);
    let mut marks = Vec::new();
    for part in parts {
        let part = part.trim();
        if let Some(w) = part.strip_prefix("window ") {
            let (a, b) = w.split_once('-').expect("window a1-i9");
            window = (square(a), square(b));
        } else if let Some(sq) = part.strip_prefix("targets ") {
            let from = square(sq);
            let moves = pos.legal_moves();
            assert!(
                moves.iter().any(|m| m.from() == from),
                "{args}: no legal move from {from}"
            );
            marks.extend(
                moves
                    .iter()
                    .filter(|m| m.from() == from && m.to() != from)
                    .map(|m| m.to())
                    .filter(|&to| pos.board().piece_at(to).is_none()),
            );
        } else if let Some(mv) = part.strip_prefix("after ") {
            let mv = read_algebraic(&pos, mv.trim()).unwrap_or_else(|e| panic!("{args}: {e}"));
            pos = pos.after(mv).expect("legal");
        } else {
            panic!("unknown diagram argument `{part}`");
        }
    }
    diagram(&pos, window, &marks)
}

// ----- the sample game -----------------------------------------------------------------------

const RULES: &str = "docs/rules.md";
const NOTATION: &str = "docs/notation.md";

/// The moves of the sample game as written: the backticked moves right after each round
/// number, between the `sample-game` markers.
fn sample_moves() -> Vec<String> {
    let doc = read(RULES);
    let start = doc
        .find("<!-- sample-game: start -->")
        .expect("sample game start");
    let end = doc
        .find("<!-- sample-game: end -->")
        .expect("sample game end");
    let mut moves = Vec::new();
    let mut round = 0;
    for line in doc[start..end].lines() {
        let Some((num, rest)) = line.split_once(". ") else {
            continue;
        };
        let Ok(n) = num.parse::<usize>() else {
            continue;
        };
        round += 1;
        assert_eq!(n, round, "rounds are numbered 1, 2, ...");
        let mut rest = rest;
        let mut in_round = 0;
        while let Some(r) = rest.strip_prefix('`') {
            let close = r.find('`').expect("closing backtick");
            moves.push(r[..close].to_owned());
            rest = r[close + 1..].trim_start();
            in_round += 1;
        }
        assert!(
            (1..=2).contains(&in_round),
            "round {n}: one or two moves, found {in_round}"
        );
    }
    moves
}

fn sample_game() -> Game {
    let mut game = Game::new(Rules::standard());
    for (i, text) in sample_moves().iter().enumerate() {
        let pos = game.position().clone();
        let mv =
            read_algebraic(&pos, text).unwrap_or_else(|e| panic!("ply {}: {text}: {e}", i + 1));
        game.play(mv)
            .unwrap_or_else(|e| panic!("ply {}: {text}: {e}", i + 1));
    }
    game
}

#[test]
fn sample_game_replays_to_the_stated_end() {
    let moves = sample_moves();
    assert!(
        (15..=30).contains(&moves.len()),
        "a short game: {} plies",
        moves.len()
    );
    let game = sample_game();
    // Written canonically: `x` exactly on captures, `#` exactly on the winning move, turns
    // the short way round.
    for (i, text) in moves.iter().enumerate() {
        let pos = &game.positions()[i];
        let canonical = AlgebraicMove::from_move(pos, game.moves()[i]).to_string();
        assert_eq!(text, &canonical, "ply {}", i + 1);
    }
    let doc = read(RULES);
    let stated = doc
        .split("<!-- sample-game-outcome: ")
        .nth(1)
        .and_then(|s| s.split(" -->").next())
        .expect("the outcome marker");
    let outcome = game.outcome().expect("the game is over");
    assert_eq!(ResultText(Some(outcome)).to_string(), stated);
    // It shows a capture and a direction move.
    assert!(moves.iter().any(|m| m.contains('x')));
    assert!(game.moves().iter().any(|m| m.is_direction_move()));
}

#[test]
fn sample_game_notes_hold() {
    let game = sample_game();
    let play = |pos: &Position, text: &str| {
        let mv = read_algebraic(pos, text).unwrap_or_else(|e| panic!("{text}: {e}"));
        pos.after(mv).unwrap()
    };
    // Round 12: `a7+1` instead of `e8xd9` guards c7: after `d6-c7` the lance takes it.
    let pos = play(&game.positions()[23], "a7+1");
    let pos = play(&pos, "d6-c7");
    assert!(read_algebraic(&pos, "a7xc7").is_ok());
    // Round 13: after `d6-c7` no red piece reaches c7, and only the commander reaches d8.
    let pos = &game.positions()[25];
    assert_eq!(pos.turn(), Seat::Red);
    let moves = pos.legal_moves();
    assert!(moves.iter().all(|m| m.to() != Square::C7));
    assert!(
        moves
            .iter()
            .filter(|m| m.to() == Square::D8)
            .all(|m| m.from() == Square::E9)
    );
    // ... so every red move loses at once.
    for &mv in moves.iter() {
        let next = pos.after(mv).unwrap();
        assert!(
            next.legal_moves().iter().any(|&m| next
                .after(m)
                .unwrap()
                .outcome()
                .is_some_and(|o| o.winner() == Some(Seat::Green))),
            "after {}",
            UniversityMove::from(mv)
        );
    }
}

// ----- diagrams and positions ----------------------------------------------------------------

#[test]
fn diagrams_and_positions_are_what_the_code_draws() {
    for rel in [RULES, NOTATION] {
        let doc = read(rel);
        let new = check_blocks(rel, &doc, &["diagram"], |m| diagram_for(&m.args));
        let new = check_blocks(rel, &new, &["position"], |m| {
            format!("{}\n", PositionString::from_position(&source(&m.args)))
        });
        write_if_blessing(rel, &doc, &new);
    }
}

#[test]
fn four_player_example_strings_round_trip() {
    let doc = read(NOTATION);
    let blocks = marked_blocks(&doc, &["position-check"]);
    assert!(!blocks.is_empty());
    for m in blocks {
        let text = doc[m.content.clone()].trim_end();
        assert_eq!(text, m.args);
        let pos = read_position(text, Rules::university()).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(PositionString::from_position(&pos).to_string(), text);
    }
}

#[test]
fn wrapped_start_board_reads_as_the_start() {
    let doc = read(NOTATION);
    let blocks = marked_blocks(&doc, &["board-check"]);
    assert_eq!(blocks.len(), 1);
    let text = &doc[blocks[0].content.clone()];
    assert!(text.lines().count() > 1, "shown wrapped");
    let board: ploy::notation::BoardString = text.parse().expect("a wrapped board reads");
    assert_eq!(board, ploy::notation::BoardString::start());
}

// ----- notation ------------------------------------------------------------------------------

#[test]
fn move_table_reads_and_writes_as_stated() {
    let doc = read(NOTATION);
    let start = doc.find("<!-- move-table: ").expect("the move table");
    let header_end = start + doc[start..].find("-->").unwrap();
    let pos = source(&doc[start + "<!-- move-table: ".len()..header_end]);
    let mut rows = 0;
    for line in doc[header_end + 3..].lines().skip(1) {
        if !line.starts_with('|') {
            break;
        }
        let cells: Vec<&str> = line.trim_matches('|').split('|').map(str::trim).collect();
        if cells[0].starts_with("university") || cells[0].starts_with("---") {
            continue;
        }
        let unquote = |c: &str| -> Vec<String> {
            c.split(',')
                .map(|s| s.trim().trim_matches('`').to_owned())
                .collect()
        };
        let university = &unquote(cells[0])[0];
        let mv = university
            .parse::<UniversityMove>()
            .unwrap_or_else(|e| panic!("{university}: {e}"))
            .to_move(&pos)
            .unwrap_or_else(|e| panic!("{university}: {e}"));
        assert_eq!(UniversityMove::from(mv).to_string(), *university);
        let written = &unquote(cells[1])[0];
        assert_eq!(AlgebraicMove::from_move(&pos, mv).to_string(), *written);
        for alt in unquote(cells[2]).iter().chain([written, university]) {
            assert_eq!(
                read_algebraic(&pos, alt),
                Ok(mv),
                "`{alt}` reads as {university}"
            );
        }
        rows += 1;
    }
    assert!(rows >= 5, "the table has its rows");
}

fn sample_saved() -> SavedGame {
    let mut saved = SavedGame::new(sample_game());
    saved.header.event = Some("Sample game of the rules".into());
    saved.header.players.set(Seat::Green, Some("Ann".into()));
    saved.header.players.set(Seat::Red, Some("Bob".into()));
    saved
}

#[test]
fn sample_sheet_and_record_read_back() {
    let doc = read(NOTATION);
    let saved = sample_saved();
    let new = check_blocks(NOTATION, &doc, &["sheet", "record"], |m| {
        match m.kind.as_str() {
            "sheet" => saved.to_sheet().unwrap().replace('\t', "→"),
            _ => saved.to_record().unwrap().to_string(),
        }
    });
    write_if_blessing(NOTATION, &doc, &new);
    for m in marked_blocks(&new, &["sheet", "record"]) {
        let text = new[m.content.clone()].replace('→', "\t");
        let (_, back) = ploy::sheet::read(&text).unwrap_or_else(|e| panic!("{}: {e}", m.kind));
        assert_eq!(back, saved, "{}", m.kind);
    }
}

// ----- numbers -------------------------------------------------------------------------------

/// Moves per start square in the start position of `variant`.
fn moves_by_square(variant: Variant, rotation: Rotation) -> (usize, BTreeMap<Square, usize>) {
    let pos = Position::start(variant, Rules::university().with_rotation(rotation));
    let moves = pos.legal_moves();
    let mut by = BTreeMap::new();
    for m in moves.iter() {
        *by.entry(m.from()).or_insert(0) += 1;
    }
    (moves.len(), by)
}

/// The perft counts of `id` in a pinned data file.
fn pinned(file: &str, id: &str) -> Vec<u64> {
    let text = read(file);
    let mut counts = Vec::new();
    let mut inside = false;
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("id ") {
            inside = rest.trim() == id;
        } else if inside {
            if let Some(rest) = line.strip_prefix("perft ") {
                let (_, n) = rest.split_once(' ').unwrap();
                counts.push(n.parse().unwrap());
            }
        }
    }
    assert!(!counts.is_empty(), "{id} in {file}");
    counts
}

/// `text` with every run of white space made one space (the documents wrap their lines).
fn squash(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn with_commas(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[test]
fn stated_move_counts_are_the_code_s() {
    let doc = squash(&read(RULES));
    let has = |text: &str| {
        assert!(
            doc.contains(&squash(text)),
            "docs/rules.md should say: {text}"
        );
    };

    let (total, by) = moves_by_square(Variant::TwoPlayer, Rotation::Any);
    has(&format!("Green has **{total}** legal moves"));
    let count = |sq: &str| by[&square(sq)];
    for sq in ["d3", "e3", "f3"] {
        assert_eq!(count(sq), 15);
    }
    has("15 for each of the three shields");
    assert_eq!(count("e1"), 4);
    has("4 for the commander");
    assert_eq!(count("e2"), 6);
    has("6 for the probe on `e2`");
    for sq in ["c2", "d2", "f2", "g2"] {
        assert_eq!(count(sq), 9);
    }
    has("9 for each of the four other probes");
    for (sq, n) in [
        ("b1", 11),
        ("h1", 11),
        ("c1", 9),
        ("g1", 9),
        ("d1", 7),
        ("f1", 7),
    ] {
        assert_eq!(count(sq), n, "{sq}");
    }
    has(
        "11 for each of the lances on `b1`\nand `h1`, 9 for those on `c1` and `g1`, and 7 for those on `d1` and `f1`",
    );
    assert_eq!(15 * 3 + 4 + 6 + 9 * 4 + 11 * 2 + 9 * 2 + 7 * 2, total);

    let (ffa, _) = moves_by_square(Variant::FreeForAll, Rotation::Any);
    let (ffa1, _) = moves_by_square(Variant::FreeForAll, Rotation::SingleStep);
    has(&format!(
        "Green has **{ffa}** moves in the free-for-all game ({ffa1} with\nsingle-step rotation)"
    ));
    let (pa, _) = moves_by_square(Variant::Partnership, Rotation::Any);
    let (pa1, _) = moves_by_square(Variant::Partnership, Rotation::SingleStep);
    has(&format!(
        "**{pa}** in the partnership game ({pa1} with single-step rotation)"
    ));

    // The perft table: the pinned counts (checked there against a reference generator), and
    // the first plies recomputed here.
    let data = "crates/ploy-core/tests/data/start.perft";
    for (row, id, rotation) in [
        ("standard rotation", "start", Rotation::Any),
        (
            "single-step rotation",
            "start-single-step",
            Rotation::SingleStep,
        ),
    ] {
        let counts = pinned(data, id);
        let cells: Vec<String> = counts.iter().take(4).map(|&n| with_commas(n)).collect();
        has(&format!("| {row} | {} |", cells.join(" | ")));
        let pos = Position::start(
            Variant::TwoPlayer,
            Rules::university().with_rotation(rotation),
        );
        assert_eq!(ploy::core::perft(&pos, 1), counts[0]);
        assert_eq!(ploy::core::perft(&pos, 2), counts[1]);
    }
}

#[test]
fn piece_examples_have_the_stated_moves() {
    let doc = squash(&read(RULES));
    // The lance of section 3 (mask 73 on d4): 6 motion moves and 7 turns.
    let lance = source(
        "w170,,,,,,,,/,,,,,,,,/,,,,,,,,/,,,b1,,,,,/,,,,,,,,/,,,b73,,,,,/,,,,,,,,/,,,,,w24,,,/,,,,,,,,b170 b",
    );
    let n = lance
        .legal_moves()
        .iter()
        .filter(|m| m.from() == Square::D4)
        .count();
    assert_eq!(n, 13);
    assert!(doc.contains("With its seven turns (below) it has 13 moves."));
    // A shield with one target square: 8 motion moves and 7 turns.
    let shield = source(
        "w170,w16,,,,,,,/,,,,,,,,/,,,,b128,,,,/,,,,,,,,/,,,,,,,,/,,,,,,,,/,,,,,,,,/,,,,,,,,/,,,,,,,,b170 b",
    );
    let from_e7: Vec<Move> = shield
        .legal_moves()
        .iter()
        .copied()
        .filter(|m| m.from() == Square::E7)
        .collect();
    assert_eq!(from_e7.len(), 15);
    assert!(doc.contains("and seven turns where it stands: 15 moves."));
}

// ----- links ---------------------------------------------------------------------------------

/// The relative link targets of a Markdown document: reference definitions
/// (`[label]: target`). Inline relative links are not allowed (rustdoc could not redirect
/// them).
fn relative_definitions(rel: &str, doc: &str) -> Vec<String> {
    let mut labels = Vec::new();
    let mut in_code = false;
    for line in doc.lines() {
        if line.starts_with("```") {
            in_code = !in_code;
            continue;
        }
        if in_code {
            continue;
        }
        if let Some(rest) = line.strip_prefix('[') {
            if let Some((label, target)) = rest.split_once("]: ") {
                if !target.starts_with("http") && !target.starts_with('#') {
                    labels.push(label.to_owned());
                }
                continue;
            }
        }
        let mut at = 0;
        while let Some(i) = line[at..].find("](") {
            let target = &line[at + i + 2..];
            assert!(
                target.starts_with("http") || target.starts_with('#'),
                "{rel}: an inline relative link ({}): write it reference-style, with a rustdoc \
                 twin in src/docs.rs",
                &line[at + i..]
            );
            at += i + 2;
        }
    }
    labels
}

/// The anchor GitHub and rustdoc give a heading.
fn anchor(heading: &str) -> String {
    heading
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || *c == ' ' || *c == '-')
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

#[test]
fn links_work_in_rustdoc_too() {
    let docs_rs = read("src/docs.rs");
    let lib_rs = read("src/lib.rs");
    // The module of each document in src/docs.rs: its `include_str!` and the rustdoc
    // definitions in front of it.
    let module_of = |file: &str| -> String {
        let include = format!("include_str!(\"../docs/{file}\")");
        let at = docs_rs
            .find(&include)
            .unwrap_or_else(|| panic!("src/docs.rs should include docs/{file}"));
        let from = docs_rs[..at].rfind("pub mod").map_or(0, |i| i);
        docs_rs[from..at].to_owned()
    };
    let mut files: Vec<String> = std::fs::read_dir(root().join("docs"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.ends_with(".md"))
        .collect();
    files.sort();
    for file in &files {
        let rel = format!("docs/{file}");
        let defs = module_of(file);
        for label in relative_definitions(&rel, &read(&rel)) {
            assert!(
                defs.contains(&format!("[{label}]: crate")),
                "{rel}: the link [{label}] needs a rustdoc definition in src/docs.rs"
            );
        }
    }
    for label in relative_definitions("README.md", &read("README.md")) {
        assert!(
            lib_rs.contains(&format!("[{label}]: crate")),
            "README.md: the link [{label}] needs a rustdoc definition in src/lib.rs"
        );
    }
    // Links within a document lead to one of its headings (GitHub and rustdoc make the same
    // anchors of these headings: lower case, spaces to `-`, other punctuation dropped).
    for rel in files
        .iter()
        .map(|f| format!("docs/{f}"))
        .chain(["README.md".to_owned()])
    {
        let doc = read(&rel);
        let anchors: Vec<String> = doc
            .lines()
            .filter(|l| l.starts_with('#'))
            .map(|l| anchor(l.trim_start_matches('#').trim()))
            .collect();
        for part in doc.split("](#").skip(1) {
            let target = &part[..part.find(')').expect("closing parenthesis")];
            assert!(
                anchors.iter().any(|a| a == target),
                "{rel}: no heading for the link #{target}"
            );
        }
    }
    // The documents only name files that exist.
    for file in &files {
        let doc = read(&format!("docs/{file}"));
        for (_, target) in doc
            .lines()
            .filter_map(|l| l.strip_prefix('['))
            .filter_map(|l| l.split_once("]: "))
        {
            if !target.starts_with("http") {
                assert!(
                    Path::new(&root().join("docs").join(target)).exists(),
                    "docs/{file}: {target} does not exist"
                );
            }
        }
    }
}
