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

use super::{
    global_table, plane, plane_after_turn, plane_table, rotate_action_id, Channel, EncodeError,
    EncoderSpec, FlatAction, MaskInfo,
};
use carcassonne::config::{Figure, GameConfig};
use carcassonne::tiles::{catalogue, FeatureKind, Symbols, Terrain, TileSet};
use std::cell::RefCell;

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

/// What a configuration puts in play, as far as the encoding is concerned.
#[derive(Clone, Debug)]
struct InPlay {
    players: usize,
    sets: Vec<TileSet>,
    figures: [bool; 5],
    abbeys: bool,
    farmers: bool,
    /// Catalogue kinds that can be on the board or in hand.
    kinds: Vec<bool>,
    /// Union of the kinds' symbol bits.
    symbols: u16,
    garden: bool,
    monastery: bool,
    pennants: bool,
    river: bool,
}

impl InPlay {
    fn of(config: &GameConfig) -> InPlay {
        let cat = catalogue();
        let mut kinds = vec![false; cat.len()];
        let start = config.start_tile().0;
        let mut symbols = 0u16;
        let (mut garden, mut monastery, mut pennants, mut river) = (false, false, false, false);
        for kind in cat.kinds() {
            let def = kind.def();
            let in_deck = config.has(def.set) && config.edition.count(kind) > 0;
            let abbey = config.figures.abbey > 0 && def.symbols.contains(Symbols::ABBEY);
            if !(in_deck || abbey || kind == start) {
                continue;
            }
            kinds[kind.index()] = true;
            symbols |= def.symbols.bits();
            for f in &def.features {
                garden |= f.kind == FeatureKind::Garden;
                monastery |= f.kind == FeatureKind::Monastery;
                pennants |= f.pennants > 0;
            }
            river |= def.edges.iter().flatten().any(|t| *t == Terrain::River);
        }
        InPlay {
            players: config.players as usize,
            sets: config.sets.clone(),
            figures: Figure::ALL.map(|f| config.figures.of(f) > 0),
            abbeys: config.figures.abbey > 0,
            farmers: config.rules.farmers,
            kinds,
            symbols,
            garden,
            monastery,
            pennants,
            river,
        }
    }

    fn has(&self, set: TileSet) -> bool {
        self.sets.contains(&set)
    }

    fn figure(&self, f: Figure) -> bool {
        self.figures[f.index()]
    }

    fn symbol(&self, s: Symbols) -> bool {
        self.symbols & s.bits() == s.bits()
    }

    fn dragon_and_fairy(&self) -> bool {
        self.has(TileSet::PrincessDragon)
    }

    fn count(&self) -> bool {
        self.has(TileSet::Count)
    }

    fn bcb(&self) -> bool {
        self.has(TileSet::BridgesCastlesBazaars)
    }

    /// Whether a decision can take two ids or name a square (`CELL` ids).
    fn cells(&self) -> bool {
        self.abbeys
            || self.dragon_and_fairy()
            || self.figure(Figure::Abbot)
            || self.figure(Figure::Wagon)
            || self.count()
            || self.bcb()
    }

    fn channel(&self, c: Channel) -> bool {
        if let Some((figure, leaving)) = c.figure() {
            return (figure == Figure::Follower || self.figure(figure))
                && (!leaving || self.count());
        }
        match c {
            Channel::AbbotReturn => self.figure(Figure::Abbot),
            Channel::Fairy | Channel::Princess => self.dragon_and_fairy(),
            Channel::Castle | Channel::BridgeNS | Channel::BridgeWE => self.bcb(),
            _ => unreachable!("a figure's channel"),
        }
    }

    /// Whether a feature slot can be the target of a `SLOT` id: fields away from the
    /// sides' middle thirds only with farmers, the cloister with monasteries, shrines or
    /// abbeys, the garden with gardens and the abbot (A1), the whole tile with the
    /// fairy, the bridge slot with bridges.
    fn slot(&self, s: u8) -> bool {
        match s {
            0..=3 => true,
            4..=11 | 14 | 15 => self.farmers,
            12 => self.monastery || self.abbeys || self.symbol(Symbols::SHRINE),
            13 => self.garden && self.figure(Figure::Abbot),
            16 => self.dragon_and_fairy(),
            17 => self.bcb(),
            _ => true,
        }
    }

