//! Ploy on the server: every variant and rule option of the `ploy` crates.
//!
//! - Moves are read in either notation the crates read (university strings `e3-e4-0`,
//!   Tensi's algebraic `e3-e4`, `c3+3`, `e7-d6+2`) and stored as university strings, which
//!   `legal` lists (sorted).
//! - Seats: two players Green (first) and Red; four players Green, Red, Yellow, Blue. The seat
//!   to move is the player who moves now: in a partnership game the partner who plays an
//!   eliminated player's turns.
//! - The bot is the workspace's engine (the `ploy` facade's `Engine`), paranoid in
//!   free-for-all games.

use std::fmt::Write as _;
use std::ops::RangeInclusive;

use ploy_core::{
    BareCommander, DrawReason, Elimination, Game, Outcome as PloyOutcome, PartnerElimination,
    Rotation, Rules, Seat, Variant, WinReason,
};
use ploy_engine::Engine;
use ploy_notation::{PositionString, ReadMoveError, UniversityMove, read_algebraic};
use ploy_sheet::SavedGame;
use serde_json::json;

use crate::game::{
    BOT_TABLE_BYTES, BotPlay, Budget, GameInfo, GameType, MoveError, OptionSpec, Options, Outcome,
    RecordFile, ServerEnding, bot_choice, excerpt, game_facts, write_last_and_position,
};

/// The version of the rules the adapter plays (stored with every game).
pub const PLOY_RULES_VERSION: u32 = 1;

const OPTIONS: &[OptionSpec] = &[
    OptionSpec::choice(
        "variant",
        &["two-player", "ffa", "partnership"],
        "two-player (default; 2 players), ffa (free-for-all, 4), partnership (2 teams, 4)",
    ),
    OptionSpec::choice(
        "rules",
        &["standard", "university"],
        "standard (default: threefold repetition and 200 plies without capture draw) or \
         university (no draw rules)",
    ),
    OptionSpec::flag(
        "relaxed",
        "relaxed elimination: a player is out only when his commander is gone",
    ),
    OptionSpec::flag(
        "single_step",
        "single-step rotation: a turn is one step (45 degrees) either way",
    ),
    OptionSpec::flag("no_repetition", "no threefold-repetition draw"),
    OptionSpec::number(
        "no_capture_limit",
        0,
        65535,
        "plies without a capture that draw the game (0: no such draw)",
    ),
    OptionSpec::flag(
        "plays_on",
        "partnership: an eliminated player plays on instead of being absorbed",
    ),
    OptionSpec::flag(
        "bare_commander_removed",
        "four players: a bare commander leaves the board when its player is out",
    ),
];

const HELP: &str = "\
Ploy (3M, 1970) on a 9x9 board: move a piece along one of its flags, or turn it in place.
Seats: two players Green (first) and Red; four players Green, Red, Yellow, Blue.
Moves: university strings from-to-r (`e3-e4-0`: e3 to e4; `d2-d2-5`: turn the piece on d2
five steps clockwise; `e3-e4-3`: a shield moves and turns) or Tensi's algebraic notation
(`e3-e4`, `e4xf5`, `c3+3`, `e7-d6+2`). Moves are stored and listed as university strings.
A player eliminated in a partnership game has his turns played by his partner; the seat to
move is the player who moves.";

/// Ploy, as a [`GameType`].
#[derive(Clone, Copy, Debug, Default)]
pub struct PloyType;

fn variant_of(options: &Options) -> Variant {
    match options.value("variant") {
        Some("ffa") => Variant::FreeForAll,
        Some("partnership") => Variant::Partnership,
        _ => Variant::TwoPlayer,
    }
}

/// The rules `options` ask for.
fn rules_of(options: &Options) -> Rules {
    let mut rules = match options.value("rules") {
        Some("university") => Rules::university(),
        _ => Rules::standard(),
    };
    if options.has("relaxed") {
        rules.elimination = Elimination::Relaxed;
    }
    if options.has("single_step") {
        rules.rotation = Rotation::SingleStep;
    }
    if options.has("no_repetition") {
        rules.repetition_draw = false;
    }
    if let Some(n) = options.number("no_capture_limit") {
        rules.no_capture_limit = u16::try_from(n).ok().filter(|&n| n > 0);
    }
    if options.has("plays_on") {
        rules.partner_elimination = PartnerElimination::PlaysOn;
    }
    if options.has("bare_commander_removed") {
        rules.bare_commander = BareCommander::Removed;
    }
    rules
}

