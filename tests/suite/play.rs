//! End-to-end tests of the `play` example's session, driven in-process through
//! `ploy::play::run` with a scripted input (the example only wires it to stdin/stdout).

use std::io::Cursor;
use std::path::PathBuf;

use ploy::core::{Outcome, Seat, Variant, WinReason};
use ploy::play::{Options, Player, Strength, run};

/// Runs a session on `script` and returns everything it wrote.
fn session(options: Options, script: &str) -> String {
    let mut out = Vec::new();
    run(Cursor::new(script.as_bytes().to_vec()), &mut out, options).expect("session runs");
    String::from_utf8(out).expect("utf-8 output")
}

fn humans() -> Options {
    Options {
        players: [Player::Human; 4],
        strength: Strength::Depth(1),
        echo: true,
        ..Options::default()
    }
}

fn temp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("ploy-play-test-{}-{name}", std::process::id()))
}

/// Green's moves of a short game in which Red only turns his commander back and forth
/// (found by the engine at depth 3, written in Tensi's notation).
const GREEN: [&str; 24] = [
    "c2-c4", "g2-g4", "e3-e4", "d1-a4", "f1-i4", "c4-d5", "d5xd7", "g1-i3", "a4-b5", "c1-a3",
    "a3-d6", "e4-e5", "i4-h5", "e2-e4", "e4-3", "f3-f4", "d2+3", "h1-h3", "h3+4", "h3-2", "h5-i6",
    "g4-f5", "d7xe8", "e8xe9#",
];

/// The whole game as input lines: Red's turns alternate between the university string
/// and Tensi's notation (`e9-1` is one step clockwise, `e9+1` one step back).
fn game_lines() -> Vec<String> {
    let mut lines = Vec::new();
    for (i, g) in GREEN.iter().enumerate() {
        lines.push((*g).to_owned());
        if i + 1 < GREEN.len() {
            lines.push(if i % 2 == 0 { "e9-e9-1" } else { "e9+1" }.to_owned());
        }
    }
    lines
}

#[test]
fn a_scripted_game_is_played_to_the_end_saved_and_exported() {
    let record = temp("scripted.plg");
    let sheet = temp("scripted.txt");
    let mut lines = vec![
        // Mistakes first: each gets a message and the same prompt.
        "e3-e5".to_owned(),
        "e3-e4-9".to_owned(),
        "frobnicate".to_owned(),
        "save".to_owned(),
        "budget depth zero".to_owned(),
        // A move taken back and played again.
        "e3-e4".to_owned(),
        "undo".to_owned(),
        "hint".to_owned(),
    ];
    lines.extend(game_lines());
    lines.push("e5-e6".to_owned()); // the game is over
    lines.push(format!("save {}", record.display()));
    lines.push(format!("sheet {}", sheet.display()));
    lines.push("quit".to_owned());
    let out = session(humans(), &(lines.join("\n") + "\n"));

    assert!(
        out.contains("Not a legal move: `e3-e5`: not legal here"),
        "{out}"
    );
    assert!(out.contains("Not a legal move: `e3-e4-9`"), "{out}");
    assert!(
        out.contains("`frobnicate` is neither a move nor a command"),
        "{out}"
    );
    assert!(out.contains("`save` needs a file name"), "{out}");
    assert!(out.contains("depth: `zero` is not valid here"), "{out}");
    assert!(out.contains("Took back e3-e4."), "{out}");
    assert!(out.contains("Hint: "), "{out}");
    // After each mistake the same player is asked again.
    assert!(out.contains("green> e3-e5\nNot a legal move"), "{out}");
    assert!(out.contains("green> frobnicate\n`frobnicate`"), "{out}");
    assert!(
        out.contains("Last move: Green d5xd7 (captured red's shield)"),
        "{out}"
    );
    assert!(
        out.contains("Last move: Green e8xe9# (captured red's commander)"),
        "{out}"
    );
    assert!(
        out.contains("Game over: Green wins, commander captured."),
        "{out}"
    );
    assert!(out.contains("the game is over"), "{out}");
    assert!(out.contains("Game saved to"), "{out}");
    assert!(out.contains("Score sheet exported to"), "{out}");
    // Saved, so `quit` quits at once.
    assert!(out.trim_end().ends_with("ploy> quit"), "{out}");

    // The record and the sheet hold the whole game.
    let won = Outcome::win(Seat::Green, WinReason::CommanderCaptured);
    let saved = ploy::sheet::read_record(&std::fs::read_to_string(&record).unwrap()).unwrap();
    assert_eq!(saved.game.moves().len(), 47);
    assert_eq!(saved.game.outcome(), Some(won));
    assert_eq!(saved.header.players.get(Seat::Green), Some("human"));
    let text = std::fs::read_to_string(&sheet).unwrap();
    assert!(text.starts_with("Ploy score sheet\n"), "{text}");
    assert!(text.contains("\n1\tc2-c4\te9-1\n"), "{text}");
    assert!(text.contains("\td7xe8\te9-1\n24\te8xe9#\n"), "{text}");
    let from_sheet = ploy::sheet::read_sheet(&text).unwrap();
    assert_eq!(from_sheet.game, saved.game);

    // Load it again (the sheet this time), take the last move back, play it again.
    let script = format!(
        "load {}\nundo\nposition\ne8xe9\nquit\nquit\n",
        sheet.display()
    );
    let out = session(humans(), &script);
    assert!(out.contains("Loaded the score sheet"), "{out}");
    assert!(out.contains("47 moves"), "{out}");
    assert!(out.contains("Took back e8xe9#."), "{out}");
    assert!(
        out.contains("Game over: Green wins, commander captured."),
        "{out}"
    );
    // Not saved since the undo: the first `quit` warns, the second quits.
    assert!(out.contains("is not saved"), "{out}");
    assert!(out.trim_end().ends_with("ploy> quit"), "{out}");

    let _ = std::fs::remove_file(record);
    let _ = std::fs::remove_file(sheet);
}

