//! A loader worker: replays each game of its tasks natively and encodes, at every stored
//! decision, the row of the requested layout into a row buffer (see [`super::Loader`]).

use super::rows::{gather_words, Row, RowBuf};
use super::{DatasetError, Job, Output, Shared, StoredRow, Task, BUFFERS_PER_WORKER};
use crate::encode::{FlatDecision, PlaneSet};
use crate::record::{self, config_from_setup};
use crate::session::Session;
use carcassonne::game::Decision;
use carcassonne::{Action, Game, Phase};
use std::sync::atomic::Ordering;
use std::sync::mpsc::{Receiver, SyncSender, TryRecvError};

/// Takes tasks in order, replays each game into a buffer and sends it.
pub(super) fn worker(
    shared: &Shared,
    tasks: Receiver<Task>,
    out: SyncSender<Output>,
    back: Receiver<Box<RowBuf>>,
) {
    let layout = &shared.layout;
    let mut owned = 0usize;
    let mut spare: Option<Box<RowBuf>> = None;
    let mut scratch = Scratch::new(shared);
    while let Ok(task) = tasks.recv() {
        if shared.stop.load(Ordering::Relaxed) {
            return;
        }
        let output = match task {
            Task::Skipped(e) => Output::Skipped(e),
            Task::Failed(e) => Output::Failed(e),
            Task::Game(job) => {
                let next = match spare.take() {
                    Some(b) => Ok(b),
                    None => back.try_recv(),
                };
                let mut buf = match next {
                    Ok(b) => b,
                    Err(TryRecvError::Empty) if owned < BUFFERS_PER_WORKER => {
                        owned += 1;
                        Box::new(RowBuf::new(layout, 0))
                    }
                    Err(TryRecvError::Empty) => match back.recv() {
                        Ok(b) => b,
                        Err(_) => return,
                    },
                    Err(TryRecvError::Disconnected) => return,
                };
                buf.len = 0;
                buf.reserve_rows(job.rows.len());
                match replay_game(shared, &job, &mut buf, &mut scratch) {
                    Ok(()) => Output::Game(buf),
                    Err(Failure { in_record, message }) => {
                        shared.sub_held(buf.len);
                        buf.len = 0;
                        spare = Some(buf);
                        let path = if in_record {
                            &job.record_path
                        } else {
                            &job.path
                        };
                        let e = DatasetError::new(path, format!("game {}: {message}", job.id));
                        if shared.options.skip_bad {
                            Output::Skipped(e)
                        } else {
                            Output::Failed(e)
                        }
                    }
                }
            }
        };
        if out.send(output).is_err() {
            return;
        }
    }
}

/// A worker's buffers: full-size ones, and the dense row it encodes into before the row
/// is gathered sparse.
struct Scratch {
    full_mask: Vec<i8>,
    full_planes: Vec<u8>,
    full_globals: Vec<f32>,
    /// The planes of `full_planes` that may hold something.
    written: PlaneSet,
    /// The row's planes in the layout: all zero between rows.
    planes: Vec<u8>,
    /// The planes of `planes` that may hold something.
    planes_written: PlaneSet,
    /// The row's mask in the layout.
    mask: Vec<i8>,
    /// The row's policy in the layout: all zero between rows.
    policy: Vec<f32>,
    /// The ids of `policy` written for this row, each once.
    touched: Vec<u32>,
    /// Whether each id is in `touched`.
    is_touched: Vec<bool>,
    /// The sessions of the last game replayed (`old` and `new` of [`replay_game`]),
    /// whose memory the next game is played in.
    sessions: Option<(Session, Option<Session>)>,
    /// The most words, mask ids and policy shares of a row gathered so far.
    most: (usize, usize, usize),
}

impl Scratch {
    fn new(shared: &Shared) -> Scratch {
        let spec = shared.stored;
        let layout_spec = shared.layout.spec();
        let layout = &shared.layout;
        Scratch {
            full_mask: vec![0; spec.num_actions()],
            full_planes: vec![0; layout_spec.planes_len()],
            full_globals: vec![0.0; layout_spec.num_globals()],
            written: PlaneSet::EMPTY,
            planes: vec![0; layout.planes_len()],
            planes_written: PlaneSet::EMPTY,
            mask: vec![0; layout.num_actions()],
            policy: vec![0.0; layout.num_actions()],
            touched: Vec::new(),
            is_touched: vec![false; layout.num_actions()],
            sessions: None,
            most: (0, 0, 0),
        }
    }

    /// Adds `share` to the policy at `id`.
    fn add_share(&mut self, id: u32, share: f32) {
        let i = id as usize;
        if !self.is_touched[i] {
            self.is_touched[i] = true;
            self.touched.push(id);
        }
        self.policy[i] += share;
    }

