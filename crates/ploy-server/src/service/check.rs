//! The consistency check: every game replayed and compared with its cached columns.

use super::Service;
use super::error::ApiError;
use super::replay::turn_since;

/// A replay problem found by [`Service::check`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckProblem {
    /// The board.
    pub id: i64,
    /// What is wrong.
    pub problem: String,
}

impl Service {
    /// Replays every game from its log and compares the result with the cached columns,
    /// then checks the ratings against the rated games ([`Service::check_ratings`]).
    ///
    /// # Errors
    /// Storage failure.
    pub fn check(&self) -> Result<(usize, Vec<CheckProblem>), ApiError> {
        let ids = self.store.game_ids()?;
        let mut problems = Vec::new();
        for &id in &ids {
            let outcome = (|| -> Result<(), ApiError> {
                let row = self.load(id)?;
                let r = self.replay(&row, None)?;
                let expected = self.cache_of(&r, &row.players, turn_since(&row));
                let stored = self.store.cache(id)?.ok_or_else(|| ApiError::no_game(id))?;
                if stored != expected {
                    return Err(ApiError::internal(format!(
                        "cache {stored:?} but the log gives {expected:?}"
                    )));
                }
                for (i, m) in row.moves.iter().enumerate() {
                    if m.ply != i {
                        return Err(ApiError::internal(format!("move {i} misnumbered")));
                    }
                }
                Ok(())
            })();
            if let Err(e) = outcome {
                problems.push(CheckProblem {
                    id,
                    problem: e.message,
                });
            }
        }
        problems.extend(
            self.check_ratings()?
                .into_iter()
                .map(|(id, problem)| CheckProblem { id, problem }),
        );
        Ok((ids.len(), problems))
    }
}
