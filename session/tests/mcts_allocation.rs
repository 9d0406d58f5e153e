//! The MCTS search allocates per search, not per iteration: a counting allocator watches
//! searches from the first decision of a 2-player base game. Every iteration plays in
//! the memory of the last one's game (the root copied into it with `clone_from`), so
//! once the first playouts have run to the end of the game its lists are large enough;
//! what is left is the tree's arrays growing by amortised doubling and the search's own
//! few lists. One allocation per iteration would be 300 in 300 iterations; the copy of
//! a game alone took about a dozen.

use carcassonne::{Game, GameConfig, Rng};
use carcassonne_session::mcts::{Budget, MctsConfig};
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

struct Counting;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call is forwarded unchanged to the system allocator; the wrapper only
// counts allocations.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: same contract as the caller's.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: same contract as the caller's.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: same contract as the caller's.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Allocations of a search of `iterations` iterations from the first decision.
fn search_allocations(iterations: u32) -> usize {
    let game = Game::new(GameConfig::new(2)).unwrap();
    let config = MctsConfig::new(Budget::Iterations(iterations));
    let before = ALLOCATIONS.load(Ordering::Relaxed);
    let report = config.search(&game, &mut Rng::new(1));
    let used = ALLOCATIONS.load(Ordering::Relaxed) - before;
    assert_eq!(report.iterations, u64::from(iterations));
    used
}

#[test]
fn iterations_do_not_allocate() {
    let short = search_allocations(300);
    let long = search_allocations(1200);
    eprintln!("300 iterations: {short} allocations; 1200: {long}");
    // The 900 more iterations allocate only where the tree's arrays double (a few
    // times) and a playout's list outgrows every earlier one's (rarely).
    assert!(
        long < short + 30,
        "300 iterations: {short} allocations; 1200: {long}"
    );
    // The first iterations copy the game and grow its lists once.
    assert!(short < 150, "300 iterations: {short} allocations");
    // A copy of the game alone is a handful of allocations.
    let game = Game::new(GameConfig::new(2)).unwrap();
    let before = ALLOCATIONS.load(Ordering::Relaxed);
    let copy = game.clone();
    let copy_allocations = ALLOCATIONS.load(Ordering::Relaxed) - before;
    drop(copy);
    assert!(copy_allocations < 30, "a copy takes {copy_allocations}");
}