    fn action(&self, a: FlatAction) -> bool {
        match a {
            FlatAction::Tile { .. } | FlatAction::Pass => true,
            FlatAction::Cell { .. } => self.cells(),
            FlatAction::Slot { slot, channel } => self.slot(slot) && self.channel(channel),
            FlatAction::Corner(_) => self.figure(Figure::Barn),
            FlatAction::EnterQuarter { .. } | FlatAction::MoveCount(_) => self.count(),
            FlatAction::Bridge { .. }
            | FlatAction::BazaarSelect { .. }
            | FlatAction::Bid(_)
            | FlatAction::Choice(_) => self.bcb(),
        }
    }

    /// Whether the plane named `name` can be non-zero (unknown names: yes).
    fn plane(&self, name: &str, compact: bool) -> bool {
        let group = name.split('.').next().unwrap_or(name);
        match group {
            "river" => self.river,
            "monastery" => self.monastery || self.abbeys || self.symbol(Symbols::SHRINE),
            "garden" => self.garden,
            "pennants" => self.pennants,
            "abbey" => self.abbeys || self.symbol(Symbols::ABBEY),
            "volcano" => self.symbol(Symbols::VOLCANO),
            "dragon-symbol" => self.symbol(Symbols::DRAGON),
            "magic-portal" => self.symbol(Symbols::MAGIC_PORTAL),
            "princess" => self.symbol(Symbols::PRINCESS),
            "pig-herd" => self.symbol(Symbols::PIG_HERD),
            "shrine" => self.symbol(Symbols::SHRINE),
            "bazaar" => self.symbol(Symbols::BAZAAR),
            "focus" => self.cells() || !compact,
            "cell-target" => self.cells(),
            "dragon" | "dragon-visited" | "fairy" => self.dragon_and_fairy(),
            "bridge" | "castle-own" | "castle-opponent" => self.bcb(),
            "city-of-carcassonne" => self.count(),
            "figures" => {
                // figures.rel{R}.{kind}
                let mut parts = name.split('.').skip(1);
                let seat = parts
                    .next()
                    .and_then(|r| r.strip_prefix("rel"))
                    .and_then(|r| r.parse::<usize>().ok());
                let kind = parts.next().and_then(Figure::from_name);
                match (seat, kind) {
                    (Some(r), Some(f)) => r < self.players && self.figure(f),
                    _ => true,
                }
            }
            _ => true,
        }
    }

    /// The entries of the global block `name` (`len` entries) that can be non-zero, as
    /// offsets in the block (unknown names: all).
    fn global(&self, name: &str, len: usize, compact: bool) -> Vec<usize> {
        let all = || (0..len).collect::<Vec<_>>();
        let none = Vec::new;
        let seats = |when: bool| {
            if when {
                (0..self.players.min(len)).collect()
            } else {
                Vec::new()
            }
        };
        let kinds = |when: bool| {
            if when {
                (0..len)
                    .filter(|&k| self.kinds.get(k) == Some(&true))
                    .collect()
            } else {
                Vec::new()
            }
        };
        match name {
            "focus-pending" => {
                if self.cells() {
                    all()
                } else {
                    none()
                }
            }
            "focus-in-window" => {
                if self.cells() || !compact {
                    all()
                } else {
                    none()
                }
            }
            "seat-present" => seats(!compact),
            "turn-player" | "to-play" | "score" => seats(true),
            "abbeys" => seats(self.abbeys),
            "supply" => (0..len)
                .filter(|&i| {
                    let (seat, f) = (i / Figure::ALL.len(), i % Figure::ALL.len());
                    seat < self.players && self.figures[f]
                })
                .collect(),
            "dragon-on-board" | "fairy-on-board" | "dragon-steps-left" => {
                if self.dragon_and_fairy() {
                    all()
                } else {
                    none()
                }
            }
            "sets" => {
                if compact {
                    none()
                } else {
                    TileSet::ALL
                        .iter()
                        .enumerate()
                        .filter(|(i, s)| *i < len && self.has(**s))
                        .map(|(i, _)| i)
                        .collect()
                }
            }
            "farmers" | "origin-x" | "origin-y" => {
                if compact {
                    none()
                } else {
                    all()
                }
            }
            "count-quarter" => {
                if self.count() {
                    all()
                } else {
                    none()
                }
            }
            "quarter-figures" => (0..len)
                .filter(|&i| self.count() && i / 4 < self.players)
                .collect(),
            "king" | "robber-baron" => seats(self.has(TileSet::KingRobber)),
            "bridges-left" | "castles-left" | "bazaar-holds" | "bazaar-selector"
            | "bazaar-bidder" => seats(self.bcb()),
            "bazaar-bid" => {
                if self.bcb() {
                    all()
                } else {
                    none()
                }
            }
            "tile-in-hand" | "focus-tile" | "remaining" => kinds(true),
            "bazaar-offer" | "bazaar-picked" | "bazaar-own" => kinds(self.bcb()),
            _ => all(),
        }
    }
}

