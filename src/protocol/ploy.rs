//! Ploy in the protocol: every variant and rule option, moves in either notation, positions
//! as position strings, [`ploy_engine::Engine`] on the search thread.

use ploy_core::{BareCommander, Elimination, PartnerElimination, Rotation, Seat};
use ploy_notation::{PositionString, UniversityMove};

use super::game::{
    GoRequest, ProtocolGame, bad_value, bestmove_line, count_from, game_over, search_options,
    show_lines, split_at_moves,
};
use super::*;

/// Ploy's settings: the rules new positions are played by, the variant of
/// `position startpos`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct PloySettings {
    variant: Variant,
    rules: Rules,
}

/// Ploy in the protocol.
pub(super) struct PloyProtocol {
    settings: PloySettings,
    game: Game,
}

impl PloyProtocol {
    pub(super) fn new() -> PloyProtocol {
        let settings = PloySettings {
            variant: Variant::TwoPlayer,
            rules: Rules::standard(),
        };
        PloyProtocol {
            settings,
            game: Game::new(settings.rules),
        }
    }

    /// The settings after option `key` is set to `value`, or why not.
    fn changed(&self, key: &str, name: &str, value: &str) -> Option<Result<PloySettings, String>> {
        let mut s = self.settings;
        let v = value.trim().to_ascii_lowercase();
        let bad = || bad_value(name, value);
        let yes_no = |v: &str| match v {
            "true" | "yes" | "on" | "1" => Ok(true),
            "false" | "no" | "off" | "0" => Ok(false),
            _ => Err(bad()),
        };
        let result = (|| {
            match key {
                "variant" => {
                    s.variant = match v.as_str() {
                        "two-player" | "twoplayer" | "2" => Variant::TwoPlayer,
                        "free-for-all" | "freeforall" | "ffa" => Variant::FreeForAll,
                        "partnership" => Variant::Partnership,
                        _ => return Err(bad()),
                    };
                }
                "rules" => {
                    s.rules = match v.as_str() {
                        "standard" => Rules::standard(),
                        "university" => Rules::university(),
                        _ => return Err(bad()),
                    };
                }
                "elimination" => {
                    s.rules.elimination = pick(&v, ELIMINATION).ok_or_else(bad)?;
                }
                "rotation" => {
                    s.rules.rotation = pick(&v, ROTATION).ok_or_else(bad)?;
                }
                "repetitiondraw" => s.rules.repetition_draw = yes_no(&v)?,
                "nocapturelimit" => {
                    let n: u16 = v.parse().map_err(|_| bad())?;
                    s.rules.no_capture_limit = (n > 0).then_some(n);
                }
                "partnerelimination" => {
                    s.rules.partner_elimination = pick(&v, PARTNER_ELIMINATION).ok_or_else(bad)?;
                }
                "barecommander" => {
                    s.rules.bare_commander = pick(&v, BARE_COMMANDER).ok_or_else(bad)?;
                }
                _ => return Ok(None),
            }
            Ok(Some(s))
        })();
        result.transpose()
    }
}

impl ProtocolGame for PloyProtocol {
    fn has_threads(&self) -> bool {
        true
    }

