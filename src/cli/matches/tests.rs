//! Unit tests of `ploy match`: specs, budgets, the Elo and SPRT arithmetic, the reports.

use super::*;
use ploy_core::Game;
use serde_json::json;

fn plan(games: u32, ply_cap: usize, jobs: u32) -> MatchPlan {
    MatchPlan {
        games,
        rules: Rules::standard(),
        ply_cap,
        openings: Openings::Random { seed: 1, plies: 2 },
        sprt: None,
        jobs,
    }
}

fn setup(seed: u64) -> PlayerSetup {
    PlayerSetup {
        budget: Budget::Depth(1),
        seed,
        rules: Rules::standard(),
        timeout: None,
        options: Vec::new(),
    }
}

fn maker(a: &str, b: &str) -> impl Fn() -> Result<[Box<dyn Player>; 2], String> + Sync + use<> {
    let (a, b): (PlayerSpec, PlayerSpec) = (a.parse().unwrap(), b.parse().unwrap());
    move || Ok([a.player(&setup(1))?, b.player(&setup(2))?])
}

#[test]
fn pairs_play_each_opening_with_each_colour() {
    assert_eq!(pairing(0), (0, true));
    assert_eq!(pairing(1), (0, false));
    assert_eq!(pairing(2), (1, true));
    assert_eq!(pairing(5), (2, false));
    assert_eq!(
        side_seats(Variant::Partnership, false),
        SeatSet::only(Seat::Red).with(Seat::Blue)
    );
    assert_eq!(
        side_seats(Variant::TwoPlayer, true),
        SeatSet::only(Seat::Green)
    );
}

#[test]
fn a_short_match_between_random_and_a_search() {
    let plan = plan(2, 40, 1);
    let mut lines = Vec::new();
    let report = play_match(
        &plan,
        ["random", "full@d1"],
        &maker("random", "full@d1"),
        |g, _| {
            assert_eq!(
                g.game.moves()[..2],
                plan.openings.opening(Rules::standard(), 0).moves[..]
            );
            assert!(g.game.moves().len() <= 40);
            lines.push(g.line());
            Ok(())
        },
    )
    .unwrap();
    assert_eq!(report.standing.tally.games(), 2);
    assert!(
        lines[0].starts_with("game   1 A plays green : "),
        "{lines:?}"
    );
    assert!(
        lines[1].starts_with("game   2 A plays red   : "),
        "{lines:?}"
    );
    for line in &lines {
        assert!(!line.contains('{') && !line.contains("::"), "{line}");
    }
    assert_eq!(report.a.stats.nodes, 0);
    assert!(report.b.stats.nodes > 0);
    assert_eq!(report.standing.pairs.pairs(), 1);
}

/// Four-player openings: A plays Green and Yellow, then Red and Blue; a win of either
/// seat of a side is that side's.
#[test]
fn four_player_games_seat_each_side_twice() {
    let rules = Rules::standard();
    let mut p = plan(4, 400, 1);
    p.openings = Openings::List {
        openings: read_openings("partnership\nffa\n", rules).unwrap(),
        seed: 1,
        plies: 0,
    };
    let mut seen = Vec::new();
    play_match(
        &p,
        ["full@d1", "random"],
        &maker("full@d1", "random"),
        |g, _| {
            let a = g.a_seats();
            assert_eq!(a.count(), 2);
            assert!(a.contains(g.a_seat) && a.contains(g.a_seat.partner()));
            if let Some(o) = g.game.outcome().filter(|o| !o.is_draw()) {
                let a_won = o.winners().iter().all(|s| a.contains(s));
                let b_won = o.winners().iter().all(|s| !a.contains(s));
                assert!(a_won != b_won, "{}", g.line());
                assert_eq!(g.result() == GameResult::Win, a_won, "{}", g.line());
            }
            seen.push((g.game.start_position().variant(), g.a_seat));
            Ok(())
        },
    )
    .unwrap();
    assert_eq!(
        seen,
        [
            (Variant::Partnership, Seat::Green),
            (Variant::Partnership, Seat::Red),
            (Variant::FreeForAll, Seat::Green),
            (Variant::FreeForAll, Seat::Red),
        ]
    );
}

/// With depth budgets, two workers give the very games one worker gives.
#[test]
fn parallel_games_are_the_games_of_one_worker() {
    let run = |jobs| {
        let mut games = Vec::new();
        let report = play_match(
            &plan(6, 30, jobs),
            ["full@d2", "nolmr@d1"],
            &maker("full@d2", "nolmr@d1"),
            |g, _| {
                games.push((g.number, g.game.moves().to_vec(), g.result()));
                Ok(())
            },
        )
        .unwrap();
        let moves_and_nodes = report.standing.stats.map(|s| (s.moves, s.nodes));
        (games, report.standing.tally, moves_and_nodes)
    };
    let one = run(1);
    assert_eq!(
        one.0.iter().map(|g| g.0).collect::<Vec<_>>(),
        [1, 2, 3, 4, 5, 6]
    );
    let three = run(3);
    assert_eq!(one, three);
}