#[test]
fn quitting_an_unsaved_game_says_so() {
    let out = session(humans(), "e3-e4\nquit\nquit\n");
    assert!(
        out.contains("The game (1 move) is not saved. Type `save FILE` to keep it"),
        "{out}"
    );
    // The end of the input with an unsaved game says so too.
    let out = session(humans(), "e3-e4\n");
    assert!(
        out.contains("End of input: the game (1 move) was not saved."),
        "{out}"
    );
    // `new` with an unsaved game asks first as well.
    let out = session(humans(), "e3-e4\nnew\nnew partnership\nquit\n");
    assert!(out.contains("is not saved"), "{out}");
    assert!(out.contains("New game: partnership"), "{out}");
}

#[test]
fn the_engine_plays_itself_to_the_end() {
    let options = Options {
        players: [Player::Engine; 4],
        strength: Strength::Depth(1),
        ..Options::default()
    };
    let out = session(options, "quit\nquit\n");
    assert!(out.contains("(engine) plays"), "{out}");
    assert!(out.contains("thinking: depth 1 score "), "{out}");
    assert!(out.contains("Game over: "), "{out}");
}

#[test]
fn human_against_engine_either_side() {
    // The engine plays Green (first) and answers each of Red's moves.
    let options = Options {
        players: [Player::Engine, Player::Human, Player::Human, Player::Human],
        strength: Strength::Nodes(2000),
        echo: true,
        ..Options::default()
    };
    let out = session(options, "e9+1\nhint\ngo\nundo\nundo\nundo\nquit\n");
    // Green's first move, its answer to e9+1, and its answer to the move `go` made for Red.
    assert_eq!(out.matches("Green (engine) plays").count(), 3, "{out}");
    assert!(out.contains("Red (engine) plays"), "{out}"); // `go` on Red's turn
    assert!(out.contains("Hint: "), "{out}");
    // Each `undo` goes back to Red's turn; the last one to the start, where the engine
    // waits instead of moving again at once.
    assert_eq!(out.matches("Took back").count(), 3, "{out}");
    assert!(out.contains("The engine waits: type `go`"), "{out}");
    assert!(out.trim_end().ends_with("green> quit"), "{out}");

    // The player Green against the engine at a whole-game clock.
    let options = Options {
        strength: Strength::Clock {
            base: std::time::Duration::from_secs(2),
            increment: std::time::Duration::from_millis(10),
        },
        ..Options::default()
    };
    let out = session(options, "e3-e4\nquit\nquit\n");
    assert!(out.contains("Red (engine) plays"), "{out}");
    assert!(out.contains("Clocks: Green "), "{out}");
}

