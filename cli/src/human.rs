//! `carcassonne play --human SEAT`: people play against the built-in bots in a terminal.
//!
//! At each decision of a person the terminal shows the scores, the board with the
//! squares the choices name lettered (`A`, `B`, ...), the tile in hand in its four
//! rotations, the tiles whose features the choices name with those features lettered
//! (`a`, `b`, ...), and the numbered choices (from [`crate::choices`]: every decision of
//! every set, from the legal actions and the action schema). The person types a number,
//! or words that name the choice (`2 -1 1`, `A 1`, `follower c1`, `pass`), or a command
//! (`?` lists them). The bots' moves are printed one line each with what they scored.
//!
//! The record is written to the `--out` file after every move, complete with what
//! resumes the game (`resume`), so that stopping with `q`, the end of the input or
//! Ctrl-C loses nothing: `--resume FILE` goes on from it. At the end of the game the
//! final record replaces it.

use crate::args::Parsed;
use crate::choices::{self, Choice, Line};
use crate::setup::{self, SetupDefaults};
use crate::table::{self, Seat, Table};
use crate::{CliError, Outcome};
use carcassonne::tiles::catalogue;
use carcassonne::{Game, GameConfig, Phase, Pos, Rng, Rotation};
use carcassonne_session::bots::{parse_bots, Bot};
use carcassonne_session::mcts::{Budget, Evaluation, MctsConfig};
use carcassonne_session::record;
use carcassonne_session::render;
use std::fmt::Write as _;
use std::io::{BufRead, Write};
use std::sync::{Arc, Mutex};

/// What the help command shows, before the decision's own help.
const COMMANDS: &str = "\
What to type at the prompt:
  NUMBER        the choice with that number; for a line of bids, the number and the
                bid (`7 12`)
  WORDS         the choice they name, in the order of its fields: `2 -1 1` (x, y and
                turns of a placement), `A 1` (the square lettered A on the board, turned
                once), `follower c1`, `3 -2 city`, `pass`, `bid 4`
  u             take back your last decision, while no tile has been drawn and no
                other player has decided since
  b             the whole board with its legend and the figures on it
  s             the scores and the figures each seat holds
  t             the tiles left to draw
  h             a hint: what an MCTS search thinks of this decision
  m             what the last MCTS bot thought of its last decision
  q             stop here; the record keeps the game (go on with --resume)
  ?             this help
";

/// Iterations of the search behind the `h` command when no MCTS bot sits at the table.
const HINT_ITERATIONS: u32 = 1000;

/// Runs `play` with `--human` or `--resume` (`parsed` holds the command line).
pub fn run(
    parsed: &Parsed,
    defaults: &SetupDefaults,
    bots_text: &str,
) -> Result<Outcome, CliError> {
    // A resumed game is kept where it was, unless --out says otherwise; a new game without
    // --out never replaces the record of an earlier one.
    let mut earlier = None;
    let out_path = match parsed.value("out").or(parsed.value("resume")) {
        Some(path) => path.to_string(),
        None => {
            let (path, kept) = new_record_path(std::path::Path::new("."))?;
            earlier = kept;
            path
        }
    };
    if out_path.is_empty() {
        return Err(CliError::Usage("--out: empty file name".into()));
    }
    let (game, id) = match parsed.value("resume") {
        Some(file) => {
            for option in setup::SETUP_OPTIONS {
                if parsed.value(option.name).is_some()
                    || parsed.values(option.name).next().is_some()
                {
                    return Err(CliError::Usage(format!(
                        "--{}: the game of --resume keeps its own setup",
                        option.name
                    )));
                }
            }
            load_record(file)?
        }
        None => {
            let config = setup::config_from_options(parsed, defaults)?;
            let id = format!("play-{}p-seed{}", config.players, config.seed);
            let game = Game::new(config).map_err(|e| CliError::Usage(e.to_string()))?;
            (game, id)
        }
    };
    let seats = seats_of(parsed, game.config(), bots_text)?;
    let table = Table::new(game, seats, id);
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut output = std::io::stdout();
    let saver = Saver::new(&out_path, &table);
    if let Some(kept) = earlier {
        println!("{kept} holds an earlier game, kept as it is; this game is written to {out_path}");
    }
    saver.on_interrupt();
    let ending = play(table, &saver, &mut input, &mut output)
        .map_err(|e| CliError::Failed(format!("cannot write to the terminal: {e}")))?;
    match ending {
        Ending::Over => Ok(Outcome::Success),
        Ending::Stopped => Ok(Outcome::Success),
        Ending::SaveFailed(m) | Ending::InputRefused(m) => Err(CliError::Failed(m)),
    }
}

