//! Pente in the engine protocol (`setoption name Game value pente`): the options `Size` and
//! `Tournament rule` and `Level` (1 to 8, default 8: full strength), moves as `K10`,
//! positions as Pente's position strings, the `pente` crate's engine.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use pente::{Analysis, Evaluation, Move, Position, Rules, Size, Strength};
use ploy_search::{Config, Limits};

use super::game::{GoRequest, ProtocolGame, bestmove_line, count_from, game_over, show_lines};
use super::game::{bad_value, info_text, share_percent, split_at_moves, start_position, yes_no};
use super::{Engines, Job, Out, QUOTE, SearchJob, excerpt, say};

/// The `OwnBook` option's default.
const OWN_BOOK: bool = true;

/// Pente's engine at full strength with a table of `mb` MiB.
pub(super) fn new_engine(mb: usize) -> pente::Engine {
    let config = Config {
        table_bytes: mb << 20,
        ..pente::engine::full_strength_config()
    };
    pente::Engine::with_config(Strength::Full, config, Evaluation::default())
}

impl Engines {
    /// Pente's engine (full strength), made now if there is none.
    pub(super) fn pente(&mut self) -> &mut pente::Engine {
        let mb = self.hash_mb;
        self.games.pente.get_or_insert_with(|| new_engine(mb))
    }
}

/// Pente in the protocol: the rules of new games, the start of the current game and its
/// moves.
pub(super) struct PenteProtocol {
    rules: Rules,
    start: Position,
    moves: Vec<Move>,
    pos: Position,
    /// The `OwnBook` option: full strength plays from the committed opening book.
    own_book: bool,
}

impl PenteProtocol {
    pub(super) fn new() -> PenteProtocol {
        let rules = Rules::new(Size::S19);
        PenteProtocol {
            rules,
            start: Position::new(rules),
            moves: Vec::new(),
            pos: Position::new(rules),
            own_book: OWN_BOOK,
        }
    }

    /// The current game starts again from the empty board of the current rules.
    fn restart(&mut self) {
        self.start = Position::new(self.rules);
        self.pos = self.start.clone();
        self.moves.clear();
    }
}

/// `info string game over: ...` text: `white wins (five)`, `draw (full board)`.
fn result_text(pos: &Position) -> Option<String> {
    pos.outcome().map(|o| o.to_string())
}

/// One move of `text`, legal in `pos`.
fn read_move(pos: &Position, text: &str) -> Result<Move, String> {
    let quoted = excerpt(text, QUOTE);
    if let Some(result) = result_text(pos) {
        return Err(format!("`{quoted}`: the game is over ({result})"));
    }
    let mv: Move = text.parse().map_err(|e| format!("`{quoted}`: {e}"))?;
    pos.check(mv).map_err(|e| format!("`{quoted}`: {e}"))?;
    Ok(mv)
}

