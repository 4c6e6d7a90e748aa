//! Points, cells and the precomputed neighbour tables of each board size.

use core::fmt;
use std::sync::OnceLock;

/// The smallest board size.
pub const MIN_SIZE: u8 = 2;
/// The largest board size (its notation grid uses the letters `a` to `y`).
pub const MAX_SIZE: u8 = 13;
/// The default board size.
pub const DEFAULT_SIZE: u8 = 6;
/// The widest notation grid: `2 * MAX_SIZE - 1` columns and rows.
pub const MAX_GRID: u8 = 2 * MAX_SIZE - 1;
/// The most points a board holds: the pyramid of size [`MAX_SIZE`].
pub const MAX_POINTS: usize = pyramid(MAX_SIZE) as usize;

/// The number of points of a board of size `n` on every level: `n(n+1)(2n+1)/6`, the most
/// pieces it can hold.
///
/// ```
/// assert_eq!(pyloff::pyramid(6), 91);
/// assert_eq!(pyloff::pyramid(13), 819);
/// ```
#[must_use]
pub const fn pyramid(n: u8) -> u32 {
    let n = n as u32;
    n * (n + 1) * (2 * n + 1) / 6
}

/// "No point": the sentinel of the neighbour tables.
pub(crate) const NONE: u16 = u16::MAX;

/// A point of the pyramid: level `level` (0 = the board) and its coordinates `(i, j)` on
/// that level, each in `0..size - level`.
///
/// Its cell in the notation grid is column `2i + level`, row `2j + level`
/// ([`Point::cell`]).
///
/// ```
/// use pyloff::{Cell, Point};
/// let p = Point::new(1, 0, 0);
/// assert_eq!(p.cell(), "b2".parse::<Cell>().unwrap());
/// assert_eq!(Point::new(0, 0, 3).cell().to_string(), "a7");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Point {
    /// The level, 0 for the board.
    pub level: u8,
    /// The column on the level, from the left.
    pub i: u8,
    /// The row on the level, from the bottom.
    pub j: u8,
}

impl Point {
    /// The point `(level, i, j)` (not checked against a board size).
    #[must_use]
    pub const fn new(level: u8, i: u8, j: u8) -> Point {
        Point { level, i, j }
    }

    /// Whether the point exists on a board of size `size`.
    #[must_use]
    pub const fn on_board(self, size: u8) -> bool {
        self.level < size && self.i < size - self.level && self.j < size - self.level
    }

    /// The cell of the notation grid that holds this point.
    ///
    /// # Panics
    ///
    /// If the cell lies beyond the largest grid (a point of no board).
    #[must_use]
    pub fn cell(self) -> Cell {
        Cell::new(2 * self.i + self.level, 2 * self.j + self.level)
            .expect("a point of a board lies in the largest grid")
    }
}

impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({},{},{})", self.level, self.i, self.j)
    }
}

/// A cell of the notation grid: column `x` and row `y`, both below [`MAX_GRID`] and of the
/// same parity (cells of mixed parity hold no point). Written as a lower-case letter for the
/// column (`a` = 0) and a number for the row (`1` = 0, counted from the bottom).
///
/// A cell holds the points `(k, (x-k)/2, (y-k)/2)` of one parity of levels `k`; a move
/// names a cell and plays its lowest empty point.
///
/// ```
/// use pyloff::Cell;
/// let c: Cell = "D10".parse().unwrap();
/// assert_eq!((c.x(), c.y()), (3, 9));
/// assert_eq!(c.to_string(), "d10");
/// assert!("a2".parse::<Cell>().is_err()); // mixed parity
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Cell {
    x: u8,
    y: u8,
}

const _: () = assert!(core::mem::size_of::<Cell>() == 2);

impl Cell {
    /// The cell at column `x`, row `y`, if both are below [`MAX_GRID`] and of the same
    /// parity.
    #[must_use]
    pub const fn new(x: u8, y: u8) -> Option<Cell> {
        if x < MAX_GRID && y < MAX_GRID && x % 2 == y % 2 {
            Some(Cell { x, y })
        } else {
            None
        }
    }

    /// The column, from 0 (`a`).
    #[must_use]
    pub const fn x(self) -> u8 {
        self.x
    }

    /// The row, from 0 (`1`).
    #[must_use]
    pub const fn y(self) -> u8 {
        self.y
    }

    /// Whether the cell lies in the grid of a board of size `size`.
    #[must_use]
    pub const fn on_board(self, size: u8) -> bool {
        self.x < 2 * size - 1 && self.y < 2 * size - 1
    }