#[test]
fn four_player_games() {
    // Partnership: the engine plays the teams.
    let options = Options {
        variant: Variant::Partnership,
        players: [
            Player::Human,
            Player::Engine,
            Player::Engine,
            Player::Engine,
        ],
        strength: Strength::Depth(1),
        ..Options::default()
    };
    let out = session(options, "moves\nquit\nquit\n");
    assert!(out.contains("Rules: partnership"), "{out}");
    assert!(out.contains("Ply 1: Green to move (human)."), "{out}");
    let opts = Options::from_args(["--variant", "partnership", "--depth", "1"]).unwrap();
    let script = "rules\nb2-1\nquit\nquit\n";
    let out = session(opts, script);
    assert!(out.contains("Red (engine) plays"), "{out}");
    assert!(out.contains("Yellow (engine) plays"), "{out}");
    assert!(out.contains("Blue (engine) plays"), "{out}");

    // Free-for-all: the engine plays every seat (paranoid search).
    let opts = Options::from_args(["--variant", "ffa", "--engines", "--depth", "1"]).unwrap();
    let out = session(opts, "hint\nquit\nquit\n");
    for seat in ["Green", "Red", "Yellow", "Blue"] {
        assert!(out.contains(&format!("{seat} (engine) plays")), "{out}");
    }
}

#[test]
fn rule_options_and_commands() {
    let opts = Options::from_args([
        "--humans",
        "--university",
        "--relaxed",
        "--single-step",
        "--no-capture-limit",
        "50",
    ])
    .unwrap();
    let out = session(
        opts,
        "rules\ne2+3\ne2-1\nnew standard\nnew standard\nrules\nhelp\nquit\n",
    );
    assert!(
        out.contains("two-player; elimination relaxed; rotation single-step; repetition draw off; no-capture limit 50 plies"),
        "{out}"
    );
    // Single-step rotation: a turn by three steps is not legal.
    assert!(out.contains("Not a legal move: `e2+3`"), "{out}");
    assert!(out.contains("Last move: Green e2-1"), "{out}");
    // The second `new` goes ahead; `standard` is the whole preset.
    assert!(
        out.contains("New game: two-player; elimination strict; rotation any; repetition draw on; no-capture limit 200 plies"),
        "{out}"
    );
    assert!(out.contains("save FILE"), "{out}");

    assert!(Options::from_args(["--bogus"]).is_err());
    assert!(Options::from_args(["--time", "x"]).is_err());
    let o = Options::from_args(["--clock", "5+2", "--red", "human"]).unwrap();
    assert_eq!(o.players[1], Player::Human);
    assert!(matches!(o.strength, Strength::Clock { .. }));
}

#[test]
fn the_board_shows_owners_flags_and_the_last_move() {
    let pos = ploy::core::Position::new();
    let text = ploy::play::board_picture(&pos, None, false);
    let lines: Vec<&str> = text.lines().collect();
    // 9 ranks of 3 lines and the file letters.
    assert_eq!(lines.len(), 28);
    assert!(lines[27].contains("a    b    c"), "{text}");
    // The green commander on e1 (diagonal flags), drawn around its capital letter.
    assert!(lines[24].contains("\\ /"), "{text}");
    assert!(lines[25].starts_with(" 1 "), "{text}");
    assert!(lines[25].contains(" G "), "{text}");
    assert!(lines[26].contains("/ \\"), "{text}");
}

/// Fault 1: a line that is not UTF-8 is bad input like any other: said so, and the game
/// goes on (it used to end the session with an I/O error, losing the game).
#[test]
fn invalid_utf8_input_is_a_bad_line_not_the_end() {
    let mut script = b"e3-e4\n".to_vec();
    script.extend_from_slice(b"e7\xff-e6\n");
    script.extend_from_slice(b"position\nquit\nquit\n");
    let mut out = Vec::new();
    let result = run(Cursor::new(script), &mut out, humans());
    let out = String::from_utf8(out).expect("utf-8 output");
    assert!(result.is_ok(), "{result:?}\n{out}");
    assert!(out.contains("not valid UTF-8"), "{out}");
    // The game is still there: the move before the bad line, the commands after it.
    assert!(out.contains("Last move: Green e3-e4"), "{out}");
    assert!(out.contains("red> quit"), "{out}");
    assert!(out.contains("is not saved"), "{out}");
}

