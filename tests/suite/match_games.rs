//! `ploy match --game pente|pyloff`: this build's `engine` example against itself over the
//! engine protocol, two players and four; an engine program that answers an illegal move;
//! a match log resumed. Results are recounted from the game records the match wrote (read
//! back and replayed by the game crates), not taken from the tool's own figures.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::match_engines::{json, ploy, text};

/// The `engine` example as a `ploy match` player.
fn engine() -> String {
    format!("engine:{}", crate::common::example("engine").display())
}

/// A fresh directory under the target directory.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("match_games_{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn record(dir: &Path, n: usize, ext: &str) -> String {
    std::fs::read_to_string(dir.join(format!("game-00{n}.{ext}"))).unwrap()
}

/// First-place shares from final scores: `1/k` for each of the `k` at the top.
fn shares(scores: &[u32]) -> Vec<f64> {
    let best = *scores.iter().max().unwrap();
    let k = scores.iter().filter(|&&s| s == best).count() as f64;
    scores
        .iter()
        .map(|&s| if s == best { 1.0 / k } else { 0.0 })
        .collect()
}

#[test]
fn a_pente_match_between_engine_programs() {
    let dir = scratch("pente");
    let records = dir.join("records");
    let e = engine();
    let v = json(&[
        "--game",
        "pente",
        "--size",
        "9",
        "--a",
        &e,
        "--b",
        &format!("{e}@n100"),
        "--nodes",
        "400",
        "--games",
        "4",
        "--records",
        records.to_str().unwrap(),
    ]);
    assert_eq!(v["games"], 4, "{v}");
    assert_eq!(v["forfeits"], serde_json::json!([0, 0]), "{v}");
    let (mut wins, mut draws, mut losses) = (0, 0, 0);
    let mut openings = Vec::new();
    for n in 1..=4 {
        let r: pente::Record = record(&records, n, "pente")
            .parse()
            .expect("the record reads");
        // Every move legal, the result the rules': the crate replays and checks it.
        let game = r.validate().expect("a legal game");
        let a_white = n % 2 == 1;
        let (a, b) = (Some(e.as_str()), Some(format!("{e}@n100")));
        if a_white {
            assert_eq!((r.white.as_deref(), r.black.clone()), (a, b));
        } else {
            assert_eq!((r.black.as_deref(), r.white.clone()), (a, b));
        }
        assert_eq!(r.rules.size, pente::Size::S9);
        assert!(r.rules.tournament_rule);
        // The three-stone opening: the centre, then stones within three points of it.
        let centre = pente::Size::S9.centre();
        assert_eq!(r.moves[0].point(), centre);
        assert!(
            r.moves[1..3]
                .iter()
                .all(|m| m.point().distance(centre) <= 3)
        );
        openings.push(r.moves[..3].to_vec());
        match game.outcome().and_then(pente::Outcome::winner) {
            None => draws += 1,
            Some(pente::Color::White) if a_white => wins += 1,
            Some(pente::Color::Black) if !a_white => wins += 1,
            Some(_) => losses += 1,
        }
    }
    // Each opening once with each colour.
    assert_eq!(openings[0], openings[1]);
    assert_eq!(openings[2], openings[3]);
    assert_ne!(openings[0], openings[2]);
    assert_eq!(
        (v["wins"].clone(), v["draws"].clone(), v["losses"].clone()),
        (wins.into(), draws.into(), losses.into()),
        "{v}"
    );
}

#[test]
fn a_two_player_pyloff_match_between_engine_programs() {
    let dir = scratch("pyloff2");
    let records = dir.join("records");
    let e = engine();
    let v = json(&[
        "--game",
        "pyloff",
        "--size",
        "3",
        "--a",
        &e,
        "--b",
        &format!("{e}@d1"),
        "--nodes",
        "300",
        "--games",
        "4",
        "--records",
        records.to_str().unwrap(),
    ]);
    assert_eq!(v["games"], 4, "{v}");
    let mut points = 0.0;
    for n in 1..=4 {
        let text = record(&records, n, "pyloff");
        let r: pyloff::Record = text.parse().expect("the record reads");
        let game = r.replay().expect("legal moves and the right result");
        let a_seat = (n + 1) % 2; // A is player 1 in odd games
        assert!(
            text.contains(&format!("# player {}: A = {e}\n", a_seat + 1)),
            "{text}"
        );
        // The game ended by the rules, or at the move cap (4 x 14 on size 3) by the score.
        match r.result {
            pyloff::RecordResult::Over(_) => assert!(game.position().is_over()),
            pyloff::RecordResult::Capped(_) => assert_eq!(r.moves.len(), 56),
            pyloff::RecordResult::Ongoing => panic!("an unfinished game: {text}"),
        }
        points += shares(game.position().scores())[a_seat];
    }
    let score = v["wins"].as_f64().unwrap() + v["draws"].as_f64().unwrap() / 2.0;
    assert_eq!(score, points, "{v}");
}