/// The SPRT stops the match at the end of the pair that reaches a bound, with any
/// number of workers.
#[test]
fn the_sprt_stops_the_match() {
    let mut p = plan(40, 60, 1);
    // Wide bounds and a search against a random mover: decided in a few pairs.
    p.sprt = Some(Sprt::new(0.0, 300.0, 0.2, 0.2).unwrap());
    let run = |jobs| {
        let mut p = p.clone();
        p.jobs = jobs;
        let mut verdicts = Vec::new();
        let report = play_match(
            &p,
            ["full@d1", "random"],
            &maker("full@d1", "random"),
            |_, s| {
                verdicts.push(s.verdict);
                Ok(())
            },
        )
        .unwrap();
        (report, verdicts)
    };
    let (one, verdicts) = run(1);
    let s = one.standing;
    assert_eq!(s.verdict, Some(Hypothesis::H1), "{s:?}");
    assert!(s.tally.games() < 40 && s.tally.games() % 2 == 0, "{s:?}");
    assert!(s.llr.unwrap() >= p.sprt.unwrap().upper_bound());
    // Decided by the last game counted, not before.
    let (last, before) = verdicts.split_last().unwrap();
    assert_eq!(*last, Some(Hypothesis::H1));
    assert!(before.iter().all(Option::is_none), "{verdicts:?}");
    let (two, _) = run(2);
    assert_eq!(two.standing.tally, s.tally);
    assert_eq!(two.standing.pairs, s.pairs);
}

/// A forfeit: the loser is the player that failed, the game says so.
#[test]
fn forfeits_are_losses_with_a_reason() {
    struct Blunderer;
    impl Player for Blunderer {
        fn name(&self) -> &str {
            "blunderer"
        }
        fn choose(&mut self, _: &Game) -> Result<ploy_core::Move, Fault> {
            Err(Fault::new(FaultKind::IllegalMove, "`z9-z9-9`: nonsense"))
        }
        fn stats(&self) -> PlayerStats {
            PlayerStats::default()
        }
    }
    let make = || -> Result<[Box<dyn Player>; 2], String> {
        Ok([
            "random".parse::<PlayerSpec>().unwrap().player(&setup(1))?,
            Box::new(Blunderer),
        ])
    };
    let mut reports = Vec::new();
    let report = play_match(&plan(2, 100, 1), ["random", "blunderer"], &make, |g, _| {
        reports.push(g.clone());
        Ok(())
    })
    .unwrap();
    assert_eq!(report.standing.tally.wins, 2);
    assert_eq!(report.standing.forfeits, [0, 2]);
    for g in &reports {
        assert!(
            g.how().starts_with("B forfeits: illegal move (`z9-z9-9`"),
            "{}",
            g.how()
        );
        // Written on the game as a resignation of B's seat.
        let o = g.game.outcome().unwrap();
        assert_eq!(o.winner(), Some(g.a_seat));
        let text = g.record_text(["random", "blunderer"], "depth 1").unwrap();
        assert!(
            text.starts_with("ploy-record: 1\n# ploy match game "),
            "{text}"
        );
        assert!(
            text.contains("# match result: A wins (B forfeits: illegal move"),
            "{text}"
        );
        assert!(text.contains("resignation"), "{text}");
        let back = ploy_sheet::read(&text).unwrap().1;
        assert_eq!(back.game, g.game);
        let sheet = g
            .saved_game(["random", "blunderer"], "depth 1", true)
            .to_sheet()
            .unwrap();
        assert!(sheet.contains("B forfeits"), "{sheet}");
    }
}

#[test]
fn records_carry_players_opening_and_result() {
    let plan = plan(2, 12, 1);
    let mut texts = Vec::new();
    play_match(
        &plan,
        ["full@d1", "random"],
        &maker("full@d1", "random"),
        |g, _| {
            texts.push((
                g.clone(),
                g.record_text(["full@d1", "random"], "depth 1").unwrap(),
            ));
            Ok(())
        },
    )
    .unwrap();
    for (g, text) in &texts {
        let saved = ploy_sheet::read(text).unwrap().1;
        assert_eq!(saved.game.moves(), g.game.moves());
        let (a, b) = if g.a_seat == Seat::Green {
            (Seat::Green, Seat::Red)
        } else {
            (Seat::Red, Seat::Green)
        };
        assert_eq!(saved.header.players.get(a), Some("full@d1"));
        assert_eq!(saved.header.players.get(b), Some("random"));
        assert_eq!(saved.header.time_control.as_deref(), Some("depth 1"));
        let opening = openings::moves_text(&g.opening.moves);
        assert!(
            text.contains(&format!("(random, 2 plies): {opening}\n")),
            "{text}"
        );
        if g.end == End::PlyCap {
            assert!(text.contains("# match result: draw (ply cap)"), "{text}");
            assert!(text.contains("result: unfinished"), "{text}");
        }
    }
}

#[test]
fn json_and_summary() {
    let report = MatchReport {
        standing: Standing {
            tally: Tally {
                wins: 3,
                draws: 1,
                losses: 0,
            },
            pairs: Pentanomial {
                counts: [0, 0, 0, 1, 1],
            },
            llr: Some(0.5),
            verdict: None,
            forfeits: [0, 1],
            stats: [PlayerStats::default(); 2],
        },
        sprt: Some(Sprt::new(0.0, 10.0, 0.05, 0.05).unwrap()),
        a: PlayerReport {
            name: "full".into(),
            about: None,
            stats: PlayerStats::default(),
        },
        b: PlayerReport {
            name: "engine:x".into(),
            about: Some("ploy 0.1.0".into()),
            stats: PlayerStats::default(),
        },
    };
    let v = report.to_json();
    assert_eq!(v["llr"], 0.5);
    assert!((v["upper_bound"].as_f64().unwrap() - 19f64.ln()).abs() < 1e-12);
    assert!(v["sprt"].is_null());
    assert_eq!(v["pentanomial"], json!([0, 0, 0, 1, 1]));
    assert_eq!(v["forfeits"], json!([0, 1]));
    let s = report.summary();
    assert!(s.contains("B = engine:x (ploy 0.1.0)"), "{s}");
    assert!(s.contains("pairs 2 [0, 0, 0, 1, 1]"), "{s}");
    assert!(
        s.contains("llr 0.50 (bounds -2.94 and 2.94): no decision"),
        "{s}"
    );
    assert!(s.contains("forfeits: A 0, B 1"), "{s}");
}
