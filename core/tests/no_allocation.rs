//! "No heap allocation per decision": a counting allocator watches random playouts. Once
//! a game is created, listing legal actions into a reused buffer and applying them
//! allocates nothing, except the two arrays of the board grid each time it doubles
//! because a tile reached its edge (a few times in a game at most); a game started again
//! in the memory of a finished one (`Game::restart`) allocates only its list of start
//! tiles. Each test counts its own thread's allocations: the test harness's thread
//! allocates whenever it prints, and the tests run side by side.

use carcassonne::{Figures, Game, GameConfig, Rng, TileSet};
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

struct Counting;

thread_local! {
    /// Whether this thread's allocations are counted, and how many were (`const`
    /// initialisers: using them never allocates).
    static COUNTED: Cell<bool> = const { Cell::new(false) };
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

fn count() {
    if COUNTED.try_with(Cell::get).unwrap_or(false) {
        let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
    }
}

/// This thread's allocations so far.
fn allocations() -> usize {
    ALLOCATIONS.with(Cell::get)
}

// SAFETY: every call is forwarded unchanged to the system allocator; the wrapper only
// counts allocations.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count();
        // SAFETY: same contract as the caller's.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: same contract as the caller's.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count();
        // SAFETY: same contract as the caller's.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn playouts(sets: &[TileSet], players: u8, abbot: u8, games: u64) {
    let mut config = GameConfig::new(players);
    config.sets = sets.to_vec();
    config.figures = Figures::default_for(sets);
    config.figures.abbot = abbot;
    let mut rng = Rng::new(9);
    let mut legal = Vec::with_capacity(4096);
    let (mut decisions, mut during_play) = (0usize, 0usize);
    for seed in 0..games {
        config.seed = seed;
        let mut game = Game::new(config.clone()).unwrap();
        let before = allocations();
        while !game.is_terminal() {
            game.legal_actions_into(&mut legal);
            game.apply_unchecked(legal[rng.below(legal.len() as u32) as usize]);
            decisions += 1;
        }
        let used = allocations() - before;
        let growths = game.board().grid_growths() as usize;
        assert_eq!(
            used,
            2 * growths,
            "{sets:?}, {players} players, seed {seed}: {used} allocations, {growths} grid doublings"
        );
        during_play += used;
        drop(game);
    }
    assert!(decisions > 50 * games as usize);
    eprintln!("{sets:?} {players}p: {during_play} allocations in {decisions} decisions");
}

#[test]
fn decisions_do_not_allocate() {
    COUNTED.with(|c| c.set(true));
    playouts(&[TileSet::Base], 2, 0, 100);
    playouts(&[TileSet::Base, TileSet::River1, TileSet::River2], 2, 1, 50);
    playouts(&[TileSet::Base, TileSet::PrincessDragon], 2, 0, 50);
    let all: Vec<TileSet> = TileSet::ALL.to_vec();
    playouts(&all, 4, 1, 30);
    playouts(&all, 6, 1, 20);
}

/// A finished game started again in its own memory allocates only the list of its start
/// tiles, and its play no more than a new game's (the grid's doublings).
#[test]
fn a_restart_allocates_only_the_start_tiles() {
    COUNTED.with(|c| c.set(true));
    let mut config = GameConfig::new(2);
    config.seed = 1;
    let mut game = Game::new(config).unwrap();
    let mut rng = Rng::new(5);
    let mut legal = Vec::with_capacity(4096);
    for seed in 2..40 {
        while !game.is_terminal() {
            game.legal_actions_into(&mut legal);
            game.apply_unchecked(legal[rng.below(legal.len() as u32) as usize]);
        }
        let before = allocations();
        game.restart(seed);
        assert_eq!(allocations() - before, 1, "seed {seed}: restart");
        let before = allocations();
        while !game.is_terminal() {
            game.legal_actions_into(&mut legal);
            game.apply_unchecked(legal[rng.below(legal.len() as u32) as usize]);
        }
        // The grid grows in the memory of the last game's (at most two allocations a
        // doubling, none while the last game's grid was as large).
        let growths = game.board().grid_growths() as usize;
        assert!(allocations() - before <= 2 * growths, "seed {seed}: play");
    }
}

/// A game copied into the memory of another (`clone_from`), as a search copies its root
/// for every iteration, allocates nothing, even after that memory held a finished game
/// (longer lists, a larger grid), and
/// is the game `clone` gives: the same state, the same history, the same play after it.
#[test]
fn a_copy_into_a_finished_games_memory_allocates_nothing() {
    COUNTED.with(|c| c.set(true));
    let mut config = GameConfig::new(2);
    config.seed = 3;
    let mut root = Game::new(config).unwrap();
    let mut rng = Rng::new(11);
    let mut legal = Vec::with_capacity(4096);
    for _ in 0..20 {
        root.legal_actions_into(&mut legal);
        root.apply_unchecked(legal[rng.below(legal.len() as u32) as usize]);
    }
    let mut scratch = root.clone();
    for copy in 0..30u64 {
        let before = allocations();
        scratch.clone_from(&root);
        assert_eq!(allocations() - before, 0, "copy {copy}");
        let mut fresh = root.clone();
        assert_eq!(scratch.state_hash(), fresh.state_hash(), "copy {copy}");
        assert_eq!(scratch.history_actions(), fresh.history_actions());
        // Both play the same random game to its end (the pile reseeded alike).
        scratch.reseed_draws(copy);
        fresh.reseed_draws(copy);
        let mut pick = Rng::new(copy);
        while !fresh.is_terminal() {
            fresh.legal_actions_into(&mut legal);
            assert_eq!(scratch.legal(), &legal[..], "copy {copy}");
            let action = legal[pick.below(legal.len() as u32) as usize];
            fresh.apply_unchecked(action);
            scratch.apply_unchecked(action);
        }
        assert!(scratch.is_terminal(), "copy {copy}");
        assert_eq!(scratch.scores(), fresh.scores(), "copy {copy}");
        assert_eq!(scratch.events(), fresh.events(), "copy {copy}");
        assert_eq!(scratch.state_hash(), fresh.state_hash(), "copy {copy}");
    }
}