/// The default record file of a new game, in `dir`: `game-record.json`, or when that file
/// exists (the record of an earlier game, perhaps one to resume) the first of
/// `game-record-2.json`, `game-record-3.json`, ... that does not; and the name of the
/// existing file that was passed over. Paths are shown as `dir` joined with the name
/// (without `./`).
fn new_record_path(dir: &std::path::Path) -> Result<(String, Option<String>), CliError> {
    let name = |file: &str| {
        if dir == std::path::Path::new(".") {
            file.to_string()
        } else {
            dir.join(file).display().to_string()
        }
    };
    let first = name("game-record.json");
    if !std::path::Path::new(&first).exists() {
        return Ok((first, None));
    }
    (2..=MAX_RECORD_NAMES)
        .map(|n| name(&format!("game-record-{n}.json")))
        .find(|p| !std::path::Path::new(p).exists())
        .map(|p| (p, Some(first)))
        .ok_or_else(|| {
            CliError::Usage(format!(
                "game-record.json to game-record-{MAX_RECORD_NAMES}.json all exist: \
                 name the record with --out"
            ))
        })
}

/// The most default record names tried (`game-record-1000.json`).
const MAX_RECORD_NAMES: usize = 1000;

/// The game of a record to resume, and the record's id.
fn load_record(file: &str) -> Result<(Game, String), CliError> {
    let text = record::read_text_file(file.as_ref())
        .map_err(|e| CliError::Usage(format!("--resume: {e}")))?;
    let value = record::parse_record_text(text.trim())
        .map_err(|e| CliError::Usage(format!("--resume {file}: bad record: {e}")))?;
    let id = record::record_id(&value).unwrap_or("play").to_string();
    let loaded =
        record::load(&value, None).map_err(|e| CliError::Usage(format!("--resume {file}: {e}")))?;
    if loaded.game.is_terminal() {
        return Err(CliError::Usage(format!(
            "--resume {file}: the game of this record is over"
        )));
    }
    Ok((loaded.game, id))
}

/// The seats from `--human` (repeatable) and `--bots` (one bot for every other seat, or
/// one per seat, the entries of the people's seats then unused).
fn seats_of(parsed: &Parsed, config: &GameConfig, bots_text: &str) -> Result<Vec<Seat>, CliError> {
    let players = config.players as usize;
    let mut humans = Vec::new();
    for text in parsed.values("human") {
        let seat = text
            .trim()
            .parse::<usize>()
            .ok()
            .filter(|s| *s < players)
            .ok_or_else(|| {
                CliError::Usage(format!(
                    "--human: expected a seat from 0 to {}, found {text:?}",
                    players - 1
                ))
            })?;
        if humans.contains(&seat) {
            return Err(CliError::Usage(format!(
                "--human {seat}: given more than once"
            )));
        }
        humans.push(seat);
    }
    // One spec per bot seat, when that is not also one per seat; else as `play` reads
    // --bots (one for all, or one per seat).
    let listed = bots_text.split(',').count();
    let bot_seats = players - humans.len();
    let per_bot_seat = listed > 1 && listed == bot_seats && listed != players;
    let bots: Vec<Bot> = parse_bots(bots_text, if per_bot_seat { bot_seats } else { players })
        .map_err(|m| CliError::Usage(format!("--bots: {m}")))?;
    for bot in &bots {
        bot.check(config)
            .map_err(|m| CliError::Usage(format!("--bots: {m}")))?;
    }
    let mut next_bot = bots.iter().copied();
    Ok((0..players)
        .map(|seat| {
            if humans.contains(&seat) {
                return Seat::Human;
            }
            let bot = if per_bot_seat {
                next_bot.next()
            } else {
                bots.get(seat).copied()
            };
            Seat::Bot(bot.expect("one bot per bot seat"))
        })
        .collect())
}