/// Fault 6: `load` reads at most `ploy::play::MAX_FILE_BYTES`; a larger file (or an endless
/// one such as /dev/zero) is refused with a message instead of filling the memory.
#[test]
fn load_reads_a_bounded_amount() {
    let big = temp("big.plg");
    let f = std::fs::File::create(&big).unwrap();
    f.set_len(ploy::play::MAX_FILE_BYTES + 1).unwrap(); // sparse: costs no disk
    drop(f);
    let out = session(humans(), &format!("load {}\nquit\n", big.display()));
    assert!(out.contains("larger than the limit of"), "{out}");
    let _ = std::fs::remove_file(&big);
    #[cfg(unix)]
    {
        let out = session(humans(), "load /dev/zero\nquit\n");
        assert!(out.contains("Cannot load /dev/zero"), "{out}");
        assert!(out.contains("larger than the limit of"), "{out}");
    }
}

/// Fault 9: `save` replaces a file only through a complete temporary copy (renamed over
/// it), and refuses to replace a file that holds another game unless told `force`.
#[test]
fn save_keeps_another_game_unless_forced() {
    let path = temp("other.plg");
    // Another game in the file.
    let out = session(humans(), &format!("c2-c4\nsave {}\nquit\n", path.display()));
    assert!(out.contains("Game saved to"), "{out}");
    assert!(out.contains("(1 move)."), "{out}");
    let other = std::fs::read_to_string(&path).unwrap();
    // This game would replace it: refused, the file unchanged.
    let out = session(
        humans(),
        &format!("e3-e4\nsave {}\nquit\nquit\n", path.display()),
    );
    assert!(out.contains("holds another game"), "{out}");
    assert!(out.contains("force"), "{out}");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), other);
    // `force` replaces it, by a new file renamed over the old one: the old file is never
    // truncated and written in place, so a second name for it still holds the other game.
    let link = temp("other-link.plg");
    let _ = std::fs::remove_file(&link);
    let linked = std::fs::hard_link(&path, &link).is_ok();
    let out = session(
        humans(),
        &format!("e3-e4\nsave {} force\nquit\n", path.display()),
    );
    assert!(out.contains("Game saved to"), "{out}");
    if linked {
        assert_eq!(std::fs::read_to_string(&link).unwrap(), other);
        let _ = std::fs::remove_file(&link);
    }
    let saved = ploy::sheet::read_record(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(saved.game.moves().len(), 1);
    // The same game, saved again after more moves, needs no `force`.
    let out = session(
        humans(),
        &format!("load {0}\ne9+1\nsave {0}\nquit\n", path.display()),
    );
    assert!(out.contains("Game saved to"), "{out}");
    assert!(!out.contains("holds another game"), "{out}");
    // No temporary file is left beside it.
    let dir = path.parent().unwrap();
    let name = path.file_name().unwrap().to_string_lossy().into_owned();
    let leftovers: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains(&name) && *n != name)
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
    let _ = std::fs::remove_file(&path);
}

/// `--load` of a file that cannot be read is an error before anything is shown.
#[test]
fn load_option_of_a_missing_file_fails_before_the_board() {
    let options = Options {
        load: Some(temp("missing.plg").display().to_string()),
        ..humans()
    };
    let mut out = Vec::new();
    let err = run(Cursor::new(b"quit\n".to_vec()), &mut out, options).unwrap_err();
    assert!(err.to_string().starts_with("cannot load "), "{err}");
    assert!(err.to_string().contains("missing.plg"), "{err}");
    assert!(out.is_empty(), "{}", String::from_utf8_lossy(&out));
}

/// Every line of the board, its legend, the status and `help` fits a terminal of 80
/// columns, in every variant.
#[test]
fn the_display_fits_80_columns() {
    for variant in ["two-player", "ffa", "partnership"] {
        let opts = Options::from_args(["--variant", variant, "--humans", "--depth", "1"]).unwrap();
        let out = session(opts, "board\nhelp\nquit\n");
        // From the board shown by `board` to the end of `help`.
        let from = out.find("green> ").expect("a prompt");
        for line in out[from..].lines() {
            // Without echo, the answer follows the prompt on the same line.
            let line = line.rsplit("> ").next().unwrap();
            assert!(line.chars().count() <= 80, "{variant}: {line:?}");
        }
        assert!(out.contains("capital = commander"), "{out}");
    }
}

