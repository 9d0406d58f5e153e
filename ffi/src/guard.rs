//! The machinery every export goes through: the game handle, panic catching and
//! poisoning, detailed error messages, and the buffer conventions.
//!
//! * Every export runs its body inside [`std::panic::catch_unwind`]; a panic becomes
//!   [`CarcStatus::Panic`] and poisons the handle the call was made on. Its message,
//!   place and backtrace go to `carc_last_error`, never to the host's standard error: the
//!   library's panic hook keeps them for the call (panics outside the library's calls go
//!   to the hook that was there before).
//! * Every handle is looked up in the table of live handles ([`crate::handles`]) before
//!   it is used: a freed, foreign or wrong-kind handle is [`CarcStatus::InvalidHandle`].
//! * Every failure records its detailed message on the calling thread (`carc_last_error`)
//!   and, when the call was made on a handle, on that handle (`carc_game_last_error`).
//! * Buffers are `(ptr, len, *needed)`: `len` counts elements (bytes for text, including
//!   the terminating NUL); a NULL buffer with `len == 0` asks for the size only.

use crate::handles::{self, HandleKind};
use crate::status::{CallResult, CarcStatus, Failure};
use carcassonne_core::Game;
use carcassonne_session::encode::EncoderSpec;
use carcassonne_session::session::Session;
use std::any::Any;
use std::backtrace::Backtrace;
use std::cell::{Cell, Ref, RefCell, RefMut};
use std::ffi::{c_char, CStr};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Once;

/// A game in progress, owned by the caller through an opaque pointer.
///
/// Created by `carc_game_new`, `carc_game_clone`, `carc_game_from_record` or
/// `carc_game_from_record_ex`, released by
/// `carc_game_free`. A handle may be moved between threads but must not be used by two
/// threads at the same time (not even for queries: every call may record an error
/// message on the handle).
pub struct CarcGame {
    /// The game with its observation window, pending focus and per-decision cache
    /// (behind a `RefCell`: queries on a `const CarcGame *` fill the cache).
    session: RefCell<Session>,
    /// Set when a call on this handle panicked.
    poisoned: Cell<bool>,
    /// The detailed message of the last failed call on this handle.
    last_error: RefCell<String>,
}

impl CarcGame {
    /// A handle on a session (a game with its observation window or preset).
    pub(crate) fn from_session(session: Session) -> CarcGame {
        CarcGame {
            session: RefCell::new(session),
            poisoned: Cell::new(false),
            last_error: RefCell::new(String::new()),
        }
    }

    /// A copy (pending focus included) with no error recorded.
    pub(crate) fn duplicate(&self) -> CarcGame {
        CarcGame {
            session: RefCell::new(self.session.borrow().clone()),
            poisoned: Cell::new(false),
            last_error: RefCell::new(String::new()),
        }
    }

    /// The game (read-only).
    pub(crate) fn game(&self) -> Ref<'_, Game> {
        Ref::map(self.session.borrow(), Session::game)
    }

    /// The session: the game with its window, focus and decision cache.
    pub(crate) fn session(&self) -> RefMut<'_, Session> {
        self.session.borrow_mut()
    }

    /// The observation window of this handle's flat ids.
    pub(crate) fn spec(&self) -> EncoderSpec {
        self.session.borrow().spec()
    }

    /// The sizes of this handle's observations and ids (those of its preset):
    /// `(planes C, planes buffer C·W·W, globals G, ids A)`.
    pub(crate) fn sizes(&self) -> (usize, usize, usize, usize) {
        let s = self.session.borrow();
        (
            s.num_planes(),
            s.planes_len(),
            s.num_globals(),
            s.num_actions(),
        )
    }

    /// Whether a call on this handle panicked.
    pub(crate) fn is_poisoned(&self) -> bool {
        self.poisoned.get()
    }

    /// The detailed message of the last failure on this handle.
    pub(crate) fn last_error(&self) -> String {
        self.last_error.borrow().clone()
    }

    fn fail(&self, failure: &Failure) {
        *self.last_error.borrow_mut() = failure.message.clone();
    }

    fn poison(&self, message: String) {
        self.poisoned.set(true);
        *self.last_error.borrow_mut() = message;
    }

    /// Boxes the handle for the caller and notes it among the live handles.
    pub(crate) fn into_raw(self) -> *mut CarcGame {
        let handle = Box::into_raw(Box::new(self));
        handles::register(handle, HandleKind::Game);
        handle
    }
}

