//! The Pyloff programs end to end: `ploy pyloff moves|analyze|play|match` run as child
//! processes, fed on standard input; their output is parsed as JSON (the `moves` and
//! `analyze` contracts) and compared with the library and with the reference rules of the
//! test suite.

use crate::pyloff_common as common;

use std::io::Write;
use std::process::{Command, Output, Stdio};

use common::{mix, random_move, reference, report};
use pyloff::{Game, Move, Options, RuleSet, Status};
use serde_json::Value;

/// Runs `ploy pyloff <program>` with `args`, feeding `input` on its standard input.
fn run(program: &str, args: &[&str], input: &str) -> Output {
    let bin = env!("CARGO_BIN_EXE_ploy");
    let mut child = Command::new(bin)
        .args(["pyloff", program])
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run {bin}: {e}"));
    child
        .stdin
        .take()
        .expect("a pipe")
        .write_all(input.as_bytes())
        .expect("the program reads its input");
    child.wait_with_output().expect("the program ends")
}

/// Runs `program` with one input line per game, returning one parsed JSON value per line.
fn json_lines(program: &str, args: &[&str], lines: &[String]) -> Vec<Value> {
    let mut input = lines.join("\n");
    input.push('\n');
    let out = run(program, args, &input);
    assert!(
        out.status.success(),
        "{program} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).expect("UTF-8 output");
    let values: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON: {l}: {e}")))
        .collect();
    assert_eq!(values.len(), lines.len(), "one answer a line:\n{text}");
    values
}

fn args_of(options: Options) -> Vec<String> {
    let mut v = vec![
        "--size".to_owned(),
        options.size().to_string(),
        "--players".to_owned(),
        options.players().to_string(),
    ];
    match options.rules() {
        RuleSet::Default => {}
        RuleSet::AllFreedoms => v.push("--all-freedoms".to_owned()),
        RuleSet::CutDown => v.push("--cut-down".to_owned()),
    }
    v
}

/// Checks one `moves` answer against the reference's report, key by key.
fn check_moves_answer(value: &Value, expected: &common::reference::Report) {
    let obj = value.as_object().expect("an object");
    let keys: Vec<&str> = obj.keys().map(String::as_str).collect();
    let mut sorted_keys = keys.clone();
    sorted_keys.sort_unstable();
    assert_eq!(
        sorted_keys,
        ["legal", "outcome", "score", "to_move", "winners"],
        "{value}"
    );
    let legal: Vec<&str> = obj["legal"]
        .as_array()
        .expect("legal is a list")
        .iter()
        .map(|v| v.as_str().expect("moves are strings"))
        .collect();
    assert_eq!(legal, expected.legal, "{value}");
    match expected.to_move {
        Some(p) => assert_eq!(obj["to_move"], Value::from(p)),
        None => assert!(obj["to_move"].is_null()),
    }
    assert_eq!(
        obj["outcome"],
        Value::from(if expected.over { "over" } else { "ongoing" })
    );
    let winners: Vec<u64> = obj["winners"]
        .as_array()
        .expect("winners is a list")
        .iter()
        .map(|v| v.as_u64().expect("numbers"))
        .collect();
    let expected_winners: Vec<u64> = expected.winners.iter().map(|&w| u64::from(w)).collect();
    assert_eq!(winners, expected_winners);
    let score = obj["score"].as_object().expect("score is an object");
    assert_eq!(score.len(), expected.score.len());
    for (i, s) in expected.score.iter().enumerate() {
        assert_eq!(score[&(i + 1).to_string()], Value::from(*s), "{value}");
    }
}

/// Random games of every size 2 to 5, player count and rule set: every prefix of each game
/// is a line, and the program agrees with the reference rules on all of them.
#[test]
fn moves_agrees_with_the_reference() {
    let mut seed = 2024;
    for rules in RuleSet::ALL {
        for players in 2..=4 {
            let size = 2 + (seed % 4) as u8;
            seed = mix(seed);
            let options = Options::new(size, players, rules).unwrap();
            let mut game = Game::new(options);
            let mut lines = vec![String::new()];
            let mut expected = vec![reference(options).report()];
            let mut r = reference(options);
            for _ in 0..50 {
                let Some(mv) = random_move(game.position(), &mut seed) else {
                    break;
                };
                game.play(mv).unwrap();
                assert!(r.play(&mv.to_string()));
                let text: Vec<String> = game.moves().iter().map(|(_, m)| m.to_string()).collect();
                lines.push(text.join(" "));
                expected.push(r.report());
            }
            let args = args_of(options);
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let answers = json_lines("moves", &args, &lines);
            for (answer, exp) in answers.iter().zip(&expected) {
                check_moves_answer(answer, exp);
            }
        }
    }
}

/// A game to a forced pass, and to its end: `["pass"]`, then nothing and `null`; a
/// placement instead of the pass and any move after the end are errors.
#[test]
fn moves_forced_pass_and_end() {
    let options = Options::new(3, 2, RuleSet::CutDown).unwrap();
    let mut seed = 5;
    let (mut pass_line, mut over_line) = (None, None);
    for _ in 0..200 {
        let mut game = Game::new(options);
        while let Some(mv) = random_move(game.position(), &mut seed) {
            if game.moves().len() > 200 {
                break;
            }
            game.play(mv).unwrap();
            let text: Vec<String> = game.moves().iter().map(|(_, m)| m.to_string()).collect();
            match game.position().status() {
                Status::MustPass if pass_line.is_none() => pass_line = Some(text.join(" ")),
                Status::Over if over_line.is_none() => over_line = Some(text.join(" ")),
                _ => {}
            }
        }
        if pass_line.is_some() && over_line.is_some() {
            break;
        }
    }
    let (pass_line, over_line) = (pass_line.unwrap(), over_line.unwrap());
    let pass_game = Game::from_moves(options, &pass_line).unwrap();
    let mut bad_placement = None;
    for x in 0..5 {
        for y in (x % 2..5).step_by(2) {
            let mv = Move::Place(pyloff::Cell::new(x, y).unwrap());
            if bad_placement.is_none()
                && pass_game
                    .position()
                    .lowest_empty(mv.cell().unwrap())
                    .is_some()
            {
                bad_placement = Some(mv);
            }
        }
    }
    let lines = vec![
        pass_line.clone(),
        format!("{pass_line} pass"),
        format!("{pass_line} {}", bad_placement.unwrap()),
        over_line.clone(),
        format!("{over_line} pass"),
        format!("{over_line} a1"),
    ];
    let args = args_of(options);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let answers = json_lines("moves", &args, &lines);
    assert_eq!(answers[0]["legal"], serde_json::json!(["pass"]));
    assert!(answers[0]["to_move"].is_number());
    assert_eq!(answers[1]["outcome"], "ongoing");
    assert!(
        answers[2]["error"].as_str().unwrap().contains("must pass"),
        "{}",
        answers[2]
    );
    assert_eq!(answers[3]["legal"], serde_json::json!([]));
    assert!(answers[3]["to_move"].is_null());
    assert_eq!(answers[3]["outcome"], "over");
    let n = over_line.split_whitespace().count();
    for answer in &answers[4..] {
        let e = answer["error"].as_str().expect("an error");
        assert!(e.contains("game is over"), "{e}");
        assert!(e.starts_with(&format!("move {}", n + 1)), "{e}");
        assert_eq!(answer.as_object().unwrap().len(), 1);
    }
    // The library says the same.
    let over = Game::from_moves(options, &over_line).unwrap();
    let expected = report(over.position());
    check_moves_answer(&answers[3], &expected);
}

/// The contract's details: sorting (column letter, then row number as a number), swap
/// last, case-insensitive input, errors naming the move, the score object.
#[test]
fn moves_contract_details() {
    let lines: Vec<String> = [
        "",
        "K11",
        "k11 swap",
        "k11 swap a1 swap",
        "a1 a2",
        "a1 z1",
        "a1 a1",
        "a1 pass",
        "a1 b2",
        "hello",
    ]
    .iter()
    .map(|s| (*s).to_owned())
    .collect();
    let answers = json_lines("moves", &[], &lines);
    let legal: Vec<&str> = answers[0]["legal"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    assert_eq!(legal.len(), 36);
    assert_eq!(&legal[..7], ["a1", "a3", "a5", "a7", "a9", "a11", "c1"]);
    assert_eq!(legal[35], "k11");
    assert_eq!(
        answers[1]["legal"].as_array().unwrap().last().unwrap(),
        "swap"
    );
    assert_eq!(answers[1]["to_move"], 2);
    assert_eq!(answers[1]["score"], serde_json::json!({"1": 1, "2": 0}));
    assert_eq!(answers[2]["to_move"], 1);
    assert_eq!(answers[2]["score"], serde_json::json!({"1": 0, "2": 1}));
    assert!(
        !answers[2]["legal"]
            .as_array()
            .unwrap()
            .contains(&Value::from("swap"))
    );
    let errors: Vec<&str> = answers[3..]
        .iter()
        .map(|a| a["error"].as_str().unwrap())
        .collect();
    assert!(errors[0].starts_with("move 4 `swap`"), "{}", errors[0]);
    assert!(errors[1].starts_with("move 2 `a2`"), "{}", errors[1]);
    assert!(errors[2].starts_with("move 2 `z1`"), "{}", errors[2]);
    assert!(errors[3].contains("full"), "{}", errors[3]);
    assert!(errors[4].contains("voluntary pass"), "{}", errors[4]);
    assert!(errors[5].contains("four pieces"), "{}", errors[5]);
    assert!(errors[6].starts_with("move 1 `hello`"), "{}", errors[6]);
}

#[test]
fn analyze_answers() {
    let options = Options::new(4, 3, RuleSet::Default).unwrap();
    // A forced pass and a finished game, found by random play.
    let mut seed = 11;
    let (mut pass_line, mut over_line) = (None, None);
    for _ in 0..300 {
        let mut game = Game::new(Options::new(3, 2, RuleSet::AllFreedoms).unwrap());
        while let Some(mv) = random_move(game.position(), &mut seed) {
            if game.moves().len() > 200 {
                break;
            }
            game.play(mv).unwrap();
            let text: Vec<String> = game.moves().iter().map(|(_, m)| m.to_string()).collect();
            match game.position().status() {
                Status::MustPass if pass_line.is_none() => pass_line = Some(text.join(" ")),
                Status::Over if over_line.is_none() => over_line = Some(text.join(" ")),
                _ => {}
            }
        }
        if pass_line.is_some() && over_line.is_some() {
            break;
        }
    }
    let lines = vec![
        pass_line.unwrap(),
        over_line.clone().unwrap(),
        "a1 a1".to_owned(),
        "c3".to_owned(),
    ];
    let answers = json_lines(
        "analyze",
        &["--size", "3", "--all-freedoms", "--depth", "3"],
        &lines,
    );
    assert_eq!(
        answers[0],
        serde_json::json!({"bestmove": "pass", "score": answers[0]["score"], "depth": 0})
    );
    assert!(answers[0]["score"].is_i64());
    let over = Game::from_moves(
        Options::new(3, 2, RuleSet::AllFreedoms).unwrap(),
        &over_line.unwrap(),
    )
    .unwrap();
    let winners: Vec<u8> = over
        .position()
        .outcome()
        .unwrap()
        .winners()
        .iter()
        .map(|p| p.number())
        .collect();
    assert_eq!(
        answers[1],
        serde_json::json!({"bestmove": null, "outcome": "over", "winners": winners})
    );
    assert!(answers[2]["error"].as_str().unwrap().contains("full"));
    let best = answers[3]["bestmove"].as_str().unwrap();
    assert!(
        Game::from_moves(
            Options::new(3, 2, RuleSet::AllFreedoms).unwrap(),
            &format!("c3 {best}")
        )
        .is_ok()
    );
    assert_eq!(answers[3]["depth"], 3);
    let score = &answers[3]["score"];
    assert!(
        score.is_i64()
            || score
                .as_str()
                .is_some_and(|s| s.starts_with("win ") || s.starts_with("loss ")),
        "{score}"
    );
    // Three players, a node budget: the same answer twice.
    let lines = vec!["c3 e5".to_owned(), "c3 e5".to_owned()];
    let answers = json_lines(
        "analyze",
        &["--size", "4", "--players", "3", "--nodes", "3000"],
        &lines,
    );
    assert_eq!(answers[0], answers[1]);
    let best: Move = answers[0]["bestmove"].as_str().unwrap().parse().unwrap();
    let game = Game::from_moves(options, "c3 e5").unwrap();
    assert!(game.position().is_legal(best));
}

#[test]
fn usage_errors_exit_2() {
    for (program, args) in [
        ("moves", vec!["--size", "14"]),
        ("moves", vec!["--players", "5"]),
        ("analyze", vec!["--bogus"]),
        ("play", vec!["--bots", "3"]),
        ("match", vec![]),
        (
            "match",
            vec!["--opponent", "random", "--mcts-exploration", "-1"],
        ),
        (
            "match",
            vec!["--opponent", "random", "--mcts-exploration", "NaN"],
        ),
    ] {
        let out = run(program, &args, "");
        assert_eq!(out.status.code(), Some(2), "{program} {args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!err.contains("panicked"), "{err}");
    }
    for program in ["moves", "analyze", "play", "match", "bench"] {
        let out = run(program, &["--help"], "");
        assert!(out.status.success(), "{program} --help");
    }
}

#[test]
fn play_session() {
    let dir = std::env::temp_dir().join(format!("pyloff-play-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("game.txt");
    let script = format!(
        "c3\nbogus\nb2\nmoves\nundo\ne5\nsave {}\nquit\n",
        file.display()
    );
    let out = run(
        "play",
        &["--size", "4", "--bots", "2", "--movetime", "20"],
        &script,
    );
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("level 0"), "{text}");
    assert!(text.contains("player 2 (bot) plays"), "{text}");
    assert!(text.contains("is not a move"), "{text}");
    assert!(text.contains("took back"), "{text}");
    let record: pyloff::Record = std::fs::read_to_string(&file).unwrap().parse().unwrap();
    let game = record.replay().unwrap();
    assert_eq!(
        game.options(),
        Options::new(4, 2, RuleSet::Default).unwrap()
    );
    // `undo` took back the bot's answer and c3: e5 is the first move.
    assert_eq!(game.moves()[0].1.to_string(), "e5");
    // Load it back and go on.
    let script = format!("load {}\nboard\nquit\n", file.display());
    let out = run(
        "play",
        &["--size", "4", "--bots", "2", "--movetime", "20"],
        &script,
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains(&format!("loaded {}", file.display())));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn match_runs() {
    let out = run(
        "match",
        &[
            "--opponent",
            "random",
            "--games",
            "2",
            "--movetime",
            "5",
            "--size",
            "3",
        ],
        "",
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        text.lines().filter(|l| l.starts_with("game ")).count(),
        2,
        "{text}"
    );
    assert!(text.contains("in 2 games"), "{text}");
}

/// Random games on every size 2 to 7, for 2 to 4 players under every rule set, with an
/// illegal or odd move tried now and then (any cell of a slightly larger grid, `swap`,
/// `pass`, upper case): every line agrees with the reference rules, and a move the
/// reference refuses is an error naming it.
#[test]
fn moves_agrees_on_every_size_with_illegal_moves() {
    let mut seed = 77;
    let (mut refused, mut accepted) = (0, 0);
    for rules in RuleSet::ALL {
        for players in 2..=4u8 {
            for size in 2..=7u8 {
                let options = Options::new(size, players, rules).unwrap();
                let plies = if size >= 6 { 18 } else { 30 };
                let mut game = Game::new(options);
                let mut r = reference(options);
                let mut lines = Vec::new();
                // What each line expects: the reference's report, or an error naming the
                // move at this number.
                let mut expected: Vec<Result<common::reference::Report, (usize, String)>> =
                    Vec::new();
                for _ in 0..plies {
                    let played: Vec<String> =
                        game.moves().iter().map(|(_, m)| m.to_string()).collect();
                    // An odd move after the current prefix.
                    seed = mix(seed);
                    let grid = 2 * i32::from(size) + 1;
                    let odd = match seed % 8 {
                        0 => "swap".to_owned(),
                        1 => "pass".to_owned(),
                        _ => {
                            let x = ((seed >> 8) % grid as u64) as i32;
                            let y = ((seed >> 24) % grid as u64) as i32;
                            common::reference::RefGame::cell_name((x, y))
                        }
                    };
                    let mut probe = r.clone();
                    let mut line = played.clone();
                    line.push(if seed % 5 == 0 {
                        odd.to_uppercase()
                    } else {
                        odd.clone()
                    });
                    lines.push(line.join(" "));
                    expected.push(if probe.play(&odd) {
                        accepted += 1;
                        Ok(probe.report())
                    } else {
                        refused += 1;
                        Err((played.len() + 1, odd))
                    });
                    // Then a random legal move, and the new prefix.
                    let Some(mv) = random_move(game.position(), &mut seed) else {
                        break;
                    };
                    game.play(mv).unwrap();
                    assert!(r.play(&mv.to_string()));
                    let text: Vec<String> =
                        game.moves().iter().map(|(_, m)| m.to_string()).collect();
                    lines.push(text.join(" "));
                    expected.push(Ok(r.report()));
                }
                let args = args_of(options);
                let args: Vec<&str> = args.iter().map(String::as_str).collect();
                let answers = json_lines("moves", &args, &lines);
                for ((answer, exp), line) in answers.iter().zip(&expected).zip(&lines) {
                    match exp {
                        Ok(report) => check_moves_answer(answer, report),
                        Err((n, mv)) => {
                            let e = answer["error"]
                                .as_str()
                                .unwrap_or_else(|| panic!("{options}: `{line}`: {answer}"));
                            assert!(
                                e.to_lowercase().starts_with(&format!("move {n} `{mv}`")),
                                "{options}: `{line}`: {e}"
                            );
                            assert_eq!(answer.as_object().unwrap().len(), 1);
                        }
                    }
                }
            }
        }
    }
    // Both kinds were tried, many times.
    assert!(
        refused > 600 && accepted > 50,
        "{refused} refused, {accepted} accepted"
    );
}

/// The rule book's worked examples, reached by real games on size 6 (player 1 is X,
/// player 2 is O; each colour places its pieces as soon as they are supported, and
/// otherwise a far-away filler): every prefix agrees with the reference, nothing is
/// captured before the example's move, and the example's move takes what the rule book
/// says.
#[test]
fn moves_replays_the_rule_books_examples() {
    const X_FILL: [&str; 4] = ["k11", "k9", "k7", "i11"];
    const O_FILL: [&str; 3] = ["k1", "k3", "i1"];
    struct Example {
        name: &'static str,
        rules: RuleSet,
        x: &'static [&'static str],
        o: &'static [&'static str],
        /// X's moves at the end (O answers each but the last with a filler), and O's
        /// pieces after them, fillers not counted.
        finish: &'static [&'static str],
        o_left: u32,
    }
    const SURROUND_X: &[&str] = &["e1", "e3", "e5", "c7"];
    const SURROUND_O: &[&str] = &["a1", "a3", "a5", "c1", "c3", "c5"];
    let examples = [
        Example {
            name: "surround",
            rules: RuleSet::Default,
            x: SURROUND_X,
            o: SURROUND_O,
            finish: &["a7"],
            o_left: 0,
        },
        Example {
            name: "surround, all freedoms",
            rules: RuleSet::AllFreedoms,
            x: SURROUND_X,
            o: SURROUND_O,
            finish: &["a7"],
            o_left: 0,
        },
        Example {
            name: "surround, cut down",
            rules: RuleSet::CutDown,
            x: SURROUND_X,
            o: SURROUND_O,
            finish: &["a7"],
            o_left: 0,
        },
        Example {
            name: "bridge",
            rules: RuleSet::Default,
            x: SURROUND_X,
            o: &["a1", "a3", "a5", "c1", "c3", "c5", "e7", "d6"],
            finish: &["a7"],
            o_left: 8,
        },
        Example {
            // The bridge's two freedoms are C5 and D4: filling both captures all.
            name: "bridge, both freedoms filled",
            rules: RuleSet::Default,
            x: SURROUND_X,
            o: &["a1", "a3", "a5", "c1", "c3", "c5", "e7", "d6"],
            finish: &["a7", "e9", "g7"],
            o_left: 0,
        },
        Example {
            name: "zombies",
            rules: RuleSet::Default,
            x: &["e1", "e3", "e5", "c7", "d4"],
            o: &["a1", "a3", "a5", "c1", "c3", "c5", "b2", "d2"],
            finish: &["a7"],
            o_left: 2,
        },
        Example {
            name: "all freedoms: two level-1 freedoms",
            rules: RuleSet::AllFreedoms,
            x: SURROUND_X,
            o: &["a1", "a3", "a5", "c1", "c3", "c5", "d2"],
            finish: &["a7"],
            o_left: 7,
        },
        Example {
            name: "the same under the default rules",
            rules: RuleSet::Default,
            x: SURROUND_X,
            o: &["a1", "a3", "a5", "c1", "c3", "c5", "d2"],
            finish: &["a7"],
            o_left: 0,
        },
        Example {
            name: "cut down: an upper piece alone",
            rules: RuleSet::CutDown,
            x: &["e3", "a5", "c5", "b4"],
            o: &["a1", "c1", "e1", "a3", "c3", "b2"],
            finish: &["d2"],
            o_left: 5,
        },
        Example {
            name: "the same under all freedoms",
            rules: RuleSet::AllFreedoms,
            x: &["e3", "a5", "c5", "b4"],
            o: &["a1", "c1", "e1", "a3", "c3", "b2"],
            finish: &["d2"],
            o_left: 6,
        },
    ];
    for ex in &examples {
        let options = Options::new(6, 2, ex.rules).unwrap();
        let mut game = Game::new(options);
        let mut left = [ex.x.to_vec(), ex.o.to_vec()];
        let mut fillers = [X_FILL.to_vec(), O_FILL.to_vec()];
        let mut o_fillers = 0;
        let play = |game: &mut Game, mv: &str| {
            game.play(mv.parse().unwrap())
                .unwrap_or_else(|e| panic!("{}: {mv}: {e}", ex.name));
        };
        while !left[0].is_empty() || !left[1].is_empty() || game.position().to_move().index() != 0 {
            let me = game.position().to_move().index();
            let next = left[me]
                .iter()
                .position(|c| game.position().is_legal(Move::Place(c.parse().unwrap())));
            let mv = match next {
                Some(i) => left[me].remove(i),
                None => {
                    o_fillers += me;
                    fillers[me].remove(0)
                }
            };
            play(&mut game, mv);
            let placed: u32 = game.position().scores().iter().sum();
            assert_eq!(
                placed as usize,
                game.moves().len(),
                "{}: a capture",
                ex.name
            );
        }
        for (i, mv) in ex.finish.iter().enumerate() {
            play(&mut game, mv);
            if i + 1 < ex.finish.len() {
                o_fillers += 1;
                let f = fillers[1].remove(0);
                play(&mut game, f);
            }
        }
        assert_eq!(
            game.position().score(pyloff::Player::TWO),
            ex.o_left + o_fillers as u32,
            "{}",
            ex.name
        );
        // Every prefix through `moves`, against the reference.
        let text: Vec<String> = game.moves().iter().map(|(_, m)| m.to_string()).collect();
        let mut r = reference(options);
        let mut lines = vec![String::new()];
        let mut expected = vec![r.report()];
        for (i, mv) in text.iter().enumerate() {
            assert!(r.play(mv), "{}: the reference refuses {mv}", ex.name);
            lines.push(text[..=i].join(" "));
            expected.push(r.report());
        }
        let answers = json_lines(
            "moves",
            &args_of(options)
                .iter()
                .map(String::as_str)
                .collect::<Vec<_>>(),
            &lines,
        );
        for (answer, exp) in answers.iter().zip(&expected) {
            check_moves_answer(answer, exp);
        }
        let last = answers.last().unwrap();
        assert_eq!(
            last["score"]["2"],
            Value::from(ex.o_left + o_fillers as u32),
            "{}",
            ex.name
        );
    }
}

/// `match --search KIND` with three players: the header names both searches, and the
/// first-place share and mean rank it reports are those of the game lines' final scores (a
/// first place shared by `k` players counts `1/k`; tied players share their ranks).
#[test]
fn match_reports_first_place_share_and_mean_rank() {
    let out = run(
        "match",
        &[
            "--opponent",
            "level",
            "--opponent-level",
            "8",
            "--search",
            "brs+",
            "--players",
            "3",
            "--size",
            "3",
            "--nodes",
            "300",
            "--games",
            "3",
        ],
        "",
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("(brs+) at 300 nodes a move against level 8 (paranoid)"),
        "{text}"
    );
    let (mut share, mut rank, mut games) = (0.0, 0.0, 0);
    for line in text.lines().filter(|l| l.starts_with("game ")) {
        let seat: usize = line
            .split("bot is player ")
            .nth(1)
            .and_then(|r| r.split(',').next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("{line}"));
        let scores: Vec<u32> = line
            .split("scores ")
            .nth(1)
            .and_then(|r| r.split(':').next())
            .unwrap_or_else(|| panic!("{line}"))
            .split('-')
            .map(|s| s.parse().unwrap())
            .collect();
        let mine = scores[seat - 1];
        let best = *scores.iter().max().unwrap();
        let leaders = scores.iter().filter(|&&s| s == best).count();
        if mine == best {
            share += 1.0 / leaders as f64;
        }
        let above = scores.iter().filter(|&&s| s > mine).count() as f64;
        let tied = scores.iter().filter(|&&s| s == mine).count() as f64;
        rank += above + (1.0 + tied) / 2.0;
        games += 1;
    }
    assert_eq!(games, 3, "{text}");
    let share = format!("first place {:.1} %", 100.0 * share / 3.0);
    let rank = format!("mean rank {:.2} ", rank / 3.0);
    assert!(
        text.contains(&share) && text.contains(&rank),
        "{share}, {rank}: {text}"
    );
    assert!(text.contains("a fair share is 33.3 %"), "{text}");
}
