//! Pyloff in the engine protocol (`setoption name Game value pyloff`): the options `Size`,
//! `Players`, `All freedoms`, `Cut down` and `Level` (1 to 8, default 8: full strength;
//! below 8 `MultiPV` gives way to the level's own lines), moves as `c3`, `swap` and `pass`, positions as
//! Pyloff's position strings, the `pyloff` crate's engine. Three and four players are
//! searched as the common `Search` option says (`default`: the engine's default search,
//! `pyloff::multi::default_search`: BRS+ for four players, the paranoid reduction for three;
//! below level 8 the paranoid reduction), set before every search.

use ploy_search::Config;
use pyloff::{Evaluation, Move, Options, Outcome, Position, RuleSet, SearchPosition};

use super::game::{
    GoRequest, ProtocolGame, bestmove_line, count_from, game_over, search_options, show_lines,
};
use super::game::{bad_value, info_text, split_at_moves, start_position, yes_no};
use super::{Engines, Job, Out, QUOTE, SearchJob, excerpt, say};

/// Pyloff's engine with a table of `mb` MiB.
pub(super) fn new_engine(mb: usize) -> pyloff::Engine {
    let config = Config {
        table_bytes: mb << 20,
        ..pyloff::Engine::default_config()
    };
    pyloff::Engine::with(config, Evaluation::default())
}

impl Engines {
    /// Pyloff's engine, made now if there is none.
    pub(super) fn pyloff(&mut self) -> &mut pyloff::Engine {
        let mb = self.hash_mb;
        self.games.pyloff.get_or_insert_with(|| new_engine(mb))
    }
}

/// Pyloff in the protocol: the options of new games, the start of the current game, its
/// moves and the hashes of its earlier positions (repetitions are draws in the search).
#[derive(Clone)]
pub(super) struct PyloffProtocol {
    size: u8,
    players: u8,
    all_freedoms: bool,
    cut_down: bool,
    start: Position,
    pos: Position,
    /// The hash of the position before each move of the game.
    hashes: Vec<u64>,
}

impl PyloffProtocol {
    pub(super) fn new() -> PyloffProtocol {
        let start = Position::new(Options::default());
        PyloffProtocol {
            size: start.size(),
            players: start.players(),
            all_freedoms: false,
            cut_down: false,
            pos: start.clone(),
            start,
            hashes: Vec::new(),
        }
    }

    fn options(&self) -> Result<Options, String> {
        let rules = RuleSet::from_flags(self.all_freedoms, self.cut_down);
        Options::new(self.size, self.players, rules).map_err(|e| e.to_string())
    }

    /// The current game starts again from the empty board of the current options.
    fn restart(&mut self) {
        let options = self.options().unwrap_or_default();
        self.start = Position::new(options);
        self.pos = self.start.clone();
        self.hashes.clear();
    }
}

/// The result of a finished game: `player 1 wins`, `players 1 and 3 share the win`,
/// `draw`, with the pieces of every player.
fn result_text(pos: &Position) -> Option<String> {
    let outcome = pos.outcome()?;
    let winners: Vec<String> = outcome
        .winners()
        .iter()
        .map(|p| p.number().to_string())
        .collect();
    let head = match (outcome, winners.len()) {
        (Outcome::Draw, _) => "draw".to_owned(),
        (_, 1) => format!("player {} wins", winners[0]),
        _ => format!("players {} share the win", winners.join(" and ")),
    };
    let pieces: Vec<String> = pos.scores().iter().map(u32::to_string).collect();
    Some(format!("{head} (pieces {})", pieces.join(" ")))
}

/// One move of `text`, legal in `pos`.
fn read_move(pos: &Position, text: &str) -> Result<Move, String> {
    let quoted = excerpt(text, QUOTE);
    if let Some(result) = result_text(pos) {
        return Err(format!("`{quoted}`: the game is over ({result})"));
    }
    let mv: Move = text.parse().map_err(|e| format!("`{quoted}`: {e}"))?;
    pos.check(mv)
        .map_err(|e| format!("`{quoted}`: {}", e.reason))?;
    Ok(mv)
}