/// How a game in the terminal ended.
#[derive(Debug, PartialEq, Eq)]
pub enum Ending {
    /// The game is over and its record written.
    Over,
    /// The person stopped (`q` or the end of the input); the record keeps the game.
    Stopped,
    /// The record could not be written.
    SaveFailed(String),
    /// The input was refused (a line longer than [`MAX_TYPED_BYTES`]); the record keeps
    /// the game.
    InputRefused(String),
}

/// Writes the record after every move, and on Ctrl-C says where it is and stops.
#[derive(Clone)]
pub struct Saver {
    path: String,
    /// Held while the record is written, so that Ctrl-C never cuts a write short.
    lock: Arc<Mutex<()>>,
    /// The command that resumes the game.
    resume: String,
}

impl Saver {
    /// A saver for the game of `table`, into `path`.
    pub fn new(path: &str, table: &Table) -> Saver {
        let humans: Vec<String> = table
            .seats()
            .iter()
            .enumerate()
            .filter(|(_, s)| **s == Seat::Human)
            .map(|(i, _)| format!(" --human {i}"))
            .collect();
        let bots: Vec<String> = table
            .seats()
            .iter()
            .filter_map(|s| match s {
                Seat::Bot(b) => Some(b.to_string()),
                Seat::Human => None,
            })
            .collect();
        let bots = if bots.iter().all(|b| *b == bots[0]) {
            bots[..1].join(",")
        } else {
            bots.join(",")
        };
        Saver {
            path: path.to_string(),
            lock: Arc::new(Mutex::new(())),
            resume: format!(
                "carcassonne play --resume {}{} --bots {bots}",
                shell_word(path),
                humans.concat()
            ),
        }
    }

    /// On Ctrl-C: waits for a write in progress, says where the game is kept and how to
    /// go on, and exits with status 130. (Once per process; a second call does nothing.)
    pub fn on_interrupt(&self) {
        let saver = self.clone();
        let _ = ctrlc::set_handler(move || {
            let _guard = saver.lock.lock();
            eprintln!(
                "\ninterrupted: the game is kept in {}; go on with\n  {}",
                saver.path, saver.resume
            );
            std::process::exit(130);
        });
    }

    /// Writes the record of `table` (with what resumes it, if it is not over) through a
    /// temporary file, so that the file always holds a whole record.
    pub fn save(&self, table: &Table) -> Result<(), String> {
        let _guard = self.lock.lock();
        let mut json = table.record().to_string();
        json.push('\n');
        let tmp = format!("{}.part", self.path);
        std::fs::write(&tmp, json)
            .and_then(|_| std::fs::rename(&tmp, &self.path))
            .map_err(|e| format!("cannot write the record to {}: {e}", self.path))
    }
}

/// A path as one shell word (quoted when it holds anything but plain characters).
fn shell_word(path: &str) -> String {
    if path
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || "-_./+=:@".contains(c))
    {
        path.to_string()
    } else {
        format!("'{}'", path.replace('\'', "'\\''"))
    }
}

