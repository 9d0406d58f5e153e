//! The training loader: replays each game of a dataset natively and encodes, at every
//! row of its `decisions` table, the observation in a requested [`Layout`], the legal-id
//! mask, the dense policy target, the deciding seat's search value, outcome and margin
//! (`docs/dataset.md`, "Loading for training").
//!
//! Work is split as follows: a reader thread reads the parts (`decisions` and `records`
//! files) in order (or in an order shuffled by the seed and the epoch), and hands each
//! game, in order (or shuffled within its part), to worker `j % threads` for game `j` of
//! the stream, up to [`GAMES_AHEAD`] games ahead of the workers. A worker replays the game into a row buffer it reuses (no allocation per
//! row once the buffer has grown to the longest game) and sends it over a bounded channel
//! of its own. A row is encoded densely into the worker's scratch buffers and held
//! sparse (the non-zero 8-byte words of its planes, the ids its mask offers, the policy's
//! shares, its globals); it goes into the shuffle buffer by a swap and is scattered into
//! the caller's batch, whose rows are cleared first (with the full preset and a batch's
//! `written`, only the planes the row there was written in, and its mask and policy at
//! the ids its mask offers). The consumer
//! ([`Loader::fill`]) takes the games in stream order, so the
//! rows depend on the dataset, the options and the seed only, never on the threads or
//! their timing. With `shuffle` the rows go through a shuffle buffer of
//! [`LoadOptions::shuffle_buffer`] rows from which each batch row is drawn at random.
//!
//! Memory is bounded: each worker owns at most [`BUFFERS_PER_WORKER`] game buffers, and
//! the rows held at any time (in those buffers and in the shuffle buffer) never exceed
//! [`Loader::max_rows_held`]; [`Loader::peak_rows_held`] counts them.

use super::read::{list_parts, read_part, ReadTable};
use super::DatasetError;
use crate::encode::{EncoderSpec, Layout, Preset};
use crate::record::{self, config_from_setup};
use arrow_array::cast::AsArray;
use arrow_array::types::{Float32Type, Int32Type, UInt16Type, UInt32Type, UInt8Type};
use arrow_array::{Array, RecordBatch};
use carcassonne::{GameConfig, Rng};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{sync_channel, Receiver, SyncSender};
use std::sync::Arc;
use std::thread::JoinHandle;

mod replay;
mod rows;

use replay::worker;
pub use rows::BatchMut;
use rows::RowBuf;

/// Game buffers a worker owns: one being filled, one waiting in its channel, one being
/// drained by the consumer.
pub const BUFFERS_PER_WORKER: usize = 3;

/// Games the reader may hand out ahead of the workers, over all workers (each worker's
/// queue holds this many divided by the threads, at least 2): enough that the workers
/// keep working while the reader reads the next part. A queued game is its record's text
/// and its stored decisions (no encoded rows), some tens of KB.
pub const GAMES_AHEAD: usize = 128;

/// What to load and how (see [`Loader::open`]).
#[derive(Clone, Debug)]
pub struct LoadOptions {
    /// The observation preset of the rows.
    pub preset: Preset,
    /// The observation window; `None`: the dataset's (its `window` column).
    pub window: Option<u16>,
    /// Whether parts, games and rows are shuffled; `false` gives the rows in dataset
    /// order (parts in order, games in part order, decisions in order).
    pub shuffle: bool,
    /// The seed of the shuffles.
    pub seed: u64,
    /// Worker threads that replay and encode, 1 to [`LoadOptions::MAX_THREADS`].
    pub threads: usize,
    /// Passes over the dataset, 1 to [`LoadOptions::MAX_EPOCHS`]; each is shuffled anew.
    pub epochs: u32,
    /// Rows of the shuffle buffer, 1 to [`LoadOptions::MAX_SHUFFLE_BUFFER`] (not used
    /// without `shuffle`).
    pub shuffle_buffer: usize,
    /// Whether a bad file, row group or game is skipped and reported
    /// ([`Loader::skipped`]) instead of ending the stream with an error.
    pub skip_bad: bool,
    /// Only the games of these ids (`None`: every game with decisions), a window of the
    /// dataset such as a replay buffer's last games; each must be a game with decisions
    /// in the dataset, and at most [`LoadOptions::MAX_GAME_IDS`] are given. The games
    /// keep their dataset order and their index in the whole dataset (the rows' `game`).
    pub games: Option<Vec<String>>,
}

impl LoadOptions {
    /// The most worker threads.
    pub const MAX_THREADS: usize = 64;
    /// The most epochs.
    pub const MAX_EPOCHS: u32 = 1_000_000;
    /// The default rows of the shuffle buffer.
    pub const DEFAULT_SHUFFLE_BUFFER: usize = 4096;
    /// The most rows of the shuffle buffer.
    pub const MAX_SHUFFLE_BUFFER: usize = 10_000_000;
    /// The most game ids of [`LoadOptions::games`].
    pub const MAX_GAME_IDS: usize = 10_000_000;

