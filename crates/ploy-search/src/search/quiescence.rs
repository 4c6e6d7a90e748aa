//! Quiescence search: the captures after the main search's last ply, until the position
//! is quiet.

use super::ordering::{pack_key, select_best, unpack_index};
use super::{MAX_PLY, Searcher};
use crate::game::{Evaluator, MoveBuffer, SearchGame};
use crate::score::{Value, terminal_value};

impl<G: SearchGame + Clone, E: Evaluator<G>> Searcher<G, E> {
    /// Quiescence search: stand pat, then captures (fail-soft).
    pub(super) fn quiesce(
        &mut self,
        g: &mut G,
        ply: usize,
        qdepth: u8,
        mut alpha: Value,
        beta: Value,
    ) -> Value {
        self.pv_len[ply] = ply;
        if self.stopped {
            return 0;
        }
        if let Some(t) = g.terminal() {
            return terminal_value(t, g.side(), ply);
        }
        let stand = self.static_eval(g);
        if !self.config.quiescence || qdepth == 0 || ply >= MAX_PLY {
            return stand;
        }
        let mut best = stand;
        if best >= beta {
            return best;
        }
        alpha = alpha.max(best);
        let buf = &mut self.bufs[ply];
        buf.clear();
        g.generate_captures(buf);
        let n = buf.len();
        for j in 0..n {
            let key = if self.config.order_captures {
                g.capture_order(self.bufs[ply][j])
            } else {
                0
            };
            self.keys[ply][j] = pack_key(key, j);
        }
        for i in 0..n {
            let keys = &mut self.keys[ply][..n];
            select_best(keys, i);
            let m = self.bufs[ply][unpack_index(keys[i])];
            if self.config.delta_pruning {
                if let Some(gain) = g.capture_value(m) {
                    if stand + gain + DELTA_MARGIN <= alpha {
                        continue;
                    }
                }
            }
            if self.config.exchange_pruning && g.exchange_value(m).is_some_and(|x| x < 0) {
                continue;
            }
            let side = g.side();
            let undo = g.make(m);
            self.count_node();
            let v = if g.side() == side {
                self.quiesce(g, ply + 1, qdepth - 1, alpha, beta)
            } else {
                -self.quiesce(g, ply + 1, qdepth - 1, -beta, -alpha)
            };
            g.unmake(m, undo);
            if self.stopped {
                return 0;
            }
            if v > best {
                best = v;
                self.update_pv(ply, G::move_to_u16(m));
                if v > alpha {
                    alpha = v;
                    if v >= beta {
                        break;
                    }
                }
            }
        }
        best
    }
}

/// Delta pruning's margin over the captured piece's value.
const DELTA_MARGIN: Value = 150;