/// Plays `table` to its end or until the person stops, reading from `input` and
/// writing to `output`; the record is saved by `saver` after every move.
pub fn play(
    mut table: Table,
    saver: &Saver,
    input: &mut dyn BufRead,
    output: &mut dyn Write,
) -> std::io::Result<Ending> {
    let mut out = String::new();
    intro(&table, saver, &mut out);
    output.write_all(out.as_bytes())?;
    let mut last_view: Option<Evaluation> = None;
    let mut shown = u64::MAX;
    loop {
        if let Err(m) = saver.save(&table) {
            writeln!(output, "{m}")?;
            return Ok(Ending::SaveFailed(m));
        }
        if table.game().is_terminal() {
            let mut out = String::new();
            finish(&table, saver, &mut out);
            output.write_all(out.as_bytes())?;
            return Ok(Ending::Over);
        }
        if let Some(m) = table.bot_move() {
            let mut line = format!(
                "{} [{}]: {}\n",
                table::seat_name(m.seat),
                table.seats()[m.seat],
                table.describe(m.action)
            );
            for e in &m.events {
                let _ = writeln!(line, "    {e}");
            }
            output.write_all(line.as_bytes())?;
            output.flush()?;
            if m.evaluation.is_some() {
                last_view = m.evaluation;
            }
            continue;
        }
        let seat = table.human_to_play().expect("a bot or a person decides");
        let choices = table.choices();
        let lines = choices::lines(&choices);
        let squares = choices::square_letters(table.game(), &choices);
        if shown != table.version() {
            let mut out = String::new();
            decision_view(&table, &choices, &lines, &squares, &mut out);
            output.write_all(out.as_bytes())?;
            shown = table.version();
        }
        write!(output, "{} > ", table::seat_name(seat))?;
        output.flush()?;
        let typed = match read_typed(input)? {
            Typed::Line(text) => text,
            Typed::End => {
                writeln!(
                    output,
                    "\nend of input: the game is kept in {}; go on with\n  {}",
                    saver.path, saver.resume
                )?;
                return Ok(Ending::Stopped);
            }
            Typed::TooLong => {
                let m = format!(
                    "a line longer than {MAX_TYPED_BYTES} bytes was typed, the longest read: \
                     stopped, the game is kept in {}; go on with\n  {}",
                    saver.path, saver.resume
                );
                writeln!(output, "\n{m}")?;
                return Ok(Ending::InputRefused(m));
            }
            Typed::NotUtf8 => {
                output.write_all(b"refused: the line is not UTF-8 text\n")?;
                continue;
            }
        };
        let text = typed.trim();
        let mut reply = String::new();
        match text {
            "" => shown = u64::MAX,
            "?" | "help" => help(&table, &choices, &mut reply),
            "u" | "undo" => match table.undo() {
                Ok(s) => {
                    let _ = writeln!(
                        reply,
                        "taken back: the last decision of {}",
                        table::seat_name(s)
                    );
                }
                Err(why) => {
                    let _ = writeln!(reply, "cannot take back: {why}");
                }
            },
            "b" | "board" => reply.push_str(&render::board_text(table.game())),
            "s" | "scores" => scores(&table, &mut reply),
            "t" | "tiles" => tiles_left(table.game(), &mut reply),
            "h" | "hint" => hint(&table, &choices, &lines, &mut reply),
            "m" => match &last_view {
                Some(view) => {
                    let _ = writeln!(reply, "the last MCTS bot's view of its decision:");
                    view_lines(view, table.game(), &mut reply, None);
                }
                None => reply.push_str("no MCTS bot has decided between several actions yet\n"),
            },
            "q" | "quit" => {
                writeln!(
                    output,
                    "stopped: the game is kept in {}; go on with\n  {}",
                    saver.path, saver.resume
                )?;
                return Ok(Ending::Stopped);
            }
            _ => match pick(&choices, &lines, &squares, text) {
                Ok(index) => {
                    let action = choices[index].action;
                    match table.play(action) {
                        Ok(events) => {
                            let _ = writeln!(reply, "you: {}", choices[index].describe());
                            for e in events {
                                let _ = writeln!(reply, "    {e}");
                            }
                        }
                        Err(e) => {
                            let _ = writeln!(reply, "refused: {e}");
                        }
                    }
                }
                Err(message) => reply.push_str(&message),
            },
        }
        output.write_all(reply.as_bytes())?;
    }
}

/// The longest line read from the person, in bytes (its newline included): 4096. A longer
/// line stops the game (the record keeps it), so that input that is not typed (a file
/// without newlines, `/dev/zero`) is not read without end.
pub const MAX_TYPED_BYTES: usize = 4096;

/// A line read from the person.
enum Typed {
    /// A line, its newline included.
    Line(String),
    /// The end of the input.
    End,
    /// A line longer than [`MAX_TYPED_BYTES`]: at most that many bytes were read.
    TooLong,
    /// A line that is not UTF-8 (it has been read whole).
    NotUtf8,
}

/// Reads one line of at most [`MAX_TYPED_BYTES`] from `input`.
fn read_typed(input: &mut dyn BufRead) -> std::io::Result<Typed> {
    let mut bytes = Vec::new();
    let limit = MAX_TYPED_BYTES as u64 + 1;
    if std::io::Read::take(input, limit).read_until(b'\n', &mut bytes)? == 0 {
        return Ok(Typed::End);
    }
    if bytes.len() > MAX_TYPED_BYTES {
        return Ok(Typed::TooLong);
    }
    Ok(String::from_utf8(bytes).map_or(Typed::NotUtf8, Typed::Line))
}