/// A typed move that cannot be read is answered by character (counting from 1), and a
/// character that is not ASCII is shown as itself.
#[test]
fn move_errors_name_the_character() {
    let out = session(humans(), "e3-e4-9\ne3\u{2013}e4\n\u{e9}3-e4\nquit\n");
    assert!(
        out.contains("`e3-e4-9`: character 7: expected a rotation digit `0`..`7`, found `9`"),
        "{out}"
    );
    assert!(
        out.contains("`e3\u{2013}e4`: character 3: expected"),
        "{out}"
    );
    assert!(out.contains("found `\u{2013}`"), "{out}");
    assert!(!out.contains("byte"), "{out}");
}

/// Saved games carry the date the game began and the time control.
#[test]
fn saved_games_have_a_date_and_a_time_control() {
    let path = temp("dated.plg");
    let _ = std::fs::remove_file(&path);
    let opts = Options {
        strength: Strength::Clock {
            base: std::time::Duration::from_secs(300),
            increment: std::time::Duration::from_secs(2),
        },
        ..humans()
    };
    let out = session(opts, &format!("e3-e4\nsave {}\nquit\n", path.display()));
    assert!(out.contains("Game saved"), "{out}");
    let saved = ploy::sheet::read_record(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let date = saved.header.date.expect("a date");
    assert_eq!(date.len(), 10, "{date}");
    assert!(
        date.starts_with("20") && date.as_bytes()[4] == b'-',
        "{date}"
    );
    assert_eq!(
        saved.header.time_control.as_deref(),
        Some("5 min per game + 2 s per move")
    );
    let _ = std::fs::remove_file(&path);
}

/// `history` numbers the moves by round; `undo` and `redo` walk the game back and forth;
/// a new move after `undo` forgets what could be redone.
#[test]
fn history_undo_and_redo() {
    let out = session(
        humans(),
        "history\ne3-e4\ne9+1\nc2-c4\nhistory\nundo\nundo\nhistory\nredo\nredo\nredo\nhistory\nundo\ne4-e5\nredo\nquit\nquit\n",
    );
    assert!(out.contains("No moves yet."), "{out}");
    assert!(out.contains("  1. e3-e4  e9+1\n  2. c2-c4\n"), "{out}");
    assert!(out.contains("Took back c2-c4."), "{out}");
    assert!(out.contains("Took back e9+1."), "{out}");
    assert!(out.contains("history\n  1. e3-e4\n"), "{out}");
    assert!(out.contains("Played again: e9+1."), "{out}");
    assert!(out.contains("Played again: c2-c4."), "{out}");
    assert!(out.contains("Nothing to redo."), "{out}");
    // After `undo` and another move, there is nothing to redo.
    let tail = &out[out.rfind("e4-e5").unwrap()..];
    assert!(tail.contains("Nothing to redo."), "{tail}");

    // Against the engine, `undo` takes back its reply too and `redo` plays both again.
    let options = Options {
        strength: Strength::Depth(1),
        echo: true,
        ..Options::default()
    };
    let out = session(options, "e3-e4\nundo\nredo\nhistory\nquit\nquit\n");
    assert!(out.contains("Took back "), "{out}");
    assert!(out.contains("Played again: e3-e4, "), "{out}");
    assert!(out.contains("  1. e3-e4  "), "{out}");
}

/// `undo` after `resign` or `draw` takes back only the ending: the moves stay.
#[test]
fn undo_after_an_ending_takes_back_only_the_ending() {
    let out = session(
        humans(),
        "e3-e4\nresign\nundo\nhistory\ndraw\nundo\nredo\nquit\nquit\n",
    );
    assert!(out.contains("Game over: Green wins, resignation."), "{out}");
    assert!(
        out.contains("Took back the resignation; the game goes on."),
        "{out}"
    );
    assert!(out.contains("  1. e3-e4\n"), "{out}"); // the move is still there
    assert!(out.contains("Game over: draw, agreement."), "{out}");
    assert!(out.contains("Took back the agreed draw"), "{out}");
    assert!(out.contains("Played again: the agreed draw."), "{out}");
}

/// The engine declines a draw when it judges its side winning, and accepts it otherwise.
#[test]
fn the_engine_declines_a_draw_it_judges_winning() {
    // Red (the engine) is a lance up: it declines.
    let options = Options {
        players: [
            Player::Human,
            Player::Engine,
            Player::Engine,
            Player::Engine,
        ],
        strength: Strength::Depth(2),
        echo: true,
        ..Options::default()
    };
    let record = temp("lance-down.plg");
    // The start position without Green's lance on d1.
    let mut setup = ploy::core::Position::new().to_setup();
    setup.board.remove(ploy::core::Square::D1);
    let start = ploy::core::Position::from_setup(setup, ploy::core::Rules::standard()).unwrap();
    let start = ploy::notation::PositionString::from_position(&start);
    let text = format!("ploy-record: 1\nvariant: two-player\nstart: {start}\nmoves:\n");
    std::fs::write(&record, text).unwrap();
    let out = session(
        Options {
            load: Some(record.display().to_string()),
            ..options.clone()
        },
        "draw\nquit\nquit\n",
    );
    assert!(out.contains("Red (engine) declines the draw"), "{out}");
    assert!(out.contains("for Red)"), "{out}");
    assert!(!out.contains("Game over"), "{out}");
    // At the start, level: it accepts.
    let out = session(options, "draw\nquit\n");
    assert!(out.contains("Game over: draw, agreement."), "{out}");
    // In a free-for-all game at the start each engine's share is about an equal one: the
    // three accept.
    let opts = Options::from_args(["--variant", "ffa", "--depth", "1"]).unwrap();
    let out = session(opts, "draw\nquit\n");
    assert!(out.contains("Game over: draw, agreement."), "{out}");
    let _ = std::fs::remove_file(record);
}

/// `view` shows the board from any seat, `flip` turns it round; the engine's scores say
/// whose they are.
#[test]
fn views_and_labelled_scores() {
    let opts = Options::from_args(["--variant", "ffa", "--humans", "--depth", "1"]).unwrap();
    let out = session(opts, "view red\nflip\nview blue\nview purple\nhint\nquit\n");
    // From Red's side his corner (a9, the commander `R`) is at the bottom left, and the
    // left side is labelled with files, the bottom with ranks.
    let red_view = &out[out.find("green> ").unwrap()..];
    let lines: Vec<&str> = red_view.lines().collect();
    // (Line 0 is the prompt; the picture follows it.)
    assert!(lines[26].starts_with(" a "), "{red_view}");
    assert!(lines[26].contains("-R-"), "{red_view}");
    assert!(lines[28].contains("9    8    7"), "{red_view}");
    assert!(out.contains("No seat `purple` in this game."), "{out}");
    assert!(out.contains("for Green against all, share "), "{out}");

    let pos = ploy::core::Position::new();
    // Turned round, the two-player board shows Red's commander e9 at the bottom.
    let text = ploy::play::board_picture_turned(&pos, None, false, 2);
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[25].starts_with(" 9 "), "{text}");
    assert!(lines[25].contains(" R "), "{text}");
    assert!(lines[27].contains("i    h    g"), "{text}");
    // The flags turn with it: Red's commander points diagonally, as Green's does.
    assert!(lines[24].contains("\\ /"), "{text}");
    assert_eq!(
        ploy::play::board_picture_turned(&pos, None, false, 4),
        ploy::play::board_picture(&pos, None, false)
    );
}

