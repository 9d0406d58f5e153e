//! Unit tests of `human`, included by `human.rs` so they see its private items.

use super::*;
use carcassonne::{GameConfig, TileSet};

fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("carcassonne-human-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A whole game typed line by line: the first choice each time, after a command or a
/// mistake now and then; the game ends, the record is the final one and replays.
#[test]
fn a_whole_game_from_typed_lines() {
    let dir = scratch("whole");
    let out = dir.join("record.json");
    let mut config = GameConfig::new(2);
    config.sets = vec![TileSet::Base];
    config.seed = 4;
    let table = Table::new(
        Game::new(config).unwrap(),
        vec![Seat::Human, Seat::Bot(Bot::Random)],
        "typed".into(),
    );
    let saver = Saver::new(out.to_str().unwrap(), &table);
    let mut typed = String::from("?\nb\ns\nt\nq?\n99\n0\n");
    for _ in 0..400 {
        typed.push_str("1\n");
    }
    let mut input = std::io::Cursor::new(typed.into_bytes());
    let mut output = Vec::new();
    let ending = play(table, &saver, &mut input, &mut output).unwrap();
    let shown = String::from_utf8(output).unwrap();
    assert_eq!(
        ending,
        Ending::Over,
        "{}",
        &shown[shown.len().saturating_sub(2000)..]
    );
    assert!(shown.contains("What to type at the prompt"));
    assert!(shown.contains("legend:"));
    assert!(shown.contains("points; holds"));
    assert!(shown.contains("tiles left to draw:"));
    assert!(shown.contains("\"q?\" names no choice here"));
    assert!(shown.contains("there is no choice 99"));
    assert!(shown.contains("there is no choice 0"));
    assert!(shown.contains("game over after"));
    let text = std::fs::read_to_string(&out).unwrap();
    let game = record::replay_json(text.trim()).unwrap();
    assert!(game.is_terminal());
    let _ = std::fs::remove_dir_all(dir);
}

/// Stopping keeps the game: the record resumes it where it stood.
#[test]
fn stopping_keeps_a_resumable_game() {
    let dir = scratch("stop");
    let out = dir.join("record.json");
    let game = Game::new(GameConfig::new(3)).unwrap();
    let table = Table::new(
        game,
        vec![Seat::Bot(Bot::Greedy), Seat::Human, Seat::Human],
        "stop".into(),
    );
    let saver = Saver::new(out.to_str().unwrap(), &table);
    assert_eq!(
        saver.resume,
        format!(
            "carcassonne play --resume {} --human 1 --human 2 --bots greedy",
            out.display()
        )
    );
    let mut input = std::io::Cursor::new(b"1\n1\nq\n".to_vec());
    let mut output = Vec::new();
    assert_eq!(
        play(table, &saver, &mut input, &mut output).unwrap(),
        Ending::Stopped
    );
    let shown = String::from_utf8(output).unwrap();
    assert!(shown.contains("stopped: the game is kept in"));
    let (game, id) = load_record(out.to_str().unwrap()).unwrap();
    assert_eq!(id, "stop");
    assert!(!game.is_terminal());
    let typed = game
        .history_actions()
        .iter()
        .filter(|d| d.player != 0)
        .count();
    assert_eq!(typed, 2, "the two typed decisions after the greedy bot's");
    let _ = std::fs::remove_dir_all(dir);
}

/// A typed line is at most `MAX_TYPED_BYTES` (4096) bytes, its newline included: a line
/// of that length is read as any other; a longer one stops the game after that many bytes
/// (the record keeps it), and a line that is not UTF-8 is refused and the game goes on.
#[test]
fn typed_lines_are_at_most_4096_bytes() {
    assert_eq!(MAX_TYPED_BYTES, 4096);
    let fits = format!("{}1\n", " ".repeat(4094));
    let mut input = std::io::Cursor::new(fits.into_bytes());
    match read_typed(&mut input).unwrap() {
        Typed::Line(text) => assert_eq!(text.trim(), "1"),
        _ => panic!("a line of 4096 bytes is read"),
    }
    let mut input = std::io::Cursor::new(vec![b' '; 4096]);
    assert!(matches!(read_typed(&mut input).unwrap(), Typed::Line(_)));
    let mut input = std::io::Cursor::new(format!("{}1\nq\n", " ".repeat(4095)).into_bytes());
    assert!(matches!(read_typed(&mut input).unwrap(), Typed::TooLong));
    assert_eq!(
        input.position(),
        4097,
        "no more than the limit and one byte is read"
    );
    let mut input = std::io::Cursor::new(b"\xff1\n1\n".to_vec());
    assert!(matches!(read_typed(&mut input).unwrap(), Typed::NotUtf8));
    assert!(matches!(read_typed(&mut input).unwrap(), Typed::Line(t) if t == "1\n"));

    let dir = scratch("long-line");
    let out = dir.join("record.json");
    let table = Table::new(
        Game::new(GameConfig::new(2)).unwrap(),
        vec![Seat::Human, Seat::Bot(Bot::Random)],
        "long".into(),
    );
    let saver = Saver::new(out.to_str().unwrap(), &table);
    let mut typed = b"\xff\n1\n".to_vec();
    typed.extend(std::iter::repeat_n(b'1', 1 << 20));
    let mut input = std::io::Cursor::new(typed);
    let mut output = Vec::new();
    let ending = play(table, &saver, &mut input, &mut output).unwrap();
    let shown = String::from_utf8(output).unwrap();
    assert!(matches!(&ending, Ending::InputRefused(m) if m.contains("longer than 4096 bytes")));
    assert!(
        shown.contains("refused: the line is not UTF-8 text"),
        "{shown}"
    );
    assert!(
        shown.contains("you: "),
        "the line after the refused one is played: {shown}"
    );
    assert!(input.position() < 10_000, "{}", input.position());
    let (game, _) = load_record(out.to_str().unwrap()).unwrap();
    assert!(game.history_actions().iter().any(|d| d.player == 0));
    let _ = std::fs::remove_dir_all(dir);
}

/// Typed words name choices: a number, a number and a bid, coordinates and rotation, a
/// square's letter, or words of the fields; ambiguity lists the candidates.
#[test]
fn typed_words_pick_choices() {
    let game = Game::new(GameConfig::new(2)).unwrap();
    let choices = choices::choices(&game);
    let lines = choices::lines(&choices);
    let squares = choices::square_letters(&game, &choices);
    assert_eq!(pick(&choices, &lines, &squares, "1"), Ok(0));
    assert_eq!(
        pick(&choices, &lines, &squares, &lines.len().to_string()),
        Ok(lines.len() - 1)
    );
    let c = &choices[2];
    let pos = c.pos.unwrap();
    let rot = c.rotation().unwrap().quarter_turns();
    assert_eq!(
        pick(
            &choices,
            &lines,
            &squares,
            &format!("{} {} {rot}", pos.x, pos.y)
        ),
        Ok(2)
    );
    assert_eq!(
        pick(
            &choices,
            &lines,
            &squares,
            &format!("({}, {}) {rot}", pos.x, pos.y)
        ),
        Ok(2)
    );
    let letter = &squares.iter().find(|(p, _)| *p == pos).unwrap().1;
    assert_eq!(
        pick(&choices, &lines, &squares, &format!("{letter} {rot}")),
        Ok(2)
    );
    assert_eq!(
        pick(
            &choices,
            &lines,
            &squares,
            &format!("{}{rot}", letter.to_lowercase()).replace(
                &letter.to_lowercase(),
                &format!("{} ", letter.to_lowercase())
            )
        ),
        Ok(2)
    );
    let several = pick(&choices, &lines, &squares, &format!("{} {}", pos.x, pos.y));
    let at = choices.iter().filter(|c| c.pos == Some(pos)).count();
    if at > 1 {
        assert!(several.unwrap_err().contains(&format!("fits {at} choices")));
    }
    assert!(pick(&choices, &lines, &squares, "9 9 9")
        .unwrap_err()
        .contains("names no choice"));
}

/// A line of bids (BZ2) takes the number and the bid; the number alone asks for it.
#[test]
fn a_line_of_bids_takes_a_bid() {
    for seed in 0..300 {
        let Some(game) = crate::test_games::random_game_at_a_bazaar(seed) else {
            continue;
        };
        let choices = choices::choices(&game);
        let lines = choices::lines(&choices);
        assert!(lines[0].choices.len() > 1);
        let asked = pick(&choices, &lines, &[], "1").unwrap_err();
        assert!(asked.contains("choice 1 needs a bid from 0 to"), "{asked}");
        let i = pick(&choices, &lines, &[], "1 3").unwrap();
        assert_eq!(choices[i].bid(), Some(3));
        assert!(lines[0].choices.contains(&i));
        assert!(pick(&choices, &lines, &[], "1 999")
            .unwrap_err()
            .contains("names no choice"));
        return;
    }
    panic!("no bazaar in 300 games");
}

/// `--bots` names one bot for all, one per seat (a person's entry unused), or one per
/// bot seat; `--human` seats are checked.
#[test]
fn seats_from_the_command_line() {
    use crate::args::{parse, OptSpec};
    let seats = |line: &str, players: usize| {
        let words: Vec<String> = line.split_whitespace().map(String::from).collect();
        let parsed = parse(&words, &[OptSpec::many("human")]).unwrap();
        let bots = words
            .iter()
            .position(|w| w == "--")
            .map_or("greedy".to_string(), |i| words[i + 1].clone());
        let config = carcassonne::GameConfig::new(players as u8);
        seats_of(&parsed, &config, &bots)
            .map(|s| {
                s.iter()
                    .map(|x| x.to_string())
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .map_err(|e| e.to_string())
    };
    assert_eq!(seats("--human 1", 3), Ok("greedy human greedy".into()));
    assert_eq!(
        seats("--human 1 -- random,mcts:10", 3),
        Ok("random human mcts:10".into())
    );
    assert_eq!(
        seats("--human 0 -- random,mcts:10", 2),
        Ok("human mcts:10".into())
    );
    assert_eq!(
        seats("--human 0 --human 2 -- random", 3),
        Ok("human random human".into())
    );
    assert!(seats("--human 3", 3).unwrap_err().contains("from 0 to 2"));
    assert!(seats("--human x", 3).unwrap_err().contains("\"x\""));
    assert!(seats("--human 1 --human 1", 3)
        .unwrap_err()
        .contains("more than once"));
    assert!(seats("--human 1 -- a,b,c,d", 3)
        .unwrap_err()
        .contains("--bots"));
}

/// The help text (`?`) is wrapped to at most 100 columns at every decision of a game
/// with every set, and says all it said unwrapped (the same words in the same order).
#[test]
fn help_lines_are_at_most_100_columns() {
    let mut config = GameConfig::new(3);
    config.sets = TileSet::ALL.to_vec();
    config.figures = carcassonne::config::Figures::default_for(&config.sets);
    config.seed = 2;
    let mut table = Table::new(
        Game::new(config).unwrap(),
        vec![Seat::Human; 3],
        "help".into(),
    );
    let mut rng = Rng::new(5);
    let mut widest = 0;
    let mut kinds = std::collections::BTreeSet::new();
    while !table.game().is_terminal() {
        let choices = table.choices();
        let mut text = String::new();
        help(&table, &choices, &mut text);
        for line in text.lines() {
            widest = widest.max(line.chars().count());
            assert!(
                line.chars().count() <= 100,
                "{} columns: {line}",
                line.chars().count()
            );
        }
        for c in &choices {
            let spec = c.action.kind().spec();
            if kinds.insert(spec.name) {
                let words: Vec<&str> = spec.doc.split_whitespace().collect();
                let shown: Vec<&str> = text.split_whitespace().collect();
                assert!(
                    shown.windows(words.len()).any(|w| w == words.as_slice()),
                    "the help of {} is not whole",
                    spec.name
                );
            }
        }
        let pick = rng.below(choices.len() as u32) as usize;
        table.play(choices[pick].action).unwrap();
    }
    assert!(widest > 80, "the help was wrapped near its width: {widest}");
}

/// A new game without `--out` is written to `game-record.json`, or, when that file holds
/// an earlier game (one the last stop said to resume), to the first free
/// `game-record-N.json`: the earlier record is never replaced.
#[test]
fn a_new_game_never_replaces_an_earlier_record() {
    let dir = scratch("names");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let at = |f: &str| dir.join(f).display().to_string();
    assert_eq!(
        new_record_path(&dir).unwrap(),
        (at("game-record.json"), None)
    );
    std::fs::write(dir.join("game-record.json"), "kept").unwrap();
    assert_eq!(
        new_record_path(&dir).unwrap(),
        (at("game-record-2.json"), Some(at("game-record.json")))
    );
    std::fs::write(dir.join("game-record-2.json"), "kept too").unwrap();
    assert_eq!(new_record_path(&dir).unwrap().0, at("game-record-3.json"));
    assert_eq!(
        std::fs::read_to_string(dir.join("game-record.json")).unwrap(),
        "kept"
    );
    let _ = std::fs::remove_dir_all(dir);
}

/// At every decision of games with every set, the letters shown are unique and name only
/// what is shown: a square letter (`A`) only for an empty square of the board drawn with
/// the decision, a feature letter (`a`) once in the decision, on a tile drawn with it.
#[test]
fn letters_are_unique_and_name_what_is_shown() {
    let mut deploys_on_several_tiles = 0;
    for seed in 0..6 {
        let mut config = GameConfig::new(3);
        config.sets = TileSet::ALL.to_vec();
        config.figures = carcassonne::config::Figures::default_for(&config.sets);
        config.seed = seed;
        let mut table = Table::new(
            Game::new(config).unwrap(),
            vec![Seat::Human; 3],
            "letters".into(),
        );
        let mut rng = Rng::new(seed);
        while !table.game().is_terminal() {
            let game = table.game();
            let choices = table.choices();
            let lines = choices::lines(&choices);
            let squares = choices::square_letters(game, &choices);
            let mut view = String::new();
            decision_view(&table, &choices, &lines, &squares, &mut view);
            for (pos, letter) in &squares {
                assert!(
                    !game.board().is_placed(*pos),
                    "{letter} names a placed tile"
                );
            }
            let mut labels: Vec<&String> = squares.iter().map(|(_, l)| l).collect();
            labels.dedup();
            assert_eq!(labels.len(), squares.len());
            let marks = feature_marks(game, &choices);
            let mut letters: Vec<char> = marks.iter().map(|m| m.2).collect();
            letters.sort_unstable();
            letters.dedup();
            assert_eq!(
                letters.len(),
                marks.len(),
                "a letter twice: {marks:?}\n{view}"
            );
            let tiles: std::collections::BTreeSet<_> =
                marks.iter().map(|m| (m.0.x, m.0.y)).collect();
            deploys_on_several_tiles += usize::from(tiles.len() > 1);
            let listed = &view[view.find("your decision:").unwrap()..];
            if !view.contains("features named below") {
                assert!(
                    !listed.lines().any(|l| l.contains(" (a)")),
                    "a feature letter without its tile:\n{view}"
                );
            }
            let pick = rng.below(choices.len() as u32) as usize;
            table.play(choices[pick].action).unwrap();
        }
    }
    assert!(
        deploys_on_several_tiles > 0,
        "no decision named features on several tiles"
    );
}