impl ProtocolGame for PyloffProtocol {
    fn name(&self) -> &'static str {
        "pyloff"
    }

    fn option_lines(&self) -> Vec<String> {
        let d = Options::default();
        vec![
            format!(
                "option name Size type spin default {} min {} max {}",
                d.size(),
                pyloff::MIN_SIZE,
                pyloff::MAX_SIZE
            ),
            "option name Players type spin default 2 min 2 max 4".to_owned(),
            "option name All freedoms type check default false".to_owned(),
            "option name Cut down type check default false".to_owned(),
        ]
    }

    fn set_option(&mut self, key: &str, name: &str, value: &str) -> Option<Result<(), String>> {
        let v = value.trim().to_ascii_lowercase();
        let bad = || bad_value(name, value);
        let mut next = self.clone();
        match key {
            "size" => match v.parse::<u8>() {
                Ok(n) => next.size = n,
                Err(_) => return Some(Err(bad())),
            },
            "players" => match v.parse::<u8>() {
                Ok(n) => next.players = n,
                Err(_) => return Some(Err(bad())),
            },
            "allfreedoms" => match yes_no(&v) {
                Some(on) => next.all_freedoms = on,
                None => return Some(Err(bad())),
            },
            "cutdown" => match yes_no(&v) {
                Some(on) => next.cut_down = on,
                None => return Some(Err(bad())),
            },
            _ => return None,
        }
        if let Err(e) = next.options() {
            return Some(Err(format!("option `{}`: {e}", excerpt(name, QUOTE))));
        }
        *self = next;
        self.restart();
        Some(Ok(()))
    }

    fn set_hash(&mut self, mb: usize) -> Job {
        Box::new(move |engines: &mut Engines| {
            engines.games.pyloff = Some(new_engine(mb));
        })
    }

    fn new_game(&mut self) -> Job {
        self.restart();
        Box::new(|engines: &mut Engines| engines.pyloff().clear())
    }

    fn set_position(&mut self, args: &[&str]) -> Result<(), String> {
        let (pos_words, moves) = split_at_moves(args);
        let start = start_position(pos_words, "Pyloff", || self.options().map(Position::new))?;
        let mut pos = start.clone();
        let mut hashes = Vec::with_capacity(moves.len());
        for (i, text) in moves.iter().enumerate() {
            let mv = read_move(&pos, text).map_err(|e| format!("move {}: {e}", i + 1))?;
            let hash = pos.hash();
            pos.play(mv)
                .map_err(|e| format!("move {} `{}`: {}", i + 1, excerpt(text, QUOTE), e.reason))?;
            hashes.push(hash);
        }
        self.start = start;
        self.pos = pos;
        self.hashes = hashes;
        Ok(())
    }

    fn show(&self) -> Vec<String> {
        show_lines(&self.pos, result_text(&self.pos))
    }

    fn clock_letters(&self) -> (&'static [char], char) {
        // Two players: `w` for player 1 (who moves first, as White in the usual clock
        // words), `b` for player 2. Three and four players: `time` and `inc` only.
        if self.pos.players() == 2 {
            let first = self.pos.to_move().number() == 1;
            (&['w', 'b'], if first { 'w' } else { 'b' })
        } else {
            (&[], ' ')
        }
    }

    fn search(&self, request: GoRequest, out: Out) -> Result<SearchJob, String> {
        let pos = self.pos.clone();
        let options = search_options(
            &request,
            |text| read_move(&pos, text),
            |n| {
                // A forced win within `n` of the mover's own moves: the others move between
                // his turns.
                let players = u32::from(pos.players());
                (n.clamp(1, 1000) - 1).saturating_mul(players) + 1
            },
        )?;
        let hashes = self.hashes.clone();
        let level = request.level;
        let kind = request.search;
        Ok(Box::new(move |engines: &mut Engines| {
            if let Some(result) = result_text(&pos) {
                return game_over(&out, result);
            }
            let view = pos.to_move().number().to_string();
            let root = SearchPosition::new(pos.clone());
            let key = root.hash_key();
            let history: Vec<u64> = hashes.iter().map(|h| h ^ key).collect();
            let limits = count_from(request.limits, request.received, request.ponder.is_some());
            let engine = engines.pyloff();
            engine.set_level(level);
            match kind {
                Some(kind) => engine.set_search_kind(kind),
                None => engine.set_default_search(),
            }
            let r = engine.search_root(&root, &history, &limits, &options, |info| {
                say(&out, &format!("info {}", info_text(info, &view)))
            });
            bestmove_line(r.best_move, &r.pv, request.ponder_move, |mv| mv)
        }))
    }
}
