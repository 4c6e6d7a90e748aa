//! Fitting an evaluation's integer weights to game results: the scale of a logistic (or
//! softmax) prediction by golden-section search, and the weights by coordinate descent.
//! The games' tuners (`cargo run -p pente --example pente_tune`, `-p pyloff --example pyloff_tune`)
//! read their positions and say what the loss is; this module only searches.
//!
//! ```
//! use ploy_search::tuning::{descend, fit_scale};
//! // The loss of weights `w` at scale `k`: smallest at w = [30, -12] and k = 200.
//! let loss = |w: &[i32], k: f64| {
//!     f64::from((w[0] - 30).pow(2) + (w[1] + 12).pow(2)) + (k.ln() - 200f64.ln()).powi(2)
//! };
//! let k = fit_scale(1.0, 10_000.0, |k| loss(&[0, 0], k));
//! assert!((k - 200.0).abs() < 1.0);
//! let (w, k) = descend(vec![0, 0], None, k, loss, |_, _, _| {});
//! assert_eq!(w, [30, -12]);
//! assert!((k - 200.0).abs() < 1.0);
//! ```

/// The scale between `lo` and `hi` (both above 0) where `loss` is smallest, by a
/// golden-section search over its logarithm (40 steps; `loss` should have one minimum).
pub fn fit_scale(lo: f64, hi: f64, loss: impl Fn(f64) -> f64) -> f64 {
    let (mut a, mut b) = (lo.ln(), hi.ln());
    let r = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..40 {
        let c = b - r * (b - a);
        let d = a + r * (b - a);
        if loss(c.exp()) < loss(d.exp()) {
            b = d;
        } else {
            a = c;
        }
    }
    ((a + b) / 2.0).exp()
}

/// Coordinate descent from `weights` and scale `scale` on `loss(weights, scale)`: each
/// weight in turn moves up, or else down, by its step (a quarter of its start, at least
/// 4), kept when the loss falls (never below `floor`, if given); after each round the scale
/// is fitted again between 1 and 100,000 ([`fit_scale`]). The steps halve when a round
/// changes nothing, down to 1, and the descent ends when a round of steps of 1 changes
/// nothing (or after 200 rounds). `report(round, loss, scale)` sees every round. Returns
/// the weights and the scale.
pub fn descend(
    mut weights: Vec<i32>,
    floor: Option<i32>,
    mut scale: f64,
    loss: impl Fn(&[i32], f64) -> f64,
    mut report: impl FnMut(u32, f64, f64),
) -> (Vec<i32>, f64) {
    let mut steps: Vec<i32> = weights.iter().map(|w| (w.abs() / 4).max(4)).collect();
    let mut best = loss(&weights, scale);
    for round in 1..=200 {
        let mut improved = false;
        for i in 0..weights.len() {
            for sign in [1, -1] {
                let mut trial = weights.clone();
                trial[i] += sign * steps[i];
                if let Some(f) = floor {
                    trial[i] = trial[i].max(f);
                }
                let l = loss(&trial, scale);
                if l < best {
                    best = l;
                    weights = trial;
                    improved = true;
                    break;
                }
            }
        }
        scale = fit_scale(1.0, 100_000.0, |k| loss(&weights, k));
        best = loss(&weights, scale);
        report(round, best, scale);
        if !improved {
            if steps.iter().all(|&s| s <= 1) {
                break;
            }
            for s in &mut steps {
                *s = (*s / 2).max(1);
            }
        }
    }
    (weights, scale)
}