/// What is said when the game begins.
fn intro(table: &Table, saver: &Saver, out: &mut String) {
    let game = table.game();
    let config = game.config();
    let sets: Vec<&str> = config.sets.iter().map(|s| s.key()).collect();
    let _ = writeln!(
        out,
        "game: {} players, sets {}, edition {}, seed {}",
        config.players,
        sets.join(","),
        config.edition.name(),
        config.seed
    );
    for (i, seat) in table.seats().iter().enumerate() {
        let who = match seat {
            Seat::Human => "a person".to_string(),
            Seat::Bot(b) => format!("the {b} bot"),
        };
        let _ = writeln!(out, "  {}: {who}", table::seat_name(i));
    }
    let _ = writeln!(
        out,
        "The record is kept in {} after every move; q or Ctrl-C stops, and\n  {}\ngoes on. Type ? for help.\n",
        saver.path, saver.resume
    );
}

/// What is shown at the end of the game.
fn finish(table: &Table, saver: &Saver, out: &mut String) {
    let game = table.game();
    out.push('\n');
    out.push_str(&render::board_text(game));
    let _ = writeln!(
        out,
        "\ngame over after {} turns; final scores:",
        game.turns().len()
    );
    let winners = game.winners();
    for (seat, score) in game.scores().iter().enumerate() {
        let mark = if winners.contains(&seat) {
            "  (winner)"
        } else {
            ""
        };
        let _ = writeln!(
            out,
            "  {} [{}]: {score}{mark}",
            table::seat_name(seat),
            table.seats()[seat]
        );
    }
    let _ = writeln!(out, "record written to {}", saver.path);
}

/// The scores and supplies.
fn scores(table: &Table, out: &mut String) {
    let game = table.game();
    for seat in 0..game.num_players() {
        let _ = writeln!(
            out,
            "  {} [{}]: {} points; holds {}",
            table::seat_name(seat),
            table.seats()[seat],
            game.scores()[seat],
            table::supply_text(game, seat)
        );
    }
}

/// The tiles left to draw, by kind.
fn tiles_left(game: &Game, out: &mut String) {
    let counts = game.remaining_tiles();
    let _ = writeln!(out, "{} tiles left to draw:", game.tiles_left());
    let mut line = String::from(" ");
    for kind in catalogue().kinds() {
        let n = counts.get(kind.index()).copied().unwrap_or(0);
        if n == 0 {
            continue;
        }
        let item = format!(" {}×{n}", kind.id());
        if line.len() + item.len() > 88 {
            let _ = writeln!(out, "{line}");
            line = String::from(" ");
        }
        line.push_str(&item);
    }
    if line.trim().is_empty() {
        out.push_str("  none\n");
    } else {
        let _ = writeln!(out, "{line}");
    }
}

