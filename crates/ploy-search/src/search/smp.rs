//! Several search threads on one root: Lazy SMP.
//!
//! With [`Config::threads`] `n > 1`, [`Searcher::search_with`] starts `n - 1` helper
//! threads, each with a searcher of its own (killers, history, evaluation cache, move
//! buffers) and all sharing the main searcher's transposition table (whose entries are
//! read and written atomically: see the table's docs). Every thread searches the same
//! root by iterative deepening; the helpers skip some depths, each by its own pattern, so
//! that they run ahead of the main thread and of each other and fill the table with
//! deeper entries that the main thread's iterations then find. Nothing else is exchanged:
//! the main thread's iterations, observer calls and result are what the caller gets; the
//! helpers' results are dropped. When the main thread's search ends (its depth, time or
//! node budget, the stop flag, a proven result), it raises a flag that stops the helpers
//! within [`POLL_INTERVAL`] nodes, and waits for them.
//!
//! Nodes: the count reported (in every [`Info`] and the result) is the sum over all
//! threads. A node budget ([`Limits::nodes`]) bounds that sum, and is never exceeded:
//! threads take nodes from the budget in blocks of [`POLL_INTERVAL`], and a thread that
//! finds the budget empty stops. So with two threads each searches about half the nodes.
//!
//! One thread is the caller's alone and deterministic, as before: none of this runs.

use super::{Config, Info, POLL_INTERVAL, SearchOptions, SearchResult, Searcher, Task};
use crate::game::{Evaluator, SearchGame};
use crate::limits::Limits;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};

/// The most search threads a searcher runs ([`Config::threads`] is clamped to it).
pub const MAX_THREADS: usize = 256;

/// What the threads of one search share besides the table.
#[derive(Debug)]
pub(crate) struct Shared {
    /// Nodes the threads have reported so far (each adds its count at every poll).
    nodes: AtomicU64,
    /// With a node budget: the nodes not yet handed out to a thread.
    budget: Option<AtomicU64>,
}

impl Shared {
    /// Takes up to `want` nodes from the budget: how many it got (0 once it is empty).
    fn take(budget: &AtomicU64, want: u64) -> u64 {
        match budget.fetch_update(Relaxed, Relaxed, |left| {
            (left > 0).then(|| left - left.min(want))
        }) {
            Ok(left) => left.min(want),
            Err(_) => 0,
        }
    }
}

/// One thread's tie to a search with several threads.
#[derive(Debug)]
pub(crate) struct Link {
    shared: Arc<Shared>,
    /// How much of this thread's node count it has added to `shared.nodes`.
    published: u64,
    /// 0 for the main thread, `k >= 1` for helper `k`.
    helper: usize,
}

impl Link {
    fn new(shared: &Arc<Shared>, helper: usize) -> Link {
        Link {
            shared: Arc::clone(shared),
            published: 0,
            helper,
        }
    }
}

/// Helper `k` skips depth `d` when `((d + PHASE[i]) / SIZE[i])` is odd, `i = (k - 1) % 6`:
/// helper 1 searches the even depths, helper 2 the odd ones, helpers 3 to 6 two depths
/// out of four, each shifted by one. Runs of at most two searched depths keep MTD(f)'s
/// first guess (the score two iterations back) of the same parity as the depth searched.
const SKIP_SIZE: [u32; 6] = [1, 1, 2, 2, 2, 2];
const SKIP_PHASE: [u32; 6] = [0, 1, 0, 1, 2, 3];

/// Whether helper `helper` (0: the main thread) leaves out iteration `depth`.
fn skips(helper: usize, depth: u32) -> bool {
    if helper == 0 {
        return false;
    }
    let i = (helper - 1) % SKIP_SIZE.len();
    (depth + SKIP_PHASE[i]) / SKIP_SIZE[i] % 2 == 1
}

