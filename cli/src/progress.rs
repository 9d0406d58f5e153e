//! A progress line on standard error for long runs (`play` with a searching bot,
//! `match`).
//!
//! A run shorter than [`Progress::DELAY`] prints nothing. After that, on a terminal, one
//! line is redrawn in place at most every [`Progress::TERMINAL_INTERVAL`] and erased
//! when the run ends, so that the output proper starts on a clean line; elsewhere (a log
//! file, a pipe) a plain line is written every [`Progress::LOG_INTERVAL`], which shows
//! that the run goes on without filling the log. Standard output is never touched.

use std::io::{IsTerminal as _, Write};
use std::time::{Duration, Instant};

/// Where the progress line goes and when it is due.
pub struct Progress<W: Write> {
    out: W,
    terminal: bool,
    start: Instant,
    last: Option<Instant>,
    /// Characters of the line now on the terminal (0: none).
    drawn: usize,
}

impl Progress<std::io::Stderr> {
    /// Progress on standard error, redrawn in place when it is a terminal.
    pub fn stderr() -> Self {
        let terminal = std::io::stderr().is_terminal();
        Progress::new(std::io::stderr(), terminal, Instant::now())
    }
}

impl<W: Write> Progress<W> {
    /// Nothing is shown before a run has lasted this long.
    pub const DELAY: Duration = Duration::from_secs(1);
    /// The shortest time between two redraws on a terminal.
    pub const TERMINAL_INTERVAL: Duration = Duration::from_millis(200);
    /// The time between two lines when the output is not a terminal.
    pub const LOG_INTERVAL: Duration = Duration::from_secs(10);

    /// Progress written to `out`, redrawn in place when `terminal`, for a run that
    /// started at `start`.
    pub fn new(out: W, terminal: bool, start: Instant) -> Self {
        Progress {
            out,
            terminal,
            start,
            last: None,
            drawn: 0,
        }
    }

    /// Time since the run started, at `now`.
    pub fn elapsed(&self, now: Instant) -> Duration {
        now.saturating_duration_since(self.start)
    }

    /// Shows `line()` if a line is due at `now` (`line` is not called otherwise).
    pub fn update_at(&mut self, now: Instant, line: impl FnOnce(Duration) -> String) {
        let elapsed = self.elapsed(now);
        if elapsed < Self::DELAY {
            return;
        }
        let interval = if self.terminal {
            Self::TERMINAL_INTERVAL
        } else {
            Self::LOG_INTERVAL
        };
        if let Some(last) = self.last {
            if now.saturating_duration_since(last) < interval {
                return;
            }
        }
        self.last = Some(now);
        let text = line(elapsed);
        if self.terminal {
            let width = text.chars().count();
            let pad = self.drawn.saturating_sub(width);
            let _ = write!(self.out, "\r{text}{}", " ".repeat(pad));
            self.drawn = width;
        } else {
            let _ = writeln!(self.out, "{text}");
        }
        let _ = self.out.flush();
    }

    /// [`Progress::update_at`] now.
    pub fn update(&mut self, line: impl FnOnce(Duration) -> String) {
        self.update_at(Instant::now(), line);
    }

    /// Ends the run: erases the line drawn on a terminal.
    pub fn finish(&mut self) {
        if self.terminal && self.drawn > 0 {
            let _ = write!(self.out, "\r{}\r", " ".repeat(self.drawn));
            let _ = self.out.flush();
            self.drawn = 0;
        }
    }
}

impl<W: Write> Drop for Progress<W> {
    fn drop(&mut self) {
        self.finish();
    }
}

/// A duration as `12 s` or `3 min 05 s`.
pub fn seconds(d: Duration) -> String {
    let s = d.as_secs();
    if s < 60 {
        format!("{s} s")
    } else {
        format!("{} min {:02} s", s / 60, s % 60)
    }
}

#[cfg(test)]
#[path = "tests/unit/progress.rs"]
mod tests;
