//! The schedule every kind of match shares: workers on threads, each with its own players,
//! take the next game not yet taken; finished games are handed on in the games' order, so
//! that the counting (and any test that stops the match) sees them as a single worker
//! would give them.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::mpsc;

use super::Failure;

/// What a worker tells the match.
enum Event<R> {
    /// Its players are ready; what they say about themselves.
    Started(Vec<Option<String>>),
    /// A finished game: its index (counting from 0) and report.
    Game(u32, Box<R>),
    /// Its players could not be made.
    Failed(String),
}

/// The players of one worker, as the schedule sees them.
pub(super) trait Seats {
    /// What each player says about itself (an engine program's `id name`).
    fn about(&self) -> Vec<Option<String>>;
}

/// Games `first..games` (indices counting from 0) on `jobs` workers: `make` gives each worker
/// its players, `play` plays one game with them (`None` when `stop` was raised first),
/// `on_report` gets every finished game in the games' order and says whether the match is
/// decided (then the games still under way are dropped). Gives what the players of the first
/// worker to start said about themselves (empty when no game was played).
///
/// # Errors
/// Players that cannot be made (status 1), or what `on_report` returns.
pub(super) fn schedule<P: Seats, R: Send>(
    first: u32,
    games: u32,
    jobs: u32,
    make: &(dyn Fn() -> Result<P, String> + Sync),
    play: &(dyn Fn(u32, &mut P, &AtomicBool) -> Option<R> + Sync),
    mut on_report: impl FnMut(R) -> Result<bool, Failure>,
) -> Result<Vec<Option<String>>, Failure> {
    if first >= games {
        return Ok(Vec::new());
    }
    let next = AtomicU32::new(first);
    let stop = AtomicBool::new(false);
    let jobs = jobs.clamp(1, games - first);
    let mut about = None;
    let mut failure = None;
    std::thread::scope(|scope| {
        let (tx, rx) = mpsc::channel();
        for _ in 0..jobs {
            let tx: mpsc::Sender<Event<R>> = tx.clone();
            let (next, stop) = (&next, &stop);
            scope.spawn(move || {
                let mut players = match make() {
                    Ok(p) => p,
                    Err(e) => {
                        stop.store(true, Ordering::Relaxed);
                        let _ = tx.send(Event::Failed(e));
                        return;
                    }
                };
                let _ = tx.send(Event::Started(players.about()));
                while !stop.load(Ordering::Relaxed) {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    if index >= games {
                        break;
                    }
                    let Some(report) = play(index, &mut players, stop) else {
                        break;
                    };
                    if tx.send(Event::Game(index, Box::new(report))).is_err() {
                        break;
                    }
                }
                // The players go here: engine programs are told to quit.
            });
        }
        drop(tx);
        let mut waiting = BTreeMap::new();
        let mut counted = first;
        let mut done = false;
        for event in rx {
            match event {
                Event::Started(a) => {
                    about.get_or_insert(a);
                }
                Event::Failed(e) => {
                    failure.get_or_insert(Failure::failed(e));
                    done = true;
                }
                Event::Game(index, report) if !done => {
                    waiting.insert(index, report);
                    while let Some(report) = waiting.remove(&counted) {
                        counted += 1;
                        let decided = match on_report(*report) {
                            Ok(d) => d,
                            Err(f) => {
                                failure.get_or_insert(f);
                                true
                            }
                        };
                        if decided {
                            done = true;
                            break;
                        }
                    }
                    if done {
                        stop.store(true, Ordering::Relaxed);
                    }
                }
                Event::Game(..) => {}
            }
        }
    });
    if let Some(f) = failure {
        return Err(f);
    }
    Ok(about.unwrap_or_default())
}