    /// Checks the options, naming the one that is out of range.
    pub fn check(&self) -> Result<(), String> {
        if self.threads == 0 || self.threads > Self::MAX_THREADS {
            return Err(format!(
                "threads: {}; expected 1 to {}",
                self.threads,
                Self::MAX_THREADS
            ));
        }
        if self.epochs == 0 || self.epochs > Self::MAX_EPOCHS {
            return Err(format!(
                "epochs: {}; expected 1 to {}",
                self.epochs,
                Self::MAX_EPOCHS
            ));
        }
        if self.shuffle_buffer == 0 || self.shuffle_buffer > Self::MAX_SHUFFLE_BUFFER {
            return Err(format!(
                "shuffle_buffer: {}; expected 1 to {}",
                self.shuffle_buffer,
                Self::MAX_SHUFFLE_BUFFER
            ));
        }
        if let Some(w) = self.window {
            EncoderSpec::new(w).map_err(|e| format!("window: {}", e.message))?;
        }
        match &self.games {
            Some(ids) if ids.is_empty() => {
                return Err("games: no game id; expected at least one (or None: every game)".into())
            }
            Some(ids) if ids.len() > Self::MAX_GAME_IDS => {
                return Err(format!(
                    "games: {} game ids; expected at most {}",
                    ids.len(),
                    Self::MAX_GAME_IDS
                ))
            }
            _ => {}
        }
        Ok(())
    }
}

impl Default for LoadOptions {
    /// The compact preset at the dataset's window, shuffled with seed 0, one thread, one
    /// epoch, [`LoadOptions::DEFAULT_SHUFFLE_BUFFER`] rows, no skipping.
    fn default() -> LoadOptions {
        LoadOptions {
            preset: Preset::Compact,
            window: None,
            shuffle: true,
            seed: 0,
            threads: 1,
            epochs: 1,
            shuffle_buffer: Self::DEFAULT_SHUFFLE_BUFFER,
            skip_bad: false,
            games: None,
        }
    }
}

/// One stored decision of a game to load.
#[derive(Clone, Copy, Debug)]
struct StoredRow {
    index: u32,
    action: u32,
    player: u8,
    legal: u32,
    chosen: Option<u32>,
    targets: (usize, usize),
    value: f32,
    outcome: f32,
    margin: i32,
}

/// A game handed to a worker.
struct Job {
    /// The game's index in the dataset.
    game: i64,
    id: String,
    /// The `decisions` file of the game's part (named by errors of its decisions).
    path: PathBuf,
    /// The `records` file of the game's part (named by errors of its record).
    record_path: PathBuf,
    record: String,
    rows: Vec<StoredRow>,
    targets: Vec<(u32, f32)>,
}

enum Task {
    Game(Job),
    Skipped(DatasetError),
    Failed(DatasetError),
}

enum Output {
    Game(Box<RowBuf>),
    Skipped(DatasetError),
    Failed(DatasetError),
}

/// A game of the `games` table that has decisions.
#[derive(Clone, Debug)]
struct GameInfo {
    id: String,
    decisions: u32,
    /// Its index in the dataset.
    index: i64,
}

/// A part: its number and its games with decisions, in file order.
#[derive(Clone, Debug)]
struct PartInfo {
    number: u32,
    games: Vec<GameInfo>,
}

/// What the workers share.
struct Shared {
    dir: PathBuf,
    layout: Arc<Layout>,
    /// The window of the stored ids.
    stored: EncoderSpec,
    /// The dataset's configuration (its seed 0).
    config: GameConfig,
    options: LoadOptions,
    parts: Vec<PartInfo>,
    stop: AtomicBool,
    /// The tasks the reader handed out, once it has handed out all (`usize::MAX` before).
    sent: AtomicUsize,
    held: AtomicUsize,
    peak: AtomicUsize,
    dropped: AtomicUsize,
}

impl Shared {
    fn add_held(&self, n: usize) {
        let now = self.held.fetch_add(n, Ordering::Relaxed) + n;
        self.peak.fetch_max(now, Ordering::Relaxed);
    }

    fn sub_held(&self, n: usize) {
        self.held.fetch_sub(n, Ordering::Relaxed);
    }
}

/// A stream of training rows over a dataset directory (see the module documentation).
pub struct Loader {
    shared: Arc<Shared>,
    outputs: Vec<Receiver<Output>>,
    recycle: Vec<SyncSender<Box<RowBuf>>>,
    handles: Vec<JoinHandle<()>>,
    /// The stream position: the next game comes from worker `next % threads`.
    next: usize,
    /// The game being drained: its buffer, the next row, its worker.
    current: Option<(Box<RowBuf>, usize, usize)>,
    shuffle: Option<RowBuf>,
    shuffled: usize,
    rng: Rng,
    max_game_rows: usize,
    skipped: Vec<DatasetError>,
    done: bool,
    rows_out: u64,
}

/// The text of column `name` of `batch` at `row` (a string column).
fn text(batch: &RecordBatch, name: &str, row: usize) -> String {
    batch
        .column_by_name(name)
        .map(|c| c.as_string::<i32>().value(row).to_string())
        .unwrap_or_default()
}