/// Searches `task` with `main.config.threads` threads: the main thread (the caller's) and
/// helpers, as the module docs say. The table's new search has begun.
pub(super) fn search<G, E>(
    main: &mut Searcher<G, E>,
    task: &Task<'_, G>,
    observer: impl FnMut(&Info<'_, G::Move>),
) -> SearchResult<G::Move>
where
    G: SearchGame + Clone + Send,
    G::Move: Send,
    G::Moves: Send,
    E: Evaluator<G> + Clone + Send,
{
    let helpers_wanted = main.config.threads.min(MAX_THREADS) - 1;
    main.helpers.truncate(helpers_wanted);
    while main.helpers.len() < helpers_wanted {
        let config = Config {
            threads: 1,
            ..main.config.clone()
        };
        let helper = Searcher::with_table(config, main.eval.clone(), Arc::clone(&main.table));
        main.helpers.push(helper);
    }
    let shared = Arc::new(Shared {
        nodes: AtomicU64::new(0),
        budget: task.limits.nodes.map(AtomicU64::new),
    });
    let stop = Arc::new(AtomicBool::new(false));
    // The helpers search as deep as the main thread may, from the same node budget, until
    // it stops them; no time budget, one line, no pondering; the same root moves and mate
    // search.
    let helper_limits = Limits {
        depth: task.limits.depth,
        nodes: task.limits.nodes,
        stop: Some(Arc::clone(&stop)),
        ..Limits::default()
    };
    let helper_options = SearchOptions {
        root_moves: task.options.root_moves.clone(),
        lines: 1,
        mate_plies: task.options.mate_plies,
        ponder: None,
        // Helpers have no time budget: the main thread stops them.
        fit_iterations: false,
    };
    let history = task.history;
    let mut helpers = core::mem::take(&mut main.helpers);
    let mut result = std::thread::scope(|scope| {
        for (k, helper) in helpers.iter_mut().enumerate() {
            helper.link = Some(Link::new(&shared, k + 1));
            helper.nodes = 0;
            let (g, limits, options) = (
                task.pos.clone(),
                helper_limits.clone(),
                helper_options.clone(),
            );
            // A helper the system will not start is left out: fewer threads search.
            let _ = std::thread::Builder::new()
                .name(format!("search helper {}", k + 1))
                .spawn_scoped(scope, move || {
                    let task = Task {
                        pos: &g,
                        history,
                        limits: &limits,
                        options: &options,
                    };
                    helper.search_one(&task, |_| {});
                });
        }
        main.link = Some(Link::new(&shared, 0));
        let r = main.search_one(task, observer);
        stop.store(true, Relaxed);
        r
    });
    main.link = None;
    result.nodes = main.nodes;
    for helper in &mut helpers {
        helper.link = None;
        result.nodes += helper.nodes;
    }
    main.helpers = helpers;
    result
}

impl<G: SearchGame + Clone, E: Evaluator<G>> Searcher<G, E> {
    /// Changes the number of search threads ([`Config::threads`], clamped to
    /// 1..=[`MAX_THREADS`]), keeping the table and what the searcher has learnt.
    pub fn set_threads(&mut self, threads: usize) {
        self.config.threads = threads.clamp(1, MAX_THREADS);
        self.helpers.truncate(self.config.threads - 1);
    }

    /// The node budget of a search's start: with one thread the whole budget, with several
    /// the first block taken from the shared budget.
    pub(super) fn first_allowance(&self, nodes: Option<u64>) -> u64 {
        match (&self.link, nodes) {
            (Some(link), Some(_)) => link
                .shared
                .budget
                .as_ref()
                .map_or(u64::MAX, |b| Shared::take(b, POLL_INTERVAL)),
            (_, nodes) => nodes.unwrap_or(u64::MAX),
        }
    }

    /// Whether more nodes may be searched once this thread's allowance is spent: with
    /// several threads and a node budget, takes another block of it if any is left.
    #[cold]
    pub(super) fn more_nodes(&mut self) -> bool {
        let Some(budget) = self.link.as_ref().and_then(|l| l.shared.budget.as_ref()) else {
            return false;
        };
        let got = Shared::take(budget, POLL_INTERVAL);
        self.node_limit += got;
        got > 0
    }

    /// Adds this thread's nodes since the last call to the shared count.
    #[cold]
    pub(super) fn publish_nodes(&mut self) {
        if let Some(link) = &mut self.link {
            link.shared
                .nodes
                .fetch_add(self.nodes - link.published, Relaxed);
            link.published = self.nodes;
        }
    }

    /// Nodes so far, over all threads (those the others have reported).
    pub(super) fn total_nodes(&self) -> u64 {
        match &self.link {
            None => self.nodes,
            Some(link) => link.shared.nodes.load(Relaxed) + (self.nodes - link.published),
        }
    }

    /// Whether this thread leaves out iteration `depth` (helpers only).
    #[inline]
    pub(super) fn skips_depth(&self, depth: u32) -> bool {
        self.link.as_ref().is_some_and(|l| skips(l.helper, depth))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn helpers_skip_depths_by_their_patterns() {
        let searched = |k: usize| -> Vec<u32> { (1..=10).filter(|&d| !skips(k, d)).collect() };
        assert_eq!(searched(0), (1..=10).collect::<Vec<_>>());
        assert_eq!(searched(1), [2, 4, 6, 8, 10]);
        assert_eq!(searched(2), [1, 3, 5, 7, 9]);
        assert_eq!(searched(3), [1, 4, 5, 8, 9]);
        assert_eq!(searched(4), [3, 4, 7, 8]);
        assert_eq!(searched(5), [2, 3, 6, 7, 10]);
        assert_eq!(searched(6), [1, 2, 5, 6, 9, 10]);
        assert_eq!(searched(7), searched(1));
    }

    #[test]
    fn the_budget_hands_out_what_it_has() {
        let b = AtomicU64::new(2500);
        assert_eq!(Shared::take(&b, 1024), 1024);
        assert_eq!(Shared::take(&b, 1024), 1024);
        assert_eq!(Shared::take(&b, 1024), 452);
        assert_eq!(Shared::take(&b, 1024), 0);
        assert_eq!(b.load(Relaxed), 0);
    }
}
