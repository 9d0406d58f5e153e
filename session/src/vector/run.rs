//! Running a call over the games of a batch: the buffers a call writes, split by rows
//! between threads, and the check that lets the caller stop it.

use super::env::{Env, Out};
use super::{BatchError, BatchSettings, INTERRUPT_INTERVAL};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// What lets the caller stop a call part way (Python's Ctrl-C). The thread that made the
/// call polls it about once per game (and the built-in opponents' searches ask it);
/// the other threads ask [`Interrupt::stopped`] before each game.
pub trait Interrupt: Sync {
    /// Whether the work goes on; may look for outside events when `last` is older than
    /// [`Interrupt::interval`] (and then reset it). Called by the calling thread only.
    fn poll(&self, last: &mut Instant) -> bool;
    /// Whether the work must stop; cheap, asked by every thread.
    fn stopped(&self) -> bool;
    /// How long the calling thread waits between polls while other threads work.
    fn interval(&self) -> Duration {
        INTERRUPT_INTERVAL
    }
}

/// Never stops a call.
#[derive(Copy, Clone, Debug, Default)]
pub struct NoInterrupt;

impl Interrupt for NoInterrupt {
    fn poll(&self, _: &mut Instant) -> bool {
        true
    }

    fn stopped(&self) -> bool {
        false
    }
}

/// The buffers one call writes, one row per game, rows one after the other (`N` games,
/// `P` players, `C·W·W` plane bytes, `G` globals, `A` ids of the batch's layout). The
/// optional ones may be left out; `rewards`, `terminated` and `truncated` are not
/// written by a reset.
#[derive(Debug, Default)]
pub struct StepBuffers<'a> {
    /// `u8 [N, C·W·W]`: the observations' planes.
    pub board: Option<&'a mut [u8]>,
    /// `f32 [N, G]`: the observations' globals.
    pub globals: Option<&'a mut [f32]>,
    /// `i8 [N, A]`: the masks.
    pub mask: &'a mut [i8],
    /// `f32 [N, P]`: the rewards per seat.
    pub rewards: Option<&'a mut [f32]>,
    /// `i32 [N]`: the seat whose observation is written.
    pub to_play: &'a mut [i32],
    /// `bool [N]`: the episode ended with the game.
    pub terminated: Option<&'a mut [bool]>,
    /// `bool [N]`: the episode was cut short (nothing, or not everything, offered).
    pub truncated: Option<&'a mut [bool]>,
    /// `i32 [N, P]`: the final scores of an episode that ended.
    pub final_scores: Option<&'a mut [i32]>,
    /// `u32 [N]`: legal moves outside the window.
    pub outside: Option<&'a mut [u32]>,
    /// `f32 [N, P]`: the rewards of an episode that ended, summed.
    pub episode_returns: Option<&'a mut [f32]>,
    /// `i32 [N]`: the steps of an episode that ended.
    pub episode_lengths: Option<&'a mut [i32]>,
    /// `u8 [N, C·W·W]`: the last planes of an episode that ended (with `final_globals`).
    pub final_board: Option<&'a mut [u8]>,
    /// `f32 [N, G]`: the last globals of an episode that ended (with `final_board`).
    pub final_globals: Option<&'a mut [f32]>,
    /// `board` holds, row for row, what this batch wrote into it in an earlier call, and
    /// nobody has written into it since. Each game then clears only the planes it set in
    /// its row last time (a game of the base game sets about 20 of the full preset's
    /// 125), instead of the whole row: full observations cost a fraction. A row at
    /// another address than last time is cleared in full all the same. `false` (the
    /// default) clears every row in full.
    pub board_kept: bool,
}

