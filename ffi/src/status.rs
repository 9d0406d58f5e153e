//! Status codes returned by every function of the C ABI, and their static messages.

use std::ffi::c_char;

/// The result of every `carc_*` call that can fail. The numbers are stable: a value keeps
/// its meaning in every later version of the ABI, and new values are only ever appended.
///
/// `carc_status_message` gives a static description of each value; the detailed message
/// of a particular failure is available from `carc_game_last_error` (failures on a game
/// handle) and `carc_last_error` (any failure on the calling thread).
#[repr(u32)]
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum CarcStatus {
    /// Success.
    Ok = 0,
    /// A pointer argument that must not be NULL was NULL.
    NullArgument = 1,
    /// The game configuration was rejected (bad JSON, unknown key, value out of range).
    InvalidConfig = 2,
    /// The action is well formed but not legal in the current state; the game is unchanged.
    IllegalAction = 3,
    /// The caller's buffer is too small; the needed size was written to the size
    /// out-parameter and nothing else was written.
    BufferTooSmall = 4,
    /// The game record could not be read (bad JSON, missing or malformed field).
    BadRecord = 5,
    /// The game record was read but the engine does not reproduce it (an action it lists
    /// is illegal, or the scores it lists differ).
    RecordMismatch = 6,
    /// The game is over: no action can be applied.
    GameOver = 7,
    /// The engine panicked inside the call. The game handle, if any, is poisoned.
    Panic = 8,
    /// The game handle was poisoned by an earlier panic; only `carc_game_free` and
    /// `carc_game_last_error` may be used with it.
    HandlePoisoned = 9,
    /// An argument is out of range or malformed (a player seat, an enum value, a field
    /// of an action, a string that is not UTF-8).
    InvalidArgument = 10,
    /// The handle is not a live handle of the kind the function takes: it was freed
    /// already, never came from the library, or is of the other kind (a bot passed as a
    /// game). Nothing was done.
    InvalidHandle = 11,
}

impl CarcStatus {
    /// Every status, in numeric order.
    pub(crate) const ALL: [CarcStatus; 12] = [
        CarcStatus::Ok,
        CarcStatus::NullArgument,
        CarcStatus::InvalidConfig,
        CarcStatus::IllegalAction,
        CarcStatus::BufferTooSmall,
        CarcStatus::BadRecord,
        CarcStatus::RecordMismatch,
        CarcStatus::GameOver,
        CarcStatus::Panic,
        CarcStatus::HandlePoisoned,
        CarcStatus::InvalidArgument,
        CarcStatus::InvalidHandle,
    ];

    /// The static message of this status, NUL-terminated.
    pub const fn message_bytes(self) -> &'static [u8] {
        match self {
            CarcStatus::Ok => b"ok\0",
            CarcStatus::NullArgument => b"a required pointer argument was NULL\0",
            CarcStatus::InvalidConfig => b"the game configuration is invalid\0",
            CarcStatus::IllegalAction => b"the action is not legal in the current state\0",
            CarcStatus::BufferTooSmall => b"the buffer is too small\0",
            CarcStatus::BadRecord => b"the game record could not be read\0",
            CarcStatus::RecordMismatch => b"the game record does not replay\0",
            CarcStatus::GameOver => b"the game is over\0",
            CarcStatus::Panic => b"internal error (panic); the handle is poisoned\0",
            CarcStatus::HandlePoisoned => {
                b"the game handle was poisoned by an earlier internal error\0"
            }
            CarcStatus::InvalidArgument => b"an argument is out of range or malformed\0",
            CarcStatus::InvalidHandle => {
                b"the handle is not a live handle of its kind (freed, foreign or of another kind)\0"
            }
        }
    }

    /// The static message of this status, without the terminator.
    pub fn message(self) -> &'static str {
        let bytes = self.message_bytes();
        std::str::from_utf8(&bytes[..bytes.len() - 1]).unwrap_or("")
    }

    /// The status with number `n`, if there is one.
    pub fn from_u32(n: u32) -> Option<CarcStatus> {
        CarcStatus::ALL.get(n as usize).copied()
    }
}

const UNKNOWN_STATUS: &[u8] = b"unknown status code\0";

/// A static, NUL-terminated English description of `status` (a `CarcStatus` value).
/// Unknown values give "unknown status code".
///
/// Ownership: the string belongs to the library and lives as long as the process; the
/// caller must not free or modify it. Never returns NULL.
#[no_mangle]
pub extern "C" fn carc_status_message(status: u32) -> *const c_char {
    let bytes = match CarcStatus::from_u32(status) {
        Some(s) => s.message_bytes(),
        None => UNKNOWN_STATUS,
    };
    bytes.as_ptr().cast()
}

/// A failure inside an export: the status to return and the detailed message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Failure {
    pub status: CarcStatus,
    pub message: String,
}

impl Failure {
    pub(crate) fn new(status: CarcStatus, message: impl Into<String>) -> Failure {
        Failure {
            status,
            message: message.into(),
        }
    }

    /// A NULL pointer passed for the parameter `name`.
    pub(crate) fn null(name: &str) -> Failure {
        Failure::new(CarcStatus::NullArgument, format!("{name} must not be NULL"))
    }

    /// An out-of-range or malformed argument.
    pub(crate) fn invalid(message: impl Into<String>) -> Failure {
        Failure::new(CarcStatus::InvalidArgument, message)
    }
}

/// The result of the body of an export.
pub(crate) type CallResult = Result<(), Failure>;

#[cfg(test)]
#[path = "tests/unit/status.rs"]
mod tests;