fn seat(index: usize) -> Option<Seat> {
    u8::try_from(index).ok().and_then(Seat::from_index)
}

fn capitalized(seat: Seat) -> String {
    let name = seat.name();
    let mut out = name[..1].to_uppercase();
    out.push_str(&name[1..]);
    out
}

fn reason_word(outcome: PloyOutcome) -> &'static str {
    match outcome {
        PloyOutcome::Win { reason, .. } => match reason {
            WinReason::CommanderCaptured => "commander_captured",
            WinReason::OnlyCommanders => "only_commanders",
            WinReason::Resignation => "resignation",
            WinReason::TimeForfeit => "time",
            _ => "win",
        },
        PloyOutcome::Draw { reason } => match reason {
            DrawReason::Repetition => "repetition",
            DrawReason::NoCaptureLimit => "no_capture_limit",
            DrawReason::Agreement => "agreement",
            _ => "draw",
        },
    }
}

fn last_move(game: &Game) -> Option<(ploy_core::Move, bool)> {
    let n = game.moves().len();
    let mv = *game.moves().last()?;
    let ps = game.positions();
    let captured = ps[n].board().occupied().count() < ps[n - 1].board().occupied().count();
    Some((mv, captured))
}

impl GameInfo for PloyType {
    game_facts!(
        name: "ploy",
        rules_version: PLOY_RULES_VERSION,
        options: OPTIONS,
        help: HELP,
    );

    fn players(&self, options: &Options) -> RangeInclusive<usize> {
        if variant_of(options).is_four_player() {
            4..=4
        } else {
            2..=2
        }
    }

    fn seat_name(&self, _options: &Options, index: usize) -> String {
        seat(index).map_or_else(|| format!("seat {index}"), capitalized)
    }
}

impl GameType for PloyType {
    type State = Game;

    fn new_game(&self, options: &Options, players: usize) -> Result<Game, String> {
        let variant = variant_of(options);
        if !self.players(options).contains(&players) {
            return Err(format!(
                "a {} game takes {} players",
                variant.name(),
                self.players(options).start()
            ));
        }
        if options.has("plays_on") && variant != Variant::Partnership {
            return Err("-plays_on is an option of partnership games".to_owned());
        }
        if options.has("bare_commander_removed") && !variant.is_four_player() {
            return Err("-bare_commander_removed is an option of four-player games".to_owned());
        }
        Ok(Game::start(variant, rules_of(options)))
    }

    fn play(&self, game: &mut Game, text: &str) -> Result<String, MoveError> {
        let text = text.trim();
        if let Some(o) = game.outcome() {
            return Err(MoveError::Illegal(format!(
                "the game is over ({})",
                reason_word(o).replace('_', " ")
            )));
        }
        let mv = read_algebraic(game.position(), text).map_err(|e| match e {
            ReadMoveError::Malformed(e) => {
                MoveError::Malformed(format!("`{}` is not a move: {e}", excerpt(text)))
            }
            ReadMoveError::Illegal(e) => MoveError::Illegal(format!("`{}`: {e}", excerpt(text))),
            _ => MoveError::Illegal(format!("`{}`: {e}", excerpt(text))),
        })?;
        game.play(mv)
            .map_err(|e| MoveError::Illegal(format!("`{}`: {e}", excerpt(text))))?;
        Ok(UniversityMove::from(mv).to_string())
    }

    fn legal_moves(&self, game: &Game) -> Vec<String> {
        let mut out: Vec<String> = game
            .legal_moves()
            .iter()
            .map(|&mv| UniversityMove::from(mv).to_string())
            .collect();
        out.sort_unstable();
        out
    }

    fn to_move(&self, game: &Game) -> Option<usize> {
        if game.outcome().is_some() {
            None
        } else {
            Some(game.position().mover().index())
        }
    }

    fn outcome(&self, game: &Game) -> Option<Outcome> {
        game.outcome().map(|o| Outcome {
            winners: o.winners().iter().map(Seat::index).collect(),
            reason: reason_word(o).to_owned(),
        })
    }