impl StepBuffers<'_> {
    /// Refuses a buffer whose length is not its rows' (naming it).
    pub(super) fn check(&self, settings: &BatchSettings, n: usize) -> Result<(), BatchError> {
        let l = &settings.layout;
        let p = settings.players();
        let len = |name: &str, got: Option<usize>, row: usize| match got {
            Some(got) if got != n * row => Err(BatchError::argument(format!(
                "{name}: {got} items, expected {} ({n} games × {row})",
                n * row
            ))),
            _ => Ok(()),
        };
        len(
            "board",
            self.board.as_ref().map(|b| b.len()),
            l.planes_len(),
        )?;
        len(
            "globals",
            self.globals.as_ref().map(|b| b.len()),
            l.num_globals(),
        )?;
        len("action_mask", Some(self.mask.len()), l.num_actions())?;
        len("rewards", self.rewards.as_ref().map(|b| b.len()), p)?;
        len("to_play", Some(self.to_play.len()), 1)?;
        len("terminated", self.terminated.as_ref().map(|b| b.len()), 1)?;
        len("truncated", self.truncated.as_ref().map(|b| b.len()), 1)?;
        len(
            "final_scores",
            self.final_scores.as_ref().map(|b| b.len()),
            p,
        )?;
        len("outside_window", self.outside.as_ref().map(|b| b.len()), 1)?;
        len(
            "episode_returns",
            self.episode_returns.as_ref().map(|b| b.len()),
            p,
        )?;
        len(
            "episode_lengths",
            self.episode_lengths.as_ref().map(|b| b.len()),
            1,
        )?;
        len(
            "final_board",
            self.final_board.as_ref().map(|b| b.len()),
            l.planes_len(),
        )?;
        len(
            "final_globals",
            self.final_globals.as_ref().map(|b| b.len()),
            l.num_globals(),
        )
    }
}

/// Owned buffers for every output of a call ([`super::Batch::buffers`]), for callers
/// that do not bring their own.
#[derive(Clone, Debug, Default)]
pub struct OwnedBuffers {
    /// See [`StepBuffers::board`].
    pub board: Vec<u8>,
    /// See [`StepBuffers::globals`].
    pub globals: Vec<f32>,
    /// See [`StepBuffers::mask`].
    pub mask: Vec<i8>,
    /// See [`StepBuffers::rewards`].
    pub rewards: Vec<f32>,
    /// See [`StepBuffers::to_play`].
    pub to_play: Vec<i32>,
    /// See [`StepBuffers::terminated`].
    pub terminated: Vec<bool>,
    /// See [`StepBuffers::truncated`].
    pub truncated: Vec<bool>,
    /// See [`StepBuffers::final_scores`].
    pub final_scores: Vec<i32>,
    /// See [`StepBuffers::outside`].
    pub outside: Vec<u32>,
    /// See [`StepBuffers::episode_returns`].
    pub episode_returns: Vec<f32>,
    /// See [`StepBuffers::episode_lengths`].
    pub episode_lengths: Vec<i32>,
    /// See [`StepBuffers::final_board`].
    pub final_board: Vec<u8>,
    /// See [`StepBuffers::final_globals`].
    pub final_globals: Vec<f32>,
}

impl OwnedBuffers {
    /// Zeroed buffers for `n` games of `settings`.
    pub fn new(settings: &BatchSettings, n: usize) -> OwnedBuffers {
        let l = &settings.layout;
        let p = settings.players();
        OwnedBuffers {
            board: vec![0; n * l.planes_len()],
            globals: vec![0.0; n * l.num_globals()],
            mask: vec![0; n * l.num_actions()],
            rewards: vec![0.0; n * p],
            to_play: vec![0; n],
            terminated: vec![false; n],
            truncated: vec![false; n],
            final_scores: vec![0; n * p],
            outside: vec![0; n],
            episode_returns: vec![0.0; n * p],
            episode_lengths: vec![0; n],
            final_board: vec![0; n * l.planes_len()],
            final_globals: vec![0.0; n * l.num_globals()],
        }
    }

    /// Every buffer, borrowed for one call.
    pub fn view(&mut self) -> StepBuffers<'_> {
        StepBuffers {
            board: Some(&mut self.board),
            globals: Some(&mut self.globals),
            mask: &mut self.mask,
            rewards: Some(&mut self.rewards),
            to_play: &mut self.to_play,
            terminated: Some(&mut self.terminated),
            truncated: Some(&mut self.truncated),
            final_scores: Some(&mut self.final_scores),
            outside: Some(&mut self.outside),
            episode_returns: Some(&mut self.episode_returns),
            episode_lengths: Some(&mut self.episode_lengths),
            final_board: Some(&mut self.final_board),
            final_globals: Some(&mut self.final_globals),
            board_kept: false,
        }
    }
}

