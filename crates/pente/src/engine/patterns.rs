//! Line patterns: what a stone placed on a point would make along one line.
//!
//! For every point and each of the four line axes the engine keeps a *key*: the contents
//! of the eight points around it on that line, four on each side (2 bits each: empty,
//! White, Black, off the board). A table built once maps a key and a colour to what a stone
//! of that colour placed on the point would do along that line:
//!
//! - its *shape* ([`Level`]): a five, an open four (two ways to make five), a four (one
//!   way), an open three (a move away from an open four), a three, an open two, a two; only
//!   lines through the point count;
//! - how many pairs it would capture (0, 1 or 2: one on each side);
//! - how many capture threats it would make (it brackets an enemy pair whose far end is
//!   empty);
//! - whether it would leave a pair of its own that the opponent could capture at once.

use std::sync::OnceLock;

/// The shape a stone would make along one line, weakest first.
pub(crate) type Level = u8;
pub(crate) const NONE: Level = 0;
pub(crate) const B2: Level = 1;
pub(crate) const F2: Level = 2;
pub(crate) const B3: Level = 3;
pub(crate) const F3: Level = 4;
pub(crate) const B4: Level = 5;
pub(crate) const F4: Level = 6;
pub(crate) const FIVE: Level = 7;

/// Slot of the neighbour at offset `i` (`-4..=-1`, `1..=4`) in a key.
#[inline]
pub(crate) const fn slot(i: i32) -> u32 {
    if i < 0 {
        (i + 4) as u32
    } else {
        (i + 3) as u32
    }
}

/// The packed facts of one key for one colour: level (bits 0-2), captures (3-4), capture
/// threats (5-6), leaves a capturable pair (7).
pub(crate) type Info = u8;

#[cfg(test)]
pub(crate) const fn level(i: Info) -> Level {
    i & 7
}
#[cfg(test)]
pub(crate) const fn captures(i: Info) -> u8 {
    (i >> 3) & 3
}
#[cfg(test)]
pub(crate) const fn capture_threats(i: Info) -> u8 {
    (i >> 5) & 3
}
#[cfg(test)]
pub(crate) const fn vulnerable(i: Info) -> bool {
    i & 0x80 != 0
}

/// The window as seen by one colour: 0 empty, 1 own, 2 blocked (enemy or off the board);
/// index 4 is the point itself, always own.
type Window = [u8; 9];

fn five_through_centre(w: &Window) -> bool {
    let mut n = 1;
    let mut i = 3;
    while i >= 0 && w[i as usize] == 1 {
        n += 1;
        i -= 1;
    }
    let mut j = 5;
    while j < 9 && w[j] == 1 {
        n += 1;
        j += 1;
    }
    n >= 5
}

fn window_index(w: &Window) -> usize {
    let mut k = 0;
    for (i, &c) in w.iter().enumerate() {
        if i != 4 {
            k = k * 3 + usize::from(c);
        }
    }
    k
}

fn level_of(w: &Window, memo: &mut [u8]) -> Level {
    let key = window_index(w);
    if memo[key] != 0xFF {
        return memo[key];
    }
    let l = if five_through_centre(w) {
        FIVE
    } else {
        let mut fives = 0;
        let mut best = NONE;
        let mut w2 = *w;
        for e in 0..9 {
            if e == 4 || w[e] != 0 {
                continue;
            }
            w2[e] = 1;
            if five_through_centre(&w2) {
                fives += 1;
            }
            w2[e] = 0;
        }
        if fives >= 2 {
            F4
        } else if fives == 1 {
            B4
        } else {
            for e in 0..9 {
                if e == 4 || w[e] != 0 {
                    continue;
                }
                w2[e] = 1;
                let next = match level_of(&w2, memo) {
                    F4 => F3,
                    B4 => B3,
                    F3 => F2,
                    B3 => B2,
                    _ => NONE,
                };
                w2[e] = 0;
                best = best.max(next);
            }
            best
        }
    };
    memo[key] = l;
    l
}

/// The table: by key, White's facts in the low byte, Black's in the high byte.
pub(crate) fn table() -> &'static [u16] {
    static TABLE: OnceLock<Box<[u16]>> = OnceLock::new();
    TABLE.get_or_init(build)
}

/// The facts of `key` for colour `c` (0 White, 1 Black).
#[cfg(test)]
pub(crate) fn info(key: u16, c: usize) -> Info {
    (table()[usize::from(key)] >> (8 * c)) as u8
}

fn build() -> Box<[u16]> {
    let mut out = vec![0u16; 1 << 16].into_boxed_slice();
    let mut memo = vec![0xFFu8; 6561];
    for key in 0..1u32 << 16 {
        // Cell codes by offset -4..=4 (centre excluded).
        let mut cells = [0u8; 9];
        for i in -4..=4i32 {
            if i != 0 {
                cells[(i + 4) as usize] = ((key >> (2 * slot(i))) & 3) as u8;
            }
        }
        for colour in 0..2u8 {
            let own = colour + 1;
            let opp = own ^ 3;
            let mut w: Window = [0; 9];
            for i in 0..9 {
                w[i] = if i == 4 || cells[i] == own {
                    1
                } else if cells[i] == 0 {
                    0
                } else {
                    2
                };
            }
            let lv = level_of(&w, &mut memo);
            let c = |i: i32| cells[(i + 4) as usize];
            let mut caps = 0u8;
            let mut threats = 0u8;
            let mut vuln = false;
            for s in [1i32, -1] {
                if c(s) == opp && c(2 * s) == opp {
                    if c(3 * s) == own {
                        caps += 1;
                    } else if c(3 * s) == 0 {
                        threats += 1;
                    }
                }
                // A pair (centre, centre + s) with an enemy at one end and an empty point
                // at the other.
                if c(s) == own && c(2 * s) != own && c(-s) != own {
                    let far = c(2 * s);
                    let near = c(-s);
                    if (far == opp && near == 0) || (far == 0 && near == opp) {
                        vuln = true;
                    }
                }
            }
            let facts = lv | (caps << 3) | (threats << 5) | (u8::from(vuln) << 7);
            out[key as usize] |= u16::from(facts) << (8 * colour);
        }
    }
    out
}