/// The configuration of game row `row` of a `games` batch, as text, for comparing
/// games: players, sets, edition, rules and window.
fn config_key(batch: &RecordBatch, row: usize) -> String {
    let players = batch
        .column_by_name("players")
        .map(|c| c.as_primitive::<UInt8Type>().value(row))
        .unwrap_or_default();
    let sets = batch.column_by_name("sets").map(|c| {
        let l = c.as_list::<i32>().value(row);
        let s = l.as_string::<i32>();
        (0..s.len())
            .map(|i| s.value(i).to_string())
            .collect::<Vec<_>>()
    });
    let rules = batch.column_by_name("rules").map(|c| {
        let l = c.as_list::<i32>().value(row);
        let s = l.as_struct();
        let (n, v) = (
            s.column(0).as_string::<i32>(),
            s.column(1).as_string::<i32>(),
        );
        (0..s.len())
            .map(|i| format!("{}={}", n.value(i), v.value(i)))
            .collect::<Vec<_>>()
    });
    let window = batch
        .column_by_name("window")
        .map(|c| c.as_primitive::<UInt16Type>())
        .filter(|c| c.is_valid(row))
        .map(|c| c.value(row));
    format!(
        "players {players}, sets [{}], edition {}, rules [{}], window {}",
        sets.unwrap_or_default().join(", "),
        text(batch, "edition", row),
        rules.unwrap_or_default().join(", "),
        window.map_or("none".to_string(), |w| w.to_string())
    )
}

/// Shuffles `items` in place (Fisher–Yates).
fn shuffle_in_place<T>(items: &mut [T], rng: &mut Rng) {
    for i in (1..items.len()).rev() {
        let j = rng.below(i as u32 + 1) as usize;
        items.swap(i, j);
    }
}

/// The generator of the shuffles of `epoch` (and of part `part` within it, or the
/// part order for `None`).
fn epoch_rng(seed: u64, epoch: u32, part: Option<u32>) -> Rng {
    let mix = |x: u64| {
        let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    };
    let p = part.map_or(0, |p| u64::from(p) + 1);
    Rng::new(mix(mix(seed ^ mix(u64::from(epoch))) ^ mix(p << 1 | 1)))
}

impl Loader {
    /// Opens the dataset `dir` and starts the workers. Reads the `games` table, checks
    /// that every game with decisions has the configuration (players, sets, edition,
    /// rules) and window of the first (an error names the game that differs), reads the
    /// first game's record for the configuration of the layout, and checks `options`.
    pub fn open(dir: &Path, options: LoadOptions) -> Result<Loader, DatasetError> {
        options
            .check()
            .map_err(|m| DatasetError::new(dir, format!("bad option {m}")))?;
        let mut games_read = ReadTable::default();
        let mut parts = Vec::new();
        let mut first: Option<(String, String, PathBuf)> = None;
        let mut stored_window = None;
        let mut max_game_rows = 0usize;
        let mut index = 0i64;
        let mut skipped = Vec::new();
        // The games asked for that are not found yet (with `games`).
        let mut wanted: Option<std::collections::HashSet<&str>> = options
            .games
            .as_ref()
            .map(|ids| ids.iter().map(String::as_str).collect());
        for (number, path) in list_parts(dir, "games")? {
            games_read.batches.clear();
            read_part(&path, "games", options.skip_bad, &mut games_read)?;
            skipped.append(&mut games_read.skipped);
            let mut part = PartInfo {
                number,
                games: Vec::new(),
            };
            for b in &games_read.batches {
                let ids = b
                    .column_by_name("game_id")
                    .expect("game_id")
                    .as_string::<i32>();
                let decisions = b
                    .column_by_name("decisions")
                    .expect("decisions")
                    .as_primitive::<UInt32Type>();
                let windows = b
                    .column_by_name("window")
                    .expect("window")
                    .as_primitive::<UInt16Type>();
                for r in 0..b.num_rows() {
                    if decisions.value(r) == 0 {
                        continue;
                    }
                    let dataset_index = index;
                    index += 1;
                    if let Some(w) = &mut wanted {
                        if !w.remove(ids.value(r)) {
                            continue;
                        }
                    }
                    let id = ids.value(r).to_string();
                    let key = config_key(b, r);
                    match &first {
                        None => {
                            if !windows.is_valid(r) {
                                return Err(DatasetError::new(
                                    &path,
                                    format!("game {id}: decisions without a window"),
                                ));
                            }
                            stored_window = Some(windows.value(r));
                            first = Some((id.clone(), key, path.clone()));
                        }
                        Some((first_id, first_key, _)) if *first_key != key => {
                            return Err(DatasetError::new(
                                &path,
                                format!(
                                    "game {id}: {key}; game {first_id} has {first_key}: a \
                                     loader reads games of one configuration and window \
                                     (write them into separate datasets)"
                                ),
                            ));
                        }
                        Some(_) => {}
                    }
                    max_game_rows = max_game_rows.max(decisions.value(r) as usize);
                    part.games.push(GameInfo {
                        id,
                        decisions: decisions.value(r),
                        index: dataset_index,
                    });
                }
            }
            if !part.games.is_empty() {
                parts.push(part);
            }
        }
        if let Some(missing) = wanted.filter(|w| !w.is_empty()) {
            let mut missing: Vec<&str> = missing.into_iter().collect();
            missing.sort_unstable();
            let shown: Vec<String> = missing.iter().take(3).map(|id| format!("{id:?}")).collect();
            return Err(DatasetError::new(
                dir,
                format!(
                    "bad option games: {} of the {} game ids are not games with decisions \
                     in the dataset ({}{})",
                    missing.len(),
                    options.games.as_ref().map_or(0, Vec::len),
                    shown.join(", "),
                    if missing.len() > 3 { ", ..." } else { "" }
                ),
            ));
        }
        let Some((first_id, _, _)) = first else {
            return Err(DatasetError::new(
                dir,
                "no game with decisions: nothing to load (converted records have no decisions)",
            ));
        };
        let stored = EncoderSpec::new(stored_window.expect("the first game's window"))
            .map_err(|e| DatasetError::new(dir, format!("stored window: {}", e.message)))?;
        let config = Self::first_config(dir, parts[0].number, &first_id)?;
        let spec = match options.window {
            Some(w) => EncoderSpec::new(w)
                .map_err(|e| DatasetError::new(dir, format!("window: {}", e.message)))?,
            None => stored,
        };
        let layout = Arc::new(Layout::new(spec, options.preset, &config));
        let threads = options.threads;
        let shared = Arc::new(Shared {
            dir: dir.to_path_buf(),
            layout: layout.clone(),
            stored,
            config,
            options: options.clone(),
            parts,
            stop: AtomicBool::new(false),
            sent: AtomicUsize::new(usize::MAX),
            held: AtomicUsize::new(0),
            peak: AtomicUsize::new(0),
            dropped: AtomicUsize::new(0),
        });
        let mut task_senders = Vec::with_capacity(threads);
        let mut outputs = Vec::with_capacity(threads);
        let mut recycle = Vec::with_capacity(threads);
        let mut handles = Vec::with_capacity(threads + 1);
        for _ in 0..threads {
            let (task_tx, task_rx) = sync_channel::<Task>((GAMES_AHEAD / threads).max(2));
            let (out_tx, out_rx) = sync_channel::<Output>(1);
            let (back_tx, back_rx) = sync_channel::<Box<RowBuf>>(BUFFERS_PER_WORKER);
            let shared = shared.clone();
            handles.push(std::thread::spawn(move || {
                worker(&shared, task_rx, out_tx, back_rx)
            }));
            task_senders.push(task_tx);
            outputs.push(out_rx);
            recycle.push(back_tx);
        }
        {
            let shared = shared.clone();
            handles.push(std::thread::spawn(move || reader(&shared, task_senders)));
        }
        let shuffle = options
            .shuffle
            .then(|| RowBuf::new(&layout, options.shuffle_buffer));
        Ok(Loader {
            rng: epoch_rng(options.seed, u32::MAX, None),
            shared,
            outputs,
            recycle,
            handles,
            next: 0,
            current: None,
            shuffle,
            shuffled: 0,
            max_game_rows,
            skipped,
            done: false,
            rows_out: 0,
        })
    }