#[test]
fn a_four_player_pyloff_match_rotates_the_seats() {
    let dir = scratch("pyloff4");
    let records = dir.join("records");
    let e = engine();
    let b = format!("{e}@d1");
    let v = json(&[
        "--game",
        "pyloff",
        "--size",
        "3",
        "--players",
        "4",
        "--a",
        &e,
        "--b",
        &b,
        "--nodes",
        "200",
        "--games",
        "8",
        "--records",
        records.to_str().unwrap(),
    ]);
    assert_eq!(v["games"], 8, "{v}");
    assert_eq!(v["fair_share"], 0.25, "{v}");
    let mut a_share = 0.0;
    let mut a_rank = 0.0;
    let mut by_seat = [0.0; 4];
    for n in 1..=8 {
        let text = record(&records, n, "pyloff");
        let r: pyloff::Record = text.parse().unwrap();
        let game = r.replay().expect("legal moves and the right result");
        assert_eq!(r.options.players(), 4);
        // A in seat (n - 1) % 4, a B player in every other seat.
        let seat = (n - 1) % 4;
        for s in 0..4 {
            let who = if s == seat {
                format!("A = {e}")
            } else {
                format!("B = {b}")
            };
            assert!(
                text.contains(&format!("# player {}: {who}\n", s + 1)),
                "{text}"
            );
        }
        // Openings repeat once per seat.
        let opening: Vec<_> = r.moves[..4].to_vec();
        let first = record(&records, 4 * ((n - 1) / 4) + 1, "pyloff");
        let first: pyloff::Record = first.parse().unwrap();
        assert_eq!(opening, first.moves[..4]);
        let scores = game.position().scores();
        let share = shares(scores)[seat];
        a_share += share;
        by_seat[seat] += share;
        let above = scores.iter().filter(|&&s| s > scores[seat]).count() as f64;
        let tied = scores.iter().filter(|&&s| s == scores[seat]).count() as f64;
        a_rank += above + (tied + 1.0) / 2.0;
    }
    let close = |x: &Value, y: f64| (x.as_f64().unwrap() - y).abs() < 1e-9;
    assert!(close(&v["share"], a_share / 8.0), "{v} {a_share}");
    assert!(close(&v["rank"], a_rank / 8.0), "{v} {a_rank}");
    // Every seat to A equally, and the seats' shares add up to A's.
    let seats = v["seats"].as_array().unwrap();
    assert_eq!(seats.len(), 4);
    let mut sum = 0.0;
    for (s, seat) in seats.iter().enumerate() {
        assert_eq!(seat["seat"], s + 1);
        assert_eq!(seat["games"], 2, "{v}");
        assert!(close(&seat["share_sum"], by_seat[s]), "{v}");
        sum += seat["share_sum"].as_f64().unwrap();
    }
    assert!((sum - a_share).abs() < 1e-9);
    // A's share and the B players' add up to one a game.
    assert!(close(&v["b_share"], 1.0 - a_share / 8.0), "{v}");
    let (low, high) = (
        v["share_low"].as_f64().unwrap(),
        v["share_high"].as_f64().unwrap(),
    );
    assert!(low <= a_share / 8.0 && a_share / 8.0 <= high, "{v}");
}