impl ProtocolGame for PenteProtocol {
    fn name(&self) -> &'static str {
        "pente"
    }

    fn has_multipv(&self) -> bool {
        false
    }

    fn option_lines(&self) -> Vec<String> {
        vec![
            "option name Size type combo default 19 var 7 var 9 var 11 var 13 var 15 var 17 \
             var 19"
                .to_owned(),
            "option name Tournament rule type check default true".to_owned(),
            format!("option name OwnBook type check default {OWN_BOOK}"),
        ]
    }

    fn set_option(&mut self, key: &str, name: &str, value: &str) -> Option<Result<(), String>> {
        let v = value.trim().to_ascii_lowercase();
        let bad = || bad_value(name, value);
        let rules = match key {
            "size" => {
                let size = v
                    .parse::<u32>()
                    .map_err(|_| bad())
                    .and_then(|n| Size::new(n).map_err(|e| format!("option `Size`: {e}")));
                match size {
                    Ok(size) => Rules::new(size).with_tournament_rule(self.rules.tournament_rule),
                    Err(e) => return Some(Err(e)),
                }
            }
            "tournamentrule" => match yes_no(&v) {
                Some(on) => self.rules.with_tournament_rule(on),
                None => return Some(Err(bad())),
            },
            "ownbook" => {
                // Not a rule: the game goes on.
                return Some(match yes_no(&v) {
                    Some(on) => {
                        self.own_book = on;
                        Ok(())
                    }
                    None => Err(bad()),
                });
            }
            _ => return None,
        };
        self.rules = rules;
        self.restart();
        Some(Ok(()))
    }

    fn set_hash(&mut self, mb: usize) -> Job {
        Box::new(move |engines: &mut Engines| {
            engines.games.pente = Some(new_engine(mb));
        })
    }

    fn new_game(&mut self) -> Job {
        self.restart();
        Box::new(|engines: &mut Engines| engines.pente().clear())
    }

    fn set_position(&mut self, args: &[&str]) -> Result<(), String> {
        let (pos_words, moves) = split_at_moves(args);
        let start = start_position(pos_words, "Pente", || Ok(Position::new(self.rules)))?;
        let mut pos = start.clone();
        let mut played = Vec::with_capacity(moves.len());
        for (i, text) in moves.iter().enumerate() {
            let mv = read_move(&pos, text).map_err(|e| format!("move {}: {e}", i + 1))?;
            pos.play(mv)
                .map_err(|e| format!("move {} `{}`: {e}", i + 1, excerpt(text, QUOTE)))?;
            played.push(mv);
        }
        self.start = start;
        self.moves = played;
        self.pos = pos;
        Ok(())
    }

    fn show(&self) -> Vec<String> {
        show_lines(&self.pos, result_text(&self.pos))
    }

    fn clock_letters(&self) -> (&'static [char], char) {
        // The position string's letters: `w` White (who moves first), `b` Black.
        (&['w', 'b'], self.pos.turn().letter())
    }

    fn search(&self, request: GoRequest, out: Out) -> Result<SearchJob, String> {
        if !request.searchmoves.is_empty() {
            return Err("`go searchmoves` is not available in pente games".into());
        }
        if request.mate.is_some() {
            return Err("`go mate` is not available in pente games".into());
        }
        let pos = self.pos.clone();
        let level = request.level;
        // The book answers at once: not while pondering, which must wait for `ponderhit`.
        let book = (self.own_book && request.ponder.is_none()).then(pente::book::Book::builtin);
        Ok(Box::new(move |engines: &mut Engines| {
            if let Some(result) = result_text(&pos) {
                return game_over(&out, result);
            }
            let engine = engines.pente();
            engine.set_level(level);
            engine.set_book(book);
            let view = pos.turn().name();
            let mut printed = false;
            let mut show = |info: &pente::Info<'_, Move>| {
                printed = true;
                say(&out, &format!("info {}", info_text(info, view)));
            };
            let mut limits = count_from(
                request.limits.clone(),
                request.received,
                request.ponder.is_some(),
            );
            let mut answer = None;
            if let Some(hit) = &request.ponder {
                // Think without a budget until `ponderhit` or `stop`; after `ponderhit`
                // search again (the table keeps what was found) within the budget,
                // counted from then.
                let stop = request.limits.stop.clone();
                let a = engine.search(&pos, &until_either(hit, stop.as_ref()), &mut show);
                let stopped = stop.is_some_and(|s| s.load(Ordering::Relaxed));
                if stopped || !hit.load(Ordering::Relaxed) {
                    answer = Some(a);
                } else {
                    limits = count_from(request.limits.clone(), Instant::now(), false);
                }
            }
            let a = match answer {
                Some(a) => a,
                None => engine.search(&pos, &limits, &mut show),
            };
            if !printed {
                // The threat search's proven win, which reports no iteration.
                say(&out, &format!("info {}", analysis_text(&a, view)));
            }
            bestmove_line(a.best_move, &a.pv, request.ponder_move, |mv| mv)
        }))
    }
}

/// Limits with only a stop flag, raised when `hit` or `stop` is: the thinking of a
/// `go ponder` before `ponderhit`. A watcher thread raises it and ends with it.
fn until_either(hit: &Arc<AtomicBool>, stop: Option<&Arc<AtomicBool>>) -> Limits {
    let flag = Arc::new(AtomicBool::new(false));
    let (hit, stop, raise) = (hit.clone(), stop.cloned(), flag.clone());
    thread::spawn(move || {
        // The watcher ends once it has raised the flag: every pondering search ends by
        // `ponderhit` or `stop` (the protocol stops it when it needs the thread).
        loop {
            if hit.load(Ordering::Relaxed)
                || stop.as_ref().is_some_and(|s| s.load(Ordering::Relaxed))
            {
                raise.store(true, Ordering::Relaxed);
                return;
            }
            thread::sleep(Duration::from_millis(2));
        }
    });
    Limits::default().with_stop(flag)
}

/// An `info` text for an answer that reported no iteration.
fn analysis_text(a: &Analysis, view: &str) -> String {
    let mut text = format!(
        "depth {} score {} view {view} share {} nodes {} nps {} time {} pv",
        a.depth,
        a.score,
        share_percent(a.score, ploy_search::two_sided_share(a.score)),
        a.nodes,
        ploy_search::nps(a.nodes, a.time),
        a.time.as_millis()
    );
    for mv in &a.pv {
        text.push_str(&format!(" {mv}"));
    }
    text
}