/// The view of a person's decision: the status line, the board and tiles the choices
/// name, and the numbered choices.
fn decision_view(
    table: &Table,
    choices: &[Choice],
    lines: &[Line],
    squares: &[(Pos, String)],
    out: &mut String,
) {
    let game = table.game();
    let seat = game.to_play();
    let scores: Vec<String> = (0..game.num_players())
        .map(|s| {
            format!(
                "{} {}",
                render::PLAYER_COLOUR_NAMES[s % 6],
                game.scores()[s]
            )
        })
        .collect();
    let _ = writeln!(
        out,
        "\n== turn {}: {} to decide == scores: {} == {} tiles left",
        game.turns().len(),
        table::seat_name(seat),
        scores.join(", "),
        game.tiles_left()
    );
    let _ = writeln!(out, "you hold {}", table::supply_text(game, seat));
    for note in carcassonne_session::render::notes(game) {
        let _ = writeln!(out, "{note}");
    }
    if table.can_undo().is_ok() {
        out.push_str("(u takes back your last decision)\n");
    }
    // The board, when a choice names an empty square (where a tile goes).
    let empty: Vec<(Pos, &str)> = squares
        .iter()
        .filter(|(p, _)| !game.board().is_placed(*p))
        .map(|(p, l)| (*p, l.as_str()))
        .collect();
    if !empty.is_empty() {
        out.push('\n');
        out.push_str(&render::board_grid_text(game, &empty));
    }
    if let Some(tile) = game.tile_in_hand() {
        if choices.iter().any(|c| c.rotation().is_some()) {
            let _ = writeln!(out, "\ntile in hand: {}", tile.id());
            let blocks: Vec<(String, render::TileBlock)> = Rotation::ALL
                .iter()
                .map(|&r| {
                    (
                        format!("turned {}", r.quarter_turns()),
                        render::tile_block(tile, r),
                    )
                })
                .collect();
            out.push_str(&blocks_side_by_side(&blocks));
        }
    }
    // Tiles the choices name by id (a bazaar's offer).
    let mut named: Vec<carcassonne::TileKind> = Vec::new();
    for c in choices {
        for f in &c.fields {
            if let carcassonne::action::FieldValue::Tile(t) = f.value {
                if !named.contains(&t) {
                    named.push(t);
                }
            }
        }
    }
    if !named.is_empty() {
        let blocks: Vec<(String, render::TileBlock)> = named
            .iter()
            .map(|&t| {
                (
                    t.id().to_string(),
                    render::tile_block(t, Rotation::default()),
                )
            })
            .collect();
        out.push('\n');
        out.push_str(&blocks_side_by_side(&blocks));
    }
    // Placed tiles whose features the choices name, their features lettered; letters are
    // named in the choices only when their tiles are shown.
    let mut marks = feature_marks(game, choices);
    let tiles: Vec<Pos> = {
        let mut v: Vec<Pos> = Vec::new();
        for (pos, _, _) in &marks {
            if !v.contains(pos) {
                v.push(*pos);
            }
        }
        v
    };
    if !tiles.is_empty() && tiles.len() <= 6 {
        let blocks: Vec<(String, render::TileBlock)> = tiles
            .iter()
            .filter_map(|&pos| {
                let p = game.board().placement(game.board().index_at(pos)?);
                let m: Vec<(u8, char)> = marks
                    .iter()
                    .filter(|(q, _, _)| *q == pos)
                    .map(|(_, local, c)| (*local, *c))
                    .collect();
                Some((
                    format!("{pos}"),
                    render::tile_block_marked(p.kind, p.rot, &m),
                ))
            })
            .collect();
        out.push_str("\nfeatures named below, lettered on their tiles:\n");
        out.push_str(&blocks_side_by_side(&blocks));
    } else {
        marks.clear();
    }
    let _ = writeln!(out, "\nyour decision: {}", render::phase_words(game));
    list_choices(game, choices, lines, squares, &marks, out);
}

/// The letter of each feature that a choice names: `(tile, local, letter)`, each letter
/// used once in the decision (`a` to `z`; features past the 26th have none).
fn feature_marks(game: &Game, choices: &[Choice]) -> Vec<(Pos, u8, char)> {
    let mut marks: Vec<(Pos, u8, char)> = Vec::new();
    for c in choices {
        let (Some(pos), Some(local)) = (c.pos, c.feature()) else {
            continue;
        };
        if !game.board().is_placed(pos) || marks.iter().any(|(p, l, _)| *p == pos && *l == local) {
            continue;
        }
        if let Some(letter) = (b'a'..=b'z').nth(marks.len()) {
            marks.push((pos, local, letter as char));
        }
    }
    marks
}

/// The numbered choices, grouped by kind and square: a group of short choices on one
/// line (`A (2, -1):  1 turned 0   2 turned 2`), others one per line.
fn list_choices(
    game: &Game,
    choices: &[Choice],
    lines: &[Line],
    squares: &[(Pos, String)],
    marks: &[(Pos, u8, char)],
    out: &mut String,
) {
    let _ = game;
    let mut k = 0;
    while k < lines.len() {
        let first = &choices[lines[k].choices[0]];
        let key = (first.action.kind(), first.pos);
        let mut end = k + 1;
        while end < lines.len() {
            let c = &choices[lines[end].choices[0]];
            if (c.action.kind(), c.pos) != key {
                break;
            }
            end += 1;
        }
        let group = &lines[k..end];
        let short = first.pos.is_some()
            && group.iter().all(|l| l.choices.len() == 1)
            && group
                .iter()
                .all(|l| choices[l.choices[0]].detail().len() <= 12);
        if short {
            let letter = squares
                .iter()
                .find(|(p, _)| Some(*p) == first.pos)
                .map_or("", |(_, l)| l.as_str());
            let pos = first.pos.expect("a square");
            let mut line = format!("  {letter:>2} {:<10}", format!("{pos}"));
            let _ = write!(line, " {}:", first.label());
            for (i, l) in group.iter().enumerate() {
                let c = &choices[l.choices[0]];
                let mut item = format!("  {}) {}", k + i + 1, c.detail());
                if let Some((_, _, letter)) = marks
                    .iter()
                    .find(|(p, f, _)| Some(*p) == c.pos && Some(*f) == c.feature())
                {
                    let _ = write!(item, " ({letter})");
                }
                if line.len() + item.len() > 88 {
                    let _ = writeln!(out, "{line}");
                    line = " ".repeat(16);
                }
                line.push_str(&item);
            }
            let _ = writeln!(out, "{line}");
        } else {
            for (i, l) in group.iter().enumerate() {
                let c = &choices[l.choices[0]];
                let mut text = choices::line_text(choices, l);
                if let (Some(pos), Some(local)) = (c.pos, c.feature()) {
                    if let Some((_, _, letter)) =
                        marks.iter().find(|(p, f, _)| *p == pos && *f == local)
                    {
                        let _ = write!(text, " ({letter})");
                    }
                }
                if l.choices.len() > 1 {
                    let _ = write!(text, "  [type {} and the bid]", k + i + 1);
                }
                let _ = writeln!(out, "  {:>3}) {text}", k + i + 1);
            }
        }
        k = end;
    }
}