/// A resumed match ends with the totals of a match played in one go: Pyloff for four (the
/// placings) and Ploy for two (the tally and pairs), with node and depth budgets.
#[test]
fn a_match_log_resumes_to_the_same_totals() {
    let dir = scratch("log");
    let e = engine();
    let pyloff = [
        "--game",
        "pyloff",
        "--size",
        "3",
        "--players",
        "4",
        "--a",
        &e,
        "--b",
        "random",
        "--nodes",
        "200",
    ];
    let ploy_two = ["--a", "full@d1", "--b", "random", "--ply-cap", "30"];
    for (name, base) in [("pyloff", &pyloff[..]), ("ploy", &ploy_two[..])] {
        let with = |games: &str, log: Option<(&Path, bool)>| {
            let mut args = base.to_vec();
            args.extend(["--games", games]);
            if let Some((path, resume)) = log {
                args.extend(["--log", path.to_str().unwrap()]);
                if resume {
                    args.push("--resume");
                }
            }
            json(&args)
        };
        let log = dir.join(format!("{name}.jsonl"));
        let whole = with("8", None);
        let first = with("3", Some((&log, false)));
        assert_eq!(first["games"], 3, "{first}");
        // The log now holds a match: without --resume it is refused and left as it is.
        let before = std::fs::read(&log).unwrap();
        let mut refused = vec!["match"];
        refused.extend(base);
        refused.extend(["--games", "8", "--log", log.to_str().unwrap()]);
        let out = ploy(&refused);
        assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
        assert_eq!(std::fs::read(&log).unwrap(), before);
        let resumed = with("8", Some((&log, true)));
        let lines = std::fs::read_to_string(&log).unwrap();
        assert_eq!(lines.lines().count(), 9, "{lines}");
        for key in [
            "games",
            "wins",
            "draws",
            "losses",
            "pentanomial",
            "share",
            "rank",
            "seats",
        ] {
            assert_eq!(resumed[key], whole[key], "{name} {key}: {resumed} {whole}");
        }
    }
}

#[cfg(unix)]
#[test]
fn an_engine_program_that_answers_an_illegal_move_forfeits() {
    use std::os::unix::fs::PermissionsExt;
    let dir = scratch("illegal");
    // Always the centre of 19 x 19 (taken by the opening's first stone) in Pente, and a
    // point off a board of 3 in Pyloff.
    let script = |name: &str, answer: &str| {
        let path = dir.join(name);
        let body = format!(
            "#!/bin/sh\nwhile read -r line; do\n  case \"$line\" in\n    uci) echo 'id name \
             fake'; echo uciok;;\n    isready) echo readyok;;\n    go*) echo 'bestmove \
             {answer}';;\n    quit) exit 0;;\n  esac\ndone\n"
        );
        std::fs::write(&path, body).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        format!("engine:{}", path.display())
    };
    let centre = script("centre", "K10");
    let records = dir.join("pente");
    let v = json(&[
        "--game",
        "pente",
        "--a",
        &centre,
        "--b",
        "random",
        "--games",
        "2",
        "--records",
        records.to_str().unwrap(),
    ]);
    assert_eq!(v["losses"], 2, "{v}");
    assert_eq!(v["forfeits"], serde_json::json!([2, 0]), "{v}");
    for n in 1..=2 {
        let r: pente::Record = record(&records, n, "pente").parse().unwrap();
        // The game stops unfinished at A's first move; the record gives B the win.
        let game = r.validate().unwrap();
        assert!(game.outcome().is_none());
        let b_wins = if n == 1 {
            pente::GameResult::BlackWins
        } else {
            pente::GameResult::WhiteWins
        };
        assert_eq!(r.result, b_wins);
        assert!(
            r.to_string().contains("A forfeits: illegal move (`K10`"),
            "{r}"
        );
    }
    // Three players: A forfeits every game and is last alone.
    let off = script("off", "z9");
    let v = json(&[
        "--game",
        "pyloff",
        "--size",
        "3",
        "--players",
        "3",
        "--a",
        &off,
        "--b",
        "random",
        "--games",
        "3",
    ]);
    assert_eq!(v["forfeits"], serde_json::json!([3, 0]), "{v}");
    assert_eq!(v["share"], 0.0, "{v}");
    assert_eq!(v["rank"], 3.0, "{v}");
}