thread_local! {
    static LAST_ERROR: RefCell<String> = const { RefCell::new(String::new()) };
    /// How many of the library's calls run on this thread (nested calls of the tests).
    static IN_CALL: Cell<u32> = const { Cell::new(0) };
    /// What the panic hook kept of a panic inside a call: message, place, backtrace.
    static PANIC_REPORT: RefCell<Option<PanicReport>> = const { RefCell::new(None) };
}

/// A panic inside one of the library's calls, as the panic hook saw it.
struct PanicReport {
    /// The panic's message and where it happened.
    message: String,
    backtrace: Backtrace,
}

static PANIC_HOOK: Once = Once::new();

/// Installs, once, the panic hook that keeps a panic inside a library call (message,
/// place, backtrace) for the call to report, and passes any other panic to the hook that
/// was there before.
fn install_panic_hook() {
    PANIC_HOOK.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if IN_CALL.with(Cell::get) == 0 {
                previous(info);
                return;
            }
            let mut message = panic_text(info.payload());
            if let Some(at) = info.location() {
                message.push_str(&format!(" (at {at})"));
            }
            let report = PanicReport {
                message,
                backtrace: Backtrace::force_capture(),
            };
            PANIC_REPORT.with(|r| *r.borrow_mut() = Some(report));
        }));
    });
}

/// Runs `body`, catching a panic: `Err` with the panic's message and place, and its
/// backtrace as text, instead of unwinding further. Nothing is printed.
pub(crate) fn catching<R>(body: impl FnOnce() -> R) -> Result<R, (String, String)> {
    install_panic_hook();
    IN_CALL.with(|c| c.set(c.get() + 1));
    let result = catch_unwind(AssertUnwindSafe(body));
    IN_CALL.with(|c| c.set(c.get() - 1));
    result.map_err(
        |payload| match PANIC_REPORT.with(|r| r.borrow_mut().take()) {
            Some(report) => (report.message, report.backtrace.to_string()),
            None => (panic_text(&*payload), String::new()),
        },
    )
}

/// The thread's message of a panic inside `function`: what, where, `outcome`, and the
/// backtrace.
fn panic_message(function: &str, what: &str, outcome: &str, backtrace: &str) -> String {
    let mut message = format!("{function}: internal error: {what}{outcome}");
    if !backtrace.is_empty() {
        message.push_str("\nbacktrace:\n");
        message.push_str(backtrace);
    }
    message
}

/// The detailed message of the last failure on the calling thread.
pub(crate) fn thread_last_error() -> String {
    LAST_ERROR.with(|e| e.borrow().clone())
}

pub(crate) fn record_thread_error(message: &str) {
    LAST_ERROR.with(|e| {
        let mut e = e.borrow_mut();
        e.clear();
        e.push_str(message);
    });
}

fn panic_text(payload: &(dyn Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "unknown panic payload".to_string()
    }
}

/// Runs the body of an export that has no game handle.
pub(crate) fn call(function: &str, body: impl FnOnce() -> CallResult) -> CarcStatus {
    match catching(body) {
        Ok(Ok(())) => CarcStatus::Ok,
        Ok(Err(failure)) => {
            record_thread_error(&format!("{function}: {}", failure.message));
            failure.status
        }
        Err((what, backtrace)) => {
            record_thread_error(&panic_message(function, &what, "", &backtrace));
            CarcStatus::Panic
        }
    }
}

/// Runs the body of an export that reads a game handle (`const CarcGame *`).
pub(crate) fn with_game(
    function: &str,
    game: *const CarcGame,
    body: impl FnOnce(&CarcGame) -> CallResult,
) -> CarcStatus {
    with_game_raw(function, game, |ptr| {
        // SAFETY: `ptr` is non-NULL and, by the ABI contract, a live handle from
        // `carc_game_new`/`carc_game_clone`/`carc_game_from_record` not used elsewhere now.
        body(unsafe { &*ptr })
    })
}