    /// The configuration of game `id` from its record in part `part`.
    fn first_config(dir: &Path, part: u32, id: &str) -> Result<GameConfig, DatasetError> {
        let path = dir.join("records").join(super::part_name(part));
        let mut read = ReadTable::default();
        read_part(&path, "records", false, &mut read)?;
        for b in &read.batches {
            let ids = b.column(0).as_string::<i32>();
            let records = b.column(1).as_string::<i32>();
            for r in 0..b.num_rows() {
                if ids.value(r) == id {
                    let value = record::parse_record_text(records.value(r))
                        .map_err(|e| DatasetError::new(&path, format!("game {id}: {e}")))?;
                    let mut config = config_from_setup(&value["setup"])
                        .map_err(|e| DatasetError::new(&path, format!("game {id}: setup: {e}")))?;
                    config.seed = 0;
                    return Ok(config);
                }
            }
        }
        Err(DatasetError::new(&path, format!("no record of game {id}")))
    }

    /// The layout of the rows.
    pub fn layout(&self) -> &Arc<Layout> {
        &self.shared.layout
    }

    /// The window of the ids stored in the dataset.
    pub fn stored_window(&self) -> u16 {
        self.shared.stored.window
    }

    /// The dataset's configuration (its seed 0).
    pub fn config(&self) -> &GameConfig {
        &self.shared.config
    }

    /// The number of games with decisions in the dataset (in one epoch).
    pub fn games(&self) -> usize {
        self.shared.parts.iter().map(|p| p.games.len()).sum()
    }

    /// The number of decision rows in the dataset (in one epoch), from the `games`
    /// table; rows the loader drops ([`Loader::dropped`]) are not given.
    pub fn decisions(&self) -> u64 {
        self.shared
            .parts
            .iter()
            .flat_map(|p| &p.games)
            .map(|g| u64::from(g.decisions))
            .sum()
    }

    /// The most rows held in memory at once: the shuffle buffer (with `shuffle`) and
    /// [`BUFFERS_PER_WORKER`] buffers per thread of the dataset's longest game.
    pub fn max_rows_held(&self) -> usize {
        let options = &self.shared.options;
        let buffer = if options.shuffle {
            options.shuffle_buffer
        } else {
            0
        };
        buffer + BUFFERS_PER_WORKER * options.threads * self.max_game_rows
    }

    /// The most rows held in memory at once so far (encoded and not yet given out).
    pub fn peak_rows_held(&self) -> usize {
        self.shared.peak.load(Ordering::Relaxed)
    }

