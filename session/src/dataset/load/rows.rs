//! Rows as the loader holds them (sparse: the non-zero words of their planes, the offered
//! ids, the policy's shares) and their copy into the caller's batch arrays.

use crate::encode::{Layout, PlaneSet};

/// Rows to write into: `n` rows of each array, row after row (sizes from the layout:
/// `planes` `n·C·W·W`, `globals` `n·G`, `mask` and `policy` `n·A`).
pub struct BatchMut<'a> {
    /// Board planes, `u8 [n, C·W·W]`.
    pub planes: &'a mut [u8],
    /// Globals, `f32 [n, G]`.
    pub globals: &'a mut [f32],
    /// Legal-id masks, `i8 [n, A]`.
    pub mask: &'a mut [i8],
    /// Policy targets, `f32 [n, A]`: 1 in total over the mask, 0 elsewhere.
    pub policy: &'a mut [f32],
    /// The deciding seat.
    pub player: &'a mut [i32],
    /// The search's value of the decision for the deciding seat.
    pub search_value: &'a mut [f32],
    /// The deciding seat's outcome.
    pub outcome: &'a mut [f32],
    /// The deciding seat's final margin.
    pub margin: &'a mut [i32],
    /// The game's index in the dataset (parts in order, games in part order, counting
    /// the games that have decisions).
    pub game: &'a mut [i64],
    /// The row's `index` in its game's decisions.
    pub index: &'a mut [u32],
    /// With the full preset, what each row's planes may hold something in: a row's
    /// planes are then written over what is there, clearing only those planes and
    /// copying only the planes the new row set (arrays of zeros start with
    /// [`PlaneSet::EMPTY`] rows; the set of a row becomes the planes written). A row
    /// whose set is not [`PlaneSet::ALL`] is also taken to hold mask and policy values
    /// only at the ids its mask offers (as a fill leaves them, or zeros): only those are
    /// cleared. `None` (or [`PlaneSet::ALL`]): every row is written whole.
    pub written: Option<&'a mut [PlaneSet]>,
}

impl BatchMut<'_> {
    /// Rows the arrays have room for (that of `player`).
    pub fn capacity(&self) -> usize {
        self.player.len()
    }

    pub(super) fn check(&self, layout: &Layout) -> Result<(), String> {
        let n = self.capacity();
        let sizes = [
            ("planes", self.planes.len(), n * layout.planes_len()),
            ("globals", self.globals.len(), n * layout.num_globals()),
            ("mask", self.mask.len(), n * layout.num_actions()),
            ("policy", self.policy.len(), n * layout.num_actions()),
            ("search_value", self.search_value.len(), n),
            ("outcome", self.outcome.len(), n),
            ("margin", self.margin.len(), n),
            ("game", self.game.len(), n),
            ("index", self.index.len(), n),
            ("written", self.written.as_ref().map_or(n, |w| w.len()), n),
        ];
        for (name, got, want) in sizes {
            if got != want {
                return Err(format!(
                    "{name}: {got} values; expected {want} for {n} rows"
                ));
            }
        }
        Ok(())
    }
}

/// One row held sparse: the 8-byte words of its planes that are not zero, its globals,
/// the ids its mask offers and the policy's shares. A row is copied into a batch by
/// scattering these into the batch's cleared row, and moved between buffers by swapping
/// (its vectors keep their capacity wherever they go, so that nothing is allocated per
/// row once the buffers have grown).
#[derive(Debug)]
pub(super) struct Row {
    /// (byte offset in the row's planes, the 8 bytes there) of every 8-byte word of the
    /// planes (counted from the row's start) that is not all zero, offsets increasing.
    /// The last word of the planes may be shorter (see [`scatter_words`]).
    pub(super) words: Vec<(u32, [u8; 8])>,
    /// The planes the row's observation was written in (what the `written` of a batch
    /// row becomes with the full preset).
    pub(super) set: PlaneSet,
    pub(super) globals: Vec<f32>,
    /// Each offered id with its mask value, `id << 8 | value`.
    pub(super) mask: Vec<u32>,
    /// Each id of the policy that was written, with its share.
    pub(super) policy: Vec<(u32, f32)>,
    pub(super) player: i32,
    pub(super) search_value: f32,
    pub(super) outcome: f32,
    pub(super) margin: i32,
    pub(super) game: i64,
    pub(super) index: u32,
}

