//! Observation presets: the planes, globals and flat action ids of one game
//! configuration, selected from the full encoding ([`Layout`]).
//!
//! The full encoding ([`EncoderSpec`]) has a plane, a global and an action id for every
//! set the engine knows, so that one layout serves every configuration. A [`Layout`]
//! keeps, for one [`GameConfig`], only what that configuration can use:
//!
//! * [`Preset::Full`]: everything (the full encoding, unchanged).
//! * [`Preset::InPlay`]: the planes, globals and action ids of the sets, figures and
//!   seats in play: the base game has no river, dragon, fairy, bridge or castle planes,
//!   no `CELL`, `CORNER`, `QUARTER`, `BRIDGE` or bazaar ids and only the follower channel
//!   of the `SLOT` block; seat-indexed planes and globals stop at the number of players;
//!   tile-kind globals list only the kinds of the sets in play.
//! * [`Preset::Compact`]: [`Preset::InPlay`], with the figures of all opponents summed
//!   into one plane per figure kind (`figures.own.*`, `figures.opponents.*`), and without
//!   what is constant for a configuration (`seat-present`, `sets`, `farmers`) or raw
//!   board coordinates (`origin-x`, `origin-y`); without two-step decisions (no `CELL`
//!   block) the `focus` plane and `focus-in-window` go too.
//!
//! A layout maps its ids to the full ids and back ([`Layout::to_full`],
//! [`Layout::to_compact`]); the mask stays exact: it is the full mask restricted to the
//! layout's ids, and a legal id that the layout lacks is counted
//! ([`MaskInfo::outside_layout`], always 0 for a layout made for the game's own
//! configuration). [`crate::session::Session::with_layout`] plays a game through a
//! layout: its masks, observations and ids are the layout's.
//!
//! ```
//! use carcassonne::GameConfig;
//! use carcassonne_session::encode::{EncoderSpec, Layout, Preset};
//! let config = GameConfig::new(2);
//! let full = Layout::new(EncoderSpec::default(), Preset::Full, &config);
//! let in_play = Layout::new(EncoderSpec::default(), Preset::InPlay, &config);
//! assert!(in_play.num_planes() < full.num_planes());
//! assert!(in_play.num_actions() < full.num_actions());
//! // The pass id is the last id of every layout.
//! let pass = EncoderSpec::default().pass_id();
//! assert_eq!(in_play.to_compact(pass), Some(in_play.num_actions() as u32 - 1));
//! ```

use super::rotate::global_after_turn;
use super::schema::{
    plane_after_turn, plane_name, BlockInfo, Compact, Dim, InPlay, Row, Schema, SECTIONS,
};
use super::{rotate_action_id, EncodeError, EncoderSpec, MaskInfo};
use carcassonne::config::GameConfig;
use std::cell::RefCell;
use std::sync::{Arc, Mutex};

carcassonne::named_enum! {
    /// Which planes, globals and action ids a [`Layout`] keeps (see the module
    /// documentation).
    #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
    pub enum Preset {
        /// Everything: the full encoding.
        #[default]
        Full = "full",
        /// What the configuration's sets, figures and seats can use.
        InPlay = "in-play",
        /// [`Preset::InPlay`] with opponents' figures summed and constants left out.
        Compact = "compact",
    }
}

/// Marks a full id without a layout id.
const NONE: u32 = u32::MAX;

/// One plane of a layout: the sum of these full planes (one, except the summed
/// opponents' figures of [`Preset::Compact`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LayoutPlane {
    /// Name (`city.N`, `figures.opponents.follower`, ...).
    pub name: String,
    /// The full planes summed (saturating at 255).
    pub sources: Vec<usize>,
}