    /// The bytes of one row of a batch (planes, globals, mask, policy and the scalars).
    /// The rows the loader holds take less: they are kept sparse (the non-zero 8-byte
    /// words of the planes, the offered ids, the policy's shares, the globals).
    pub fn row_bytes(&self) -> usize {
        let l = &self.shared.layout;
        l.planes_len() + 4 * l.num_globals() + 5 * l.num_actions() + 28
    }

    /// Rows given out so far.
    pub fn rows_given(&self) -> u64 {
        self.rows_out
    }

    /// Rows dropped so far: rows with nothing left to learn in the requested layout
    /// (no target id kept, no id offered, or a second step whose focus tile lies
    /// outside the window).
    pub fn dropped(&self) -> usize {
        self.shared.dropped.load(Ordering::Relaxed)
    }

    /// The files, row groups and games skipped so far with `skip_bad`.
    pub fn skipped(&self) -> &[DatasetError] {
        &self.skipped
    }

    /// Makes sure the game being drained has a row left; false at the end of the stream.
    fn pull(&mut self) -> Result<bool, DatasetError> {
        loop {
            if let Some((buf, pos, _)) = &self.current {
                if *pos < buf.len {
                    return Ok(true);
                }
            }
            if let Some((buf, _, w)) = self.current.take() {
                // The worker may have stopped (its channel closed): the buffer is dropped.
                let _ = self.recycle[w].try_send(buf);
            }
            if self.done {
                return Ok(false);
            }
            let w = self.next % self.outputs.len();
            match self.outputs[w].recv() {
                Err(_) => {
                    self.done = true;
                    if self.shared.sent.load(Ordering::Relaxed) != self.next {
                        return Err(DatasetError::new(
                            &self.shared.dir,
                            "a loader thread stopped before the end of the stream",
                        ));
                    }
                    return Ok(false);
                }
                Ok(Output::Game(buf)) => {
                    self.next += 1;
                    self.current = Some((buf, 0, w));
                }
                Ok(Output::Skipped(e)) => {
                    self.next += 1;
                    self.skipped.push(e);
                }
                Ok(Output::Failed(e)) => {
                    self.done = true;
                    self.shared.stop.store(true, Ordering::Relaxed);
                    return Err(e);
                }
            }
        }
    }

    /// Writes the next rows into `out`, at most its capacity, and returns how many were
    /// written: fewer only at the end of the stream, 0 once it is over. An error (a file
    /// that cannot be read, a game that does not replay, without `skip_bad`) ends the
    /// stream.
    pub fn fill(&mut self, out: &mut BatchMut<'_>) -> Result<usize, DatasetError> {
        out.check(&self.shared.layout)
            .map_err(|m| DatasetError::new(&self.shared.dir, format!("batch arrays: {m}")))?;
        let cap = out.capacity();
        let mut n = 0;
        if self.shuffle.is_none() {
            while n < cap && self.pull()? {
                let (buf, pos, _) = self.current.as_mut().expect("a game with rows");
                buf.copy_to(*pos, out, n);
                *pos += 1;
                n += 1;
                self.shared.sub_held(1);
            }
        } else {
            // Fill the shuffle buffer, then draw each row at random and put the next
            // row of the stream in its place.
            let size = self.shared.options.shuffle_buffer;
            while self.shuffled < size && self.pull()? {
                self.take_into_shuffle(self.shuffled);
                self.shuffled += 1;
            }
            while n < cap && self.shuffled > 0 {
                let r = self.rng.below(self.shuffled as u32) as usize;
                self.shuffle
                    .as_ref()
                    .expect("a shuffle buffer")
                    .copy_to(r, out, n);
                n += 1;
                self.shared.sub_held(1);
                if self.pull()? {
                    self.take_into_shuffle(r);
                } else {
                    self.shuffled -= 1;
                    let last = self.shuffled;
                    if r != last {
                        self.shuffle
                            .as_mut()
                            .expect("a shuffle buffer")
                            .rows
                            .swap(last, r);
                    }
                }
            }
        }
        self.rows_out += n as u64;
        Ok(n)
    }

    /// Moves the next row of the stream into row `slot` of the shuffle buffer (the game's
    /// buffer gets the slot's old row, whose vectors it writes over later).
    fn take_into_shuffle(&mut self, slot: usize) {
        let (buf, pos, _) = self.current.as_mut().expect("a game with rows");
        let shuffle = self.shuffle.as_mut().expect("a shuffle buffer");
        std::mem::swap(&mut buf.rows[*pos], &mut shuffle.rows[slot]);
        *pos += 1;
    }
}

impl Drop for Loader {
    fn drop(&mut self) {
        self.shared.stop.store(true, Ordering::Relaxed);
        // Closing the channels unblocks every worker and the reader.
        self.outputs.clear();
        self.recycle.clear();
        for h in self.handles.drain(..) {
            let _ = h.join();
        }
    }
}