/// Tile blocks side by side, each with its caption above.
fn blocks_side_by_side(blocks: &[(String, render::TileBlock)]) -> String {
    let mut out = String::new();
    for row in blocks.chunks(8) {
        let width = row
            .iter()
            .map(|(c, _)| c.chars().count().max(5))
            .max()
            .unwrap_or(5)
            + 3;
        let mut lines = vec![String::new(); 4];
        for (caption, block) in row {
            let _ = write!(lines[0], "{caption:<width$}");
            for (l, cells) in block.iter().enumerate() {
                let cells: String = cells.iter().collect();
                let _ = write!(lines[l + 1], "{cells:<width$}");
            }
        }
        for line in lines {
            let _ = writeln!(out, "  {}", line.trim_end());
        }
    }
    out
}

/// Finds the choice that typed `text` names: a line number (and a bid for a line of
/// bids), or words ([`choices::match_words`]). The error says what was wrong and lists
/// the choices that fit, if several do.
fn pick(
    choices: &[Choice],
    lines: &[Line],
    squares: &[(Pos, String)],
    text: &str,
) -> Result<usize, String> {
    let words = choices::words(text);
    let Some(first) = words.first() else {
        return Err("type a choice's number, or ? for help\n".into());
    };
    let all: Vec<usize> = (0..choices.len()).collect();
    // A number first: a line.
    let (candidates, rest): (Vec<usize>, &[String]) = match first.parse::<usize>() {
        Ok(n)
            if words.len() == 1
                || lines
                    .get(n.wrapping_sub(1))
                    .is_some_and(|l| l.choices.len() > 1) =>
        {
            let line = lines.get(n.wrapping_sub(1)).ok_or_else(|| {
                format!(
                    "there is no choice {n}: the choices are numbered 1 to {}\n",
                    lines.len()
                )
            })?;
            (line.choices.clone(), &words[1..])
        }
        _ => (all, &words[..]),
    };
    if rest.is_empty() && candidates.len() > 1 && candidates.len() < choices.len() {
        // A line of bids, without the bid.
        let (lo, hi) = choices::bid_range(choices, &candidates);
        return Err(format!(
            "choice {first} needs a bid from {lo} to {hi}: type `{first} BID` (`{first} {lo}` bids {lo})\n"
        ));
    }
    let found = if rest.is_empty() {
        candidates.clone()
    } else {
        choices::match_words(choices, &candidates, squares, rest)
    };
    match found.as_slice() {
        [one] => Ok(*one),
        [] if candidates.len() > 1 && rest.is_empty() => Err("more words are needed\n".into()),
        [] => Err(format!(
            "{:?} names no choice here; type a number from 1 to {}, or ? for help\n",
            text,
            lines.len()
        )),
        many => {
            let mut m = format!("{:?} fits {} choices; be more precise:\n", text, many.len());
            for &i in many.iter().take(12) {
                let n = lines
                    .iter()
                    .position(|l| l.choices.contains(&i))
                    .map_or(0, |n| n + 1);
                let _ = writeln!(m, "  {n:>3}) {}", choices[i].describe());
            }
            if many.len() > 12 {
                let _ = writeln!(m, "  ... and {} more", many.len() - 12);
            }
            Err(m)
        }
    }
}