    fn name(&self) -> &'static str {
        "ploy"
    }

    fn option_lines(&self) -> Vec<String> {
        [
            "option name Variant type combo default two-player var two-player var free-for-all \
             var partnership",
            "option name Rules type combo default standard var standard var university",
            "option name Elimination type combo default strict var strict var relaxed",
            "option name Rotation type combo default any var any var single-step",
            "option name Repetition draw type check default true",
            "option name No-capture limit type spin default 200 min 0 max 65535",
            "option name Partner elimination type combo default absorbed var absorbed var \
             plays-on",
            "option name Bare commander type combo default stays var stays var removed",
        ]
        .map(str::to_owned)
        .to_vec()
    }

    fn set_option(&mut self, key: &str, name: &str, value: &str) -> Option<Result<(), String>> {
        let settings = match self.changed(key, name, value)? {
            Ok(s) => s,
            Err(e) => return Some(Err(e)),
        };
        // The rules of the current game follow the options (replayed from its start); only
        // when that works does anything change.
        let game = if settings.rules == self.settings.rules {
            None
        } else {
            let start = match self.game.start_position().with_rules(settings.rules) {
                Ok(start) => start,
                Err(e) => {
                    return Some(Err(format!(
                        "the current position under the new rules: {e}"
                    )));
                }
            };
            match Game::replay(start, self.game.moves().iter().copied()) {
                Ok(g) => Some(g),
                Err((i, e)) => {
                    return Some(Err(format!(
                        "move {} of the current game under the new rules: {e}; nothing \
                         changed",
                        i + 1
                    )));
                }
            }
        };
        self.settings = settings;
        if let Some(game) = game {
            self.game = game;
        }
        Some(Ok(()))
    }

    fn set_hash(&mut self, mb: usize) -> Job {
        Box::new(move |engines: &mut Engines| match &mut engines.ploy {
            Some(engine) => engine.set_hash_mb(mb),
            None => {
                let mut engine = Engine::with_hash_mb(mb);
                engine.set_threads(engines.threads);
                engines.ploy = Some(engine);
            }
        })
    }

    fn new_game(&mut self) -> Job {
        self.game =
            Game::from_position(Position::start(self.settings.variant, self.settings.rules));
        Box::new(|engines: &mut Engines| engines.ploy().clear())
    }

    fn set_position(&mut self, args: &[&str]) -> Result<(), String> {
        let (pos_words, moves) = split_at_moves(args);
        let (variant, rules) = (self.settings.variant, self.settings.rules);
        let start = match pos_words {
            [] => return Err("expected `position startpos` or `position fen <string>`".into()),
            ["fen"] => return Err("`position fen` needs a position string".into()),
            ["fen", rest @ ..] => read_position_text(&rest.join(" "), variant, rules),
            [word] => read_position_text(word, variant, rules),
            [first, ..] => {
                return Err(format!(
                    "unexpected `{} ...`: expected `startpos`, `start`, `ffa`, `partnership` \
                     or `fen <string>`",
                    excerpt(first, QUOTE)
                ));
            }
        }
        .map_err(|e| excerpt(&e, 200))?;
        let mut game = Game::from_position(start);
        for (i, text) in moves.iter().enumerate() {
            let mv = read_move(&game, text).map_err(|e| format!("move {}: {e}", i + 1))?;
            game.play(mv)
                .map_err(|e| format!("move {} `{}`: {e}", i + 1, excerpt(text, QUOTE)))?;
        }
        self.game = game;
        Ok(())
    }

    fn show(&self) -> Vec<String> {
        let outcome = self
            .game
            .outcome()
            .map(|o| ploy_sheet::ResultText(Some(o)).to_string());
        show_lines(PositionString::from_position(self.game.position()), outcome)
    }

    fn clock_letters(&self) -> (&'static [char], char) {
        let pos = self.game.position();
        let mover = pos.mover();
        if pos.variant() == Variant::TwoPlayer {
            // The two-player position string's side letters: `b` Green, `w` Red.
            (&['b', 'w'], if mover == Seat::Green { 'b' } else { 'w' })
        } else {
            (&['g', 'r', 'y', 'b'], ['g', 'r', 'y', 'b'][mover.index()])
        }
    }

    fn search(&self, request: GoRequest, out: Out) -> Result<SearchJob, String> {
        let game = self.game.clone();
        let options = search_options(
            &request,
            |text| read_move(&game, text),
            |n| mate_plies(game.position(), n),
        )?;
        Ok(Box::new(move |engines: &mut Engines| {
            if let Some(o) = game.outcome() {
                // Decided, by the board or by a draw rule of the game (the position
                // alone may still have moves): nothing to search.
                return game_over(&out, ploy_sheet::ResultText(Some(o)));
            }
            let limits = count_from(request.limits, request.received, request.ponder.is_some());
            let engine = engines.ploy();
            engine.set_level(request.level);
            engine.set_ffa_search(request.search);
            let result = engine.search_with(&game, &limits, &options, |info| {
                say(&out, &format!("info {info}"));
            });
            bestmove_line(
                result.best_move,
                &result.pv,
                request.ponder_move,
                UniversityMove::from,
            )
        }))
    }
}

/// The values of the `elimination` option and what they set.
const ELIMINATION: &[(&str, Elimination)] = &[
    ("strict", Elimination::Strict),
    ("relaxed", Elimination::Relaxed),
];

/// The values of the `rotation` option and what they set.
const ROTATION: &[(&str, Rotation)] = &[
    ("any", Rotation::Any),
    ("single-step", Rotation::SingleStep),
    ("singlestep", Rotation::SingleStep),
];

/// The values of the `partner_elimination` option and what they set.
const PARTNER_ELIMINATION: &[(&str, PartnerElimination)] = &[
    ("absorbed", PartnerElimination::Absorbed),
    ("plays-on", PartnerElimination::PlaysOn),
    ("playson", PartnerElimination::PlaysOn),
];

/// The values of the `bare_commander` option and what they set.
const BARE_COMMANDER: &[(&str, BareCommander)] = &[
    ("stays", BareCommander::Stays),
    ("removed", BareCommander::Removed),
];

/// The value named `v` among `choices`, if one is.
fn pick<T: Copy>(v: &str, choices: &[(&str, T)]) -> Option<T> {
    choices
        .iter()
        .find(|(name, _)| *name == v)
        .map(|&(_, value)| value)
}

/// `go mate N` in plies: a forced win within `n` of the mover's own moves. With two sides
/// taking turns that is `2n - 1` plies; in free-for-all, with `p` players in play, the
/// others move between his turns: `(n - 1) p + 1` plies.
fn mate_plies(pos: &Position, n: u32) -> u32 {
    let n = n.clamp(1, 1000);
    let between = match pos.variant() {
        Variant::FreeForAll => pos.in_play().count().max(2),
        _ => 2,
    };
    (n - 1).saturating_mul(between).saturating_add(1)
}