/// Splits the first `n` items off `rest` (the rows of one thread's games).
fn split_rows<'a, T>(rest: &mut &'a mut [T], n: usize) -> &'a mut [T] {
    let (now, later) = std::mem::take(rest).split_at_mut(n);
    *rest = later;
    now
}

/// [`split_rows`] of a buffer the call may not have been given.
fn split_rows_opt<'a, T>(rest: &mut Option<&'a mut [T]>, n: usize) -> Option<&'a mut [T]> {
    rest.as_mut().map(|r| split_rows(r, n))
}

/// Row `j` (of `width` items) of a buffer the call may not have been given.
fn row_opt<'b, T>(rows: &'b mut Option<&mut [T]>, j: usize, width: usize) -> Option<&'b mut [T]> {
    rows.as_deref_mut()
        .map(|x| &mut x[j * width..(j + 1) * width])
}

/// The rows of a run of consecutive games: their envs and their rows of every buffer.
struct Rows<'a> {
    /// The index of the first game.
    base: usize,
    envs: &'a mut [Env],
    board: Option<&'a mut [u8]>,
    globals: Option<&'a mut [f32]>,
    mask: &'a mut [i8],
    rewards: &'a mut [f32],
    to_play: &'a mut [i32],
    terminated: &'a mut [bool],
    truncated: &'a mut [bool],
    final_scores: Option<&'a mut [i32]>,
    outside: Option<&'a mut [u32]>,
    episode_returns: Option<&'a mut [f32]>,
    episode_lengths: Option<&'a mut [i32]>,
    final_board: Option<&'a mut [u8]>,
    final_globals: Option<&'a mut [f32]>,
}

impl<'a> Rows<'a> {
    /// Splits the first `k` games off `self` (which keeps the rest).
    fn split_off_front(&mut self, k: usize, widths: RowWidths) -> Rows<'a> {
        let RowWidths { p, pl, gl, al } = widths;
        let base = self.base;
        self.base += k;
        Rows {
            base,
            envs: split_rows(&mut self.envs, k),
            board: split_rows_opt(&mut self.board, k * pl),
            globals: split_rows_opt(&mut self.globals, k * gl),
            mask: split_rows(&mut self.mask, k * al),
            rewards: split_rows(&mut self.rewards, k * p),
            to_play: split_rows(&mut self.to_play, k),
            terminated: split_rows(&mut self.terminated, k),
            truncated: split_rows(&mut self.truncated, k),
            final_scores: split_rows_opt(&mut self.final_scores, k * p),
            outside: split_rows_opt(&mut self.outside, k),
            episode_returns: split_rows_opt(&mut self.episode_returns, k * p),
            episode_lengths: split_rows_opt(&mut self.episode_lengths, k),
            final_board: split_rows_opt(&mut self.final_board, k * pl),
            final_globals: split_rows_opt(&mut self.final_globals, k * gl),
        }
    }
}

/// Items per game of the buffers: seats, plane bytes, globals, ids.
#[derive(Copy, Clone)]
struct RowWidths {
    p: usize,
    pl: usize,
    gl: usize,
    al: usize,
}

/// Games per piece of work when `threads` threads share `n` games: about eight pieces
/// per thread, so that a thread that starts late (a sleeping core takes a while to wake)
/// finds the others have taken its share instead of making them wait for it.
fn piece_len(n: usize, threads: usize) -> usize {
    if threads <= 1 {
        n.max(1)
    } else {
        n.div_ceil(threads * 8).clamp(1, 64)
    }
}