/// Reads the parts, epoch after epoch, and hands game `j` of the stream to worker
/// `j % threads`.
fn reader(shared: &Shared, senders: Vec<SyncSender<Task>>) {
    let options = &shared.options;
    let mut j = 0usize;
    let mut send = |task: Task| -> bool {
        let ok = senders[j % senders.len()].send(task).is_ok();
        j += 1;
        ok && !shared.stop.load(Ordering::Relaxed)
    };
    for epoch in 0..options.epochs {
        let mut order: Vec<usize> = (0..shared.parts.len()).collect();
        if options.shuffle {
            shuffle_in_place(&mut order, &mut epoch_rng(options.seed, epoch, None));
        }
        for p in order {
            let part = &shared.parts[p];
            let mut games: Vec<&GameInfo> = part.games.iter().collect();
            if options.shuffle {
                shuffle_in_place(
                    &mut games,
                    &mut epoch_rng(options.seed, epoch, Some(part.number)),
                );
            }
            match read_games(shared, part) {
                Ok((mut jobs, skipped)) => {
                    for e in skipped {
                        if !send(Task::Skipped(e)) {
                            return;
                        }
                    }
                    for g in games {
                        let task = match jobs.remove(&g.id) {
                            Some(Ok(job)) => Task::Game(job),
                            Some(Err(e)) if options.skip_bad => Task::Skipped(e),
                            Some(Err(e)) => Task::Failed(e),
                            None => {
                                let e = DatasetError::new(
                                    &shared
                                        .dir
                                        .join("records")
                                        .join(super::part_name(part.number)),
                                    format!("game {}: no record", g.id),
                                );
                                if options.skip_bad {
                                    Task::Skipped(e)
                                } else {
                                    Task::Failed(e)
                                }
                            }
                        };
                        let failed = matches!(task, Task::Failed(_));
                        if !send(task) || failed {
                            return;
                        }
                    }
                }
                Err(e) => {
                    send(Task::Failed(e));
                    return;
                }
            }
        }
    }
    shared.sent.store(j, Ordering::Relaxed);
}

type GameJobs = HashMap<String, Result<Job, DatasetError>>;

/// Reads the decisions and records of a part's games: a job per game of the part that
/// has a record (or the error of its decisions), and the row groups skipped.
fn read_games(
    shared: &Shared,
    part: &PartInfo,
) -> Result<(GameJobs, Vec<DatasetError>), DatasetError> {
    let skip_bad = shared.options.skip_bad;
    let name = super::part_name(part.number);
    let dpath = shared.dir.join("decisions").join(&name);
    let rpath = shared.dir.join("records").join(&name);
    let mut read = ReadTable::default();
    read_part(&dpath, "decisions", skip_bad, &mut read)?;
    let mut jobs: GameJobs = HashMap::new();
    let wanted: HashMap<&str, &GameInfo> = part.games.iter().map(|g| (g.id.as_str(), g)).collect();
    for b in &read.batches {
        let ids = b.column(0).as_string::<i32>();
        let index = b.column(1).as_primitive::<UInt32Type>();
        let action = b.column(2).as_primitive::<UInt32Type>();
        let player = b.column(3).as_primitive::<UInt8Type>();
        let legal = b.column(4).as_primitive::<UInt32Type>();
        let chosen = b.column(5).as_primitive::<UInt32Type>();
        let targets = b.column(6).as_list::<i32>();
        let values = b.column(7).as_list::<i32>();
        let outcome = b.column(8).as_primitive::<Float32Type>();
        let margin = b.column(9).as_primitive::<Int32Type>();
        let target_struct = targets.values().as_struct();
        let tid = target_struct.column(0).as_primitive::<UInt32Type>();
        let tshare = target_struct.column(1).as_primitive::<Float32Type>();
        let value_items = values.values().as_primitive::<Float32Type>();
        for r in 0..b.num_rows() {
            let id = ids.value(r);
            if !wanted.contains_key(id) {
                continue;
            }
            let entry = jobs.entry(id.to_string()).or_insert_with(|| {
                Ok(Job {
                    game: wanted[id].index,
                    id: id.to_string(),
                    path: dpath.clone(),
                    record_path: rpath.clone(),
                    record: String::new(),
                    rows: Vec::new(),
                    targets: Vec::new(),
                })
            });
            let Ok(job) = entry else { continue };
            let p = player.value(r);
            let (v0, v1) = (
                values.value_offsets()[r] as usize,
                values.value_offsets()[r + 1] as usize,
            );
            if usize::from(p) >= v1 - v0 {
                *entry = Err(DatasetError::new(
                    &dpath,
                    format!(
                        "game {id}: decision {}: player {p} has no value ({} values)",
                        index.value(r),
                        v1 - v0
                    ),
                ));
                continue;
            }
            let (t0, t1) = (
                targets.value_offsets()[r] as usize,
                targets.value_offsets()[r + 1] as usize,
            );
            let start = job.targets.len();
            job.targets
                .extend((t0..t1).map(|i| (tid.value(i), tshare.value(i))));
            job.rows.push(StoredRow {
                index: index.value(r),
                action: action.value(r),
                player: p,
                legal: legal.value(r),
                chosen: chosen.is_valid(r).then(|| chosen.value(r)),
                targets: (start, job.targets.len()),
                value: value_items.value(v0 + usize::from(p)),
                outcome: outcome.value(r),
                margin: margin.value(r),
            });
        }
    }
    let mut skipped = read.skipped;
    let mut records = ReadTable::default();
    read_part(&rpath, "records", skip_bad, &mut records)?;
    skipped.append(&mut records.skipped);
    for b in &records.batches {
        let ids = b.column(0).as_string::<i32>();
        let texts = b.column(1).as_string::<i32>();
        for r in 0..b.num_rows() {
            if let Some(Ok(job)) = jobs.get_mut(ids.value(r)) {
                job.record = texts.value(r).to_string();
            }
        }
    }
    for g in &part.games {
        let Some(entry) = jobs.get_mut(&g.id) else {
            // No decisions row read: an error for the game, with its record or not.
            jobs.insert(
                g.id.clone(),
                Err(DatasetError::new(
                    &dpath,
                    format!(
                        "game {}: no decisions rows; the games table says {}",
                        g.id, g.decisions
                    ),
                )),
            );
            continue;
        };
        if let Ok(job) = entry {
            job.rows.sort_by_key(|r| r.index);
            let problem = if job.rows.len() != g.decisions as usize {
                Some((
                    dpath.clone(),
                    format!(
                        "game {}: {} decisions rows; the games table says {}",
                        g.id,
                        job.rows.len(),
                        g.decisions
                    ),
                ))
            } else if job.record.is_empty() {
                Some((rpath.clone(), format!("game {}: no record", g.id)))
            } else {
                None
            };
            if let Some((path, m)) = problem {
                *entry = Err(DatasetError::new(&path, m));
            }
        }
    }
    Ok((jobs, skipped))
}

