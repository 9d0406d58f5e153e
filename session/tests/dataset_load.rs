//! The training loader (`dataset::Loader`): every row it encodes by replaying a game's
//! record equals, byte for byte, the row that self-play encoded at that point of the
//! game (observation planes, globals, legal-id mask, policy), for the compact and full
//! presets; policies sum to 1 over the mask; shuffling permutes the rows (a seed gives
//! one order, threads do not change it); the rows held stay under the stated bound; a
//! record that does not replay, or a decision that does not fit the replay, is named
//! and can be skipped.

use arrow_array::cast::AsArray;
use arrow_array::types::UInt32Type;
use arrow_array::{Array, ArrayRef, RecordBatch, StringArray, UInt32Array};
use carcassonne::GameConfig;
use carcassonne_session::dataset::{
    read_table, table_schema, write_selfplay, Batch, DatasetWriter, LoadOptions, Loader,
};
use carcassonne_session::encode::{EncoderSpec, Layout, Preset};
use carcassonne_session::mcts::{Budget, MctsConfig};
use carcassonne_session::selfplay::{Rows, Searcher, SelfPlay};
use std::path::{Path, PathBuf};
use std::sync::Arc;

const WINDOW: u16 = 16;
const SEED: u64 = 7;

fn fresh_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "carcassonne-dataset-load-{name}-{}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn selfplay(preset: Preset) -> SelfPlay<'static> {
    let config = GameConfig::new(2);
    let layout = Arc::new(Layout::new(
        EncoderSpec::new(WINDOW).unwrap(),
        preset,
        &config,
    ));
    let mut run = SelfPlay::new(
        config,
        layout,
        Searcher::Playouts(MctsConfig::new(Budget::Iterations(6))),
    );
    run.seed = SEED;
    run.games = 3;
    run.sample_moves = 8;
    run
}

/// Plays 3 games with `preset` rows and writes them (2 games a part) into `dir`; returns
/// the rows of the same run.
fn write_dataset(dir: &Path, preset: Preset) -> Rows {
    let mut run = selfplay(preset);
    let rows = run.run(&mut || true).unwrap();
    let mut writer = DatasetWriter::open(dir).unwrap();
    writer.games_per_part = 2;
    let seats = vec!["mcts:6".to_string(); 2];
    let written = write_selfplay(&mut writer, &mut run, 3, &seats, &mut || true).unwrap();
    assert_eq!(written.decisions as usize, rows.len());
    rows
}

/// Every row of a loader, in the order given, read `batch` rows at a time.
#[derive(Default, Debug, PartialEq)]
struct Loaded {
    planes: Vec<u8>,
    globals: Vec<f32>,
    mask: Vec<i8>,
    policy: Vec<f32>,
    player: Vec<i32>,
    search_value: Vec<f32>,
    outcome: Vec<f32>,
    margin: Vec<i32>,
    game: Vec<i64>,
    index: Vec<u32>,
    batches: Vec<usize>,
}

fn load_all(loader: &mut Loader, batch: usize) -> Result<Loaded, String> {
    let layout = loader.layout().clone();
    let (p, g, a) = (
        layout.planes_len(),
        layout.num_globals(),
        layout.num_actions(),
    );
    // The batch arrays are reused: each row is written over the last one in its slot.
    let mut arrays = Batch::new(&layout, batch);
    let mut out = Loaded::default();
    loop {
        let n = loader
            .fill(&mut arrays.as_mut(true))
            .map_err(|e| e.to_string())?;
        if n == 0 {
            return Ok(out);
        }
        out.batches.push(n);
        out.planes.extend_from_slice(&arrays.planes[..n * p]);
        out.globals.extend_from_slice(&arrays.globals[..n * g]);
        out.mask.extend_from_slice(&arrays.mask[..n * a]);
        out.policy.extend_from_slice(&arrays.policy[..n * a]);
        out.player.extend_from_slice(&arrays.player[..n]);
        out.search_value
            .extend_from_slice(&arrays.search_value[..n]);
        out.outcome.extend_from_slice(&arrays.outcome[..n]);
        out.margin.extend_from_slice(&arrays.margin[..n]);
        out.game.extend_from_slice(&arrays.game[..n]);
        out.index.extend_from_slice(&arrays.index[..n]);
    }
}