/// Runs the body of an export that changes a game handle (`CarcGame *`).
pub(crate) fn with_game_mut(
    function: &str,
    game: *mut CarcGame,
    body: impl FnOnce(&mut CarcGame) -> CallResult,
) -> CarcStatus {
    with_game_raw(function, game.cast_const(), |ptr| {
        // SAFETY: as in `with_game`; the caller passed a mutable handle, so no other
        // reference to it exists during the call.
        body(unsafe { &mut *ptr.cast_mut() })
    })
}

fn with_game_raw(
    function: &str,
    game: *const CarcGame,
    body: impl FnOnce(*const CarcGame) -> CallResult,
) -> CarcStatus {
    if let Err(failure) = handles::check(game, HandleKind::Game, "game") {
        record_thread_error(&format!("{function}: {}", failure.message));
        return failure.status;
    }
    // SAFETY: a live game handle (checked above); by the ABI contract no other thread
    // uses it now. Only the cells are touched here.
    let handle = unsafe { &*game };
    let poisoned = catching(|| handle.is_poisoned()).unwrap_or(true);
    if poisoned {
        record_thread_error(&format!(
            "{function}: {}",
            CarcStatus::HandlePoisoned.message()
        ));
        return CarcStatus::HandlePoisoned;
    }
    match catching(|| body(game)) {
        Ok(Ok(())) => CarcStatus::Ok,
        Ok(Err(failure)) => {
            let message = format!("{function}: {}", failure.message);
            record_thread_error(&message);
            let _ = catching(|| handle.fail(&Failure::new(failure.status, message)));
            failure.status
        }
        Err((what, backtrace)) => {
            let outcome = "; the handle is poisoned";
            record_thread_error(&panic_message(function, &what, outcome, &backtrace));
            let message = panic_message(function, &what, outcome, "");
            // SAFETY: the body's borrow ended with the unwind; the handle is still live.
            let _ = catching(|| unsafe { &*game }.poison(message));
            CarcStatus::Panic
        }
    }
}

/// Runs a body on a handle while ignoring poisoning and without recording its own
/// failures (used by the error-reading functions, which must not overwrite the message
/// they report).
pub(crate) fn quietly(body: impl FnOnce() -> CallResult) -> CarcStatus {
    match catching(body) {
        Ok(Ok(())) => CarcStatus::Ok,
        Ok(Err(failure)) => failure.status,
        Err(_) => CarcStatus::Panic,
    }
}

// ----- pointers --------------------------------------------------------------------------

/// Checks an output pointer: non-NULL and aligned for `T`.
pub(crate) fn check_out<T>(ptr: *mut T, name: &str) -> Result<(), Failure> {
    if ptr.is_null() {
        return Err(Failure::null(name));
    }
    if !ptr.is_aligned() {
        return Err(Failure::invalid(format!(
            "{name} is not aligned for its type ({} bytes)",
            std::mem::align_of::<T>()
        )));
    }
    Ok(())
}

/// Writes `value` through an output pointer already accepted by [`check_out`].
pub(crate) fn write_out<T>(ptr: *mut T, value: T) {
    // SAFETY: `ptr` was checked non-NULL and aligned; the caller guarantees it points to
    // writable memory for one `T` (ABI contract).
    unsafe { ptr.write(value) }
}

/// Checks and writes an output pointer in one go (for results computed before any check
/// could fail).
pub(crate) fn put<T>(ptr: *mut T, name: &str, value: T) -> CallResult {
    check_out(ptr, name)?;
    write_out(ptr, value);
    Ok(())
}

/// Checks a pointer argument that must not be NULL (its contents are read later).
pub(crate) fn non_null<T>(ptr: *const T, name: &str) -> Result<*const T, Failure> {
    if ptr.is_null() {
        Err(Failure::null(name))
    } else {
        Ok(ptr)
    }
}

/// Reads a NUL-terminated UTF-8 string argument.
pub(crate) fn read_str<'a>(ptr: *const c_char, name: &str) -> Result<&'a str, Failure> {
    if ptr.is_null() {
        return Err(Failure::null(name));
    }
    // SAFETY: non-NULL, and by the ABI contract a NUL-terminated string that outlives the
    // call.
    let text = unsafe { CStr::from_ptr(ptr) };
    text.to_str().map_err(|e| {
        Failure::invalid(format!(
            "{name} is not valid UTF-8 (at byte {})",
            e.valid_up_to()
        ))
    })
}

