//! The learned players (`net`): the shipped network loads and plays legal moves through
//! whole games, alone and guiding a search (`net:search=N`), its spec reads back, and a network made for another layout version,
//! window, preset or configuration is refused with an error that names what differs.
//! The fixtures are the shipped model with its metadata edited (tract-onnx's protobuf
//! types, encoded again with prost).

use carcassonne::{Game, GameConfig, Rng, TileSet};
use carcassonne_session::bots::Bot;
use carcassonne_session::encode::{EncoderSpec, Layout, Preset};
use carcassonne_session::guided::GuidedSearch;
use carcassonne_session::matches::MatchSpec;
use carcassonne_session::mcts::Budget;
use carcassonne_session::net::{
    NetError, NetRef, Network, META_CONFIG, META_LAYOUT_VERSION, META_WINDOW, SHIPPED_BASE_2P,
};
use prost::Message;
use std::path::PathBuf;
use tract_onnx::pb::ModelProto;

/// The shipped model with metadata `key` set to `value` (`None`: removed).
fn edited(key: &str, value: Option<&str>) -> Vec<u8> {
    let mut proto = ModelProto::decode(SHIPPED_BASE_2P).unwrap();
    let at = proto
        .metadata_props
        .iter()
        .position(|p| p.key == key)
        .unwrap_or_else(|| panic!("the shipped model has no metadata {key}"));
    match value {
        Some(v) => proto.metadata_props[at].value = v.to_string(),
        None => {
            proto.metadata_props.remove(at);
        }
    }
    proto.encode_to_vec()
}

fn mismatch_field(e: &NetError) -> &str {
    match e {
        NetError::Mismatch { field, .. } => field,
        other => panic!("expected a mismatch, got {other}"),
    }
}

/// Plays whole games of the 2-player base game between `bots`, checking that every
/// action is legal when it is chosen; returns the number of decisions.
fn play_games(bots: [Bot; 2], games: u64) -> usize {
    let mut decisions = 0;
    for seed in 0..games {
        let mut config = GameConfig::new(2);
        config.seed = 1000 + seed;
        let mut game = Game::new(config).unwrap();
        let mut rng = Rng::new(seed);
        while !game.is_terminal() {
            let bot = bots[(game.to_play() + seed as usize) % 2];
            let action = bot.choose(&game, game.legal(), &mut rng);
            assert!(game.is_legal(action), "{bot}: {action:?} is not legal");
            game.apply(action).unwrap();
            decisions += 1;
        }
    }
    decisions
}

#[test]
fn shipped_network_plays_legal_moves_through_whole_games() {
    let net = Bot::parse("net").unwrap();
    assert_eq!(net.name(), "net");
    assert_eq!(net.to_string(), "net");
    assert!(play_games([net, Bot::Heuristic], 2) > 50);
}

#[test]
fn shipped_network_declares_what_it_was_made_for() {
    let net = Network::shipped().unwrap();
    assert_eq!(net.layout().window(), 24);
    assert_eq!(net.layout().preset(), Preset::Compact);
    assert_eq!(net.config().players, 2);
    assert_eq!(net.config().sets, vec![TileSet::Base]);
}

#[test]
fn network_of_a_file_plays_and_its_spec_reads_back() {
    let path = std::env::temp_dir().join(format!("carc-net-{}.onnx", std::process::id()));
    std::fs::write(&path, SHIPPED_BASE_2P).unwrap();
    let spec = format!("net:{}", path.display());
    let bot = Bot::parse(&spec).unwrap();
    assert_eq!(bot.to_string(), spec);
    assert_eq!(Bot::parse(&bot.to_string()).unwrap(), bot);
    // The same file is loaded once: the same player.
    assert_eq!(Bot::parse(&spec).unwrap(), bot);
    assert!(play_games([bot, Bot::Greedy], 1) > 20);
    // The guided search with the network as its evaluator: a few decisions (the
    // runtime is slow in a debug build).
    let searching = Bot::parse(&format!("{spec}:search=8")).unwrap();
    assert_eq!(searching.to_string(), format!("{spec}:search=8"));
    let mut game = Game::new(GameConfig::new(2)).unwrap();
    let mut rng = Rng::new(5);
    for _ in 0..4 {
        let action = searching.choose(&game, game.legal(), &mut rng);
        assert!(game.is_legal(action), "{action:?}");
        game.apply(action).unwrap();
    }
    std::fs::remove_file(&path).unwrap();
}

