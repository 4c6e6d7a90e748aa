//! The evaluation of Pyloff positions: [`EvalParams`] (the weights), [`PlayerTerms`] (what
//! it reads of each player) and [`Evaluation`], each player's value and the opposition
//! it is set against. The engine ([`crate::Engine`]) searches with it.

use crate::position::Position;
use crate::rules::{PlayerSurvey, with_scratch};
use crate::types::RuleSet;

/// The weights of the evaluation (units: a piece is [`EvalParams::piece`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct EvalParams {
    /// A piece on the board (the score).
    pub piece: i32,
    /// A piece of a freedomless group that nothing rests on, when another player moves
    /// next (his placement removes it).
    pub dead: i32,
    /// A piece of a group in atari when another player moves next.
    pub atari_threatened: i32,
    /// A piece of a group in atari when its owner moves next.
    pub atari_own_turn: i32,
    /// A piece of a group with two freedoms.
    pub two_freedoms: i32,
    /// A piece with a piece resting on it.
    pub held: i32,
    /// A piece above the board.
    pub upper: i32,
    /// A freedom of a group (at most four counted per group).
    pub freedom: i32,
    /// Being the player to move.
    pub tempo: i32,
    /// The race of spare moves (no voluntary pass): the player who first runs out of safe
    /// placements while he still has legal ones must put a group in atari. Percent of his
    /// smallest group's pieces counted lost, when that comes within
    /// [`EvalParams::race_horizon`] plies (scaled down linearly with the distance).
    pub race: i32,
    /// Plies ahead the race is looked at (120 by default, which beat 40 in matches against
    /// the depth-2 engine; the numbers are in the Pyloff document's match results).
    pub race_horizon: i32,
    /// Contempt for an even score in a two-player search (see
    /// [`SearchPosition::with_contempt_for`](crate::SearchPosition::with_contempt_for)): added to the searching player's evaluation,
    /// so that a line the evaluation finds no worse than minus this beats a drawn end
    /// (an even score at the end or at the move cap). 40 by default: it won more games
    /// against the depth-2 engine than none under `cut_down`, and no fewer under the other
    /// rule sets (the numbers are in the Pyloff document's match results).
    pub contempt: i32,
    /// Three and four players: how the other players' values make the opposition that a
    /// player's value is set against, in percent for the best of them; the rest is their
    /// mean. Index 0 for three players, 1 for four. The default, `[100, 100]`, is the best
    /// other player alone: `[75, 50]` took no more than its fair share of first places
    /// against it in matches (the numbers are in the Pyloff document's match results).
    pub best_other: [i32; 2],
}

impl Default for EvalParams {
    fn default() -> EvalParams {
        EvalParams {
            piece: 100,
            dead: 90,
            atari_threatened: 55,
            atari_own_turn: 20,
            two_freedoms: 8,
            held: 12,
            upper: 6,
            freedom: 4,
            tempo: 10,
            race: 60,
            race_horizon: 120,
            contempt: 40,
            best_other: [100, 100],
        }
    }
}

/// The default weights with three and four players: those of two players without the
/// race (a two-player term). Weights fitted to self-play games of three and four players
/// (the `pyloff_tune` example) lost their match against these (the Pyloff document's match
/// results).
fn multi_params() -> EvalParams {
    EvalParams {
        race: 0,
        ..EvalParams::default()
    }
}

/// What the evaluation reads of one player's position ([`Evaluation::terms`]; the
/// two-player race aside): the numbers [`Evaluation::player_value`] weighs. A tuner reads
/// them once per position and weighs them many times.
///
/// ```
/// use pyloff::{Evaluation, Game, Options, RuleSet};
/// let mut game = Game::new(Options::new(6, 3, RuleSet::Default)?);
/// game.play("c3".parse()?)?;
/// let pos = game.position();
/// let eval = Evaluation::default();
/// let terms = eval.terms(pos);
/// assert_eq!(terms[0].pieces, 1);
/// assert!(terms[1].to_move);
/// let values = eval.values(pos, None);
/// assert_eq!(values[0], Evaluation::player_value(eval.params_for(pos), &terms[0]));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PlayerTerms {
    /// Pieces on the board (the player's score).
    pub pieces: u32,
    /// Pieces of freedomless groups that nothing rests on.
    pub dead_loose: u32,
    /// Pieces of groups in atari.
    pub atari: u32,
    /// Pieces of groups with two freedoms.
    pub two: u32,
    /// Pieces with a piece resting on them.
    pub held: u32,
    /// Pieces above the board.
    pub upper: u32,
    /// Freedoms of the groups (at most four counted per group).
    pub freedoms: u32,
    /// Whether the player moves next.
    pub to_move: bool,
}

/// The evaluation (see the module docs): weights for each rule set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Evaluation {
    /// The weights under each rule set, indexed like [`RuleSet::ALL`], with two players.
    pub params: [EvalParams; 3],
    /// The same with three and four players.
    pub multi: [EvalParams; 3],
}

impl Default for Evaluation {
    /// The default weights; the race term only under the default rules (where games
    /// rarely end and cycles of captures decide; under the other two rule sets it lost
    /// its matches).
    fn default() -> Evaluation {
        let with_race = EvalParams::default();
        let without = EvalParams {
            race: 0,
            ..EvalParams::default()
        };
        Evaluation {
            params: [with_race, without, without],
            multi: [multi_params(); 3],
        }
    }
}