    /// Gathers the encoded row (planes, mask, policy divided by `kept` if `lost`) into
    /// `row` and leaves the row's buffers zero again.
    fn gather(&mut self, row: &mut Row, ww: usize, set: PlaneSet, kept: f32, lost: bool) {
        // A row's vectors get at once the room of the longest seen (a row new to the
        // buffers, with none, allocates once rather than growing step by step).
        row.words.clear();
        row.words.reserve(self.most.0);
        gather_words(&mut self.planes, &self.planes_written, ww, &mut row.words);
        self.planes_written = PlaneSet::EMPTY;
        row.set = set;
        row.mask.clear();
        row.mask.reserve(self.most.1);
        gather_mask(&self.mask, &mut row.mask);
        row.policy.clear();
        row.policy.reserve(self.most.2.max(self.touched.len()));
        for &id in &self.touched {
            let s = &mut self.policy[id as usize];
            row.policy.push((id, if lost { *s / kept } else { *s }));
            *s = 0.0;
            self.is_touched[id as usize] = false;
        }
        self.touched.clear();
        self.most = (
            self.most.0.max(row.words.len()),
            self.most.1.max(row.mask.len()),
            self.most.2.max(row.policy.len()),
        );
    }

    /// Sets the policy back to zero without keeping it.
    fn drop_policy(&mut self) {
        for &id in &self.touched {
            self.policy[id as usize] = 0.0;
            self.is_touched[id as usize] = false;
        }
        self.touched.clear();
    }
}

/// Appends `id << 8 | value` for every id of `mask` whose value is not 0.
pub(super) fn gather_mask(mask: &[i8], out: &mut Vec<u32>) {
    let mut push = |base: usize, values: &[i8]| {
        for (i, &v) in values.iter().enumerate() {
            if v != 0 {
                out.push(((base + i) as u32) << 8 | u32::from(v as u8));
            }
        }
    };
    // 32 ids at a time: most of the mask is zero.
    let blocks = mask.chunks_exact(32);
    let tail = blocks.remainder();
    for (k, block) in blocks.enumerate() {
        let b: &[i8; 32] = block.try_into().expect("32 ids");
        if b.iter().fold(0i8, |any, m| any | m) != 0 {
            push(32 * k, block);
        }
    }
    push(mask.len() - tail.len(), tail);
}

/// Why a game could not be loaded: in its record, or in its decisions.
struct Failure {
    in_record: bool,
    message: String,
}

impl From<String> for Failure {
    fn from(message: String) -> Failure {
        Failure {
            in_record: false,
            message,
        }
    }
}

impl From<&str> for Failure {
    fn from(message: &str) -> Failure {
        Failure::from(message.to_string())
    }
}

/// A failure of the record.
fn in_record(message: String) -> Failure {
    Failure {
        in_record: true,
        message,
    }
}

