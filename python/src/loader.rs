//! `_core.DatasetLoader`: training rows streamed out of a dataset of Parquet tables
//! (`carcassonne_session::dataset::Loader`): each game's record replayed and each
//! decision encoded natively, on worker threads, with the interpreter released while a
//! batch is waited for and copied.

use crate::convert::{arg_in_range, Int, Seed};
use crate::errors::invalid_argument;
use carcassonne_session::dataset::{BatchMut, LoadOptions, Loader};
use carcassonne_session::encode::PlaneSet;
use carcassonne_session::options;
use numpy::{PyArray1, PyArray2, PyArray4, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::path::PathBuf;
use std::sync::Mutex;

pyo3::import_exception!(carcassonne.data, DatasetError);

/// A stream of training rows over the dataset directory `path` (see
/// `carcassonne.data.Dataset.batches`, which wraps it).
#[pyclass(name = "DatasetLoader", module = "carcassonne._core")]
pub struct PyDatasetLoader {
    loader: Mutex<Loader>,
    /// Board shape `(C, W, W)`.
    board: (usize, usize, usize),
    globals: usize,
    actions: usize,
}

#[pymethods]
impl PyDatasetLoader {
    #[new]
    #[pyo3(signature = (path, preset="compact", window=None, shuffle=true, seed=Seed(0), threads=Int(1), epochs=Int(1), shuffle_buffer=Int(LoadOptions::DEFAULT_SHUFFLE_BUFFER as i64), skip_bad=false, games=None), text_signature = "(path, preset='compact', window=None, shuffle=True, seed=0, threads=1, epochs=1, shuffle_buffer=4096, skip_bad=False, games=None)")]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        path: PathBuf,
        preset: &str,
        window: Option<Int>,
        shuffle: bool,
        seed: Seed,
        threads: Int,
        epochs: Int,
        shuffle_buffer: Int,
        skip_bad: bool,
        games: Option<Vec<String>>,
    ) -> PyResult<PyDatasetLoader> {
        let preset = options::preset_named(preset).map_err(|e| invalid_argument(e.to_string()))?;
        let window = match window {
            Some(w) => Some(
                options::window_of(w.0)
                    .map_err(|e| invalid_argument(e.to_string()))?
                    .window,
            ),
            None => None,
        };
        let options = LoadOptions {
            preset,
            window,
            shuffle,
            seed: seed.0,
            threads: arg_in_range("threads", threads, 1, LoadOptions::MAX_THREADS as i64)? as usize,
            epochs: arg_in_range("epochs", epochs, 1, i64::from(LoadOptions::MAX_EPOCHS))? as u32,
            shuffle_buffer: arg_in_range(
                "shuffle_buffer",
                shuffle_buffer,
                1,
                LoadOptions::MAX_SHUFFLE_BUFFER as i64,
            )? as usize,
            skip_bad,
            games,
        };
        let loader = py
            .detach(|| Loader::open(&path, options))
            .map_err(|e| DatasetError::new_err(e.to_string()))?;
        let layout = loader.layout();
        let w = layout.window() as usize;
        Ok(PyDatasetLoader {
            board: (layout.num_planes(), w, w),
            globals: layout.num_globals(),
            actions: layout.num_actions(),
            loader: Mutex::new(loader),
        })
    }

    /// The next `size` rows (fewer at the end of the stream) as a dict of arrays, or
    /// `None` once the stream is over.
    fn next_batch<'py>(&self, py: Python<'py>, size: Int) -> PyResult<Option<Bound<'py, PyDict>>> {
        let n = arg_in_range("size", size, 1, 1 << 20)? as usize;
        let (c, w, _) = self.board;
        let board = PyArray4::<u8>::zeros(py, [n, c, w, w], false);
        let globals = PyArray2::<f32>::zeros(py, [n, self.globals], false);
        let mask = PyArray2::<i8>::zeros(py, [n, self.actions], false);
        let policy = PyArray2::<f32>::zeros(py, [n, self.actions], false);
        let player = PyArray1::<i32>::zeros(py, n, false);
        let search_value = PyArray1::<f32>::zeros(py, n, false);
        let outcome = PyArray1::<f32>::zeros(py, n, false);
        let margin = PyArray1::<i32>::zeros(py, n, false);
        let game = PyArray1::<i64>::zeros(py, n, false);
        let index = PyArray1::<u32>::zeros(py, n, false);
        // The arrays are zeros: no plane of a row holds anything yet.
        let mut written = vec![PlaneSet::EMPTY; n];
        let got = {
            // SAFETY: the arrays were made here and are not shared with anything yet.
            let mut out = unsafe {
                BatchMut {
                    planes: board.as_slice_mut()?,
                    globals: globals.as_slice_mut()?,
                    mask: mask.as_slice_mut()?,
                    policy: policy.as_slice_mut()?,
                    player: player.as_slice_mut()?,
                    search_value: search_value.as_slice_mut()?,
                    outcome: outcome.as_slice_mut()?,
                    margin: margin.as_slice_mut()?,
                    game: game.as_slice_mut()?,
                    index: index.as_slice_mut()?,
                    written: Some(&mut written),
                }
            };
            let loader = &self.loader;
            py.detach(move || {
                let mut loader = loader.lock().unwrap_or_else(|p| p.into_inner());
                loader.fill(&mut out)
            })
            .map_err(|e| DatasetError::new_err(e.to_string()))?
        };
        if got == 0 {
            return Ok(None);
        }
        let d = PyDict::new(py);
        let items: [(&str, Bound<'py, PyAny>); 10] = [
            ("board", board.into_any()),
            ("globals", globals.into_any()),
            ("action_mask", mask.into_any()),
            ("policy", policy.into_any()),
            ("player", player.into_any()),
            ("search_value", search_value.into_any()),
            ("outcome", outcome.into_any()),
            ("margin", margin.into_any()),
            ("game", game.into_any()),
            ("index", index.into_any()),
        ];
        for (name, array) in items {
            let array = if got < n {
                array.get_item(pyo3::types::PySlice::new(py, 0, got as isize, 1))?
            } else {
                array
            };
            d.set_item(name, array)?;
        }
        Ok(Some(d))
    }

    /// Board shape `(C, W, W)` of the rows.
    #[getter]
    fn board_shape(&self) -> (usize, usize, usize) {
        self.board
    }

    /// Globals per row.
    #[getter]
    fn num_globals(&self) -> usize {
        self.globals
    }

    /// Flat ids per row (the length of a mask and of a policy).
    #[getter]
    fn num_actions(&self) -> usize {
        self.actions
    }

    /// The games with decisions in the dataset.
    #[getter]
    fn games(&self) -> usize {
        self.lock().games()
    }

    /// The decision rows of one epoch (the `games` table's count).
    #[getter]
    fn decisions(&self) -> u64 {
        self.lock().decisions()
    }

    /// Rows given so far.
    #[getter]
    fn rows_given(&self) -> u64 {
        self.lock().rows_given()
    }

    /// Rows dropped so far (nothing left to learn in the requested window or preset).
    #[getter]
    fn dropped(&self) -> usize {
        self.lock().dropped()
    }

    /// The most rows held in memory at once so far.
    #[getter]
    fn peak_rows_held(&self) -> usize {
        self.lock().peak_rows_held()
    }

    /// The bound on the rows held in memory at once.
    #[getter]
    fn max_rows_held(&self) -> usize {
        self.lock().max_rows_held()
    }

    /// What was skipped with `skip_bad` (file, row group or game, and why).
    #[getter]
    fn skipped(&self) -> Vec<String> {
        self.lock()
            .skipped()
            .iter()
            .map(|e| e.to_string())
            .collect()
    }
}

impl PyDatasetLoader {
    fn lock(&self) -> std::sync::MutexGuard<'_, Loader> {
        self.loader.lock().unwrap_or_else(|p| p.into_inner())
    }
}
