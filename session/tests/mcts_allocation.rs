//! The MCTS search allocates per iteration, not per simulation step: a counting
//! allocator watches searches from the first decision of a 2-player base game. An
//! iteration copies the game (about a dozen allocations) and the copy's history lists
//! grow by doubling while its playout runs to the end of the game (a few dozen
//! reallocations); the tree grows by amortised doubling too. One allocation per step
//! would be well over a hundred per iteration: a playout from the first decision has
//! more than 140 steps (about 70 draws and 70 decisions).

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

#[test]
fn allocations_per_iteration_stay_far_below_one_per_step() {
    let game = Game::new(GameConfig::new(2)).unwrap();
    let iterations = 300;
    let config = MctsConfig::new(Budget::Iterations(iterations));
    let before = ALLOCATIONS.load(Ordering::Relaxed);
    let report = config.search(&game, &mut Rng::new(1));
    let used = ALLOCATIONS.load(Ordering::Relaxed) - before;
    assert_eq!(report.iterations, u64::from(iterations));
    let per_iteration = used as f64 / f64::from(iterations);
    assert!(
        per_iteration < 100.0,
        "{used} allocations in {iterations} iterations ({per_iteration:.1} each)"
    );
    // The copy alone is a handful of allocations: the rest is the playout's growth.
    let before = ALLOCATIONS.load(Ordering::Relaxed);
    let copy = game.clone();
    let copy_allocations = ALLOCATIONS.load(Ordering::Relaxed) - before;
    drop(copy);
    assert!(copy_allocations < 30, "a copy takes {copy_allocations}");
}