/// Threat classes of a point for one colour, from its four lines, roughly weakest first;
/// the classes from [`C_B4`] up make a four or better.
pub(crate) type Class = u8;
/// Nothing of note.
pub(crate) const C_NONE: Class = 0;
/// A two.
pub(crate) const C_B2: Class = 1;
/// An open two or a three.
pub(crate) const C_2: Class = 2;
/// Two of those.
pub(crate) const C_2X2: Class = 3;
/// An open three.
pub(crate) const C_F3: Class = 4;
/// An open three and a three.
pub(crate) const C_F3B3: Class = 5;
/// Two open threes.
pub(crate) const C_F3X2: Class = 6;
/// A four (this class and all above are the forcing ones).
pub(crate) const C_B4: Class = 7;
/// A four and an open three.
pub(crate) const C_B4F3: Class = 8;
/// An open four or two fours.
pub(crate) const C_F4: Class = 9;
/// A five.
pub(crate) const C_FIVE: Class = 10;
/// Number of classes.
pub(crate) const CLASSES: usize = 11;

/// The class of four levels packed 3 bits each.
pub(crate) fn class_table() -> &'static [Class; 4096] {
    static TABLE: OnceLock<[Class; 4096]> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = [0; 4096];
        for (packed, slot) in t.iter_mut().enumerate() {
            let mut n = [0u8; 8];
            for k in 0..4 {
                n[(packed >> (3 * k)) & 7] += 1;
            }
            *slot = if n[FIVE as usize] > 0 {
                C_FIVE
            } else if n[F4 as usize] > 0 || n[B4 as usize] >= 2 {
                C_F4
            } else if n[B4 as usize] == 1 && n[F3 as usize] > 0 {
                C_B4F3
            } else if n[F3 as usize] >= 2 {
                C_F3X2
            } else if n[B4 as usize] == 1 {
                C_B4
            } else if n[F3 as usize] == 1 && n[B3 as usize] > 0 {
                C_F3B3
            } else if n[F3 as usize] == 1 {
                C_F3
            } else if n[B3 as usize] + n[F2 as usize] >= 2 {
                C_2X2
            } else if n[B3 as usize] + n[F2 as usize] == 1 {
                C_2
            } else if n[B2 as usize] > 0 {
                C_B2
            } else {
                C_NONE
            };
        }
        t
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A key from a picture of the line: 9 characters, `.` empty, `x` own (White), `o`
    /// enemy, `#` off the board; the middle one is the point itself (`_`).
    fn key(line: &str) -> usize {
        let b = line.as_bytes();
        assert_eq!(b.len(), 9);
        let mut k = 0usize;
        for i in -4..=4i32 {
            if i == 0 {
                continue;
            }
            let code = match b[(i + 4) as usize] {
                b'.' => 0,
                b'x' => 1,
                b'o' => 2,
                b'#' => 3,
                c => panic!("bad {c}"),
            };
            k |= code << (2 * slot(i));
        }
        k
    }

    fn white(line: &str) -> Info {
        info(key(line) as u16, 0)
    }

    #[test]
    fn shapes() {
        assert_eq!(level(white("xxxx_....")), FIVE);
        assert_eq!(level(white("..xx_xx..")), FIVE);
        assert_eq!(level(white("ox.x_x.xo")), F4); // x.x_x.x: either gap makes five
        assert_eq!(level(white("...x_xx..")), F4);
        assert_eq!(level(white("..ox_xx..")), B4);
        assert_eq!(level(white("...x_x...")), F3);
        assert_eq!(level(white("..ox_x...")), B3);
        assert_eq!(level(white("...._x...")), F2);
        assert_eq!(level(white("#..._x...")), F2);
        assert_eq!(level(white("o..._x..o")), F2);
        assert_eq!(level(white("oooo_oooo")), NONE);
        assert_eq!(level(white("...._....")), NONE);
        assert_eq!(level(white("oo.._.xoo")), B2); // room for exactly one five
        assert_eq!(level(white("ooo._.xoo")), NONE); // no room for five
        assert_eq!(level(white("###._xxxo")), B4);
        assert_eq!(level(white("o.x._x..o")), F3);
        assert_eq!(level(white("oox._x..o")), B3);
        assert_eq!(level(white("o.x._..oo")), F2);
        assert_eq!(level(white("oo.x_..oo")), B2);
    }

    #[test]
    fn captures_and_threats() {
        assert_eq!(captures(white("...._oox.")), 1);
        assert_eq!(captures(white(".xoo_oox.")), 2);
        assert_eq!(captures(white("...._ooo.")), 0);
        assert_eq!(captures(white("...._oo#.")), 0);
        assert_eq!(capture_threats(white("...._oo..")), 1);
        assert_eq!(capture_threats(white("...._oox.")), 0);
        assert!(vulnerable(white("...._xo..")));
        assert!(vulnerable(white("...o_x...")));
        assert!(!vulnerable(white("...._xx..")));
        assert!(!vulnerable(white("...o_xo..")));
        assert!(!vulnerable(white("...._x...")));
    }
}