    /// A code below `MAX_GRID * MAX_GRID`, the same for every board size.
    #[must_use]
    pub(crate) const fn code(self) -> u16 {
        self.y as u16 * MAX_GRID as u16 + self.x as u16
    }

    pub(crate) const fn from_code(code: u16) -> Option<Cell> {
        let max = MAX_GRID as u16;
        if code >= max * max {
            return None;
        }
        Cell::new((code % max) as u8, (code / max) as u8)
    }

    /// The points of this cell on a board of size `size`, lowest first (empty if the cell is
    /// outside that board's grid).
    pub fn points(self, size: u8) -> impl Iterator<Item = Point> {
        let (x, y) = (self.x, self.y);
        let top = if self.on_board(size) {
            let edge = 2 * size - 2;
            x.min(y).min(edge - x).min(edge - y)
        } else {
            0
        };
        let first = x % 2;
        let count = if self.on_board(size) {
            (top - first) / 2 + 1
        } else {
            0
        };
        (0..count).map(move |n| {
            let k = first + 2 * n;
            Point::new(k, (x - k) / 2, (y - k) / 2)
        })
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use fmt::Write;
        f.write_char(char::from(b'a' + self.x))?;
        write!(f, "{}", u32::from(self.y) + 1)
    }
}

/// The neighbour tables of one point (indices into the board's point array, [`NONE`] where
/// there is no such point).
#[derive(Clone, Copy, Debug)]
pub(crate) struct PointInfo {
    pub level: u8,
    /// The same-level neighbours: west, east, south, north.
    pub nbr: [u16; 4],
    /// For each same-level neighbour, the two points one level up that rest on both (a
    /// link across them is cut when they hold two unburied pieces of another colour);
    /// `[NONE, NONE]` when the pair has fewer than two such points (it cannot be cut).
    pub cut: [[u16; 2]; 4],
    /// The four supporters one level down (all [`NONE`] on the board).
    pub sup: [u16; 4],
    /// The points one level up that rest on this one ([`NONE`] where there is none).
    pub up: [u16; 4],
    /// The point two levels up in the same cell, whose piece buries this one.
    pub burier: u16,
    /// The point two levels down in the same cell, which a piece here buries.
    pub buries: u16,
}

/// The precomputed tables of a board size: points are numbered level by level, row by
/// row, so that a higher level always has higher numbers.
#[derive(Debug)]
pub(crate) struct Geometry {
    pub n: u8,
    /// Where each level's points start; `level_start[n]` is the number of points.
    pub level_start: Vec<u16>,
    pub info: Vec<PointInfo>,
    /// Each point's cell.
    pub point_cell: Vec<Cell>,
    /// The points of each cell (indexed by `Cell::code`), lowest first.
    pub cell_points: Vec<Vec<u16>>,
    /// The cells that hold points, sorted by column then row (the order of the move lists):
    /// a cell's *slot* is its index here.
    pub cells: Vec<Cell>,
    /// The slot of each cell code ([`NONE`] for cells without points).
    pub cell_slot: Vec<u16>,
    /// The points of each slot, lowest first.
    pub slot_points: Vec<Vec<u16>>,
    /// The slot of each point.
    pub point_slot: Vec<u16>,
}