/// In a free-for-all game, the player to move may resign while several opponents are in
/// play: he leaves, his pieces leave the board, the others play on.
#[test]
fn resigning_in_a_free_for_all_game() {
    let path = temp("ffa-resign.plg");
    let _ = std::fs::remove_file(&path);
    let opts = Options::from_args(["--variant", "ffa", "--humans", "--depth", "1"]).unwrap();
    let out = session(
        opts.clone(),
        &format!(
            "resign\nhistory\nsave {}\nundo\nredo\nquit\nquit\n",
            path.display()
        ),
    );
    assert!(
        out.contains("Green resigns and leaves the game; his pieces leave the board."),
        "{out}"
    );
    assert!(out.contains("G=Green (human) [out]"), "{out}");
    assert!(out.contains("Ply 1: Red to move (human)."), "{out}");
    assert!(out.contains("  1. (Green resigns)"), "{out}");
    assert!(out.contains("Took back Green's resignation"), "{out}");
    let saved = ploy::sheet::read_record(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(saved.game.withdrawals().count(), 1);
    assert!(saved.game.outcome().is_none());
    // Loaded, the game goes on where it was.
    let out = session(opts, &format!("load {}\nposition\nquit\n", path.display()));
    assert!(out.contains("Ply 1: Red to move (human)."), "{out}");
    let _ = std::fs::remove_file(&path);
}

/// Output shared with the test, so that the input can wait for what the session wrote.
#[derive(Clone, Default)]
struct Shared(std::sync::Arc<std::sync::Mutex<Vec<u8>>>);

impl std::io::Write for Shared {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Shared {
    fn text(&self) -> String {
        String::from_utf8_lossy(&self.0.lock().unwrap()).into_owned()
    }
}

/// Input that types nothing until the session has written `until`, then `then`.
struct WaitFor {
    out: Shared,
    until: &'static str,
    then: Cursor<Vec<u8>>,
}

impl std::io::Read for WaitFor {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        while !self.out.text().contains(self.until) {
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        self.then.read(buf)
    }
}

/// With the input read by a thread (as the example reads a pipe), a person's clock ends
/// the game at zero while he types nothing; `undo` then takes back the forfeit and gives
/// him his turn's time again.
#[test]
fn the_clock_ends_the_game_without_a_line_typed() {
    let out = Shared::default();
    let input = WaitFor {
        out: out.clone(),
        until: "time forfeit",
        then: Cursor::new(b"undo\nquit\n".to_vec()),
    };
    let options = Options {
        strength: Strength::Clock {
            base: std::time::Duration::from_millis(300),
            increment: std::time::Duration::ZERO,
        },
        ..humans()
    };
    ploy::play::run_threaded(std::io::BufReader::new(input), out.clone(), options).unwrap();
    let text = out.text();
    assert!(text.contains("green> \nGreen's time is up."), "{text}");
    assert!(
        text.contains("Game over: Red wins, time forfeit."),
        "{text}"
    );
    assert!(text.contains("Took back the time forfeit"), "{text}");
    assert!(text.trim_end().ends_with("green> quit"), "{text}");
}

/// `level N` sets the engine's level (1 to 8) and refuses anything else with the level's
/// message; `budget` is what `level` was before 0.2.0 (the search budget); `level` with
/// two words says where the budget went. At level 2 and a node budget, the same moves
/// and seed give the same engine replies.
#[test]
fn level_sets_the_engine_level_and_budget_the_search_budget() {
    let options = Options {
        players: [Player::Human, Player::Engine, Player::Human, Player::Human],
        strength: Strength::Nodes(3000),
        echo: true,
        ..Options::default()
    };
    let script = "level\nlevel 0\nlevel 9\nlevel x\nlevel depth 2\nbudget\nbudget nodes 4000\n\
                  budget depth zero\nlevel 2\nplayers\ne3-e4\nc2-c4\nquit\nquit\n";
    let out = session(options.clone(), script);
    assert!(out.contains("Level 8 of 8 (full strength)."), "{out}");
    for bad in ["0", "9", "x"] {
        assert!(
            out.contains(&format!(
                "`{bad}` is not a level: a level is a whole number from 1 to 8."
            )),
            "{bad}: {out}"
        );
    }
    assert!(out.contains("the search budget is `budget time S"), "{out}");
    assert!(out.contains("Engine: 3000 nodes per move."), "{out}");
    assert!(out.contains("Engine: 4000 nodes per move."), "{out}");
    assert!(out.contains("depth: `zero` is not valid here"), "{out}");
    assert!(out.contains("Level 2 of 8."), "{out}");
    assert!(
        out.contains("engine: 4000 nodes per move, level 2 of 8."),
        "{out}"
    );
    assert_eq!(out.matches("Red (engine) plays").count(), 2, "{out}");

    // The same game and seed: the same replies; `--level` and `--seed` say the same as
    // the commands.
    let replies = |out: &str| -> Vec<String> {
        out.lines()
            .filter(|l| l.starts_with("Red (engine) plays"))
            .map(|l| l.split("   [").next().unwrap_or_default().to_owned())
            .collect()
    };
    let game = "e3-e4\nc2-c4\ng2-g4\nquit\nquit\n";
    let mut args = Options::from_args(["--level", "2", "--seed", "4", "--nodes", "3000"]).unwrap();
    args.players = options.players;
    let one = replies(&session(args.clone(), game));
    assert_eq!(one.len(), 3, "{one:?}");
    assert_eq!(one, replies(&session(args, game)));
    for bad in ["0", "9", "x"] {
        let e = Options::from_args(["--level", bad]).unwrap_err();
        assert!(e.contains("a level is a whole number from 1 to 8"), "{e}");
    }
}
