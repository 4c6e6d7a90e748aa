//! The threat search: a proof search over sequences of threats to win at once (a four, a
//! capture that reaches ten), in which the defender's every answer that stops the threat
//! is tried. The Pente form of the "victory by continuous fours" search of five-in-a-row
//! engines, with captures on both sides: the attacker may threaten by capture, and the
//! defender may answer by capturing stones out of the threat.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use ploy_search::SearchGame;

use super::state::SearchPosition;
use crate::types::Move;

/// Budgets of a threat search.
pub(crate) struct ThreatBudget {
    pub nodes: u64,
    pub deadline: Option<Instant>,
    pub stop: Option<Arc<AtomicBool>>,
}

pub(crate) struct ThreatSearch {
    budget: ThreatBudget,
    pub nodes: u64,
    aborted: bool,
}

impl ThreatSearch {
    pub(crate) fn new(budget: ThreatBudget) -> ThreatSearch {
        ThreatSearch {
            budget,
            nodes: 0,
            aborted: false,
        }
    }

    fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes >= self.budget.nodes {
            self.aborted = true;
        }
        if self.nodes % 256 == 0
            && (self.budget.deadline.is_some_and(|d| Instant::now() >= d)
                || self
                    .budget
                    .stop
                    .as_ref()
                    .is_some_and(|s| s.load(Ordering::Relaxed)))
        {
            self.aborted = true;
        }
        self.aborted
    }

    /// A first move of a forced win for the player to move by threats alone, at most
    /// `max_depth` threats long, and the length of the win in plies. Shorter wins are
    /// found first.
    pub(crate) fn solve(&mut self, g: &SearchPosition, max_depth: u32) -> Option<(Move, u32)> {
        if g.position().is_over() {
            return None;
        }
        if let Some(w) = g.winning_move() {
            return Some((w, 1));
        }
        let mut g = g.clone();
        for depth in 1..=max_depth {
            let mut first = None;
            if self.attack(&mut g, depth, &mut first) {
                return first.map(|m| (m, 2 * depth + 1));
            }
            if self.aborted {
                break;
            }
        }
        None
    }

    /// Whether the player to move wins by threats within `depth` more threats.
    fn attack(&mut self, g: &mut SearchPosition, depth: u32, first: &mut Option<Move>) -> bool {
        let attacker = g.mover();
        if g.can_win_at_once(attacker) {
            return true;
        }
        if depth == 0 || self.aborted {
            return false;
        }
        let mut cands = Vec::new();
        g.threat_moves(&mut cands);
        for m in cands {
            if self.tick() {
                return false;
            }
            let undo = g.make(m);
            let won = if let Some(o) = g.position().outcome() {
                o.winner() == Some(attacker)
            } else if !g.can_win_at_once(attacker) || g.can_win_at_once(attacker.other()) {
                false
            } else {
                let mut defences = Vec::new();
                g.defences(&mut defences);
                let mut all = true;
                for d in defences {
                    if self.tick() {
                        all = false;
                        break;
                    }
                    let u2 = g.make(d);
                    let ok = g.position().outcome().is_none() && {
                        let mut none = None;
                        self.attack(g, depth - 1, &mut none)
                    };
                    g.unmake(d, u2);
                    if !ok {
                        all = false;
                        break;
                    }
                }
                all
            };
            g.unmake(m, undo);
            if won {
                *first = Some(m);
                return true;
            }
            if self.aborted {
                return false;
            }
        }
        false
    }
}