/// Replays `job`'s game and writes a row per stored decision into `buf` (see
/// [`Loader`]); an error says what does not fit the replay.
fn replay_game(
    shared: &Shared,
    job: &Job,
    buf: &mut RowBuf,
    scratch: &mut Scratch,
) -> Result<(), Failure> {
    let layout = &shared.layout;
    let value = record::parse_record_text(&job.record).map_err(|e| in_record(format!("{e}")))?;
    let played = record::replay(&value)
        .map_err(|e| in_record(format!("the record does not replay: {e}")))?;
    let config =
        config_from_setup(&value["setup"]).map_err(|e| in_record(format!("setup: {e}")))?;
    let mut unseeded = config.clone();
    unseeded.seed = 0;
    if unseeded != shared.config {
        return Err(in_record(
            "its setup is not the dataset's configuration".into(),
        ));
    }
    let history = played.history_actions();
    if let Some(r) = job.rows.iter().find(|r| r.action as usize >= history.len()) {
        return Err(format!(
            "decision {}: action index {} is past the record's {} player actions",
            r.index,
            r.action,
            history.len()
        )
        .into());
    }
    // `old` speaks the full ids of the stored window; `new` the requested layout when its
    // window differs. Both are the worker's sessions of the last game, started again with
    // this game's seed in their memory (their configuration is the dataset's).
    let (mut old, mut new) = match scratch.sessions.take() {
        Some(mut sessions) => {
            sessions.0.with_game_mut(|g| g.restart(config.seed));
            if let Some(n) = &mut sessions.1 {
                n.with_game_mut(|g| g.restart(config.seed));
            }
            sessions
        }
        None => {
            let game = Game::new(config.clone()).map_err(|e| in_record(format!("setup: {e}")))?;
            let old = Session::new(game.clone(), shared.stored);
            let new = (layout.spec() != shared.stored)
                .then(|| Session::with_layout(game, layout.clone()));
            (old, new)
        }
    };
    let mut k = 0usize;
    let mut index = 0usize;
    let (g_len, ww) = (buf.g, buf.ww);
    while !old.game().is_terminal() {
        if old.game().phase().is_chance() {
            let a = old.game().legal()[0];
            old.apply(a).map_err(|e| format!("a draw: {e}"))?;
            if let Some(n) = &mut new {
                n.apply(a).map_err(|e| format!("a draw: {e}"))?;
            }
            continue;
        }
        let declined = declines_abbey(&mut old, history.get(index), job.rows.get(k), index);
        let action = if declined {
            Action::Pass
        } else {
            let Some(decision) = history.get(index) else {
                return Err(format!(
                    "the game dealt from its seed goes on after the record's {} player actions",
                    history.len()
                )
                .into());
            };
            decision.action
        };
        // The row of a declined abbey carries the index of the player action after it
        // (the record does not list the decline): it is the first row of that index, and
        // its chosen id is the decline's.
        let decline_id = if declined {
            old.flat_path(action).map(|fp| fp.first)
        } else {
            None
        };
        if !old.game().is_legal(action) {
            return Err(in_record(format!(
                "player action {index} of the record is not legal in the deal of setup.seed \
                 (the loader replays the deal of the record's seed)"
            )));
        }
        let mut path = None;
        let mut rows_here = 0;
        while k < job.rows.len()
            && job.rows[k].action as usize == index
            && (!declined || (rows_here == 0 && job.rows[k].chosen == decline_id))
        {
            let row = job.rows[k];
            k += 1;
            let p = *path.get_or_insert_with(|| old.flat_path(action));
            let second = match p {
                Some(fp) => fp.second.is_some() && row.chosen == fp.second,
                None => false,
            };
            let expected = p.map(|fp| {
                if second {
                    fp.second.unwrap_or(fp.first)
                } else {
                    fp.first
                }
            });
            if row.chosen != expected || rows_here >= 2 || (rows_here == 1 && !second) {
                return Err(format!(
                    "decision {}: chosen id {:?} is not the flat id of player action {index} \
                     at this step ({expected:?})",
                    row.index, row.chosen
                )
                .into());
            }
            rows_here += 1;
            let mut focus_outside = false;
            if second && old.pending_focus().is_none() {
                let first = p.expect("a two-step path").first;
                let decided = old
                    .step(first)
                    .map_err(|e| format!("decision {}: {e}", row.index))?;
                if let (Some(n), FlatDecision::Focus(pos)) = (&mut new, decided) {
                    n.set_focus(pos);
                    focus_outside = n.window_origin().cell(layout.spec(), pos).is_none();
                }
            }
            if usize::from(row.player) != old.game().to_play() {
                return Err(format!(
                    "decision {}: player {} stored; player {} decides at the replayed step",
                    row.index,
                    row.player,
                    old.game().to_play()
                )
                .into());
            }
            // With the full layout at the stored window the mask is written where the
            // row's is kept.
            let direct = new.is_none() && layout.is_full();
            let full_mask = if direct {
                &mut scratch.mask
            } else {
                &mut scratch.full_mask
            };
            let info = old.legal_mask(full_mask).map_err(|e| e.to_string())?;
            if info.offered != row.legal {
                return Err(format!(
                    "decision {}: {} legal ids stored; {} at the replayed step",
                    row.index, row.legal, info.offered
                )
                .into());
            }
            // Encode the row densely into the scratch buffers, then gather it sparse
            // into the buffer's next row; it counts once its policy keeps something.
            scratch.drop_policy();
            let player = usize::from(row.player);
            let targets = &job.targets[row.targets.0..row.targets.1];
            let (mut kept, mut lost) = (0f32, false);
            let r = &mut buf.rows[buf.len];
            r.globals.resize(g_len, 0.0);
            match &mut new {
                None => {
                    let offered = if direct {
                        info
                    } else {
                        layout
                            .mask_from_full(&scratch.full_mask, info, &mut scratch.mask)
                            .map_err(|e| e.to_string())?
                    };
                    if offered.offered == 0 {
                        shared.dropped.fetch_add(1, Ordering::Relaxed);
                        continue;
                    }
                    for &(id, share) in targets {
                        match layout.to_compact(id) {
                            Some(c) if scratch.mask[c as usize] != 0 => {
                                scratch.add_share(c, share);
                                kept += share;
                            }
                            _ => lost = true,
                        }
                    }
                    if layout.is_full() {
                        old.observe_over(
                            player,
                            &mut scratch.planes,
                            &mut r.globals,
                            &mut scratch.planes_written,
                        )
                        .map_err(|e| e.to_string())?;
                    } else {
                        old.observe_over(
                            player,
                            &mut scratch.full_planes,
                            &mut scratch.full_globals,
                            &mut scratch.written,
                        )
                        .map_err(|e| e.to_string())?;
                        scratch.planes_written = PlaneSet::ALL;
                        layout
                            .observation_from_full(
                                &scratch.full_planes,
                                &scratch.full_globals,
                                &mut scratch.planes,
                                &mut r.globals,
                            )
                            .map_err(|e| e.to_string())?;
                    }
                }
                Some(n) => {
                    let offered = n.legal_mask(&mut scratch.mask).map_err(|e| e.to_string())?;
                    if offered.offered == 0 || focus_outside {
                        shared.dropped.fetch_add(1, Ordering::Relaxed);
                        continue;
                    }
                    let spec = layout.spec();
                    for &(id, share) in targets {
                        let mapped = match old.decode(id) {
                            Some(FlatDecision::Focus(pos)) => n
                                .window_origin()
                                .cell_index(spec, pos)
                                .and_then(|c| layout.to_compact(spec.cell_base() + c as u32)),
                            Some(FlatDecision::Action(a)) => n.flat_path(a).map(|fp| {
                                if second {
                                    fp.second.unwrap_or(fp.first)
                                } else {
                                    fp.first
                                }
                            }),
                            None => None,
                        };
                        match mapped {
                            Some(c) if scratch.mask[c as usize] != 0 => {
                                scratch.add_share(c, share);
                                kept += share;
                            }
                            _ => lost = true,
                        }
                    }
                    n.observe_over(
                        player,
                        &mut scratch.planes,
                        &mut r.globals,
                        &mut scratch.planes_written,
                    )
                    .map_err(|e| e.to_string())?;
                }
            }
            if kept <= 0.0 {
                shared.dropped.fetch_add(1, Ordering::Relaxed);
                continue;
            }
            let set = if buf.sparse {
                scratch.planes_written
            } else {
                PlaneSet::ALL
            };
            scratch.gather(r, ww, set, kept, lost);
            r.player = i32::from(row.player);
            r.search_value = row.value;
            r.outcome = row.outcome;
            r.margin = row.margin;
            r.game = job.game;
            r.index = row.index;
            buf.len += 1;
            shared.add_held(1);
        }
        if k < job.rows.len() && (job.rows[k].action as usize) < index {
            return Err(format!(
                "decision {}: action index {} comes after a row of action {index}",
                job.rows[k].index, job.rows[k].action
            )
            .into());
        }
        // Legal: checked above, and picking a focus since then left the game as it was;
        // `new` plays the same game.
        old.take_decoded(FlatDecision::Action(action));
        if let Some(n) = &mut new {
            n.take_decoded(FlatDecision::Action(action));
        }
        if !declined {
            index += 1;
        }
    }
    if index != history.len() {
        return Err(format!(
            "the game dealt from its seed ends after {index} of the record's {} player actions",
            history.len()
        )
        .into());
    }
    if old.game().scores() != played.scores() {
        return Err(in_record(
            "the game dealt from its seed does not end with the record's scores".into(),
        ));
    }
    scratch.sessions = Some((old, new));
    Ok(())
}