#[test]
fn options_of_another_game_are_refused() {
    for args in [
        &["match", "--size", "9"][..],
        &["match", "--game", "pente", "--players", "3"],
        &["match", "--game", "pente", "--size", "8"],
        &["match", "--game", "pyloff", "--no-tournament-rule"],
        &["match", "--game", "pyloff", "--relaxed"],
        &[
            "match",
            "--game",
            "pyloff",
            "--players",
            "3",
            "--sprt",
            "0,10",
        ],
        &["match", "--game", "pente", "--a", "noorder"],
        &["match", "--game", "chess"],
        &["match", "--resume"],
    ] {
        let out = ploy(args);
        assert_eq!(
            out.status.code(),
            Some(2),
            "{args:?}: {}",
            text(&out.stderr)
        );
    }
}

/// Ploy's free-for-all with `--ffa-seats`: A (an engine program) in one seat, turning game
/// by game, three B players (engine programs) in the others; A's first places recounted
/// from the records: the winner alone, or the players still in play sharing a draw or a
/// game stopped at the ply cap.
#[test]
fn ploy_free_for_all_with_seats_rotated() {
    use ploy_core::{Outcome, Seat};
    let dir = scratch("ffa");
    let records = dir.join("records");
    let e = engine();
    let b = format!("{e}@d1");
    let v = json(&[
        "--ffa-seats",
        "--a",
        &e,
        "--b",
        &b,
        "--depth",
        "2",
        "--games",
        "4",
        "--ply-cap",
        "40",
        "--records",
        records.to_str().unwrap(),
    ]);
    assert_eq!(v["games"], 4, "{v}");
    assert_eq!(v["players"], 4, "{v}");
    for (n, seat) in Seat::ALL.into_iter().enumerate() {
        let text = record(&records, n + 1, "plg");
        let saved = ploy_sheet::read_record(&text).expect("the record reads back");
        let game = &saved.game;
        assert_eq!(saved.header.players.get(seat), Some(e.as_str()), "{text}");
        for other in Seat::ALL.into_iter().filter(|&s| s != seat) {
            assert_eq!(saved.header.players.get(other), Some(b.as_str()), "{text}");
        }
        assert!(game.moves().len() <= 40);
        let share = match game.outcome() {
            Some(o @ Outcome::Win { .. }) => f64::from(o.winners().contains(seat)),
            _ => {
                let in_play = game.position().in_play();
                if in_play.contains(seat) {
                    1.0 / in_play.iter().count() as f64
                } else {
                    0.0
                }
            }
        };
        let reported = &v["seats"][n];
        assert_eq!(reported["games"], 1, "{v}");
        assert!(
            (reported["share_sum"].as_f64().unwrap() - share).abs() < 1e-9,
            "{n}: {v}"
        );
    }
    // Options of another game are refused.
    let out = ploy(&["match", "--ffa-seats", "--no-tournament-rule"]);
    assert_eq!(out.status.code(), Some(2));
}

/// `full:ffa_search=KIND` plays A's free-for-all seat with that multi-player search: the
/// match completes with legal, replayable games, and A's games differ from those of the
/// default (paranoid) search at the same budget (BRS thinks of one opponent at a time).
#[test]
fn a_free_for_all_search_chosen_by_the_spec() {
    let mut games = Vec::new();
    for a in ["full:ffa_search=brs", "full"] {
        let dir = scratch(&format!("ffa-search-{}", a.len()));
        let records = dir.join("records");
        let v = json(&[
            "--ffa-seats",
            "--a",
            a,
            "--b",
            "full",
            "--nodes",
            "400",
            "--games",
            "4",
            "--ply-cap",
            "24",
            "--records",
            records.to_str().unwrap(),
        ]);
        assert_eq!(v["games"], 4, "{v}");
        let mut moves = Vec::new();
        for n in 1..=4 {
            let text = record(&records, n, "plg");
            let saved = ploy_sheet::read_record(&text).expect("the record reads back");
            moves.push(saved.game.moves().to_vec());
        }
        games.push(moves);
    }
    assert_ne!(games[0], games[1]);
    let refused = ploy(&["match", "--ffa-seats", "--a", "full:ffa_search=minimax"]);
    assert_eq!(refused.status.code(), Some(2), "{}", text(&refused.stderr));
    assert!(text(&refused.stderr).contains("not a multi-player search"));
}
