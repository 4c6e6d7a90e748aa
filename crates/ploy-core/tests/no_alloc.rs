//! Move generation, counting, legality checks and make/unmake never touch the heap: a
//! counting global allocator sees no allocation while they run.

use ploy_core::{MoveList, Position, Rules, Variant};
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicUsize, Ordering};

struct Counting;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

thread_local! {
    /// Set on the test's own thread while it walks the tree: the test harness's other
    /// threads allocate too, and must not count.
    static WATCHED: Cell<bool> = const { Cell::new(false) };
}

// SAFETY: forwards every call to the system allocator unchanged; only counts. The only
// unsafe code in the workspace, in this test alone (libraries forbid unsafe code).
#[allow(unsafe_code)]
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if WATCHED.try_with(Cell::get).unwrap_or(false) {
            ALLOCATIONS.fetch_add(1, Ordering::SeqCst);
        }
        // SAFETY: same contract as the caller's.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: same contract as the caller's.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn walk(pos: &mut Position, depth: u32, list_stack: &mut [MoveList]) -> u64 {
    if depth == 0 {
        return 1;
    }
    let (list, rest) = list_stack.split_first_mut().unwrap();
    list.clear();
    pos.generate_moves(list);
    assert_eq!(list.len(), pos.count_legal_moves());
    let mut n = 0;
    for i in 0..list.len() {
        let mv = list[i];
        assert!(pos.is_legal(mv));
        let undo = pos.make_move(mv);
        n += walk(pos, depth - 1, rest);
        pos.unmake_move(mv, undo);
    }
    n
}

#[test]
fn hot_paths_do_not_allocate() {
    for variant in [
        Variant::TwoPlayer,
        Variant::FreeForAll,
        Variant::Partnership,
    ] {
        let mut pos = Position::start(variant, Rules::standard());
        let mut lists = vec![MoveList::new(), MoveList::new(), MoveList::new()];
        let before = ALLOCATIONS.load(Ordering::SeqCst);
        WATCHED.with(|w| w.set(true));
        let n = walk(&mut pos, 3, &mut lists);
        WATCHED.with(|w| w.set(false));
        let after = ALLOCATIONS.load(Ordering::SeqCst);
        assert!(n > 0);
        assert_eq!(after, before, "{variant:?}: {} allocations", after - before);
    }
}