impl Default for Row {
    fn default() -> Row {
        Row {
            words: Vec::new(),
            set: PlaneSet::EMPTY,
            globals: Vec::new(),
            mask: Vec::new(),
            policy: Vec::new(),
            player: 0,
            search_value: 0.0,
            outcome: 0.0,
            margin: 0,
            game: 0,
            index: 0,
        }
    }
}

/// Rows held in memory, row after row.
#[derive(Debug)]
pub(super) struct RowBuf {
    /// Whether the rows' planes are the full encoding's, tracked by `written`.
    pub(super) sparse: bool,
    /// Bytes of a plane.
    pub(super) ww: usize,
    pub(super) p: usize,
    pub(super) g: usize,
    pub(super) a: usize,
    pub(super) len: usize,
    pub(super) rows: Vec<Row>,
}

impl RowBuf {
    pub(super) fn new(layout: &Layout, rows: usize) -> RowBuf {
        let w = layout.window() as usize;
        let mut b = RowBuf {
            sparse: layout.is_full(),
            ww: w * w,
            p: layout.planes_len(),
            g: layout.num_globals(),
            a: layout.num_actions(),
            len: 0,
            rows: Vec::new(),
        };
        b.reserve_rows(rows);
        b
    }

    /// Grows the buffer to room for `rows` rows (never shrinks it).
    pub(super) fn reserve_rows(&mut self, rows: usize) {
        if rows > self.rows.len() {
            self.rows.resize_with(rows, Row::default);
        }
    }

    /// Copies row `i` into row `j` of `out`: clears what `out`'s row may hold (with the
    /// full preset and `out.written`, only the planes it names, and the mask and policy
    /// at the ids its mask offers), then scatters the row.
    pub(super) fn copy_to(&self, i: usize, out: &mut BatchMut<'_>, j: usize) {
        let (p, g, a) = (self.p, self.g, self.a);
        let row = &self.rows[i];
        let dst = &mut out.planes[j * p..(j + 1) * p];
        // Whether the batch row is as a fill left it (or zero): its mask then offers
        // every id its mask and policy hold something at.
        let known = match out.written.as_deref_mut() {
            Some(written) if self.sparse => {
                let before = written[j];
                if before == PlaneSet::ALL {
                    dst.fill(0);
                } else {
                    let cells = before.cells(self.ww);
                    for q in before.iter() {
                        dst[q * self.ww + cells.start..q * self.ww + cells.end].fill(0);
                    }
                }
                written[j] = row.set;
                before != PlaneSet::ALL
            }
            Some(written) => {
                dst.fill(0);
                written[j] = PlaneSet::ALL;
                false
            }
            None => {
                dst.fill(0);
                false
            }
        };
        scatter_words(&row.words, dst);
        out.globals[j * g..(j + 1) * g].copy_from_slice(&row.globals);
        let mask = &mut out.mask[j * a..(j + 1) * a];
        let policy = &mut out.policy[j * a..(j + 1) * a];
        if known {
            clear_offered(mask, policy);
        } else {
            mask.fill(0);
            policy.fill(0.0);
        }
        for &m in &row.mask {
            mask[(m >> 8) as usize] = m as u8 as i8;
        }
        for &(id, share) in &row.policy {
            policy[id as usize] = share;
        }
        out.player[j] = row.player;
        out.search_value[j] = row.search_value;
        out.outcome[j] = row.outcome;
        out.margin[j] = row.margin;
        out.game[j] = row.game;
        out.index[j] = row.index;
    }
}

