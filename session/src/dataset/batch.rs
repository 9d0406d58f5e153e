//! [`Batch`]: arrays owned for a number of rows, lent to [`Loader::fill`] as a
//! [`BatchMut`] — for callers in Rust (the command line's benchmark, tests) that do not
//! bring arrays of their own.

use super::load::BatchMut;
#[cfg(doc)]
use super::load::Loader;
use crate::encode::{Layout, PlaneSet};

/// Every array of [`BatchMut`], owned, for `capacity` rows of one layout.
#[derive(Clone, Debug)]
pub struct Batch {
    /// Board planes, `u8 [n, C·W·W]`.
    pub planes: Vec<u8>,
    /// Globals, `f32 [n, G]`.
    pub globals: Vec<f32>,
    /// Legal-id masks, `i8 [n, A]`.
    pub mask: Vec<i8>,
    /// Policy targets, `f32 [n, A]`.
    pub policy: Vec<f32>,
    /// The deciding seat.
    pub player: Vec<i32>,
    /// The search's value for the deciding seat.
    pub search_value: Vec<f32>,
    /// The deciding seat's outcome.
    pub outcome: Vec<f32>,
    /// The deciding seat's final margin.
    pub margin: Vec<i32>,
    /// The game's index in the dataset.
    pub game: Vec<i64>,
    /// The row's index in its game's decisions.
    pub index: Vec<u32>,
    /// What each row's planes may hold something in (see [`BatchMut::written`]).
    pub written: Vec<PlaneSet>,
    sizes: (usize, usize, usize),
}

impl Batch {
    /// Zeroed arrays for `capacity` rows of `layout`.
    pub fn new(layout: &Layout, capacity: usize) -> Batch {
        let (p, g, a) = (
            layout.planes_len(),
            layout.num_globals(),
            layout.num_actions(),
        );
        Batch {
            planes: vec![0; capacity * p],
            globals: vec![0.0; capacity * g],
            mask: vec![0; capacity * a],
            policy: vec![0.0; capacity * a],
            player: vec![0; capacity],
            search_value: vec![0.0; capacity],
            outcome: vec![0.0; capacity],
            margin: vec![0; capacity],
            game: vec![0; capacity],
            index: vec![0; capacity],
            written: vec![PlaneSet::EMPTY; capacity],
            sizes: (p, g, a),
        }
    }

    /// The arrays lent for one [`Loader::fill`]; `keep_written`: rows are written over
    /// the planes, mask ids and policy ids the last fill set (the fast path), else every
    /// row whole (and a later fast path starts from rows of unknown contents).
    pub fn as_mut(&mut self, keep_written: bool) -> BatchMut<'_> {
        if !keep_written {
            self.written.fill(PlaneSet::ALL);
        }
        BatchMut {
            planes: &mut self.planes,
            globals: &mut self.globals,
            mask: &mut self.mask,
            policy: &mut self.policy,
            player: &mut self.player,
            search_value: &mut self.search_value,
            outcome: &mut self.outcome,
            margin: &mut self.margin,
            game: &mut self.game,
            index: &mut self.index,
            written: keep_written.then_some(&mut self.written[..]),
        }
    }

    /// Row `k`'s planes.
    pub fn planes_row(&self, k: usize) -> &[u8] {
        &self.planes[k * self.sizes.0..(k + 1) * self.sizes.0]
    }

    /// Row `k`'s globals.
    pub fn globals_row(&self, k: usize) -> &[f32] {
        &self.globals[k * self.sizes.1..(k + 1) * self.sizes.1]
    }

    /// Row `k`'s legal-id mask.
    pub fn mask_row(&self, k: usize) -> &[i8] {
        &self.mask[k * self.sizes.2..(k + 1) * self.sizes.2]
    }

    /// Row `k`'s policy target.
    pub fn policy_row(&self, k: usize) -> &[f32] {
        &self.policy[k * self.sizes.2..(k + 1) * self.sizes.2]
    }
}