/// `net:search=N`: the shipped network as the evaluator of the guided search, read back
/// by its spec, playing a whole 2-player base game with legal actions (`B` rules: every
/// chosen action is in the game's legal list when it is chosen).
#[test]
fn shipped_network_guides_a_search() {
    let bot = Bot::parse("net:search=8").unwrap();
    let Bot::Net(player) = bot else {
        panic!("net:search=8 is not a learned player: {bot:?}");
    };
    assert_eq!(
        player.net,
        NetRef::shipped().unwrap(),
        "the shipped network"
    );
    assert_eq!(
        player.search,
        Some(GuidedSearch::new(Budget::Iterations(8)))
    );
    assert_eq!(bot.name(), "net");
    assert_eq!(bot.to_string(), "net:search=8");
    assert_eq!(Bot::parse(&bot.to_string()).unwrap(), bot);
    assert_ne!(bot, Bot::parse("net").unwrap());
    let timed = Bot::parse("net:search=20ms").unwrap();
    assert_eq!(timed.to_string(), "net:search=20ms");
    assert_eq!(Bot::parse(&timed.to_string()).unwrap(), timed);
    // Like `net`, it refuses a game the shipped network was not made for.
    let refused = bot.check(&GameConfig::new(3)).unwrap_err();
    assert!(
        refused.contains("made for 2 players, this game has 3"),
        "{refused}"
    );
    assert!(play_games([bot, Bot::Heuristic], 1) > 50);
}

#[test]
fn bad_search_budgets_of_the_shipped_network_are_refused_naming_them() {
    for (spec, named) in [
        ("net:search=0", "search=\"0\""),
        ("net:search=0ms", "search=\"0ms\""),
        ("net:search=", "search=\"\""),
        ("net:search=lots", "search=\"lots\""),
        ("net:search=-3", "search=\"-3\""),
        ("net:search=8x", "search=\"8x\""),
        ("net:search=100000001", "search=\"100000001\""),
        ("net:search=8:threads=2", "search=\"8:threads=2\""),
    ] {
        let e = Bot::parse(spec).unwrap_err();
        assert!(
            e.contains(named) && e.contains("expected a budget of iterations from 1 to"),
            "{spec}: {e}"
        );
    }
    // Not a file named "search=8": a path that starts with it is given with a directory.
    let e = Bot::parse("net:./search=8").unwrap_err();
    assert!(e.contains("./search=8"), "{e}");
}

#[test]
fn bad_net_specs_say_what_is_wrong() {
    let missing = Bot::parse("net:/no/such/file.onnx").unwrap_err();
    assert!(missing.contains("/no/such/file.onnx"), "{missing}");
    let empty = Bot::parse("net:").unwrap_err();
    assert!(empty.contains("expected a file path"), "{empty}");
    let budget = Bot::parse("net:x.onnx:search=lots").unwrap_err();
    assert!(
        budget.contains("search") && budget.contains("lots"),
        "{budget}"
    );
    let not_onnx = std::env::temp_dir().join(format!("carc-net-bad-{}.onnx", std::process::id()));
    std::fs::write(&not_onnx, b"not a model").unwrap();
    let e = Bot::parse(&format!("net:{}", not_onnx.display())).unwrap_err();
    assert!(e.contains("not an ONNX model"), "{e}");
    std::fs::remove_file(&not_onnx).unwrap();
}