/// Appends to `words` the 8-byte words of `planes` (counted from its start; the last one
/// shorter if its length is not a multiple of 8) that are not all zero and overlap the
/// cells of `set` ([`PlaneSet::cells`]) in a plane of `set` (planes of `ww` bytes;
/// [`PlaneSet::ALL`]: every plane), then sets those words of `planes` back to zero:
/// `planes` is all zero afterwards if nothing outside `set` held anything.
pub(super) fn gather_words(
    planes: &mut [u8],
    set: &PlaneSet,
    ww: usize,
    words: &mut Vec<(u32, [u8; 8])>,
) {
    let chunks = planes.len().div_ceil(8);
    // Every plane is one run of words; runs of consecutive planes are joined.
    let mut gather = |from: usize, to: usize| {
        let (start, len) = (8 * from, planes.len());
        let region = &mut planes[start..(8 * to).min(len)];
        let blocks_len = region.len() / 32 * 32;
        let mut push = |at: usize, bytes: &mut [u8]| {
            let mut word = [0u8; 8];
            word[..bytes.len()].copy_from_slice(bytes);
            if u64::from_ne_bytes(word) != 0 {
                words.push(((start + at) as u32, word));
                bytes.fill(0);
            }
        };
        // 32 bytes at a time: most of them are zero.
        let mut blocks = region.chunks_exact_mut(32);
        for (k, block) in blocks.by_ref().enumerate() {
            let b: &mut [u8; 32] = block.try_into().expect("32 bytes");
            let any = (0..4).fold(0u64, |any, i| {
                any | u64::from_ne_bytes(b[8 * i..8 * i + 8].try_into().expect("8 bytes"))
            });
            if any != 0 {
                for (i, word) in b.chunks_exact_mut(8).enumerate() {
                    push(32 * k + 8 * i, word);
                }
            }
        }
        for (i, word) in blocks.into_remainder().chunks_mut(8).enumerate() {
            push(blocks_len + 8 * i, word);
        }
    };
    if *set == PlaneSet::ALL {
        gather(0, chunks);
        return;
    }
    // (first word, end word) of the run being gathered.
    let mut run: Option<(usize, usize)> = None;
    let cells = set.cells(ww);
    if cells.is_empty() {
        return;
    }
    for q in set.iter() {
        let (from, to) = ((q * ww + cells.start) / 8, (q * ww + cells.end).div_ceil(8));
        run = match run {
            Some((a, b)) if from <= b => Some((a, b.max(to))),
            Some((a, b)) => {
                gather(a, b);
                Some((from, to))
            }
            None => Some((from, to)),
        };
    }
    if let Some((a, b)) = run {
        gather(a, b);
    }
}

/// Sets back to zero every id of a batch row's `mask` that is not 0, and `policy` at
/// those ids: the whole row when the loader wrote it, whose policy holds shares only at
/// ids its mask offers (a share is kept only where the mask offers its id).
pub(super) fn clear_offered(mask: &mut [i8], policy: &mut [f32]) {
    let tail_start = mask.len() / 32 * 32;
    let mut clear = |base: usize, ids: &mut [i8]| {
        for (i, m) in ids.iter_mut().enumerate() {
            if *m != 0 {
                *m = 0;
                policy[base + i] = 0.0;
            }
        }
    };
    // 32 ids at a time: most of the mask is zero.
    let mut blocks = mask.chunks_exact_mut(32);
    for (k, block) in blocks.by_ref().enumerate() {
        if block.iter().fold(0i8, |any, m| any | m) != 0 {
            clear(32 * k, block);
        }
    }
    clear(tail_start, blocks.into_remainder());
}

/// Writes `words` (from [`gather_words`]) into `planes`.
pub(super) fn scatter_words(words: &[(u32, [u8; 8])], planes: &mut [u8]) {
    for &(at, word) in words {
        let at = at as usize;
        match planes.get_mut(at..at + 8) {
            Some(dst) => dst.copy_from_slice(&word),
            None => {
                let n = planes.len() - at;
                planes[at..].copy_from_slice(&word[..n]);
            }
        }
    }
}