/// One plane of a layout: the sum of these full planes (one, except the summed
/// opponents' figures of [`Preset::Compact`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LayoutPlane {
    /// Name (`city.N`, `figures.opponents.follower`, ...).
    pub name: String,
    /// The full planes summed (saturating at 255).
    pub sources: Vec<usize>,
}

/// One global block of a layout.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LayoutBlock {
    /// The block's name in the full table (`score`, `remaining`, ...).
    pub name: &'static str,
    /// First index in the layout's globals.
    pub start: usize,
    /// The full globals kept, in order.
    pub sources: Vec<usize>,
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

        // Planes.
        let mut planes: Vec<LayoutPlane> = Vec::new();
        let mut summed_done = false;
        for p in plane_table() {
            if !keep_all && !play.plane(&p.name, compact) {
                continue;
            }
            if compact && p.name.starts_with("figures.") {
                if summed_done {
                    continue;
                }
                summed_done = true;
                // figures.own.{kind}, then figures.opponents.{kind}, for kinds in play.
                for (who, seats) in [("own", 0..1), ("opponents", 1..play.players)] {
                    for f in Figure::ALL {
                        if !play.figure(f) {
                            continue;
                        }
                        let sources = seats
                            .clone()
                            .map(|r| plane::FIGURES + r * super::FIGURE_KINDS + f.index())
                            .collect();
                        planes.push(LayoutPlane {
                            name: format!("figures.{who}.{}", f.name()),
                            sources,
                        });
                    }
                }
                continue;
            }
            planes.push(LayoutPlane {
                name: p.name.clone(),
                sources: vec![p.index],
            });
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

        // Globals.
        let mut blocks = Vec::new();
        let mut globals = Vec::new();
        for g in global_table() {
            let kept = if keep_all {
                (0..g.len).collect()
            } else {
                play.global(g.name, g.len, compact)
            };
            if kept.is_empty() {
                continue;
            }
            let sources: Vec<usize> = kept.into_iter().map(|k| g.start + k).collect();
            blocks.push(LayoutBlock {
                name: g.name,
                start: globals.len(),
                sources: sources.clone(),
            });
            globals.extend(sources.iter().map(|s| *s as u32));
        }

        // Action ids.
        let a = spec.num_actions();
        let mut to_full = Vec::new();
        let mut to_compact = vec![NONE; a];
        for id in 0..a as u32 {
            let keep =
                keep_all || FlatAction::from_id(spec, id).is_some_and(|action| play.action(action));
            if keep {
                to_compact[id as usize] = to_full.len() as u32;
                to_full.push(id);
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
            to_full,
            to_compact,
            runs,
        }
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

    /// The first layout id of each block of the full encoding that the layout keeps:
    /// `(block name, first layout id, ids)`, in id order (`tile`, `cell`, `slot`,
    /// `corner`, `quarter`, `bridge`, `bazaar`, `bid`, `choice`, `pass`).
    pub fn action_blocks(&self) -> Vec<(&'static str, u32, u32)> {
        let s = self.spec;
        let bounds = [
            ("tile", s.tile_base(), s.cell_base()),
            ("cell", s.cell_base(), s.slot_base()),
            ("slot", s.slot_base(), s.corner_base()),
            ("corner", s.corner_base(), s.quarter_base()),
            ("quarter", s.quarter_base(), s.bridge_base()),
            ("bridge", s.bridge_base(), s.bazaar_base()),
            ("bazaar", s.bazaar_base(), s.bid_base()),
            ("bid", s.bid_base(), s.choice_base()),
            ("choice", s.choice_base(), s.pass_id()),
            ("pass", s.pass_id(), s.pass_id() + 1),
        ];
        bounds
            .into_iter()
            .filter_map(|(name, lo, hi)| {
                let ids: Vec<u32> = (lo..hi).filter_map(|f| self.to_compact(f)).collect();
                ids.first().map(|first| (name, *first, ids.len() as u32))
            })
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
}