#[test]
fn another_configuration_is_refused_naming_the_field() {
    let net = Network::shipped().unwrap();
    let four = GameConfig::new(4);
    let e = net.check_config(&four).unwrap_err();
    assert_eq!(mismatch_field(&e), "players");
    assert_eq!(
        e.to_string(),
        "players: the network was made for 2 players, this game has 4"
    );
    let mut river = GameConfig::new(2);
    river.sets.push(TileSet::River1);
    let e = net.check_config(&river).unwrap_err();
    assert_eq!(mismatch_field(&e), "sets");
    assert!(e.to_string().contains("base, river1"), "{e}");
    let mut tiny = GameConfig::new(2);
    tiny.rules.tiny_city = 2;
    let e = net.check_config(&tiny).unwrap_err();
    assert_eq!(mismatch_field(&e), "rules.tiny_city");
    // The seed does not count.
    let mut seeded = GameConfig::new(2);
    seeded.seed = 99;
    net.check_config(&seeded).unwrap();
    // A player spec refuses the configuration before a match starts.
    let bot = Bot::parse("net").unwrap();
    let message = bot.check(&four).unwrap_err();
    assert!(message.contains("made for 2 players"), "{message}");
    let spec = MatchSpec::new(GameConfig::new(3), vec![bot, Bot::Greedy, Bot::Greedy], 1);
    let refused = spec.validate().unwrap_err();
    assert!(
        refused.starts_with("bots[0]: bot net: players"),
        "{refused}"
    );
}

#[test]
fn a_network_made_for_another_rule_is_refused_by_a_default_game() {
    let config = r#"{"players": 2, "sets": ["base"], "rules": {"tiny_city": 2}}"#;
    let net = Network::from_bytes(&edited(META_CONFIG, Some(config))).unwrap();
    let game = Game::new(GameConfig::new(2)).unwrap();
    let e = net.choose(&game).unwrap_err();
    assert_eq!(mismatch_field(&e), "rules.tiny_city");
    assert_eq!(
        e.to_string(),
        "rules.tiny_city: the network was made for rules.tiny_city 2, this game uses 4"
    );
}

#[test]
fn another_window_is_refused_naming_it() {
    let net = Network::shipped().unwrap();
    let config = GameConfig::new(2);
    let sixteen = Layout::new(EncoderSpec::new(16).unwrap(), Preset::Compact, &config);
    let e = net.check_layout(&sixteen).unwrap_err();
    assert_eq!(
        e.to_string(),
        "window: the network was made for window 24, this game uses 16"
    );
    let full = Layout::new(EncoderSpec::new(24).unwrap(), Preset::InPlay, &config);
    assert_eq!(
        mismatch_field(&net.check_layout(&full).unwrap_err()),
        "preset"
    );
    // A file whose metadata says window 16 while its inputs are of window 24.
    let e = Network::from_bytes(&edited(META_WINDOW, Some("16"))).unwrap_err();
    assert!(
        matches!(&e, NetError::Metadata(m) if m.starts_with("input board: expected U8 [batch, ")),
        "{e}"
    );
}

#[test]
fn another_layout_version_is_refused_naming_it() {
    let e =
        Network::from_bytes(&edited(META_LAYOUT_VERSION, Some("0123456789abcdef"))).unwrap_err();
    assert_eq!(mismatch_field(&e), "layout version");
    assert!(
        e.to_string()
            .starts_with("layout version: the network was made for layout version 0123456789abcdef, this build uses "),
        "{e}"
    );
}