#[cfg(test)]
mod tests {
    use super::replay::gather_mask;
    use super::rows::{clear_offered, gather_words, scatter_words, Row};
    use super::*;
    use crate::encode::PlaneSet;

    /// Planes of `ww` bytes, `count` of them, with random values in random cells of the
    /// planes of `set` (zero elsewhere).
    fn random_planes(ww: usize, count: usize, set: &PlaneSet, rng: &mut Rng) -> Vec<u8> {
        let mut planes = vec![0u8; ww * count];
        for q in set.iter().filter(|q| *q < count) {
            for _ in 0..rng.below(6) {
                let c = rng.below(ww as u32) as usize;
                planes[q * ww + c] = 1 + rng.below(255) as u8;
            }
        }
        planes
    }

    #[test]
    fn gathered_words_scatter_back_to_the_planes_and_leave_zeros() {
        let mut rng = Rng::new(5);
        // Planes of 36, 169 and 25 bytes straddle the 8-byte words; 64 and 576 do not.
        for ww in [36, 64, 169, 25, 576] {
            for round in 0..40 {
                let count = 7;
                let mut set = PlaneSet::EMPTY;
                for q in 0..count {
                    if rng.below(2) == 0 {
                        set.insert(q);
                    }
                }
                let all = round % 5 == 0;
                let planes = random_planes(ww, count, &set, &mut rng);
                let mut scratch = planes.clone();
                let mut words = Vec::new();
                let gathered = if all { PlaneSet::ALL } else { set };
                gather_words(&mut scratch, &gathered, ww, &mut words);
                assert!(scratch.iter().all(|b| *b == 0), "ww {ww}: gathering clears");
                assert!(
                    words.windows(2).all(|w| w[0].0 < w[1].0),
                    "ww {ww}: in order"
                );
                assert!(
                    words.iter().all(|(_, w)| *w != [0; 8]),
                    "ww {ww}: no zero word"
                );
                let mut back = vec![0u8; planes.len()];
                scatter_words(&words, &mut back);
                assert_eq!(back, planes, "ww {ww}, set {set:?}");
            }
        }
    }

    #[test]
    fn gathering_a_span_of_cells_reads_only_those_cells_of_each_plane() {
        let mut rng = Rng::new(9);
        for ww in [36, 64, 169, 25, 576] {
            for _ in 0..40 {
                let count = 7;
                let (a, b) = (rng.below(ww as u32) as usize, rng.below(ww as u32) as usize);
                let (lo, hi) = (a.min(b), a.max(b));
                let mut set = PlaneSet::EMPTY;
                let mut planes = vec![0u8; ww * count];
                for q in 0..count {
                    if rng.below(2) == 0 {
                        for c in [lo, hi] {
                            set.insert_cell(q, c);
                        }
                        for _ in 0..rng.below(6) {
                            let c = lo + rng.below((hi - lo + 1) as u32) as usize;
                            planes[q * ww + c] = 1 + rng.below(255) as u8;
                        }
                    }
                }
                if set.iter().next().is_some() {
                    assert_eq!(set.cells(ww), lo..hi + 1);
                }
                let mut scratch = planes.clone();
                // A byte in a word past the span of the set's last plane is not read.
                let last = set.iter().last();
                let past = last.filter(|_| hi + 16 < ww).map(|q| q * ww + hi + 16);
                if let Some(at) = past {
                    scratch[at] = 7;
                }
                let mut words = Vec::new();
                gather_words(&mut scratch, &set, ww, &mut words);
                let mut back = vec![0u8; planes.len()];
                scatter_words(&words, &mut back);
                assert_eq!(back, planes, "ww {ww}, cells {lo}..={hi}");
                if let Some(at) = past {
                    assert_eq!(scratch[at], 7, "ww {ww}: a byte past the span is not read");
                    scratch[at] = 0;
                }
                assert!(scratch.iter().all(|b| *b == 0), "ww {ww}: gathering clears");
            }
        }
    }