/// One global block or block of ids of a layout: the entries of a row of the schema
/// that the layout keeps, for each of its indices a subset of the entries in the full
/// order, flattened in row-major order like the full block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LayoutBlock {
    /// The block's name in the full table (`score`, `remaining`, `slot`, ...).
    pub name: &'static str,
    /// First index in the layout's globals, or first layout id.
    pub start: usize,
    /// The full globals (or full ids) kept, in order.
    pub sources: Vec<usize>,
    /// The row's indices.
    pub dims: &'static [Dim],
    /// For each index, the entries kept (in the full order).
    pub kept: Vec<Vec<usize>>,
}

impl LayoutBlock {
    /// Entries per index.
    pub fn shape(&self) -> Vec<usize> {
        self.kept.iter().map(Vec::len).collect()
    }

    /// The labels of the entries kept of index `dim` (`rel0`, `follower`, `BASE-D`, ...).
    pub fn labels(&self, dim: usize) -> Vec<String> {
        self.kept[dim]
            .iter()
            .map(|&i| self.dims[dim].label(i))
            .collect()
    }
}

/// The planes, globals and action ids of one preset for one configuration, and the
/// maps between them and the full encoding (see the module documentation).
#[derive(Clone, Debug)]
pub struct Layout {
    spec: EncoderSpec,
    preset: Preset,
    identity: bool,
    planes: Vec<LayoutPlane>,
    /// Layout plane after one clockwise quarter turn.
    turn: Vec<usize>,
    blocks: Vec<LayoutBlock>,
    globals: Vec<u32>,
    /// Layout global after one clockwise quarter turn.
    global_turn: Vec<usize>,
    /// The blocks of ids kept.
    id_blocks: Vec<LayoutBlock>,
    /// Layout id -> full id.
    to_full: Vec<u32>,
    /// Full id -> layout id or [`NONE`].
    to_compact: Vec<u32>,
    /// Runs of consecutive ids: (full start, layout start, length).
    runs: Vec<(u32, u32, u32)>,
}

thread_local! {
    /// Full-size buffers of the encoding behind a layout.
    static SCRATCH: RefCell<(Vec<u8>, Vec<f32>, Vec<i8>)> =
        const { RefCell::new((Vec::new(), Vec::new(), Vec::new())) };
}

