//! What the evaluation counts of every player's groups ([`PlayerSurvey`]).

use super::Rules;
use super::scratch::Scratch;
use crate::geometry::NONE;
use crate::types::RuleSet;

impl Rules<'_> {
    /// What the evaluation needs of every player's groups (the analysis's groups), into
    /// `out` (indexed by colour minus one).
    /// With `moves`, also each of the first `players` colours' placements that live and
    /// that are safe (the race of spare moves).
    #[allow(clippy::too_many_arguments)]
    pub fn survey(
        &self,
        o: &[u8],
        key: u64,
        players: u8,
        moves: bool,
        s: &mut Scratch,
        out: &mut [PlayerSurvey; 4],
    ) {
        *out = [PlayerSurvey::default(); 4];
        let slot = self.analyse(o, key, s);
        let an = &s.cache[slot];
        for (x, &c) in o.iter().enumerate() {
            if c == 0 {
                continue;
            }
            let info = &self.geo.info[x];
            let sv = &mut out[usize::from(c) - 1];
            if info.up.iter().any(|&u| u != NONE && o[u as usize] != 0) {
                sv.held += 1;
            } else if !an.groups[an.group[x] as usize].alive {
                sv.dead_loose += 1;
            }
            if info.level > 0 {
                sv.upper += 1;
            }
        }
        for g in &an.groups {
            let sv = &mut out[usize::from(g.colour) - 1];
            if g.alive && !g.held {
                match g.freedoms {
                    1 => sv.atari += u32::from(g.size),
                    2 => sv.two += u32::from(g.size),
                    _ => {}
                }
            }
            if g.alive && !g.buried {
                sv.smallest = if sv.groups == 0 {
                    u32::from(g.size)
                } else {
                    sv.smallest.min(u32::from(g.size))
                };
                sv.groups += 1;
            }
            sv.freedoms += u32::from(g.freedoms.min(4));
        }
        if !moves {
            return;
        }
        // Each player's placements that keep their piece alive (captures aside), and
        // those that leave it at least two freedoms (safe: no self-atari).
        for points in &self.geo.slot_points {
            let Some(&x) = points.iter().find(|&&x| o[x as usize] == 0) else {
                continue;
            };
            if !self.valid(o, x) {
                continue;
            }
            let info = &self.geo.info[x as usize];
            let own = self.freedoms_of(o, x).count() as u32;
            for c in 1..=players {
                let (mut best, mut held) = (0u32, false);
                let mut any_linked = false;
                let down = self.rules != RuleSet::CutDown;
                for (n, &q) in info.nbr.iter().chain(&info.sup).enumerate() {
                    if q == NONE || o[q as usize] != c || (n >= 4 && !down) {
                        continue;
                    }
                    any_linked = true;
                    let gi = &an.groups[an.group[q as usize] as usize];
                    held |= gi.held;
                    let lost = u32::from(n < 4 && self.freedom_point(o, x));
                    best = best.max(u32::from(gi.freedoms).saturating_sub(lost));
                }
                if !any_linked && own == 0 {
                    continue;
                }
                let sv = &mut out[usize::from(c) - 1];
                if held || own + best >= 1 {
                    sv.live_moves += 1;
                }
                if held || own + best >= 2 {
                    sv.safe_moves += 1;
                }
            }
        }
    }
}

/// Per-player counts for the evaluation ([`Rules::survey`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct PlayerSurvey {
    /// Pieces of groups without life that nothing rests on (the next capture removes them).
    pub dead_loose: u32,
    /// Pieces of groups with exactly one freedom.
    pub atari: u32,
    /// Pieces of groups with exactly two freedoms.
    pub two: u32,
    /// Pieces with a piece resting on them (not removable while it stays).
    pub held: u32,
    /// Pieces above the board.
    pub upper: u32,
    /// Freedoms of the groups, at most four counted per group.
    pub freedoms: u32,
    /// Living groups (buried pieces left out).
    pub groups: u32,
    /// The size of the smallest living group (0 without one).
    pub smallest: u32,
    /// Placements after which the piece lives (captures aside).
    pub live_moves: u32,
    /// Placements after which the piece's group keeps two freedoms.
    pub safe_moves: u32,
}