    #[test]
    fn gathered_masks_list_every_offered_id_with_its_value() {
        // 77 ids: two blocks of 32 (the second all zero), then 13.
        let mut mask = vec![0i8; 77];
        for (id, v) in [(0, 1), (7, 1), (8, -1), (31, 1), (64, 1), (76, 1)] {
            mask[id] = v;
        }
        let mut ids = Vec::new();
        gather_mask(&mask, &mut ids);
        assert_eq!(
            ids,
            [
                1,
                7 << 8 | 1,
                8 << 8 | 0xff,
                31 << 8 | 1,
                64 << 8 | 1,
                76 << 8 | 1
            ]
        );
    }

    /// A row of `layout` offering `ids` (value 1) with equal policy shares at the first
    /// `shares` of them.
    fn row_offering(layout: &Layout, ids: &[u32], shares: usize, index: u32) -> Row {
        Row {
            globals: vec![0.5; layout.num_globals()],
            mask: ids.iter().map(|id| id << 8 | 1).collect(),
            policy: ids[..shares]
                .iter()
                .map(|&id| (id, 1.0 / shares as f32))
                .collect(),
            index,
            ..Row::default()
        }
    }

    #[test]
    fn a_kept_batch_row_loses_the_mask_and_policy_ids_of_its_last_row() {
        let config = GameConfig::new(2);
        let spec = EncoderSpec::new(7).unwrap();
        let mut rng = Rng::new(3);
        for preset in [Preset::Full, Preset::Compact] {
            let layout = Layout::new(spec, preset, &config);
            let a = layout.num_actions() as u32;
            // Ids in 32-id blocks and in the tail past the last whole block.
            let mut buf = RowBuf::new(&layout, 40);
            for (k, row) in buf.rows.iter_mut().enumerate() {
                let mut ids: Vec<u32> = (0..1 + rng.below(12)).map(|_| rng.below(a)).collect();
                ids.push(a - 1 - rng.below(a % 32 + 1));
                ids.sort_unstable();
                ids.dedup();
                let shares = 1 + rng.below(ids.len() as u32) as usize;
                *row = row_offering(&layout, &ids, shares, k as u32);
            }
            buf.len = buf.rows.len();
            for keep in [true, false] {
                let mut batch = crate::dataset::Batch::new(&layout, 3);
                for i in 0..buf.len {
                    let j = i % 3;
                    buf.copy_to(i, &mut batch.as_mut(keep), j);
                    let (mask, policy) = (batch.mask_row(j), batch.policy_row(j));
                    let row = &buf.rows[i];
                    for id in 0..a as usize {
                        let offered = row.mask.iter().any(|m| (m >> 8) as usize == id);
                        assert_eq!(mask[id] != 0, offered, "{preset:?} row {i}: mask id {id}");
                        let share = row.policy.iter().find(|(p, _)| *p as usize == id);
                        assert_eq!(
                            policy[id].to_bits(),
                            share.map_or(0f32, |s| s.1).to_bits(),
                            "{preset:?} row {i} (kept {keep}): policy id {id}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn clearing_the_offered_ids_leaves_mask_and_policy_zero() {
        let mut rng = Rng::new(8);
        for len in [31, 32, 77, 2320] {
            let mut mask = vec![0i8; len];
            let mut policy = vec![0f32; len];
            for _ in 0..rng.below(20) + 1 {
                let id = rng.below(len as u32) as usize;
                mask[id] = if rng.below(2) == 0 { 1 } else { -1 };
                policy[id] = 0.25;
            }
            mask[len - 1] = 1;
            policy[len - 1] = 0.5;
            clear_offered(&mut mask, &mut policy);
            assert!(mask.iter().all(|m| *m == 0), "{len} ids: mask");
            assert!(policy.iter().all(|p| *p == 0.0), "{len} ids: policy");
        }
    }

    #[test]
    fn shuffles_are_permutations_that_depend_on_the_seed() {
        let mut a: Vec<u32> = (0..50).collect();
        let mut b = a.clone();
        shuffle_in_place(&mut a, &mut epoch_rng(1, 0, None));
        shuffle_in_place(&mut b, &mut epoch_rng(2, 0, None));
        assert_ne!(a, b);
        let mut sorted = a.clone();
        sorted.sort();
        assert_eq!(sorted, (0..50).collect::<Vec<_>>());
    }

    #[test]
    fn options_out_of_range_are_named() {
        let o = LoadOptions {
            threads: 0,
            ..LoadOptions::default()
        };
        assert!(o.check().unwrap_err().starts_with("threads: 0"));
        let o = LoadOptions {
            shuffle_buffer: 0,
            ..LoadOptions::default()
        };
        assert!(o.check().unwrap_err().starts_with("shuffle_buffer: 0"));
        let o = LoadOptions {
            window: Some(2),
            ..LoadOptions::default()
        };
        assert!(o.check().unwrap_err().starts_with("window"));
    }

    #[test]
    fn an_empty_game_window_is_named() {
        let o = LoadOptions {
            games: Some(Vec::new()),
            ..LoadOptions::default()
        };
        assert!(o.check().unwrap_err().starts_with("games: no game id"));
        let o = LoadOptions {
            games: Some(vec!["g0".into()]),
            ..LoadOptions::default()
        };
        assert_eq!(o.check(), Ok(()));
    }
}
