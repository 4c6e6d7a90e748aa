//! The shares of a full-strength search's budget: the main search's, the check's of its
//! move, and the search of the other moves when the check refutes it
//! ([`Engine::search`](super::Engine::search)).

use std::time::Duration;

use ploy_search::Limits;

/// Share of a node or time budget the main search of full strength gets (in eighths); the
/// rest is for checking its move ([`Engine::search`](super::Engine::search)).
pub(super) const VERIFY_SHARE_MAIN: u32 = 5;
/// Share of the budget for the opponent's search after the chosen move (in eighths; the
/// last eighth is for searching the other moves when the chosen one is refuted).
pub(super) const VERIFY_SHARE_CHECK: u32 = 2;
/// The parts a budget is cut into for the checks.
pub(super) const VERIFY_PARTS: u32 = 8;
/// Most nodes of the search that keeps an announced win ([`Engine::search`](super::Engine::search)) when the
/// caller gives no node or time budget.
pub(super) const PLAY_OUT_NODES: u64 = 2_000_000;
/// Most checks of a full-strength move.
pub(super) const VERIFY_CHECKS: usize = 1;

/// `limits` with nodes and times scaled by `num / den` (at least one node).
pub(super) fn scaled(limits: &Limits, num: u32, den: u32) -> Limits {
    let mut l = limits.clone();
    l.nodes = l
        .nodes
        .map(|n| (n * u64::from(num) / u64::from(den)).max(1));
    l.soft_time = l.soft_time.map(|t| t * num / den);
    l.hard_time = l.hard_time.map(|t| t * num / den);
    l
}

/// `part` (a share of `whole`) cut so that, after `elapsed`, it does not go past `whole`'s
/// hard time (its soft time, already spent by the main search, does not cut the part's);
/// the times are from now on.
pub(super) fn remaining(part: &Limits, elapsed: Duration, whole: &Limits) -> Limits {
    let mut l = part.clone();
    if let (Some(t), Some(w)) = (l.hard_time.as_mut(), whole.hard_time) {
        *t = (*t).min(w.saturating_sub(elapsed));
    }
    if let (Some(t), Some(h)) = (l.soft_time.as_mut(), l.hard_time) {
        *t = (*t).min(h);
    }
    l
}

/// The time a budget aims at (what fitted iterations fill): twice its soft time, at most
/// its hard time (the whole time of a fixed time a move).
pub(super) fn aim(limits: &Limits) -> Option<Duration> {
    match (limits.soft_time, limits.hard_time) {
        (Some(soft), Some(hard)) => Some(soft.saturating_mul(2).min(hard)),
        (Some(soft), None) => Some(soft.saturating_mul(2)),
        (None, hard) => hard,
    }
}

/// `part` aiming at `time` from now (soft time half of it), its hard time at most that and
/// what is left of `whole`'s hard time after `elapsed`.
pub(super) fn aiming(
    mut part: Limits,
    time: Duration,
    whole: &Limits,
    elapsed: Duration,
) -> Limits {
    let hard = whole
        .hard_time
        .map_or(time, |h| time.min(h.saturating_sub(elapsed)));
    part.soft_time = Some(time / 2);
    part.hard_time = Some(hard);
    part
}

/// The budget of the check after the main search, which ended `elapsed` after the start:
/// a quarter of a node budget; with a time budget, up to seven eighths of the time aimed at
/// (at least the quarter's own share), so that what the main search left is spent and the
/// last eighth stays for searching the other moves.
pub(super) fn check_share(limits: &Limits, elapsed: Duration) -> Limits {
    let part = remaining(
        &scaled(limits, VERIFY_SHARE_CHECK, VERIFY_PARTS),
        elapsed,
        limits,
    );
    match (aim(limits), aim(&part)) {
        (Some(whole), Some(own)) => {
            let upto = whole * (VERIFY_SHARE_MAIN + VERIFY_SHARE_CHECK) / VERIFY_PARTS;
            let time = own.max(upto.saturating_sub(elapsed));
            aiming(part, time, limits, elapsed)
        }
        _ => part,
    }
}

/// The budget of the search of the other moves after the check refuted the chosen one,
/// `elapsed` after the start: an eighth of a node budget; with a time budget, what is left
/// of the time aimed at.
pub(super) fn research_share(limits: &Limits, elapsed: Duration) -> Limits {
    let part = remaining(&scaled(limits, 1, VERIFY_PARTS), elapsed, limits);
    match aim(limits) {
        Some(whole) => aiming(part, whole.saturating_sub(elapsed), limits, elapsed),
        None => part,
    }
}

/// The smaller of two optional limits (`None`: no limit).
pub(super) fn min_option<T: Ord>(a: Option<T>, b: Option<T>) -> Option<T> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, None) => a,
        (None, b) => b,
    }
}