impl Layout {
    /// The layout of `preset` for games of `config` seen through the window of `spec`.
    pub fn new(spec: EncoderSpec, preset: Preset, config: &GameConfig) -> Layout {
        let play = InPlay::of(config);
        let compact = preset == Preset::Compact;
        let keep_all = preset == Preset::Full;
        let schema = Schema::new(spec);
        let keeps = |row: &Row| {
            keep_all
                || (row.live.holds(&play)
                    && (!compact
                        || match row.compact {
                            Compact::Keep | Compact::SumOpponents => true,
                            Compact::Drop => false,
                            Compact::KeepIf(live) => live.holds(&play),
                        }))
        };
        let kept_entries = |dims: &[Dim]| -> Vec<Vec<usize>> {
            dims.iter()
                .map(|d| {
                    (0..d.len(spec))
                        .filter(|&i| keep_all || d.live(i, &play))
                        .collect()
                })
                .collect()
        };

        // Planes.
        let mut planes: Vec<LayoutPlane> = Vec::new();
        let mut first = 0;
        for row in SECTIONS.iter().flat_map(|s| s.planes) {
            let shape: Vec<usize> = row.dims.iter().map(|d| d.len(spec)).collect();
            if keeps(row) {
                let kept = kept_entries(row.dims);
                if compact && row.compact == Compact::SumOpponents {
                    // {name}.own.*, then {name}.opponents.*: the first index is the seat.
                    for (who, seats) in [("own", 0..1), ("opponents", 1..play.players)] {
                        for rest in picks(&kept[1..]) {
                            let sources: Vec<usize> = seats
                                .clone()
                                .map(|r| {
                                    let entry: Vec<usize> =
                                        std::iter::once(r).chain(rest.iter().copied()).collect();
                                    first + flat(&shape, &entry)
                                })
                                .collect();
                            if sources.is_empty() {
                                continue;
                            }
                            let labels = std::iter::once(who.to_string())
                                .chain(row.dims[1..].iter().zip(&rest).map(|(d, &i)| d.label(i)));
                            planes.push(LayoutPlane {
                                name: plane_name(row, labels),
                                sources,
                            });
                        }
                    }
                } else {
                    for entry in picks(&kept) {
                        let labels = row.dims.iter().zip(&entry).map(|(d, &i)| d.label(i));
                        planes.push(LayoutPlane {
                            name: plane_name(row, labels),
                            sources: vec![first + flat(&shape, &entry)],
                        });
                    }
                }
            }
            first += shape.iter().product::<usize>();
        }
        let turn = (0..planes.len())
            .map(|i| match planes[i].sources.as_slice() {
                [s] => {
                    let to = plane_after_turn(*s);
                    planes
                        .iter()
                        .position(|q| q.sources.as_slice() == [to])
                        .unwrap_or(i)
                }
                _ => i,
            })
            .collect();

        // What a layout keeps of a global block or a block of ids, starting at `start`.
        let kept_block = |b: &BlockInfo, start: usize| {
            if !keeps(b.row) {
                return None;
            }
            let kept = kept_entries(b.row.dims);
            let sources: Vec<usize> = picks(&kept)
                .iter()
                .map(|e| b.start + flat(&b.shape, e))
                .collect();
            (!sources.is_empty()).then_some(LayoutBlock {
                name: b.name,
                start,
                sources,
                dims: b.row.dims,
                kept,
            })
        };

        // Globals.
        let mut blocks = Vec::new();
        let mut globals: Vec<u32> = Vec::new();
        for b in &schema.globals {
            if let Some(block) = kept_block(b, globals.len()) {
                globals.extend(block.sources.iter().map(|s| *s as u32));
                blocks.push(block);
            }
        }
        let global_turn = (0..globals.len())
            .map(|i| {
                let to = global_after_turn(globals[i] as usize) as u32;
                globals.iter().position(|g| *g == to).unwrap_or(i)
            })
            .collect();

        // Action ids.
        let mut to_full: Vec<u32> = Vec::new();
        let mut to_compact = vec![NONE; spec.num_actions()];
        let mut id_blocks = Vec::new();
        for b in &schema.ids {
            if let Some(block) = kept_block(b, to_full.len()) {
                for &f in &block.sources {
                    to_compact[f] = to_full.len() as u32;
                    to_full.push(f as u32);
                }
                id_blocks.push(block);
            }
        }
        let mut runs: Vec<(u32, u32, u32)> = Vec::new();
        for (c, &f) in to_full.iter().enumerate() {
            match runs.last_mut() {
                Some((fs, cs, len)) if *fs + *len == f && *cs + *len == c as u32 => *len += 1,
                _ => runs.push((f, c as u32, 1)),
            }
        }
        Layout {
            spec,
            preset,
            identity: keep_all,
            planes,
            turn,
            blocks,
            globals,
            global_turn,
            id_blocks,
            to_full,
            to_compact,
            runs,
        }
    }

    /// The layout of the full encoding for the window of `spec` ([`Preset::Full`]; the
    /// same for every configuration), built once per window and shared.
    pub fn full(spec: EncoderSpec) -> Arc<Layout> {
        static FULL: Mutex<Vec<Arc<Layout>>> = Mutex::new(Vec::new());
        let mut cache = FULL.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(l) = cache.iter().find(|l| l.spec == spec) {
            return l.clone();
        }
        let layout = Arc::new(Layout::new(spec, Preset::Full, &GameConfig::new(2)));
        cache.push(layout.clone());
        layout
    }

    /// The full encoding behind the layout.
    pub fn spec(&self) -> EncoderSpec {
        self.spec
    }

    /// The preset.
    pub fn preset(&self) -> Preset {
        self.preset
    }

    /// Whether the layout is the full encoding itself ([`Preset::Full`]).
    pub fn is_full(&self) -> bool {
        self.identity
    }