impl Evaluation {
    /// The weights for `rules` with two players.
    #[must_use]
    pub fn params(&self, rules: RuleSet) -> &EvalParams {
        &self.params[Self::rule_index(rules)]
    }

    fn rule_index(rules: RuleSet) -> usize {
        RuleSet::ALL.iter().position(|&r| r == rules).unwrap_or(0)
    }

    /// The weights for the game of `pos`: [`Evaluation::params`] with two players,
    /// [`Evaluation::multi`] with more.
    #[must_use]
    pub fn params_for(&self, pos: &Position) -> &EvalParams {
        let i = Self::rule_index(pos.rules());
        if pos.players() > 2 {
            &self.multi[i]
        } else {
            &self.params[i]
        }
    }

    /// The strength of a player's position that shows `t`, with the weights `p` (the
    /// two-player race aside).
    #[must_use]
    pub fn player_value(p: &EvalParams, t: &PlayerTerms) -> i32 {
        let mut v = p.piece * t.pieces as i32
            + p.held * t.held as i32
            + p.upper * t.upper as i32
            + p.freedom * t.freedoms as i32
            - p.two_freedoms * t.two as i32;
        if t.to_move {
            v += p.tempo - p.atari_own_turn * t.atari as i32;
        } else {
            v -= p.dead * t.dead_loose as i32 + p.atari_threatened * t.atari as i32;
        }
        v
    }

    /// What the evaluation reads of each player's position in `pos`, by player index
    /// (players beyond the game's: all zero).
    #[must_use]
    pub fn terms(&self, pos: &Position) -> [PlayerTerms; 4] {
        self.survey(pos, false).1
    }

    fn survey(&self, pos: &Position, race: bool) -> ([PlayerSurvey; 4], [PlayerTerms; 4]) {
        let mut survey = [PlayerSurvey::default(); 4];
        let r = pos.rules_ref();
        let key = pos.board_key();
        with_scratch(|s| r.survey(pos.owners(), key, pos.players(), race, s, &mut survey));
        let mut terms = [PlayerTerms::default(); 4];
        let mover = pos.to_move();
        for p in pos.options().player_list() {
            let sv = &survey[p.index()];
            terms[p.index()] = PlayerTerms {
                pieces: pos.score(p),
                dead_loose: sv.dead_loose,
                atari: sv.atari,
                two: sv.two,
                held: sv.held,
                upper: sv.upper,
                freedoms: sv.freedoms,
                to_move: p == mover,
            };
        }
        (survey, terms)
    }

    /// Each player's value in `pos`, by player index (`cap`: the move cap the search
    /// plays for, if any).
    #[must_use]
    pub fn values(&self, pos: &Position, cap: Option<u32>) -> [i32; 4] {
        let params = self.params_for(pos);
        let race = pos.players() == 2 && params.race != 0;
        let (survey, terms) = self.survey(pos, race);
        let mut out = [0; 4];
        for p in pos.options().player_list() {
            out[p.index()] = Self::player_value(params, &terms[p.index()]);
        }
        if race {
            Self::race(params, pos, cap, &survey, &mut out);
        }
        out
    }

    /// What `player`'s value is set against with three or four players: the other
    /// players' `values`, the best of them weighted by [`EvalParams::best_other`] and the
    /// rest by their mean.
    pub(crate) fn opposition(&self, pos: &Position, values: &[i32; 4], player: usize) -> i32 {
        let n = usize::from(pos.players());
        let others = (0..n).filter(|&i| i != player);
        let best = others.clone().map(|i| values[i]).max().unwrap_or(0);
        if n < 3 {
            return best;
        }
        let sum: i32 = others.map(|i| values[i]).sum();
        let mean = sum / (n as i32 - 1);
        let weight = self.params_for(pos).best_other[n - 3];
        (best * weight + mean * (100 - weight)) / 100
    }

    /// The race of spare moves between two players (see [`EvalParams::race`]).
    fn race(
        p: &EvalParams,
        pos: &Position,
        cap: Option<u32>,
        survey: &[PlayerSurvey; 4],
        out: &mut [i32; 4],
    ) {
        let m = pos.to_move().index();
        let o = 1 - m;
        // A player without a live placement passes: he never runs out.
        let spare = |i: usize| {
            if survey[i].live_moves == 0 {
                u32::MAX
            } else {
                survey[i].safe_moves
            }
        };
        let (sm, so) = (spare(m), spare(o));
        if sm == u32::MAX && so == u32::MAX {
            return;
        }
        // The mover moves first: on equal spare moves he runs out first.
        let (x, plies) = if sm <= so {
            (m, 2 * sm)
        } else {
            (o, 2 * so + 1)
        };
        let plies = plies as i32;
        if plies >= p.race_horizon {
            return;
        }
        if cap.is_some_and(|c| pos.plies() as i64 + i64::from(plies) >= i64::from(c)) {
            return;
        }
        let loss = survey[x].smallest as i32 * p.piece * p.race / 100;
        out[x] -= loss * (p.race_horizon - plies) / p.race_horizon;
    }
}