/// Runs `f(env, index, out, go_on)` for every game of `envs`, on `threads` threads: the
/// games are cut into runs of a few games ([`piece_len`]) that the calling thread and
/// `threads - 1` tasks of rayon's pool take one after the other until none is left
/// (rayon's threads live on between calls: the per-thread tables of the encoders and the
/// pile are built once per thread, not once per call, and no thread is started per
/// step). `stop` stops it (polled by the calling thread about once per game and while it
/// waits for the others; the other threads stop at their next game or search iteration:
/// `f` gets the check to pass to the opponents' searches). Returns whether it was
/// stopped. The buffers' lengths are checked.
pub(super) fn run<F>(
    envs: &mut [Env],
    settings: &BatchSettings,
    threads: usize,
    bufs: StepBuffers<'_>,
    stop: &dyn Interrupt,
    f: F,
) -> bool
where
    F: Fn(&mut Env, usize, Out<'_>, &mut dyn FnMut() -> bool) + Sync,
{
    let layout = &settings.layout;
    let widths = RowWidths {
        p: settings.players(),
        pl: layout.planes_len(),
        gl: layout.num_globals(),
        al: layout.num_actions(),
    };
    let RowWidths { p, pl, gl, al } = widths;
    let n = envs.len();
    let threads = threads.clamp(1, n.max(1));
    let board_kept = bufs.board_kept;
    let mut scratch_rewards = Vec::new();
    let mut scratch_term = Vec::new();
    let mut scratch_trunc = Vec::new();
    let mut rest = Rows {
        base: 0,
        envs,
        board: bufs.board,
        globals: bufs.globals,
        mask: bufs.mask,
        rewards: bufs.rewards.unwrap_or_else(|| {
            scratch_rewards.resize(n * p, 0.0);
            &mut scratch_rewards
        }),
        to_play: bufs.to_play,
        terminated: bufs.terminated.unwrap_or_else(|| {
            scratch_term.resize(n, false);
            &mut scratch_term
        }),
        truncated: bufs.truncated.unwrap_or_else(|| {
            scratch_trunc.resize(n, false);
            &mut scratch_trunc
        }),
        final_scores: bufs.final_scores,
        outside: bufs.outside,
        episode_returns: bufs.episode_returns,
        episode_lengths: bufs.episode_lengths,
        final_board: bufs.final_board,
        final_globals: bufs.final_globals,
    };
    let per = piece_len(n, threads);
    let mut pieces = Vec::with_capacity(n.div_ceil(per));
    while rest.base < n {
        let k = per.min(n - rest.base);
        pieces.push(Mutex::new(Some(rest.split_off_front(k, widths))));
    }
    let next_piece = AtomicUsize::new(0);
    let (pieces, next_piece) = (&pieces, &next_piece);
    let f = &f;
    let work = move |calling_thread: bool| {
        let mut last = Instant::now();
        let mut go_on = || {
            if calling_thread {
                stop.poll(&mut last)
            } else {
                !stop.stopped()
            }
        };
        loop {
            let i = next_piece.fetch_add(1, Ordering::AcqRel);
            let Some(piece) = pieces.get(i) else {
                return;
            };
            let Some(mut rows) = piece.lock().unwrap_or_else(|e| e.into_inner()).take() else {
                continue;
            };
            for (j, env) in rows.envs.iter_mut().enumerate() {
                if !go_on() {
                    return;
                }
                let out = Out {
                    board: row_opt(&mut rows.board, j, pl),
                    globals: row_opt(&mut rows.globals, j, gl),
                    mask: &mut rows.mask[j * al..(j + 1) * al],
                    rewards: &mut rows.rewards[j * p..(j + 1) * p],
                    to_play: &mut rows.to_play[j],
                    terminated: &mut rows.terminated[j],
                    truncated: &mut rows.truncated[j],
                    final_scores: row_opt(&mut rows.final_scores, j, p),
                    outside: rows.outside.as_deref_mut().map(|o| &mut o[j]),
                    episode_returns: row_opt(&mut rows.episode_returns, j, p),
                    episode_length: rows.episode_lengths.as_deref_mut().map(|x| &mut x[j]),
                    final_board: row_opt(&mut rows.final_board, j, pl),
                    final_globals: row_opt(&mut rows.final_globals, j, gl),
                    board_kept,
                };
                f(env, rows.base + j, out, &mut go_on);
            }
        }
    };
    let caller = std::thread::current();
    let running = AtomicUsize::new(0);
    let running = &running;
    rayon::in_place_scope(|scope| {
        for _ in 1..threads.min(pieces.len()) {
            running.fetch_add(1, Ordering::AcqRel);
            let caller = caller.clone();
            scope.spawn(move |_| {
                work(false);
                running.fetch_sub(1, Ordering::AcqRel);
                caller.unpark();
            });
        }
        work(true);
        // Wait for the other threads, still polling.
        let mut last = Instant::now();
        while running.load(Ordering::Acquire) > 0 {
            std::thread::park_timeout(stop.interval());
            stop.poll(&mut last);
        }
    });
    stop.stopped()
}