impl Geometry {
    /// The tables of size `n` (built once per size).
    ///
    /// # Panics
    ///
    /// If `n` is not a board size.
    pub fn get(n: u8) -> &'static Geometry {
        static TABLES: [OnceLock<Geometry>; (MAX_SIZE + 1) as usize] =
            [const { OnceLock::new() }; (MAX_SIZE + 1) as usize];
        assert!((MIN_SIZE..=MAX_SIZE).contains(&n), "board size {n}");
        TABLES[n as usize].get_or_init(|| Geometry::build(n))
    }

    #[inline]
    pub fn len(&self) -> usize {
        self.info.len()
    }

    /// The index of `p` (which must lie on the board).
    #[inline]
    pub fn index(&self, p: Point) -> u16 {
        let m = u16::from(self.n - p.level);
        self.level_start[p.level as usize] + u16::from(p.j) * m + u16::from(p.i)
    }

    /// The index of `p` if it lies on the board.
    #[inline]
    pub fn try_index(&self, level: i32, i: i32, j: i32) -> u16 {
        let n = i32::from(self.n);
        if level < 0 || level >= n {
            return NONE;
        }
        let m = n - level;
        if i < 0 || j < 0 || i >= m || j >= m {
            return NONE;
        }
        self.index(Point::new(level as u8, i as u8, j as u8))
    }

    /// The point of index `idx`.
    pub fn point(&self, idx: u16) -> Point {
        let k = self.info[idx as usize].level;
        let off = idx - self.level_start[k as usize];
        let m = u16::from(self.n - k);
        Point::new(k, (off % m) as u8, (off / m) as u8)
    }

    fn build(n: u8) -> Geometry {
        let mut level_start = Vec::with_capacity(n as usize + 1);
        let mut total = 0u16;
        for k in 0..n {
            level_start.push(total);
            total += u16::from(n - k) * u16::from(n - k);
        }
        level_start.push(total);
        let width = 2 * n - 1;
        let mut geo = Geometry {
            n,
            level_start,
            info: Vec::with_capacity(total as usize),
            point_cell: Vec::with_capacity(total as usize),
            cell_points: vec![Vec::new(); usize::from(MAX_GRID) * usize::from(MAX_GRID)],
            cells: Vec::new(),
            cell_slot: vec![NONE; usize::from(MAX_GRID) * usize::from(MAX_GRID)],
            slot_points: Vec::new(),
            point_slot: vec![NONE; total as usize],
        };
        for k in 0..n {
            let m = n - k;
            for j in 0..m {
                for i in 0..m {
                    let (k, i, j) = (i32::from(k), i32::from(i), i32::from(j));
                    let at = |dk: i32, di: i32, dj: i32| geo.try_index(k + dk, i + di, j + dj);
                    let nbr = [at(0, -1, 0), at(0, 1, 0), at(0, 0, -1), at(0, 0, 1)];
                    let pair = |a: u16, b: u16| {
                        if a == NONE || b == NONE {
                            [NONE, NONE]
                        } else {
                            [a, b]
                        }
                    };
                    let cut = [
                        pair(at(1, -1, -1), at(1, -1, 0)),
                        pair(at(1, 0, -1), at(1, 0, 0)),
                        pair(at(1, -1, -1), at(1, 0, -1)),
                        pair(at(1, -1, 0), at(1, 0, 0)),
                    ];
                    let sup = if k == 0 {
                        [NONE; 4]
                    } else {
                        [at(-1, 0, 0), at(-1, 1, 0), at(-1, 0, 1), at(-1, 1, 1)]
                    };
                    let up = [at(1, -1, -1), at(1, 0, -1), at(1, -1, 0), at(1, 0, 0)];
                    let burier = at(2, -1, -1);
                    let buries = at(-2, 1, 1);
                    geo.info.push(PointInfo {
                        level: k as u8,
                        nbr,
                        cut,
                        sup,
                        up,
                        burier,
                        buries,
                    });
                    let cell = Point::new(k as u8, i as u8, j as u8).cell();
                    geo.point_cell.push(cell);
                }
            }
        }
        for idx in 0..total {
            let cell = geo.point_cell[idx as usize];
            geo.cell_points[cell.code() as usize].push(idx);
        }
        for x in 0..width {
            for y in (x % 2..width).step_by(2) {
                let cell = Cell { x, y };
                let points = &geo.cell_points[cell.code() as usize];
                if !points.is_empty() {
                    let slot = geo.cells.len() as u16;
                    for &p in points {
                        geo.point_slot[p as usize] = slot;
                    }
                    geo.cell_slot[cell.code() as usize] = slot;
                    geo.slot_points.push(points.clone());
                    geo.cells.push(cell);
                }
            }
        }
        geo
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_and_cells() {
        for n in MIN_SIZE..=MAX_SIZE {
            let g = Geometry::get(n);
            assert_eq!(g.len() as u32, pyramid(n));
            let cells: usize = g.cells.len();
            let nn = usize::from(n);
            assert_eq!(cells, nn * nn + (nn - 1) * (nn - 1));
            for (idx, &cell) in g.point_cell.iter().enumerate() {
                let p = g.point(idx as u16);
                assert_eq!(g.index(p), idx as u16);
                assert_eq!(p.cell(), cell);
                assert!(cell.points(n).any(|q| q == p));
            }
            for &cell in &g.cells {
                let pts: Vec<u16> = cell.points(n).map(|p| g.index(p)).collect();
                assert_eq!(pts, g.cell_points[cell.code() as usize]);
            }
        }
    }

    #[test]
    fn notation_of_points() {
        assert_eq!(Point::new(0, 0, 3).cell().to_string(), "a7");
        assert_eq!(Point::new(1, 0, 0).cell().to_string(), "b2");
        assert_eq!(Point::new(2, 0, 0).cell().to_string(), "c3");
        assert_eq!(Point::new(0, 1, 0).cell().to_string(), "c1");
        assert_eq!(Point::new(5, 0, 0).cell().to_string(), "f6");
        let c3: Vec<Point> = Cell::new(2, 2).unwrap().points(6).collect();
        assert_eq!(c3, vec![Point::new(0, 1, 1), Point::new(2, 0, 0)]);
    }
}