    fn winners_without(&self, game: &Game, index: usize) -> Result<Vec<usize>, String> {
        let s = seat(index).ok_or_else(|| format!("no seat {index}"))?;
        let mut g = game.clone();
        g.resign(s).map_err(|e| e.to_string())?;
        // In a free-for-all with two or more opponents in play, the player leaves and the
        // game goes on: nobody wins now, and the server writes a withdrawal instead
        // ([`GameType::withdraw`]).
        g.outcome()
            .map(|o| o.winners().iter().map(Seat::index).collect())
            .ok_or_else(|| {
                "in a free-for-all game with two or more opponents in play nobody wins by a \
                 player's leaving; he withdraws"
                    .to_owned()
            })
    }

    fn withdraw(&self, game: &mut Game, index: usize, reason: &str) -> Result<(), String> {
        let s = seat(index).ok_or_else(|| format!("no seat {index}"))?;
        let mut g = game.clone();
        match reason {
            "resignation" => g.resign(s),
            "time" => g.forfeit_on_time(s),
            other => return Err(format!("`{}` is no reason to withdraw", excerpt(other))),
        }
        .map_err(|e| e.to_string())?;
        if g.outcome().is_some() {
            return Err(format!(
                "{} leaving ends the game: it is no withdrawal",
                capitalized(s)
            ));
        }
        *game = g;
        Ok(())
    }

    fn seats_in_play(&self, game: &Game, players: usize) -> Vec<usize> {
        let pos = game.position();
        (0..players)
            .filter(|&i| seat(i).is_some_and(|s| pos.in_play().contains(s)))
            .collect()
    }

    fn render_text(&self, game: &Game) -> String {
        let pos = game.position();
        let mut out = ploy_notation::board_picture(pos, last_move(game), false);
        let variant = pos.variant();
        if variant.is_four_player() {
            let in_play: Vec<String> = pos.in_play().iter().map(capitalized).collect();
            let _ = writeln!(out, "In play: {}", in_play.join(", "));
            for colour in variant.seats().iter() {
                let c = pos.controller(colour);
                if c != colour {
                    let _ = writeln!(
                        out,
                        "{}'s pieces are moved by {}",
                        capitalized(colour),
                        capitalized(c)
                    );
                }
            }
        }
        write_last_and_position(&mut out, None, &PositionString::from_position(pos));
        out
    }

    fn render_json(&self, game: &Game) -> serde_json::Value {
        let pos = game.position();
        let variant = pos.variant();
        let pieces: Vec<serde_json::Value> = pos
            .board()
            .pieces()
            .map(|(sq, p)| {
                json!({
                    "square": sq.to_string(),
                    "colour": p.colour().name(),
                    "kind": p.kind().name(),
                    "flags": p.flags().bits(),
                    "directions": p.flags().iter().map(|d| d.name()).collect::<Vec<_>>(),
                })
            })
            .collect();
        let controllers: serde_json::Map<String, serde_json::Value> = variant
            .seats()
            .iter()
            .map(|c| (c.name().to_owned(), json!(pos.controller(c).name())))
            .collect();
        json!({
            "variant": variant.name(),
            "position": PositionString::from_position(pos).to_string(),
            "turn": pos.turn().name(),
            "mover": pos.mover().name(),
            "in_play": pos.in_play().iter().map(Seat::name).collect::<Vec<_>>(),
            "controllers": controllers,
            "pieces": pieces,
            "plies_since_capture": game.plies_since_capture(),
            "last_move": last_move(game).map(|(mv, captured)| json!({
                "move": UniversityMove::from(mv).to_string(),
                "captured": captured,
            })),
        })
    }

    fn record(
        &self,
        game: &Game,
        players: &[String],
        ending: Option<ServerEnding>,
    ) -> Result<RecordFile, String> {
        let mut game = game.clone();
        let leaving = |index: usize| seat(index).ok_or_else(|| format!("no seat {index}"));
        match ending {
            Some(ServerEnding::Resigned(i)) => game.resign(leaving(i)?),
            Some(ServerEnding::OutOfTime(i)) => game.forfeit_on_time(leaving(i)?),
            Some(ServerEnding::Agreed) => game.agree_draw(),
            None => Ok(()),
        }
        .map_err(|e| e.to_string())?;
        let mut saved = SavedGame::new(game);
        let seats = saved.game.start_position().variant().seats();
        for (seat, name) in seats.iter().zip(players) {
            saved.header.players.set(seat, Some(name.clone()));
        }
        let record = saved.to_record().map_err(|e| e.to_string())?;
        Ok(RecordFile {
            text: record.to_string(),
            extension: "ploy",
            media_type: "text/plain; charset=utf-8",
        })
    }

