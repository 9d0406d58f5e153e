//! Golden observation traces: a few fixed games (configuration and seed, window,
//! preset) are played through flat ids, and at every step the observation of the player
//! to play and the mask are hashed. The hashes are kept in
//! `session/tests/data/observation-traces.json` with the layout version they were made
//! with.
//!
//! Two hashes per game tell apart what changed:
//!
//! * `games`: the course of each game (at every step the phase, the player to play, the
//!   number of legal actions, the tiles left, the scores). It changes when the rules
//!   change; then the traces are regenerated (`CARC_BLESS_TRACES=1 cargo test -p
//!   carcassonne-session --test observation_traces`).
//! * `observations`: the planes, globals and masks. If it changes while `games` does
//!   not, the encoding itself changed: unintended, it is a bug; intended, the layout
//!   version must change (raise `encode::schema::REVISION`, then set `LAYOUT_VERSION`),
//!   and regenerating refuses to store new observations under the old version.

use carcassonne::rng::Rng;
use carcassonne::{Game, GameConfig};
use carcassonne_session::encode::schema::fnv1a;
use carcassonne_session::encode::{layout_version_hex, EncoderSpec, Layout, Preset};
use carcassonne_session::session::Session;
use serde_json::{json, Value};
use std::sync::Arc;

const DATA: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/observation-traces.json"
);

/// One game of the traces.
struct Trace {
    name: &'static str,
    players: u8,
    sets: &'static [&'static str],
    abbot: u8,
    seed: u64,
    window: u16,
    preset: Preset,
}

fn traces() -> Vec<Trace> {
    let t = |name, players, sets, abbot, seed, window, preset| Trace {
        name,
        players,
        sets,
        abbot,
        seed,
        window,
        preset,
    };
    vec![
        t("base-2p-full", 2, &["base"], 0, 1, 32, Preset::Full),
        t(
            "five-sets-4p-in-play",
            4,
            &[
                "base",
                "river1",
                "river2",
                "princess-and-dragon",
                "abbey-and-mayor",
            ],
            1,
            2,
            24,
            Preset::InPlay,
        ),
        t(
            "count-king-cult-3p-compact",
            3,
            &["base", "count", "king-and-robber", "cult"],
            1,
            3,
            24,
            Preset::Compact,
        ),
        t(
            "bcb-3p-full",
            3,
            &["base", "bridges-castles-and-bazaars"],
            0,
            4,
            20,
            Preset::Full,
        ),
        t(
            "every-set-5p-compact",
            5,
            &[
                "base",
                "river1",
                "river2",
                "princess-and-dragon",
                "abbey-and-mayor",
                "count",
                "king-and-robber",
                "cult",
                "bridges-castles-and-bazaars",
            ],
            1,
            5,
            32,
            Preset::Compact,
        ),
    ]
}

impl Trace {
    fn config(&self) -> GameConfig {
        let mut c = GameConfig::new(self.players);
        c.sets = self
            .sets
            .iter()
            .map(|s| carcassonne::TileSet::from_name(s).expect("a set key"))
            .collect();
        c.figures = carcassonne::Figures::default_for(&c.sets);
        c.figures.abbot = self.abbot;
        c.seed = self.seed;
        c
    }

    /// Plays the game and returns (steps, games hash, observations hash).
    fn play(&self) -> (u64, u64, u64) {
        let config = self.config();
        let spec = EncoderSpec::new(self.window).unwrap();
        let layout = Arc::new(Layout::new(spec, self.preset, &config));
        let mut session = Session::with_layout(Game::new(config).unwrap(), layout.clone());
        let mut rng = Rng::new(self.seed ^ 0x7ace);
        let mut planes = vec![0u8; layout.planes_len()];
        let mut globals = vec![0f32; layout.num_globals()];
        let mut mask = vec![0i8; layout.num_actions()];
        let (mut games, mut observations) = (Vec::new(), Vec::new());
        let mut steps = 0;
        while !session.game().is_terminal() {
            let game = session.game();
            games.extend(game.phase().name().bytes());
            games.push(game.to_play() as u8);
            games.extend((game.legal().len() as u32).to_le_bytes());
            games.extend(game.tiles_left().to_le_bytes());
            games.extend(game.scores().iter().flat_map(|s| s.to_le_bytes()));
            let info = session.legal_mask(&mut mask).unwrap();
            let seat = session.game().to_play();
            session.observe(seat, &mut planes, &mut globals).unwrap();
            observations.extend(planes.iter().copied());
            observations.extend(globals.iter().flat_map(|g| g.to_le_bytes()));
            observations.extend(mask.iter().map(|m| *m as u8));
            steps += 1;
            if info.offered == 0 {
                let first = session.legal_actions()[0];
                session.apply(first).unwrap();
                continue;
            }
            let pick = rng.below(info.offered) as usize;
            let id = mask
                .iter()
                .enumerate()
                .filter(|(_, m)| **m == 1)
                .nth(pick)
                .map(|(i, _)| i as u32)
                .unwrap();
            session.step(id).unwrap();
        }
        (steps, fnv1a(&games), fnv1a(&observations))
    }
}

fn hex(h: u64) -> String {
    format!("{h:016x}")
}

#[test]
fn observations_of_fixed_games_are_unchanged() {
    let stored: Value = serde_json::from_str(
        &std::fs::read_to_string(DATA).expect("session/tests/data/observation-traces.json"),
    )
    .expect("JSON");
    let stored_version = stored["layout_version"].as_str().unwrap_or_default();
    let bless = std::env::var_os("CARC_BLESS_TRACES").is_some();
    let mut rows = Vec::new();
    let mut failures = Vec::new();
    for t in traces() {
        let (steps, games, observations) = t.play();
        assert!(steps > 50, "{}: a whole game", t.name);
        let old = stored["traces"]
            .as_array()
            .and_then(|a| a.iter().find(|r| r["name"] == t.name));
        let same_games = old.is_some_and(|o| o["games"] == hex(games));
        let same_observations = old.is_some_and(|o| o["observations"] == hex(observations));
        if same_games && !same_observations && stored_version == layout_version_hex() {
            failures.push(format!(
                "{}: the observations changed while the games did not: the encoding \
                 changed. If that is intended, raise encode::schema::REVISION, set \
                 LAYOUT_VERSION (the schema test prints it) and regenerate these traces; \
                 if not, it is a bug",
                t.name
            ));
        } else if !(bless || same_games && same_observations) {
            failures.push(format!(
                "{}: the games changed (a rules change): regenerate the traces with \
                 CARC_BLESS_TRACES=1 cargo test -p carcassonne-session --test \
                 observation_traces",
                t.name
            ));
        }
        rows.push(json!({
            "name": t.name,
            "players": t.players,
            "sets": t.sets,
            "abbot": t.abbot,
            "seed": t.seed,
            "window": t.window,
            "preset": t.preset.name(),
            "steps": steps,
            "games": hex(games),
            "observations": hex(observations),
        }));
    }
    if stored_version != layout_version_hex() && !bless {
        failures.push(format!(
            "the traces were made with layout version {stored_version}, this build has {}: \
             regenerate them with CARC_BLESS_TRACES=1",
            layout_version_hex()
        ));
    }
    if bless && failures.is_empty() {
        let doc = json!({ "layout_version": layout_version_hex(), "traces": rows });
        let text = serde_json::to_string_pretty(&doc).unwrap() + "\n";
        std::fs::write(DATA, text).expect("write the traces");
        return;
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
