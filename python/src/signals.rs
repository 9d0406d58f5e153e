//! Ctrl-C during long native calls: work that runs with the interpreter released looks
//! for pending signals every [`SIGNAL_CHECK_INTERVAL`] (20 ms) by taking the interpreter
//! back for a moment and running its signal handlers. A `KeyboardInterrupt` (or any
//! exception a handler raises) stops the work and is raised by the call.

use carcassonne_session::vector::Interrupt;
use pyo3::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How often long native calls look for Ctrl-C: every 20 ms of work.
pub const SIGNAL_CHECK_INTERVAL: Duration = Duration::from_millis(20);

/// The signal watch of one native call; shared by its worker threads.
pub struct SignalWatch {
    stop: AtomicBool,
    error: Mutex<Option<PyErr>>,
}

impl SignalWatch {
    /// A watch with nothing pending.
    pub fn new() -> SignalWatch {
        SignalWatch {
            stop: AtomicBool::new(false),
            error: Mutex::new(None),
        }
    }

    /// Whether the work must stop (a signal handler raised); cheap, for every thread.
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// Runs the interpreter's signal handlers when `last` is older than the interval
    /// (and resets it); to be called, without the interpreter, by the thread that
    /// released it. Returns whether the work goes on.
    pub fn poll(&self, last: &mut Instant) -> bool {
        if self.stopped() {
            return false;
        }
        if last.elapsed() < SIGNAL_CHECK_INTERVAL {
            return true;
        }
        *last = Instant::now();
        if let Err(e) = Python::attach(|py| py.check_signals()) {
            *self.error.lock().unwrap_or_else(|p| p.into_inner()) = Some(e);
            self.stop.store(true, Ordering::Relaxed);
            return false;
        }
        true
    }

    /// The exception raised by a signal handler during the work, if any.
    pub fn into_result(self) -> PyResult<()> {
        match self.error.into_inner().unwrap_or_else(|p| p.into_inner()) {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }
}

/// The batch engine of the session crate stops on Ctrl-C through the watch.
impl Interrupt for SignalWatch {
    fn poll(&self, last: &mut Instant) -> bool {
        SignalWatch::poll(self, last)
    }

    fn stopped(&self) -> bool {
        SignalWatch::stopped(self)
    }

    fn interval(&self) -> Duration {
        SIGNAL_CHECK_INTERVAL
    }
}