    /// Window side `W`.
    pub fn window(&self) -> u16 {
        self.spec.window
    }

    /// Number of planes `C`.
    pub fn num_planes(&self) -> usize {
        self.planes.len()
    }

    /// Length of the `planes` buffer: `C·W·W`.
    pub fn planes_len(&self) -> usize {
        let w = self.spec.window as usize;
        self.planes.len() * w * w
    }

    /// Number of globals `G`.
    pub fn num_globals(&self) -> usize {
        self.globals.len()
    }

    /// Number of action ids `A`.
    pub fn num_actions(&self) -> usize {
        self.to_full.len()
    }

    /// The planes by index.
    pub fn planes(&self) -> &[LayoutPlane] {
        &self.planes
    }

    /// The global blocks in index order.
    pub fn global_blocks(&self) -> &[LayoutBlock] {
        &self.blocks
    }

    /// The full id of layout id `id`; `None` if out of range.
    pub fn to_full(&self, id: u32) -> Option<u32> {
        self.to_full.get(id as usize).copied()
    }

    /// The layout id of full id `id`; `None` if the layout lacks it.
    pub fn to_compact(&self, id: u32) -> Option<u32> {
        self.to_compact
            .get(id as usize)
            .copied()
            .filter(|c| *c != NONE)
    }

    /// The blocks of ids the layout keeps, in id order (`tile`, `cell`, `slot`,
    /// `corner`, `quarter`, `bridge`, `bazaar`, `bid`, `choice`, `pass`; each
    /// contiguous).
    pub fn id_blocks(&self) -> &[LayoutBlock] {
        &self.id_blocks
    }

    /// The first layout id of each block of the full encoding that the layout keeps:
    /// `(block name, first layout id, ids)`, in id order.
    pub fn action_blocks(&self) -> Vec<(&'static str, u32, u32)> {
        self.id_blocks
            .iter()
            .map(|b| (b.name, b.start as u32, b.sources.len() as u32))
            .collect()
    }

    /// Writes the layout's mask from the full mask `full` into `mask`, and returns
    /// `info` (the full mask's) with `offered` counting the layout's ids and
    /// `outside_layout` the offered full ids the layout lacks.
    pub fn mask_from_full(
        &self,
        full: &[i8],
        info: MaskInfo,
        mask: &mut [i8],
    ) -> Result<MaskInfo, EncodeError> {
        super::check_len("full mask", full.len(), self.spec.num_actions())?;
        super::check_len("mask", mask.len(), self.num_actions())?;
        if self.identity {
            mask.copy_from_slice(full);
            return Ok(info);
        }
        for &(f, c, len) in &self.runs {
            let (f, c, len) = (f as usize, c as usize, len as usize);
            mask[c..c + len].copy_from_slice(&full[f..f + len]);
        }
        let offered = mask.iter().map(|m| (*m != 0) as u32).sum::<u32>();
        Ok(MaskInfo {
            offered,
            outside_layout: info.offered - offered,
            ..info
        })
    }

    /// Writes the layout's planes and globals from the full ones.
    pub fn observation_from_full(
        &self,
        full_planes: &[u8],
        full_globals: &[f32],
        planes: &mut [u8],
        globals: &mut [f32],
    ) -> Result<(), EncodeError> {
        super::check_len("full planes", full_planes.len(), self.spec.planes_len())?;
        super::check_len("full globals", full_globals.len(), self.spec.num_globals())?;
        super::check_len("planes", planes.len(), self.planes_len())?;
        super::check_len("globals", globals.len(), self.num_globals())?;
        let ww = self.spec.window as usize * self.spec.window as usize;
        for (i, p) in self.planes.iter().enumerate() {
            let dst = &mut planes[i * ww..(i + 1) * ww];
            let first = p.sources[0];
            dst.copy_from_slice(&full_planes[first * ww..(first + 1) * ww]);
            for &s in &p.sources[1..] {
                for (d, v) in dst.iter_mut().zip(&full_planes[s * ww..(s + 1) * ww]) {
                    *d = d.saturating_add(*v);
                }
            }
        }
        for (g, &s) in globals.iter_mut().zip(&self.globals) {
            *g = full_globals[s as usize];
        }
        Ok(())
    }