    fn bot_move(&self, game: &Game, budget: &Budget, play: BotPlay) -> Option<String> {
        if game.legal_moves().is_empty() {
            return None;
        }
        let limits = budget.limits();
        let mut engine = Engine::with_hash_mb(BOT_TABLE_BYTES >> 20)
            .with_level(play.level)
            .with_seed(play.seed);
        let result = engine.search(game, &limits, |_| {});
        bot_choice(
            result.best_move,
            |mv| game.is_legal(mv),
            &game.legal_moves(),
        )
        .map(|mv| UniversityMove::from(mv).to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_free_for_all_player_withdraws_and_a_two_player_one_cannot() {
        let ffa = Options::of(OPTIONS, &["-variant=ffa"]);
        let mut g = PloyType.new_game(&ffa, 4).unwrap();
        assert!(PloyType.winners_without(&g, 0).is_err());
        assert!(PloyType.withdraw(&mut g, 0, "bogus").is_err());
        PloyType.withdraw(&mut g, 0, "resignation").unwrap();
        assert_eq!(PloyType.seats_in_play(&g, 4), [1, 2, 3]);
        assert!(PloyType.outcome(&g).is_none());
        assert_ne!(PloyType.to_move(&g), Some(0));
        // Out of play, he cannot withdraw again; the game is unchanged.
        let before = g.clone();
        assert!(PloyType.withdraw(&mut g, 0, "time").is_err());
        assert_eq!(g.moves(), before.moves());
        PloyType.withdraw(&mut g, 1, "time").unwrap();
        assert_eq!(PloyType.seats_in_play(&g, 4), [2, 3]);
        // With one opponent left, leaving ends the game: no withdrawal.
        assert!(PloyType.withdraw(&mut g, 2, "resignation").is_err());
        assert_eq!(PloyType.winners_without(&g, 2).unwrap(), [3]);

        let mut two = PloyType.new_game(&Options::default(), 2).unwrap();
        assert!(PloyType.withdraw(&mut two, 0, "resignation").is_err());
        assert_eq!(PloyType.seats_in_play(&two, 2), [0, 1]);
    }

    #[test]
    fn options_give_the_rules() {
        let o = Options::of(
            OPTIONS,
            &["-rules=university", "-relaxed", "-no_capture_limit=50"],
        );
        let r = rules_of(&o);
        assert_eq!(r.elimination, Elimination::Relaxed);
        assert_eq!(r.no_capture_limit, Some(50));
        assert!(!r.repetition_draw);
        let r = rules_of(&Options::of(
            OPTIONS,
            &["-no_capture_limit=0", "-single_step", "-no_repetition"],
        ));
        assert_eq!(r.no_capture_limit, None);
        assert_eq!(r.rotation, Rotation::SingleStep);
        assert!(!r.repetition_draw);
        assert_eq!(rules_of(&Options::of(OPTIONS, &[])), Rules::standard());
        assert_eq!(
            PloyType.players(&Options::of(OPTIONS, &["-variant=ffa"])),
            4..=4
        );
        assert!(
            PloyType
                .new_game(&Options::of(OPTIONS, &["-plays_on"]), 2)
                .is_err()
        );
        assert!(
            PloyType
                .new_game(
                    &Options::of(OPTIONS, &["-variant=partnership", "-plays_on"]),
                    4
                )
                .is_ok()
        );
    }

    #[test]
    fn moves_are_stored_canonically() {
        let mut g = PloyType.new_game(&Options::of(OPTIONS, &[]), 2).unwrap();
        assert_eq!(PloyType.to_move(&g), Some(0));
        assert_eq!(PloyType.play(&mut g, "e3-e4").unwrap(), "e3-e4-0");
        assert_eq!(PloyType.to_move(&g), Some(1));
        assert!(matches!(
            PloyType.play(&mut g, "zz"),
            Err(MoveError::Malformed(_))
        ));
        assert!(matches!(
            PloyType.play(&mut g, "e3-e4-0"),
            Err(MoveError::Illegal(_))
        ));
        assert_eq!(g.moves().len(), 1);
        let legal = PloyType.legal_moves(&g);
        assert!(legal.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(PloyType.winners_without(&g, 0).unwrap(), [1]);
    }
}