/// AM1: whether the turn player, asked whether he places his abbey instead of drawing,
/// declines it at this point of the game. A record does not list that decline (the
/// turn's draw implies it, and so does the end of the game after an extra turn with the
/// pile empty, TB4); the decisions row of the decline has the index of the record's next
/// player action, `next`. So the game waits for an abbey decision, and:
/// * `next` is an abbey the player asked places: no decline;
/// * `next` is another action he may take now (a ransom, TW5, which is offered before
///   the abbey decision and again before the placement): declined first exactly when the
///   next row, `row`, is of `index` and chose the decline (a decline always has a row:
///   it is searched, having at least a hole and the pass to choose from);
/// * else (`next` is a placement, another player's, or none): declined.
fn declines_abbey(
    old: &mut Session,
    next: Option<&Decision>,
    row: Option<&StoredRow>,
    index: usize,
) -> bool {
    let game = old.game();
    if game.phase() != Phase::Abbey || game.in_end_round() {
        return false;
    }
    let Some(d) = next.filter(|d| usize::from(d.player) == game.to_play()) else {
        return true;
    };
    if matches!(d.action, Action::PlaceAbbey { .. }) {
        return false;
    }
    if !game.is_legal(d.action) {
        return true;
    }
    let decline = old.flat_path(Action::Pass).map(|fp| fp.first);
    row.is_some_and(|r| r.action as usize == index && r.chosen == decline)
}