    /// Runs `f` on full-size scratch buffers (planes, globals, mask) of this thread.
    pub(crate) fn with_scratch<R>(
        &self,
        f: impl FnOnce(&mut [u8], &mut [f32], &mut [i8]) -> R,
    ) -> R {
        let spec = self.spec;
        let run = |s: &mut (Vec<u8>, Vec<f32>, Vec<i8>)| {
            s.0.resize(spec.planes_len(), 0);
            s.1.resize(spec.num_globals(), 0.0);
            s.2.resize(spec.num_actions(), 0);
            f(&mut s.0, &mut s.1, &mut s.2)
        };
        SCRATCH.with(|cell| match cell.try_borrow_mut() {
            Ok(mut s) => run(&mut s),
            Err(_) => run(&mut (Vec::new(), Vec::new(), Vec::new())),
        })
    }

    /// The layout id of the same move after `quarter_turns` clockwise quarter turns of
    /// the board (see [`super::rotate_action_id`]); `None` if `id` is out of range.
    pub fn rotate_action_id(&self, id: u32, quarter_turns: u8) -> Option<u32> {
        let full = self.to_full(id)?;
        self.to_compact(rotate_action_id(self.spec, full, quarter_turns)?)
    }

    /// Writes into `dst` the layout planes `src` after `quarter_turns` clockwise quarter
    /// turns of the board (see [`super::rotate_planes`]).
    pub fn rotate_planes(
        &self,
        src: &[u8],
        dst: &mut [u8],
        quarter_turns: u8,
    ) -> Result<(), EncodeError> {
        super::check_len("planes", src.len(), self.planes_len())?;
        super::check_len("rotated planes", dst.len(), self.planes_len())?;
        let w = self.spec.window as usize;
        let q = quarter_turns & 3;
        for p in 0..self.planes.len() {
            let mut to = p;
            for _ in 0..q {
                to = self.turn[to];
            }
            let (s, d) = (p * w * w, to * w * w);
            for wy in 0..w {
                for wx in 0..w {
                    let (rx, ry) = super::rotate::rotate_cell(w, wx, wy, q);
                    dst[d + ry * w + rx] = src[s + wy * w + wx];
                }
            }
        }
        Ok(())
    }

    /// Writes into `dst` the layout globals `src` after `quarter_turns` clockwise
    /// quarter turns of the board (see [`super::rotate_globals`]).
    pub fn rotate_globals(
        &self,
        src: &[f32],
        dst: &mut [f32],
        quarter_turns: u8,
    ) -> Result<(), EncodeError> {
        super::check_len("globals", src.len(), self.num_globals())?;
        super::check_len("rotated globals", dst.len(), self.num_globals())?;
        for (g, v) in src.iter().enumerate() {
            let mut to = g;
            for _ in 0..quarter_turns & 3 {
                to = self.global_turn[to];
            }
            dst[to] = *v;
        }
        Ok(())
    }
}

/// Every combination of one entry of each list, last list fastest.
fn picks(lists: &[Vec<usize>]) -> Vec<Vec<usize>> {
    lists.iter().fold(vec![Vec::new()], |acc, list| {
        acc.into_iter()
            .flat_map(|prefix| {
                list.iter().map(move |&i| {
                    let mut e = prefix.clone();
                    e.push(i);
                    e
                })
            })
            .collect()
    })
}

/// The row-major position of `entry` in a row of `shape`.
fn flat(shape: &[usize], entry: &[usize]) -> usize {
    shape.iter().zip(entry).fold(0, |acc, (n, i)| acc * n + i)
}