// ----- buffers ---------------------------------------------------------------------------

/// Checks a `(buf, len, needed)` triple before any work: `needed` must be non-NULL and
/// aligned, and `buf` may be NULL only with `len == 0`.
pub(crate) fn check_buffer<T>(buf: *mut T, len: u32, needed: *mut u32) -> CallResult {
    check_out(needed, "needed")?;
    if buf.is_null() {
        if len != 0 {
            return Err(Failure::null(&format!(
                "buf (with len {len}; pass len 0 to ask for the size)"
            )));
        }
    } else if !buf.is_aligned() {
        return Err(Failure::invalid(format!(
            "buf is not aligned for its element type ({} bytes)",
            std::mem::align_of::<T>()
        )));
    }
    Ok(())
}

fn as_len(n: usize, what: &str) -> Result<u32, Failure> {
    u32::try_from(n).map_err(|_| {
        Failure::new(
            CarcStatus::BufferTooSmall,
            format!("{what} needs {n} elements, more than a uint32_t length can describe"),
        )
    })
}

/// The checks shared by [`write_iter`] and [`write_text`]: checks the `(buf, len, needed)`
/// triple and writes `count` to `needed`. `Ok(Some(count))` when `buf` has room for the
/// `count` elements, `Ok(None)` when `buf` is NULL (the caller asked for the size only),
/// and `BUFFER_TOO_SMALL` naming `what` and the `unit` of an element when it is short.
fn reserve<T>(
    buf: *mut T,
    len: u32,
    needed: *mut u32,
    count: usize,
    what: &str,
    unit: &str,
) -> Result<Option<u32>, Failure> {
    check_buffer(buf, len, needed)?;
    let n = as_len(count, what)?;
    write_out(needed, n);
    if buf.is_null() {
        return Ok(None);
    }
    if len < n {
        return Err(Failure::new(
            CarcStatus::BufferTooSmall,
            format!("{what} needs {n} {unit}, the buffer holds {len}"),
        ));
    }
    Ok(Some(n))
}

/// Copies `items` into the caller's buffer of `len` elements and writes the count to
/// `needed`. A NULL buffer with `len == 0` only writes the count; a short buffer gets
/// nothing, `needed` gets the count, and the status is `BUFFER_TOO_SMALL`.
pub(crate) fn write_array<T: Copy>(
    items: &[T],
    buf: *mut T,
    len: u32,
    needed: *mut u32,
    what: &str,
) -> CallResult {
    write_iter(items.iter().copied(), buf, len, needed, what)
}

/// [`write_array`] for the items of an exact-size iterator (no intermediate allocation).
pub(crate) fn write_iter<T>(
    items: impl ExactSizeIterator<Item = T>,
    buf: *mut T,
    len: u32,
    needed: *mut u32,
    what: &str,
) -> CallResult {
    let Some(n) = reserve(buf, len, needed, items.len(), what, "elements")? else {
        return Ok(());
    };
    for (i, item) in items.take(n as usize).enumerate() {
        // SAFETY: `buf` is non-NULL, aligned, and by the ABI contract valid for
        // `len >= n > i` elements.
        unsafe { buf.add(i).write(item) };
    }
    Ok(())
}

/// Copies `text` and a terminating NUL into the caller's buffer of `len` bytes; `needed`
/// gets the byte count including the NUL. Same conventions as [`write_array`].
pub(crate) fn write_text(
    text: &str,
    buf: *mut c_char,
    len: u32,
    needed: *mut u32,
    what: &str,
) -> CallResult {
    let unit = "bytes with the terminating NUL";
    if reserve(buf, len, needed, text.len() + 1, what, unit)?.is_none() {
        return Ok(());
    }
    // SAFETY: as in `write_array`, for the `text.len() + 1` bytes that `reserve` found room for.
    unsafe {
        std::ptr::copy_nonoverlapping(text.as_ptr().cast::<c_char>(), buf, text.len());
        buf.add(text.len()).write(0);
    }
    Ok(())
}

#[cfg(test)]
#[path = "tests/unit/guard.rs"]
mod tests;
