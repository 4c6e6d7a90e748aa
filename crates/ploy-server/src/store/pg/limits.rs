//! The throttles' rows on PostgreSQL (see `store/limits.rs`): times by the database's clock
//! in µs; a count locks its keys' rows (inserting a fresh one where there is none) and
//! writes them back in one short transaction, committed without waiting for the disk.

use super::super::StoreError;
use super::super::limits::{LimitKey, LimitRow};
use super::Postgres;

/// The database's clock, µs since the Unix epoch (`clock_timestamp()`: the moment of the
/// statement, not of its transaction's start).
const NOW: &str = "(extract(epoch FROM clock_timestamp()) * 1000000)::bigint";

fn columns<'a>(keys: &[LimitKey<'a>]) -> (Vec<&'static str>, Vec<&'a str>) {
    keys.iter().map(|k| (k.kind.as_str(), k.key)).unzip()
}

impl Postgres {
    /// The keys among `keys` that are locked now: kind, key, and µs left.
    pub(in super::super) fn limit_locks(
        &self,
        keys: &[LimitKey<'_>],
    ) -> Result<Vec<(String, String, i64)>, StoreError> {
        if keys.is_empty() {
            return Ok(Vec::new());
        }
        let (kinds, names) = columns(keys);
        let rows = self.conn()?.query(
            &format!(
                "SELECT t.kind, t.key, t.locked_until - c.now
                 FROM throttles t, (SELECT {NOW} AS now) c
                 WHERE (t.kind, t.key) IN (SELECT * FROM unnest($1::text[], $2::text[]))
                   AND t.locked_until > c.now"
            ),
            &[&kinds, &names],
        )?;
        Ok(rows
            .iter()
            .map(|r| (r.get(0), r.get(1), r.get(2)))
            .collect())
    }

    /// In one transaction: locks the rows of `keys` in their order (a fresh row where there
    /// is none), reads them and the database's time, and writes back what `step` makes of
    /// each (given its index, row and the time; `None` leaves the row as it was).
    pub(in super::super) fn limit_step(
        &self,
        keys: &[LimitKey<'_>],
        mut step: impl FnMut(usize, LimitRow, i64) -> Option<LimitRow>,
    ) -> Result<(), StoreError> {
        if keys.is_empty() {
            return Ok(());
        }
        let (kinds, names) = columns(keys);
        let mut conn = self.conn()?;
        let mut tx = conn.transaction()?;
        // Not waiting for the commit to reach the disk: a count is seen by every process at
        // once; a crash of the database server may forget the last fraction of a second's
        // counts, which lets a few more guesses through, never a wrong game.
        tx.batch_execute("SET LOCAL synchronous_commit = off")?;
        // A fresh row's `tat` is now: the limiter is full, as for a key never seen.
        let rows = tx.query(
            &format!(
                "WITH c AS (SELECT {NOW} AS now)
                 INSERT INTO throttles AS t (kind, key, tat)
                 SELECT k.kind, k.key, c.now
                 FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS k(kind, key, i), c
                 ORDER BY k.i
                 ON CONFLICT (kind, key) DO UPDATE SET strikes = t.strikes
                 RETURNING t.kind, t.key, t.tat, t.locked_until, t.strikes,
                           (SELECT now FROM c)"
            ),
            &[&kinds, &names],
        )?;
        let (mut new_kinds, mut new_names) = (Vec::new(), Vec::new());
        let (mut tats, mut locks, mut strikes) = (Vec::new(), Vec::new(), Vec::new());
        for (i, k) in keys.iter().enumerate() {
            let r = rows
                .iter()
                .find(|r| r.get::<_, &str>(0) == k.kind.as_str() && r.get::<_, &str>(1) == k.key)
                .ok_or_else(|| {
                    StoreError::Corrupt(format!("no throttle row for {} {}", k.kind, k.key))
                })?;
            let row = LimitRow {
                tat: r.get(2),
                locked_until: r.get(3),
                strikes: r.get(4),
            };
            if let Some(new) = step(i, row, r.get(5)) {
                new_kinds.push(k.kind.as_str());
                new_names.push(k.key);
                tats.push(new.tat);
                locks.push(new.locked_until);
                strikes.push(new.strikes);
            }
        }
        if !new_kinds.is_empty() {
            tx.execute(
                "UPDATE throttles AS t
                 SET tat = u.tat, locked_until = u.locked_until, strikes = u.strikes
                 FROM unnest($1::text[], $2::text[], $3::bigint[], $4::bigint[], $5::bigint[])
                      AS u(kind, key, tat, locked_until, strikes)
                 WHERE t.kind = u.kind AND t.key = u.key",
                &[&new_kinds, &new_names, &tats, &locks, &strikes],
            )?;
        }
        tx.commit()?;
        Ok(())
    }

    /// Deletes the rows of `kind` whose limiter is full again and whose last lock ended at
    /// least `period` µs ago.
    pub(in super::super) fn limit_sweep(&self, kind: &str, period: i64) -> Result<u64, StoreError> {
        Ok(self.conn()?.execute(
            &format!(
                "WITH c AS (SELECT {NOW} AS now)
                 DELETE FROM throttles t USING c
                 WHERE t.kind = $1 AND t.tat <= c.now
                   AND t.locked_until <= c.now - $2::bigint"
            ),
            &[&kind, &period],
        )?)
    }
}