fn bits(v: &[f32]) -> Vec<u32> {
    v.iter().map(|x| x.to_bits()).collect()
}

fn options(preset: Preset, shuffle: bool) -> LoadOptions {
    LoadOptions {
        preset,
        shuffle,
        ..LoadOptions::default()
    }
}

/// The "done when" of the loader: each re-encoded observation equals the encoder's at
/// that point of the game, and the targets sum to 1 over the legal ids.
fn rows_equal_selfplay(preset: Preset, threads: usize) {
    let dir = fresh_dir(&format!("{preset:?}-{threads}"));
    let rows = write_dataset(&dir, preset);
    let mut loader = Loader::open(
        &dir,
        LoadOptions {
            threads,
            ..options(preset, false)
        },
    )
    .unwrap();
    assert_eq!(loader.stored_window(), WINDOW);
    assert_eq!(loader.decisions() as usize, rows.len());
    let got = load_all(&mut loader, 7).unwrap();
    let n = rows.len();
    assert_eq!(got.player.len(), n);
    // Batches of 7, the last shorter.
    assert!(got.batches[..got.batches.len() - 1].iter().all(|b| *b == 7));
    assert_eq!(*got.batches.last().unwrap(), (n - 1) % 7 + 1);
    assert!(got.planes == rows.planes, "{preset:?}: board planes differ");
    assert_eq!(
        bits(&got.globals),
        bits(&rows.globals),
        "{preset:?}: globals"
    );
    assert!(got.mask == rows.masks, "{preset:?}: masks differ");
    assert_eq!(
        bits(&got.policy),
        bits(&rows.policies),
        "{preset:?}: policies"
    );
    let players: Vec<i32> = rows.players.iter().map(|p| i32::from(*p)).collect();
    assert_eq!(got.player, players);
    assert_eq!(bits(&got.search_value), bits(&rows.search_values));
    assert_eq!(bits(&got.outcome), bits(&rows.outcomes));
    assert_eq!(got.margin, rows.margins);
    let games: Vec<i64> = rows.game_index.iter().map(|g| i64::from(*g)).collect();
    assert_eq!(got.game, games);
    let a = loader.layout().num_actions();
    for k in 0..n {
        let (m, p) = (
            &got.mask[k * a..(k + 1) * a],
            &got.policy[k * a..(k + 1) * a],
        );
        let total: f32 = p.iter().sum();
        assert!((total - 1.0).abs() < 1e-5, "row {k}: {total}");
        assert!(
            m.iter().zip(p).all(|(m, p)| *m != 0 || *p == 0.0),
            "row {k}"
        );
    }
    assert_eq!(loader.dropped(), 0);
    // Shuffled through a small buffer (rows written over rows of other games in its
    // slots and in the batch's): the same rows.
    let mut shuffled = Loader::open(
        &dir,
        LoadOptions {
            threads,
            shuffle_buffer: 30,
            seed: 3,
            ..options(preset, true)
        },
    )
    .unwrap();
    let mixed = load_all(&mut shuffled, 7).unwrap();
    let p = loader.layout().planes_len();
    assert_eq!(multiset(&mixed, a, p), multiset(&got, a, p));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `text` with the hash of self-play ids taken out (`selfplay-7-1-0a1b2c3d` reads
/// `selfplay-7-1`): the hash names the run's settings, the tests name games by number.
fn unhashed(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("selfplay-") {
        let (before, from) = rest.split_at(at);
        out.push_str(before);
        // selfplay-<seed>-<n>-<8 hex digits>
        let digits = |s: &str| s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len());
        let seed = "selfplay-".len() + digits(&from["selfplay-".len()..]);
        let n = seed + 1 + digits(&from[seed + 1..]);
        let hash = &from[n..];
        if hash.len() >= 9
            && hash.starts_with('-')
            && hash[1..9].chars().all(|c| c.is_ascii_hexdigit())
        {
            out.push_str(&from[..n]);
            rest = &from[n + 9..];
        } else {
            out.push_str(&from[..n]);
            rest = &from[n..];
        }
    }
    out.push_str(rest);
    out
}

#[test]
fn compact_rows_equal_the_selfplay_rows() {
    rows_equal_selfplay(Preset::Compact, 1);
}

#[test]
fn full_rows_equal_the_selfplay_rows_on_two_threads() {
    rows_equal_selfplay(Preset::Full, 2);
}

/// The rows as keys (game, index) with their content, sorted: the multiset of rows.
fn multiset(l: &Loaded, a: usize, p: usize) -> Vec<(i64, u32, Vec<u8>, Vec<u32>)> {
    let mut rows: Vec<_> = (0..l.player.len())
        .map(|k| {
            (
                l.game[k],
                l.index[k],
                l.planes[k * p..(k + 1) * p].to_vec(),
                bits(&l.policy[k * a..(k + 1) * a]),
            )
        })
        .collect();
    rows.sort();
    rows
}

#[test]
fn shuffled_rows_are_a_permutation_set_by_the_seed_and_memory_is_bounded() {
    let dir = fresh_dir("shuffle");
    let rows = write_dataset(&dir, Preset::Compact);
    let open = |seed: u64, threads: usize, shuffle: bool| {
        Loader::open(
            &dir,
            LoadOptions {
                seed,
                threads,
                shuffle_buffer: 40,
                ..options(Preset::Compact, shuffle)
            },
        )
        .unwrap()
    };
    let mut plain = open(0, 1, false);
    let (a, p) = (plain.layout().num_actions(), plain.layout().planes_len());
    let plain = load_all(&mut plain, 16).unwrap();
    let mut one = open(1, 1, true);
    let first = load_all(&mut one, 16).unwrap();
    let mut two = open(1, 2, true);
    let again = load_all(&mut two, 16).unwrap();
    let other = load_all(&mut open(2, 1, true), 16).unwrap();
    assert_eq!(first.player.len(), rows.len());
    assert_eq!(multiset(&first, a, p), multiset(&plain, a, p));
    assert_eq!(multiset(&other, a, p), multiset(&plain, a, p));
    let order = |l: &Loaded| -> Vec<(i64, u32)> {
        l.game
            .iter()
            .copied()
            .zip(l.index.iter().copied())
            .collect()
    };
    assert_ne!(order(&first), order(&plain));
    assert_ne!(
        order(&first),
        order(&other),
        "two seeds give different orders"
    );
    assert_eq!(
        first, again,
        "threads do not change the rows or their order"
    );
    // The rows held never exceeded the shuffle buffer and the workers' game buffers,
    // a bound well under the dataset's rows.
    for l in [&one, &two] {
        assert!(l.peak_rows_held() > 0);
        assert!(
            l.peak_rows_held() <= l.max_rows_held(),
            "{} > {}",
            l.peak_rows_held(),
            l.max_rows_held()
        );
    }
    // Three epochs give every row three times, each epoch in another order.
    let mut epochs = Loader::open(
        &dir,
        LoadOptions {
            epochs: 3,
            shuffle_buffer: 40,
            seed: 1,
            ..options(Preset::Compact, true)
        },
    )
    .unwrap();
    let all = load_all(&mut epochs, 64).unwrap();
    assert_eq!(all.player.len(), 3 * rows.len());
    let n = rows.len();
    let order = order(&all);
    assert_ne!(order[..n], order[n..2 * n]);
    // (The shuffle buffer mixes rows across the end of an epoch, so the count is over
    // the whole stream.)
    let mut counts: std::collections::HashMap<(i64, u32), usize> = Default::default();
    for key in &order {
        *counts.entry(*key).or_default() += 1;
    }
    assert_eq!(counts.len(), n);
    assert!(counts.values().all(|c| *c == 3));
    // With one thread the bound is the 40 rows of the shuffle buffer and 3 games' rows:
    // less than the rows streamed through it.
    assert!(epochs.max_rows_held() < 3 * n, "{}", epochs.max_rows_held());
    assert!(epochs.peak_rows_held() <= epochs.max_rows_held());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Rewrites part `part` of `table` with `column` replaced by `f` of the old one.
fn rewrite(dir: &Path, table: &str, part: &str, column: usize, f: impl Fn(&ArrayRef) -> ArrayRef) {
    use parquet::arrow::ArrowWriter;
    let path = dir.join(table).join(part);
    let mut read = Default::default();
    carcassonne_session::dataset::read_part(&path, table, false, &mut read).unwrap();
    let schema = table_schema(table).unwrap();
    let mut w =
        ArrowWriter::try_new(std::fs::File::create(&path).unwrap(), schema.clone(), None).unwrap();
    for b in &read.batches {
        let mut columns = b.columns().to_vec();
        columns[column] = f(&columns[column]);
        w.write(&RecordBatch::try_new(schema.clone(), columns).unwrap())
            .unwrap();
    }
    w.close().unwrap();
}

#[test]
fn a_record_that_does_not_replay_is_named_and_can_be_skipped() {
    let dir = fresh_dir("bad-record");
    let rows = write_dataset(&dir, Preset::Compact);
    // The second game of part 0: its first turn's scores changed.
    rewrite(&dir, "records", "part-00000.parquet", 1, |c| {
        let c = c.as_string::<i32>();
        let texts: Vec<String> = (0..c.len())
            .map(|i| {
                let mut v: serde_json::Value = serde_json::from_str(c.value(i)).unwrap();
                if i == 1 {
                    v["turns"][0]["scores"][0] = 99.into();
                }
                v.to_string()
            })
            .collect();
        Arc::new(StringArray::from(texts))
    });
    let mut loader = Loader::open(&dir, options(Preset::Compact, false)).unwrap();
    let e = load_all(&mut loader, 32).unwrap_err();
    assert!(e.contains("records/part-00000.parquet"), "{e}");
    assert!(
        unhashed(&e).contains("game selfplay-7-1: the record does not replay"),
        "{e}"
    );
    let mut loader = Loader::open(
        &dir,
        LoadOptions {
            skip_bad: true,
            ..options(Preset::Compact, false)
        },
    )
    .unwrap();
    let got = load_all(&mut loader, 32).unwrap();
    let kept = rows.game_index.iter().filter(|g| **g != 1).count();
    assert_eq!(got.player.len(), kept);
    assert!(got.game.iter().all(|g| *g != 1));
    assert_eq!(loader.skipped().len(), 1);
    assert!(unhashed(&loader.skipped()[0].message).starts_with("game selfplay-7-1:"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_decision_that_does_not_fit_the_replay_is_named() {
    let dir = fresh_dir("bad-decision");
    write_dataset(&dir, Preset::Compact);
    let decisions = read_table(&dir, "decisions", false).unwrap();
    let in_part_1: usize = decisions
        .batches
        .iter()
        .map(|b| {
            let ids = b.column(0).as_string::<i32>();
            (0..ids.len())
                .filter(|i| ids.value(*i).starts_with("selfplay-7-2-"))
                .count()
        })
        .sum();
    assert!(in_part_1 > 3);
    // Row 3 of game 2 (part 1): an action index past the game's actions.
    rewrite(&dir, "decisions", "part-00001.parquet", 2, |c| {
        let c = c.as_primitive::<UInt32Type>();
        let v: Vec<u32> = (0..c.len())
            .map(|i| if i == 3 { 100_000 } else { c.value(i) })
            .collect();
        Arc::new(UInt32Array::from(v))
    });
    let mut loader = Loader::open(&dir, options(Preset::Compact, false)).unwrap();
    let e = load_all(&mut loader, 32).unwrap_err();
    assert!(e.contains("decisions/part-00001.parquet"), "{e}");
    assert!(
        unhashed(&e)
            .contains("game selfplay-7-2: decision 3: action index 100000 is past the record's"),
        "{e}"
    );
    // The chosen id of row 5 of game 2 changed: it is not the action's id.
    std::fs::remove_dir_all(&dir).unwrap();
    write_dataset(&dir, Preset::Compact);
    rewrite(&dir, "decisions", "part-00001.parquet", 5, |c| {
        let c = c.as_primitive::<UInt32Type>();
        let v: Vec<Option<u32>> = (0..c.len())
            .map(|i| {
                let x = c.is_valid(i).then(|| c.value(i));
                if i == 5 {
                    x.map(|x| x + 1)
                } else {
                    x
                }
            })
            .collect();
        Arc::new(UInt32Array::from(v))
    });
    let mut loader = Loader::open(&dir, options(Preset::Compact, false)).unwrap();
    let e = load_all(&mut loader, 32).unwrap_err();
    assert!(
        unhashed(&e).contains("game selfplay-7-2: decision 5: chosen id"),
        "{e}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_smaller_window_maps_the_targets_through_the_actions() {
    let dir = fresh_dir("window");
    let rows = write_dataset(&dir, Preset::Compact);
    let mut loader = Loader::open(
        &dir,
        LoadOptions {
            window: Some(12),
            ..options(Preset::Compact, false)
        },
    )
    .unwrap();
    assert_eq!(loader.layout().window(), 12);
    let got = load_all(&mut loader, 32).unwrap();
    // Every row given has a policy over its mask summing to 1; rows with no target left
    // in the smaller window are dropped and counted.
    assert_eq!(got.player.len() + loader.dropped(), rows.len());
    let a = loader.layout().num_actions();
    for k in 0..got.player.len() {
        let (m, p) = (
            &got.mask[k * a..(k + 1) * a],
            &got.policy[k * a..(k + 1) * a],
        );
        let total: f32 = p.iter().sum();
        assert!((total - 1.0).abs() < 1e-5, "row {k}: {total}");
        assert!(
            m.iter().zip(p).all(|(m, p)| *m != 0 || *p == 0.0),
            "row {k}"
        );
    }
    // The same window as stored gives the rows of the stored window.
    let mut same = Loader::open(
        &dir,
        LoadOptions {
            window: Some(WINDOW),
            ..options(Preset::Compact, false)
        },
    )
    .unwrap();
    assert_eq!(load_all(&mut same, 32).unwrap().planes, rows.planes);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_dataset_of_two_configurations_is_refused_naming_the_game() {
    let dir = fresh_dir("mixed");
    write_dataset(&dir, Preset::Compact);
    let config = GameConfig::new(3);
    let layout = Arc::new(Layout::new(
        EncoderSpec::new(WINDOW).unwrap(),
        Preset::Compact,
        &config,
    ));
    let mut run = SelfPlay::new(
        config,
        layout,
        Searcher::Playouts(MctsConfig::new(Budget::Iterations(4))),
    );
    run.seed = 8;
    let mut writer = DatasetWriter::open(&dir).unwrap();
    let seats = vec!["mcts:4".to_string(); 3];
    write_selfplay(&mut writer, &mut run, 1, &seats, &mut || true).unwrap();
    let e = Loader::open(&dir, LoadOptions::default()).err().unwrap();
    assert!(e.to_string().contains("games/part-00002.parquet"), "{e}");
    assert!(
        unhashed(&e.message).starts_with("game selfplay-8-0: players 3, sets [base], edition"),
        "{e}"
    );
    assert!(
        unhashed(&e.message).contains("game selfplay-7-0 has players 2"),
        "{e}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_options_are_named() {
    let dir = fresh_dir("options");
    for (o, name) in [
        (
            LoadOptions {
                threads: 65,
                ..LoadOptions::default()
            },
            "threads: 65",
        ),
        (
            LoadOptions {
                epochs: 0,
                ..LoadOptions::default()
            },
            "epochs: 0",
        ),
    ] {
        let e = Loader::open(&dir, o).err().unwrap();
        assert!(e.message.contains(name), "{e}");
    }
    // A directory that is not a dataset.
    let e = Loader::open(&dir, LoadOptions::default()).err().unwrap();
    assert!(e.to_string().contains("games"), "{e}");
}

/// The queue ahead of the workers that docs/dataset.md ("Memory") states is the loader's.
#[test]
fn the_documented_queue_ahead_is_the_loaders() {
    let doc = include_str!("../../docs/dataset.md").replace('\n', " ");
    let stated = format!(
        "the reader queues up to {} games ahead of the workers",
        carcassonne_session::dataset::GAMES_AHEAD
    );
    assert!(
        doc.contains(&stated),
        "docs/dataset.md should say: {stated}"
    );
}
