//! The buffers the walks reuse ([`Work`]), the analysis of a board's groups
//! ([`Analysis`]), and the per-thread cache of both ([`Scratch`], [`with_scratch`]).

use crate::geometry::NONE;
use crate::types::RuleSet;

/// Reusable buffers for the walks.
#[derive(Debug, Default)]
pub(crate) struct Work {
    /// Visit stamps per point.
    pub(super) mark: Vec<u32>,
    /// Freedom stamps per point (counting distinct freedoms).
    pub(super) fmark: Vec<u32>,
    /// Stamps per group of the analysis.
    pub(super) gmark: Vec<u32>,
    pub(super) epoch: u32,
    /// Freedom stamps per point, one stamp per group of an analysis.
    pub(super) gfree: Vec<u32>,
    pub(super) fstamp: u32,
    pub stack: Vec<u16>,
    pub members: Vec<u16>,
    pub component: Vec<u16>,
    pub captured: Vec<u16>,
    /// A copy of the board for trial placements.
    pub board: Vec<u8>,
    /// Pieces removed by a trial placement.
    pub removed: Vec<(u16, u8)>,
}

impl Work {
    pub const fn new() -> Work {
        Work {
            mark: Vec::new(),
            fmark: Vec::new(),
            gmark: Vec::new(),
            epoch: 0,
            gfree: Vec::new(),
            fstamp: 0,
            stack: Vec::new(),
            members: Vec::new(),
            component: Vec::new(),
            captured: Vec::new(),
            board: Vec::new(),
            removed: Vec::new(),
        }
    }

    /// A fresh stamp for counting one group's distinct freedoms on a board of `len` points.
    #[inline]
    pub(super) fn next_fstamp(&mut self, len: usize) -> u32 {
        if self.gfree.len() < len {
            self.gfree.resize(len, 0);
        }
        self.fstamp = self.fstamp.wrapping_add(1);
        if self.fstamp == 0 {
            self.gfree.fill(0);
            self.fstamp = 1;
        }
        self.fstamp
    }

    /// A fresh stamp for a board of `len` points (no point or group carries it yet).
    #[inline]
    pub fn next_epoch(&mut self, len: usize) -> u32 {
        if self.mark.len() < len {
            self.mark.resize(len, 0);
            self.fmark.resize(len, 0);
            self.gmark.resize(len, 0);
        }
        self.epoch = self.epoch.wrapping_add(1);
        if self.epoch == 0 {
            self.mark.fill(0);
            self.fmark.fill(0);
            self.gmark.fill(0);
            self.epoch = 1;
        }
        self.epoch
    }
}

/// A group of the analysis: under `default` and `all_freedoms` a group of the rules (linked
/// pieces, a buried piece alone); under `cut_down` the pieces linked along one level.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct GroupInfo {
    pub colour: u8,
    /// Distinct freedoms of the members.
    pub freedoms: u16,
    /// One of them ([`NONE`] if none).
    pub free1: u16,
    /// Freedoms that no capture can take away from this colour (on the board, or resting on
    /// four pieces of this colour): `all_freedoms` only.
    pub safe: u16,
    /// One of them.
    pub safe1: u16,
    /// `cut_down`: a member has a linked piece resting on it that is alive.
    pub held: bool,
    /// Alive: a freedom (or, under `cut_down`, held).
    pub alive: bool,
    /// A buried piece alone.
    pub buried: bool,
    /// Members (in `Analysis::members`) start here.
    pub start: u16,
    /// Number of members.
    pub size: u16,
}

impl GroupInfo {
    /// A group of colour `colour` whose members start at `start` in the analysis's member
    /// list, nothing counted yet (no freedom seen: [`NONE`]).
    pub(super) fn new(colour: u8, start: u16) -> GroupInfo {
        GroupInfo {
            colour,
            free1: NONE,
            safe1: NONE,
            start,
            ..GroupInfo::default()
        }
    }
}

/// The groups of one board, computed in one pass and kept until the board changes.
#[derive(Debug, Default)]
pub(crate) struct Analysis {
    /// The board analysed (an empty vector: none yet).
    pub(super) board: Vec<u8>,
    pub(super) rules: Option<RuleSet>,
    /// Each point's group ([`NONE`] for an empty point).
    pub group: Vec<u16>,
    pub groups: Vec<GroupInfo>,
    /// The members of the groups, group by group.
    pub members: Vec<u16>,
    /// The groups without life, buried pieces left out.
    pub dead: Vec<u16>,
}

impl Analysis {
    pub const fn new() -> Analysis {
        Analysis {
            board: Vec::new(),
            rules: None,
            group: Vec::new(),
            groups: Vec::new(),
            members: Vec::new(),
            dead: Vec::new(),
        }
    }

    /// The members of group `g`.
    #[inline]
    pub fn members_of(&self, g: u16) -> &[u16] {
        let info = &self.groups[g as usize];
        &self.members[info.start as usize..(info.start + info.size) as usize]
    }
}

/// How many analyses the per-thread cache keeps (direct-mapped by the board's hash): a
/// search meets each node's board again after each child, so the boards of the search path
/// must stay.
pub(super) const CACHE: usize = 64;

/// The per-thread buffers: the walks' work space and the analyses of recent boards.
#[derive(Debug, Default)]
pub(crate) struct Scratch {
    pub w: Work,
    pub(super) cache: Vec<Analysis>,
}

impl Scratch {
    pub const fn new() -> Scratch {
        Scratch {
            w: Work::new(),
            cache: Vec::new(),
        }
    }

    /// The analysis in `slot` and the work space.
    #[inline]
    pub fn split(&mut self, slot: usize) -> (&Analysis, &mut Work) {
        (&self.cache[slot], &mut self.w)
    }
}

thread_local! {
    static SCRATCH: core::cell::RefCell<Scratch> = const { core::cell::RefCell::new(Scratch::new()) };
}

/// Runs `f` with this thread's scratch buffers (not reentrant: `f` must not call it again).
#[inline]
pub(crate) fn with_scratch<R>(f: impl FnOnce(&mut Scratch) -> R) -> R {
    SCRATCH.with(|s| f(&mut s.borrow_mut()))
}