/// The help of the current decision: what to type, what the game waits for, and the
/// rules of each kind of choice offered (the action schema's documentation).
fn help(table: &Table, choices: &[Choice], out: &mut String) {
    out.push_str(COMMANDS);
    let game = table.game();
    let phase: Phase = game.phase();
    out.push('\n');
    wrap_into(
        out,
        &format!(
            "The decision: {} ({}).",
            render::phase_words(game),
            phase.doc().trim()
        ),
        "  ",
    );
    out.push_str("What each kind of choice here does:\n");
    let mut kinds = Vec::new();
    for c in choices {
        if !kinds.contains(&c.action.kind()) {
            kinds.push(c.action.kind());
        }
    }
    for kind in kinds {
        let spec = kind.spec();
        let line = format!(
            "  {} ({}): {}",
            render::action_words(kind),
            spec.name,
            spec.doc
        );
        wrap_into(out, &line, "      ");
    }
    out.push_str(
        "The text board: # city, = road, . field, ~ river, + abbey wall, M monastery, A abbey,\n\
         G garden, V volcano, P magic portal; digits are figures of that seat, D the\n\
         dragon, F the fairy; letters in empty squares are where choices put a tile.\n",
    );
}

/// The widest line of the help text, in characters.
const HELP_WIDTH: usize = 100;

/// Appends `text` to `out` wrapped at spaces to lines of at most [`HELP_WIDTH`]
/// characters (a single word longer than that stays whole), the lines after the first
/// indented by `indent`; the text's own line breaks and leading indentation are kept.
fn wrap_into(out: &mut String, text: &str, indent: &str) {
    for paragraph in text.lines() {
        let lead = paragraph.len() - paragraph.trim_start().len();
        let mut line = paragraph[..lead].to_string();
        let mut width = lead;
        let mut empty = true;
        for word in paragraph.split_whitespace() {
            let w = word.chars().count();
            if !empty && width + 1 + w > HELP_WIDTH {
                out.push_str(&line);
                out.push('\n');
                line = indent.to_string();
                width = indent.chars().count();
                empty = true;
            }
            if !empty {
                line.push(' ');
                width += 1;
            }
            line.push_str(word);
            width += w;
            empty = false;
        }
        out.push_str(&line);
        out.push('\n');
    }
}

/// A hint: an MCTS search of the current decision with the strongest MCTS bot's budget
/// at the table, or [`HINT_ITERATIONS`] iterations.
fn hint(table: &Table, choices: &[Choice], lines: &[Line], out: &mut String) {
    let config = table
        .seats()
        .iter()
        .filter_map(|s| match s {
            Seat::Bot(Bot::Mcts(c)) => Some(*c),
            _ => None,
        })
        .next()
        .unwrap_or_else(|| MctsConfig::new(Budget::Iterations(HINT_ITERATIONS)));
    let game = table.game();
    let seed = game.state_hash();
    match config.evaluate(game, &mut Rng::new(seed)) {
        Some(view) => {
            let _ = writeln!(
                out,
                "{config} thinks ({} iterations; value {:.2} for you, ½ is even):",
                view.iterations, view.value
            );
            view_lines(&view, game, out, Some((choices, lines)));
        }
        None => out.push_str("nothing to search here\n"),
    }
}

/// The five most visited actions of a search with their visit shares.
fn view_lines(
    view: &Evaluation,
    game: &Game,
    out: &mut String,
    numbers: Option<(&[Choice], &[Line])>,
) {
    for a in view.top(5) {
        let number = numbers
            .and_then(|(choices, lines)| {
                let i = choices.iter().position(|c| c.action == a.action)?;
                lines.iter().position(|l| l.choices.contains(&i))
            })
            .map_or(String::new(), |n| format!("{:>3}) ", n + 1));
        // The board only grows: the tiles an older decision names are still there.
        let text = Choice::of(game, a.action).describe();
        let _ = writeln!(
            out,
            "  {:>5.1}%  {number}{text}{}",
            a.share * 100.0,
            a.mean_reward
                .map_or(String::new(), |m| format!("  (mean reward {m:.2})"))
        );
    }
}

#[cfg(test)]
#[path = "tests/unit/human.rs"]
mod tests;
