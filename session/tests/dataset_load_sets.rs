//! The training loader replays self-play games of every set: the rows it encodes equal
//! the rows self-play encoded, for Abbey & Mayor (abbeys declined before a draw, which a
//! record does not list, and abbeys placed instead of a draw, AM1) and for every set
//! with the abbot at four players (a ransom paid before the abbey decision, TW5).

use carcassonne::{Action, Figures, Game, GameConfig, Phase, TileSet};
use carcassonne_session::dataset::{write_selfplay, Batch, DatasetWriter, LoadOptions, Loader};
use carcassonne_session::encode::{EncoderSpec, Layout, Preset};
use carcassonne_session::mcts::{Budget, MctsConfig};
use carcassonne_session::selfplay::{Rows, Searcher, SelfPlay};
use std::sync::Arc;

fn config(players: u8, sets: &[TileSet], abbot: u8) -> GameConfig {
    let mut c = GameConfig::new(players);
    c.sets = sets.to_vec();
    c.figures = Figures::default_for(&c.sets);
    c.figures.abbot = abbot;
    c
}

/// Plays `games` self-play games of `config` from `seed`, writes them, loads them in
/// order and compares every row with the self-play rows; returns what
/// [`abbey_decisions`] counts in those games.
fn rows_equal_selfplay(
    name: &str,
    config: GameConfig,
    seed: u64,
    games: u32,
) -> (usize, usize, usize) {
    let dir = std::env::temp_dir().join(format!(
        "carcassonne-dataset-load-sets-{name}-{}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    let players = config.players as usize;
    let layout = Arc::new(Layout::new(
        EncoderSpec::new(16).unwrap(),
        Preset::Compact,
        &config,
    ));
    let mut run = SelfPlay::new(
        config,
        layout,
        Searcher::Playouts(MctsConfig::new(Budget::Iterations(4))),
    );
    run.seed = seed;
    run.games = games;
    run.sample_moves = 8;
    let rows = run.run(&mut || true).unwrap();
    let mut writer = DatasetWriter::open(&dir).unwrap();
    let seats = vec!["mcts:4".to_string(); players];
    write_selfplay(&mut writer, &mut run, games.into(), &seats, &mut || true).unwrap();
    let mut loader = Loader::open(
        &dir,
        LoadOptions {
            preset: Preset::Compact,
            shuffle: false,
            ..LoadOptions::default()
        },
    )
    .unwrap();
    let n = rows.len();
    let mut arrays = Batch::new(loader.layout(), n);
    let got = loader
        .fill(&mut arrays.as_mut(true))
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    let Batch {
        planes,
        globals,
        mask,
        policy,
        player,
        search_value,
        outcome,
        margin,
        ..
    } = arrays;
    assert_eq!(got, n, "{name}: rows loaded");
    assert_eq!(loader.dropped(), 0, "{name}");
    assert!(planes == rows.planes, "{name}: board planes differ");
    let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
    assert_eq!(bits(&globals), bits(&rows.globals), "{name}: globals");
    assert!(mask == rows.masks, "{name}: masks differ");
    assert_eq!(bits(&policy), bits(&rows.policies), "{name}: policies");
    let players: Vec<i32> = rows.players.iter().map(|p| i32::from(*p)).collect();
    assert_eq!(player, players, "{name}: players");
    assert_eq!(bits(&search_value), bits(&rows.search_values), "{name}");
    assert_eq!(bits(&outcome), bits(&rows.outcomes), "{name}");
    assert_eq!(margin, rows.margins, "{name}");
    std::fs::remove_dir_all(&dir).unwrap();
    abbey_decisions(&run, &rows)
}

/// (Abbeys declined before a draw, abbeys placed, ransoms paid when asked for the abbey)
/// in the games `run` played.
fn abbey_decisions(run: &SelfPlay<'_>, rows: &Rows) -> (usize, usize, usize) {
    let (mut declined, mut placed, mut ransoms) = (0, 0, 0);
    for (g, actions) in rows.actions.iter().enumerate() {
        let mut config = run.config.clone();
        config.seed = rows.seeds[g];
        let mut game = Game::new(config).unwrap();
        for &a in actions {
            if game.phase() == Phase::Abbey {
                match a {
                    Action::Pass if !game.in_end_round() => declined += 1,
                    Action::PlaceAbbey { .. } => placed += 1,
                    Action::PayRansom { .. } => ransoms += 1,
                    _ => {}
                }
            }
            game.apply(a).unwrap();
        }
    }
    (declined, placed, ransoms)
}

#[test]
fn abbey_and_mayor_selfplay_rows_load() {
    // AM1: a player asked whether he places his abbey instead of drawing declines it by
    // drawing; the record does not list the decline, the dataset has a row for it.
    let c = config(2, &[TileSet::Base, TileSet::AbbeyMayor], 0);
    let (declined, placed, _) = rows_equal_selfplay("am", c, 5, 4);
    assert!(
        declined > 0 && placed > 0,
        "{declined} declined, {placed} placed"
    );
}
#[test]
fn every_set_with_the_abbot_at_four_players_rows_load() {
    // Thirteen sets and the abbot, four players. TW5: a ransom is offered before the
    // abbey decision (AM1) and again before the placement; a record lists it after the
    // draw either way, the decisions rows say which it was.
    let c = config(4, &TileSet::ALL, 1);
    let (declined, _, ransoms) = rows_equal_selfplay("all", c, 3, 1);
    assert!(declined > 0, "AM1: no abbey declined");
    assert!(ransoms > 0, "TW5: no ransom paid when asked for the abbey");
}
