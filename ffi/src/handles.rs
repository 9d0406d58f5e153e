//! The live handles: the address and kind of every game and bot handle the library gave
//! out and has not taken back. Every export looks its handle up here before touching it,
//! so that a pointer that is not a live handle of the expected kind is answered with
//! `CARC_STATUS_INVALID_HANDLE` (and a message in `carc_last_error`) instead of being
//! used:
//!
//! * a handle used after `carc_game_free` / `carc_bot_free`, or freed twice (the second
//!   free does nothing and leaves the message);
//! * a bot passed where a game is expected, or the reverse;
//! * a pointer the library never gave out.
//!
//! What stays undefined, because the library cannot tell: a freed handle whose address
//! the allocator has since given to a new handle of the same kind (the stale pointer then
//! reaches the new handle), and a handle freed by one thread while another uses it.
//!
//! The table is split in shards by address, each behind its own lock, so that threads
//! working on different handles rarely wait for each other; a lookup is a lock and a
//! search in a small ordered map.

use crate::status::{CarcStatus, Failure};
use std::collections::BTreeMap;
use std::sync::{Mutex, MutexGuard};

/// What a handle is.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum HandleKind {
    /// A `CarcGame`.
    Game,
    /// A `CarcBot`.
    Bot,
}

impl HandleKind {
    fn name(self) -> &'static str {
        match self {
            HandleKind::Game => "game",
            HandleKind::Bot => "bot",
        }
    }
}

const SHARDS: usize = 16;

static LIVE: [Mutex<BTreeMap<usize, HandleKind>>; SHARDS] =
    [const { Mutex::new(BTreeMap::new()) }; SHARDS];

/// The shard of the handle at `address` (handles are boxes, aligned to at least 8 bytes).
fn shard(address: usize) -> MutexGuard<'static, BTreeMap<usize, HandleKind>> {
    LIVE[(address >> 4) % SHARDS]
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Notes a handle just given out.
pub(crate) fn register<T>(handle: *const T, kind: HandleKind) {
    let address = handle as usize;
    shard(address).insert(address, kind);
}

/// The failure for `handle`, passed as `name` where a live handle of `kind` is expected
/// but the table holds `found` there.
fn not_live(name: &str, kind: HandleKind, found: Option<HandleKind>) -> Failure {
    let why = match found {
        Some(other) => format!("it is a {} handle", other.name()),
        None => "it was freed, or never came from the library".to_string(),
    };
    Failure::new(
        CarcStatus::InvalidHandle,
        format!("{name} is not a live {} handle: {why}", kind.name()),
    )
}

/// Checks that `handle` (the argument `name`) is a live handle of `kind`: NULL is
/// `CARC_STATUS_NULL_ARGUMENT`, anything else that is not one `CARC_STATUS_INVALID_HANDLE`.
pub(crate) fn check<T>(handle: *const T, kind: HandleKind, name: &str) -> Result<(), Failure> {
    if handle.is_null() {
        return Err(Failure::null(name));
    }
    let address = handle as usize;
    match shard(address).get(&address) {
        Some(found) if *found == kind => Ok(()),
        found => Err(not_live(name, kind, found.copied())),
    }
}

/// Takes `handle` (the argument `name`) out of the table before it is released; an error
/// (and nothing taken out) unless it is a live handle of `kind`. Of two threads releasing
/// the same handle, one only succeeds.
pub(crate) fn unregister<T>(handle: *const T, kind: HandleKind, name: &str) -> Result<(), Failure> {
    let address = handle as usize;
    let mut live = shard(address);
    match live.get(&address) {
        Some(found) if *found == kind => {
            live.remove(&address);
            Ok(())
        }
        found => Err(not_live(name, kind, found.copied())),
    }
}