#[test]
fn missing_or_malformed_metadata_is_refused_naming_the_key() {
    for key in [META_LAYOUT_VERSION, META_WINDOW, META_CONFIG] {
        let e = Network::from_bytes(&edited(key, None)).unwrap_err();
        assert_eq!(e, NetError::Metadata(format!("{key}: missing")));
    }
    let e = Network::from_bytes(&edited(META_WINDOW, Some("wide"))).unwrap_err();
    assert!(
        e.to_string()
            .contains("carcassonne.window: expected an integer"),
        "{e}"
    );
    let e = Network::from_bytes(&edited(
        META_CONFIG,
        Some(r#"{"players": 9, "sets": ["base"]}"#),
    ))
    .unwrap_err();
    assert!(e.to_string().contains("carcassonne.config: players"), "{e}");
}

#[test]
fn a_file_over_the_size_limit_is_refused() {
    // The limit is checked before the file is read.
    let path: PathBuf =
        std::env::temp_dir().join(format!("carc-net-big-{}.onnx", std::process::id()));
    let file = std::fs::File::create(&path).unwrap();
    file.set_len(carcassonne_session::net::MAX_FILE_BYTES + 1)
        .unwrap();
    let e = Network::from_path(&path).unwrap_err();
    assert!(e.to_string().contains("at most 67108864"), "{e}");
    std::fs::remove_file(&path).unwrap();
}

/// The network's three plans (one row, a fixed batch of `PLANNED_BATCH` rows padded with
/// zero rows, any number of rows) give each row the outputs it gets alone: observations
/// of the positions of a game, run as batches of 1, 3, `PLANNED_BATCH` and
/// `PLANNED_BATCH + 3` rows.
#[test]
fn every_plan_gives_a_row_the_outputs_it_gets_alone() {
    use carcassonne_session::net::PLANNED_BATCH;
    use carcassonne_session::session::Session;
    let net = Network::shipped().unwrap();
    let layout = net.layout().clone();
    let (p, g, a) = (
        layout.planes_len(),
        layout.num_globals(),
        layout.num_actions(),
    );
    let rows = PLANNED_BATCH + 3;
    let (mut planes, mut globals) = (vec![0u8; rows * p], vec![0f32; rows * g]);
    let mut game = Game::new(GameConfig::new(2)).unwrap();
    let mut rng = Rng::new(3);
    for r in 0..rows {
        let mut session = Session::with_layout(game.clone(), layout.clone());
        session
            .observe(
                game.to_play(),
                &mut planes[r * p..(r + 1) * p],
                &mut globals[r * g..(r + 1) * g],
            )
            .unwrap();
        for _ in 0..3 {
            let action = Bot::Greedy.choose(&game, game.legal(), &mut rng);
            game.apply(action).unwrap();
        }
    }
    let alone: Vec<(Vec<f32>, f32)> = (0..rows)
        .map(|r| {
            net.forward(
                1,
                &planes[r * p..(r + 1) * p],
                &globals[r * g..(r + 1) * g],
                |l, v| (l.to_vec(), v[0]),
            )
            .unwrap()
        })
        .collect();
    // The rows differ, so a plan that mixed them up would be seen.
    assert_ne!(alone[0].0, alone[1].0);
    for count in [3, PLANNED_BATCH, PLANNED_BATCH + 3] {
        let (logits, values) = net
            .forward(
                count,
                &planes[..count * p],
                &globals[..count * g],
                |l, v| (l.to_vec(), v.to_vec()),
            )
            .unwrap();
        assert_eq!((logits.len(), values.len()), (count * a, count));
        for (r, (want_logits, want_value)) in alone.iter().take(count).enumerate() {
            let close = |x: f32, y: f32| (x - y).abs() <= 1e-4 * (1.0 + y.abs());
            assert!(
                close(values[r], *want_value),
                "{count} rows, row {r}: value {} against {want_value}",
                values[r]
            );
            for (i, (&x, &y)) in logits[r * a..(r + 1) * a]
                .iter()
                .zip(want_logits)
                .enumerate()
            {
                assert!(
                    close(x, y),
                    "{count} rows, row {r}, id {i}: logit {x} against {y}"
                );
            }
        }
    }
}
