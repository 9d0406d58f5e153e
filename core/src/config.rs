//! Game configuration: players, edition, tile sets, rule switches, figures and seed,
//! validated on creation.
//!
//! Every rule switch of the rules reference (`docs/rules.md` §9) is a field of [`RuleSwitches`];
//! [`GameConfig::validate`] reports a bad configuration as a [`ConfigError`] naming the
//! field and the reason.
//!
//! One JSON schema for every front end: [`GameConfig::from_json`] reads a configuration
//! object (the record format's `setup`: `players`, `edition`, `sets`, `rules`, `figures`,
//! `start`, `seed`) and [`GameConfig::to_json`] writes one. Its errors name the field by
//! its path inside that object (`players`, `sets[1]`, `rules.fairy`, `start.rot`); the
//! record loader prefixes them with `setup.`, the C ABI and Python pass them through.
//! Unknown keys are errors at every level, numbers are never clamped or truncated.
//!
//! ```
//! use carcassonne::config::{GameConfig, Edition};
//! use carcassonne::tiles::TileSet;
//! let mut config = GameConfig::new(3);
//! config.sets = vec![TileSet::Base, TileSet::River1];
//! config.edition = Edition::C1;
//! assert!(config.validate().is_ok());
//! config.players = 9;
//! assert_eq!(config.validate().unwrap_err().field, "players");
//! ```

use crate::geometry::{Pos, Rotation};
use crate::names::same_name;
use crate::tiles::{catalogue, TileKind, TileSet};
use serde_json::{json, Map, Value};
use std::fmt;

/// Most players a game accepts (B1).
pub const MAX_PLAYERS: usize = 6;

/// Most followers a player may have (`figures.follower`).
pub const MAX_FOLLOWERS: u8 = 30;

// Each expansion declares its rule switches in its module; the configuration gathers
// them here.
pub use crate::rules::abbey_mayor::{BarnPlacement, WagonMove};
pub use crate::rules::count::{CountFinal, CountLandscape};
pub use crate::rules::hills_sheep::HillTiebreak;
pub use crate::rules::princess_dragon::{DragonMove, FairyRule, PrincessRule};
pub use crate::rules::river::RiverLakes;
pub use crate::rules::traders_builders::VolcanoSpecials;

crate::named_enum! {
    /// The tile edition (`edition` switch).
    #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
    pub enum Edition {
        /// First edition: no gardens.
        C1 = "C1",
        /// Second edition, gardens (default).
        #[default]
        C2 = "C2",
        /// Third edition: the C2 content; sets without a C3 count use their C2 counts.
        C3 = "C3",
    }
}

impl Edition {
    /// Copies of `kind` in this edition.
    pub fn count(self, kind: TileKind) -> u8 {
        let def = kind.def();
        match self {
            Edition::C1 => def.counts[0],
            Edition::C2 => def.counts[1],
            Edition::C3 if def.has_c3_count => def.counts[2],
            Edition::C3 => def.counts[1],
        }
    }
}

/// Declares [`RuleSwitches`] from its switches, once: the struct, its default, the reader and
/// writer of a `rules` object, and the list of switches with their values.
macro_rules! rule_switches {
    ($($(#[doc = $doc:literal])* $key:ident: $ty:ty = $default:expr,)+) => {
        /// The rule switches (`docs/rules.md` §9).
        #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
        pub struct RuleSwitches {
            $($(#[doc = $doc])* pub $key: $ty,)+
        }

        impl Default for RuleSwitches {
            fn default() -> RuleSwitches {
                RuleSwitches {
                    $($key: $default,)+
                }
            }
        }

        impl RuleSwitches {
            /// Every switch: its key in a `rules` object and its values, as written there
            /// (the defaults are `RuleSwitches::default().to_json()`).
            pub fn switches() -> Vec<(&'static str, Vec<String>)> {
                vec![$((stringify!($key), <$ty as SwitchValue>::allowed()),)+]
            }

            /// Sets switch `key` from `v` (`text`: `v` as text); `None` if there is no such
            /// switch, `Some(Err(allowed values))` if the value is not one of them.
            fn set(&mut self, key: &str, v: &Value, text: &str) -> Option<Result<(), Vec<String>>> {
                match key {
                    $(stringify!($key) => Some(match <$ty as SwitchValue>::read(v, text) {
                        Some(value) => {
                            self.$key = value;
                            Ok(())
                        }
                        None => Err(<$ty as SwitchValue>::allowed()),
                    }),)+
                    _ => None,
                }
            }

            /// The `rules` object of these switches (every switch).
            pub fn to_json(&self) -> Value {
                let mut object = Map::new();
                $(object.insert(stringify!($key).into(), self.$key.write());)+
                Value::Object(object)
            }
        }
    };
}

rule_switches! {
    /// Farmers and field scoring (B16); `false` forbids followers on fields.
    farmers: bool = true,
    /// Points per tile of a completed 2-tile city: 2 (4 in all, default) or 1 (legacy `2`).
    tiny_city: u8 = 4,
    /// PD4.
    dragon_move: DragonMove = DragonMove::default(),
    /// PD9.
    princess: PrincessRule = PrincessRule::default(),
    /// PD15.
    fairy: FairyRule = FairyRule::default(),
    /// AM6.
    barn_placement: BarnPlacement = BarnPlacement::default(),
    /// AM11.
    wagon_move: WagonMove = WagonMove::default(),
    /// R5: the pig herd adds 1 point per city to its field's farmers (default `true`, as
    /// the River II rules say); `false` is the reading of engines that ignore it.
    pig_herd: bool = true,
    /// R6.
    river2_lakes: RiverLakes = RiverLakes::default(),
    /// PD16c: the fairy's bonus also at final scoring (default `true`); `false`: only
    /// when a completed feature scores during play.
    fairy_final_bonus: bool = true,
    /// CC6.
    count_final: CountFinal = CountFinal::default(),
    /// CC8.
    count_landscape: CountLandscape = CountLandscape::default(),
    /// PD1 with TB3, TB5: whether builders and pigs may go on a volcano tile.
    volcano_specials: VolcanoSpecials = VolcanoSpecials::default(),
    /// HS4.
    hill_tiebreak: HillTiebreak = HillTiebreak::default(),
}

/// How the value of a rule switch is read from and written to a `rules` object.
trait SwitchValue: Sized {
    /// The values allowed, as written.
    fn allowed() -> Vec<String>;
    /// The value `v` (`text`: `v` as text), if allowed.
    fn read(v: &Value, text: &str) -> Option<Self>;
    /// The value as written.
    fn write(&self) -> Value;
}

impl SwitchValue for bool {
    fn allowed() -> Vec<String> {
        vec!["true".into(), "false".into()]
    }
    fn read(v: &Value, _: &str) -> Option<bool> {
        v.as_bool()
    }
    fn write(&self) -> Value {
        Value::Bool(*self)
    }
}

/// The one numeric switch, `tiny_city`: 4 or 2.
impl SwitchValue for u8 {
    fn allowed() -> Vec<String> {
        vec!["4".into(), "2".into()]
    }
    fn read(_: &Value, text: &str) -> Option<u8> {
        match text {
            "4" => Some(4),
            "2" => Some(2),
            _ => None,
        }
    }
    fn write(&self) -> Value {
        json!(self)
    }
}

impl<T: crate::names::Named> SwitchValue for T {
    fn allowed() -> Vec<String> {
        T::all().iter().map(|v| v.name().to_string()).collect()
    }
    fn read(_: &Value, text: &str) -> Option<T> {
        T::with_name(text)
    }
    fn write(&self) -> Value {
        Value::String(self.name().into())
    }
}

crate::named_enum! {
    /// A kind of figure a player owns. New kinds go at the end (the C ABI numbers them in
    /// this order).
    #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
    #[repr(u8)]
    pub enum Figure {
        /// An ordinary follower (meeple).
        Follower(0) = "follower",
        /// The abbot (A1).
        Abbot(1) = "abbot",
        /// The mayor (AM5).
        Mayor(2) = "mayor",
        /// The wagon (AM10).
        Wagon(3) = "wagon",
        /// The barn (AM6).
        Barn(4) = "barn",
        /// The big follower (IC1): a follower that counts as two in every majority.
        BigFollower(5) = "big-follower",
        /// The builder (TB3): on a road or city beside its owner's follower; no follower,
        /// no majority, earns a second turn (TB4).
        Builder(6) = "builder",
        /// The pig (TB5): on a field beside its owner's farmer; no follower, no majority,
        /// adds a point per city to its owner's field scoring.
        Pig(7) = "pig",
        /// The shepherd (HS1): on a field, with its flock of sheep; no follower, no
        /// majority.
        Shepherd(8) = "shepherd",
    }
}

impl Figure {
    /// Index into supplies.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Whether the figure is a follower for occupation and majorities (B7, B13): every
    /// figure that stands on a feature and is not one of the expansions' pieces that
    /// count for no majority (the builder and the pig, TB6; the shepherd, HS1); not the
    /// barn, which stands on a corner.
    pub const fn is_follower_like(self) -> bool {
        !matches!(
            self,
            Figure::Barn | Figure::Builder | Figure::Pig | Figure::Shepherd
        )
    }

    /// Whether the figure stands on a feature of a tile (its `BoardFigure::local` is a
    /// feature); the barn stands on a corner.
    pub const fn stands_on_feature(self) -> bool {
        !matches!(self, Figure::Barn)
    }

    /// The figures that are followers for occupation and majorities
    /// ([`Figure::is_follower_like`]), in [`Figure::ALL`]'s order: what a deployment on a
    /// feature may offer, listed once at compile time instead of filtered per feature.
    ///
    /// ```
    /// use carcassonne::Figure;
    /// assert!(Figure::FOLLOWER_LIKE.iter().all(|f| f.is_follower_like()));
    /// let count = Figure::ALL.iter().filter(|f| f.is_follower_like()).count();
    /// assert_eq!(Figure::FOLLOWER_LIKE.len(), count);
    /// ```
    pub const FOLLOWER_LIKE: [Figure; FOLLOWER_LIKE_COUNT] = {
        let mut out = [Figure::Follower; FOLLOWER_LIKE_COUNT];
        let (mut i, mut n) = (0, 0);
        while i < Figure::ALL.len() {
            if Figure::ALL[i].is_follower_like() {
                out[n] = Figure::ALL[i];
                n += 1;
            }
            i += 1;
        }
        out
    };
}

/// How many figures are follower-like ([`Figure::FOLLOWER_LIKE`]).
const FOLLOWER_LIKE_COUNT: usize = {
    let (mut i, mut n) = (0, 0);
    while i < Figure::ALL.len() {
        if Figure::ALL[i].is_follower_like() {
            n += 1;
        }
        i += 1;
    }
    n
};

/// Declares [`Figures`] from its keys, once: the struct, its counts in key order and
/// back, the keys of a `figures` object, and where each figure's count is. A key is a
/// field name, written with `as "key"` where the key is not the field's name (a figure's
/// key is its name, [`Figure::name`]). Keys keep their order when new ones come (the C
/// ABI's supply struct has a byte per key in this order): a new key goes at the end.
macro_rules! figure_counts {
    ($($(#[doc = $doc:literal])* $field:ident $(as $key:literal)?),+ $(,)?) => {
        /// Figures (and abbey tiles) of a player: those each player starts with
        /// ([`GameConfig::figures`]), or those one holds ([`crate::Game::held`]).
        #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
        pub struct Figures {
            $($(#[doc = $doc])* pub $field: u8,)+
        }

        impl Figures {
            /// The keys of a `figures` object, in the order they joined the game (a
            /// figure's key is its name; `abbey` counts abbey tiles).
            pub const KEYS: [&'static str; [$(stringify!($field)),+].len()] =
                [$(figure_counts!(@key $field $($key)?)),+];

            /// The name of each key's field of [`Figures`], in key order (the key with `_`
            /// for `-`: the C ABI's supply struct names its bytes so).
            pub const FIELDS: [&'static str; Figures::KEYS.len()] = [$(stringify!($field)),+];

            /// The documentation of each key, in key order (the C ABI's supply struct
            /// repeats it).
            pub const DOCS: [&'static str; Figures::KEYS.len()] = [$(concat!($($doc, "\n"),*)),+];

            /// Every count in key order.
            pub fn counts(&self) -> [u8; Figures::KEYS.len()] {
                [$(self.$field),+]
            }

            /// The counts given in key order.
            pub fn from_counts(counts: [u8; Figures::KEYS.len()]) -> Figures {
                let mut counts = counts.into_iter();
                Figures {
                    $($field: counts.next().expect("one count per key"),)+
                }
            }
        }
    };
    (@key $field:ident) => { stringify!($field) };
    (@key $field:ident $key:literal) => { $key };
}

figure_counts! {
    /// Followers (B1: 7).
    follower,
    /// Abbots (A1: 0 or 1).
    abbot,
    /// Mayors (Abbey & Mayor).
    mayor,
    /// Wagons (Abbey & Mayor).
    wagon,
    /// Barns (Abbey & Mayor).
    barn,
    /// Abbey tiles (Abbey & Mayor).
    abbey,
    /// Big followers (Inns & Cathedrals: 1).
    big_follower as "big-follower",
    /// Builders (Traders & Builders: 1).
    builder,
    /// Pigs (Traders & Builders: 1).
    pig,
    /// Shepherds (Hills & Sheep: 1).
    shepherd,
}

impl Figures {
    /// The position of `key` in [`Figures::KEYS`], in a constant (fails to compile for an
    /// unknown key).
    pub const fn key_position(key: &str) -> usize {
        let mut i = 0;
        while i < Figures::KEYS.len() {
            if same_name(Figures::KEYS[i], key) {
                return i;
            }
            i += 1;
        }
        panic!("not a key of Figures")
    }

    /// The position of the abbey tiles' count in [`Figures::KEYS`].
    pub const ABBEY_KEY: usize = Figures::key_position("abbey");

    /// The position of each figure's count in [`Figures::KEYS`], by [`Figure::index`].
    pub const FIGURE_KEYS: [usize; Figure::ALL.len()] = {
        let mut keys = [0; Figure::ALL.len()];
        let mut i = 0;
        while i < Figure::ALL.len() {
            keys[i] = Figures::key_position(Figure::ALL[i].name());
            i += 1;
        }
        keys
    };
}

impl Figures {
    /// Supply of a figure kind.
    pub fn of(&self, f: Figure) -> u8 {
        self.counts()[Figures::FIGURE_KEYS[f.index()]]
    }

    /// The count of `key` (one of [`Figures::KEYS`]).
    pub fn count(&self, key: &str) -> Option<u8> {
        Some(self.counts()[Figures::key_index(key)?])
    }

    /// The position of `key` in [`Figures::KEYS`].
    fn key_index(key: &str) -> Option<usize> {
        Figures::KEYS.iter().position(|k| *k == key)
    }

    /// The default figures for a set selection: 7 followers (B1), no abbot, and the
    /// figures of the expansions in play.
    pub fn default_for(sets: &[TileSet]) -> Figures {
        let mut counts = [0; Figures::KEYS.len()];
        counts[Figures::FIGURE_KEYS[Figure::Follower.index()]] = 7;
        crate::rules::default_figures(sets, &mut counts);
        Figures::from_counts(counts)
    }
}

/// A configuration error: which field, and what is wrong with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConfigError {
    /// The field, as named in configs and records (`players`, `sets`, `rules.fairy`, ...).
    pub field: String,
    /// What is wrong.
    pub message: String,
}

impl ConfigError {
    /// An error on `field`.
    pub fn new(field: impl Into<String>, message: impl Into<String>) -> ConfigError {
        ConfigError {
            field: field.into(),
            message: message.into(),
        }
    }

    /// The same error with its field path under `prefix` (`setup` gives `setup.players`).
    pub fn under(self, prefix: &str) -> ConfigError {
        ConfigError {
            field: format!("{prefix}.{}", self.field),
            message: self.message,
        }
    }
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.field, self.message)
    }
}

impl std::error::Error for ConfigError {}

/// Everything that decides how a game is set up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameConfig {
    /// Number of players, 2..=6 (B1).
    pub players: u8,
    /// Tile edition.
    pub edition: Edition,
    /// Tile sets in play; must include `base`.
    pub sets: Vec<TileSet>,
    /// Rule switches.
    pub rules: RuleSwitches,
    /// Figures per player.
    pub figures: Figures,
    /// Seed of the game's random generator (tile draws in sampled mode).
    pub seed: u64,
    /// Start tile and rotation; `None` chooses by the sets (B2, R1, R4).
    pub start: Option<(TileKind, Rotation)>,
}

impl GameConfig {
    /// A base-game configuration for `players` players with default rules and figures.
    pub fn new(players: u8) -> GameConfig {
        GameConfig {
            players,
            edition: Edition::C2,
            sets: vec![TileSet::Base],
            rules: RuleSwitches::default(),
            figures: Figures::default_for(&[TileSet::Base]),
            seed: 0,
            start: None,
        }
    }

    /// Whether `set` is in play.
    pub fn has(&self, set: TileSet) -> bool {
        self.sets.contains(&set)
    }

    /// The start tile at `(0, 0)` and its rotation: the given one, else with the Count
    /// the square of the quarters (`COUNT-07`, CC1), else River II's spring with River
    /// II, River I's spring with River I alone, else `BASE-D` (B2, R1, R4).
    pub fn start_tile(&self) -> (TileKind, Rotation) {
        if let Some(s) = self.start {
            return s;
        }
        let id = if self.has(TileSet::Count) {
            "COUNT-07"
        } else if self.has(TileSet::River2) {
            "RIV2-SPRING"
        } else if self.has(TileSet::River1) {
            "RIV1-SPRING"
        } else {
            "BASE-D"
        };
        (
            catalogue().by_id(id).expect("start tile in catalogue"),
            Rotation::default(),
        )
    }

    /// The spring of the sets in play, if a river is.
    fn spring(&self) -> Option<TileKind> {
        let id = if self.has(TileSet::River2) {
            "RIV2-SPRING"
        } else if self.has(TileSet::River1) {
            "RIV1-SPRING"
        } else {
            return None;
        };
        catalogue().by_id(id)
    }

    /// Every tile on the board when the game begins, in the order they are laid: the
    /// start tile at `(0, 0)`, or with the Count the twelve squares of the City of
    /// Carcassonne (rows north to south, `COUNT-01` at `(-2, -1)`, `COUNT-07` at `(0, 0)`,
    /// CC1) followed, with a river, by the spring at `(2, -1)` (CC9).
    pub fn start_tiles(&self) -> Vec<(TileKind, Pos, Rotation)> {
        if !self.has(TileSet::Count) {
            let (tile, rot) = self.start_tile();
            return vec![(tile, Pos::new(0, 0), rot)];
        }
        let mut tiles: Vec<(TileKind, Pos, Rotation)> = (0..12)
            .map(|i| {
                let id = format!("COUNT-{:02}", i + 1);
                let kind = catalogue().by_id(&id).expect("the Count's squares");
                (kind, Pos::new(i % 4 - 2, i / 4 - 1), Rotation::default())
            })
            .collect();
        if let Some(spring) = self.spring() {
            tiles.push((spring, Pos::new(2, -1), Rotation::default()));
        }
        tiles
    }

    /// Checks every field; the first problem found is returned.
    pub fn validate(&self) -> Result<(), ConfigError> {
        if !(2..=MAX_PLAYERS as u8).contains(&self.players) {
            return Err(ConfigError::new(
                "players",
                format!("{} players; 2 to 6 are allowed (B1)", self.players),
            ));
        }
        if !self.has(TileSet::Base) {
            return Err(ConfigError::new("sets", "the base set is required"));
        }
        for (i, s) in self.sets.iter().enumerate() {
            if self.sets[..i].contains(s) {
                return Err(ConfigError::new(
                    "sets",
                    format!("set {} listed twice", s.key()),
                ));
            }
        }
        if self.rules.tiny_city != 4 && self.rules.tiny_city != 2 {
            return Err(ConfigError::new(
                "rules.tiny_city",
                format!("{}; 4 or 2 are allowed", self.rules.tiny_city),
            ));
        }
        let f = &self.figures;
        if f.follower > MAX_FOLLOWERS {
            return Err(ConfigError::new(
                "figures.follower",
                format!("{} followers; at most {MAX_FOLLOWERS}", f.follower),
            ));
        }
        if f.abbot > 1 {
            return Err(ConfigError::new(
                "figures.abbot",
                format!("{}; 0 or 1 abbot (A1)", f.abbot),
            ));
        }
        crate::rules::check_config(self)?;
        if let Some((kind, rot)) = self.start {
            if self.has(TileSet::Count) && (kind.id() != "COUNT-07" || rot != Rotation::default()) {
                return Err(ConfigError::new(
                    "start.tile",
                    "with the Count the game starts with the City of Carcassonne, COUNT-07 at rotation 0 at (0, 0) (CC1)",
                ));
            }
            if !self.has(kind.def().set) {
                return Err(ConfigError::new(
                    "start.tile",
                    format!("{} is not in the sets in play", kind.id()),
                ));
            }
        }
        Ok(())
    }
}

// ----- the JSON schema ------------------------------------------------------------------

/// The keys of a configuration object.
pub const CONFIG_KEYS: [&str; 7] = [
    "players", "edition", "sets", "rules", "figures", "start", "seed",
];

/// Switch values written by the reference engine's records that name its only supported
/// readings (`count_move`, `king_robber_scoring`, `bazaar_auction`): accepted when they
/// have this value, refused otherwise.
const FIXED_SETTINGS: [(&str, &str); 3] = [
    ("count_move", "by-player"),
    ("king_robber_scoring", "end"),
    ("bazaar_auction", "true"),
];

fn object<'a>(v: &'a Value, path: &str) -> Result<&'a Map<String, Value>, ConfigError> {
    v.as_object()
        .ok_or_else(|| ConfigError::new(path, format!("expected an object, found {}", kind_of(v))))
}

/// A short description of a JSON value for messages (never the whole value).
fn kind_of(v: &Value) -> String {
    match v {
        Value::Null => "null".into(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        Value::String(s) if s.chars().count() <= 40 => format!("{s:?}"),
        Value::String(_) => "a long string".into(),
        Value::Array(_) => "an array".into(),
        Value::Object(_) => "an object".into(),
    }
}

fn text<'a>(v: &'a Value, path: &str) -> Result<&'a str, ConfigError> {
    v.as_str()
        .ok_or_else(|| ConfigError::new(path, format!("expected a string, found {}", kind_of(v))))
}

/// An integer in `range`; anything else (a float, a string, a number out of range) is
/// an error naming `path`.
fn int_in(v: &Value, path: &str, range: std::ops::RangeInclusive<i64>) -> Result<i64, ConfigError> {
    let n = v.as_i64().filter(|n| range.contains(n)).ok_or_else(|| {
        ConfigError::new(
            path,
            format!(
                "expected an integer in {}..={}, found {}",
                range.start(),
                range.end(),
                kind_of(v)
            ),
        )
    })?;
    Ok(n)
}

/// A key as written in a field path: plain when short and simple, else quoted and cut
/// after 40 characters (a key is never echoed whole into a message).
fn key_in_path(k: &str) -> String {
    let simple = k
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    match k.char_indices().nth(40) {
        None if simple && !k.is_empty() => k.to_string(),
        None => format!("{k:?}"),
        Some((cut, _)) => format!("{:?}... ({} bytes)", &k[..cut], k.len()),
    }
}

fn check_keys(o: &Map<String, Value>, allowed: &[&str], path: &str) -> Result<(), ConfigError> {
    match o.keys().find(|k| !allowed.contains(&k.as_str())) {
        None => Ok(()),
        Some(k) => {
            let at = if path.is_empty() {
                key_in_path(k)
            } else {
                format!("{path}.{}", key_in_path(k))
            };
            Err(ConfigError::new(
                at,
                format!("unknown key (allowed: {})", allowed.join(", ")),
            ))
        }
    }
}

impl GameConfig {
    /// Reads a configuration object (the record format's `setup`); validated. Errors
    /// name the field by its path in the object.
    ///
    /// ```
    /// use carcassonne::GameConfig;
    /// let v = serde_json::json!({"players": 3, "sets": ["base", "river1"], "rules": {"fairy": "on-tile"}});
    /// assert_eq!(GameConfig::from_json(&v).unwrap().players, 3);
    /// let bad = serde_json::json!({"players": 3, "sets": ["base", "moon"]});
    /// assert_eq!(GameConfig::from_json(&bad).unwrap_err().field, "sets[1]");
    /// ```
    pub fn from_json(v: &Value) -> Result<GameConfig, ConfigError> {
        let o = object(v, "config")?;
        check_keys(o, &CONFIG_KEYS, "")?;
        let players = o
            .get("players")
            .ok_or_else(|| ConfigError::new("players", "missing"))?;
        let n = players.as_i64().ok_or_else(|| {
            ConfigError::new(
                "players",
                format!("expected an integer, found {}", kind_of(players)),
            )
        })?;
        if !(2..=MAX_PLAYERS as i64).contains(&n) {
            return Err(ConfigError::new(
                "players",
                format!("{n} players; 2 to {MAX_PLAYERS} are allowed (B1)"),
            ));
        }
        let mut config = GameConfig::new(n as u8);
        if let Some(e) = o.get("edition") {
            let name = text(e, "edition")?;
            config.edition = Edition::from_name(name).ok_or_else(|| {
                ConfigError::new(
                    "edition",
                    format!("unknown edition {} (C1, C2, C3)", kind_of(e)),
                )
            })?;
        }
        let sets = o
            .get("sets")
            .ok_or_else(|| ConfigError::new("sets", "missing"))?;
        let sets = sets.as_array().ok_or_else(|| {
            ConfigError::new(
                "sets",
                format!("expected an array, found {}", kind_of(sets)),
            )
        })?;
        config.sets = sets
            .iter()
            .enumerate()
            .map(|(i, v)| {
                let p = format!("sets[{i}]");
                let key = text(v, &p)?;
                TileSet::from_key(key).ok_or_else(|| {
                    let known: Vec<&str> = TileSet::ALL.iter().map(|s| s.key()).collect();
                    ConfigError::new(
                        p,
                        format!(
                            "unknown or unsupported set {} (known: {})",
                            kind_of(v),
                            known.join(", ")
                        ),
                    )
                })
            })
            .collect::<Result<_, _>>()?;
        if let Some(r) = o.get("rules") {
            config.rules = RuleSwitches::from_json(r, "rules")?;
        }
        config.figures = Figures::default_for(&config.sets);
        if let Some(f) = o.get("figures") {
            let fo = object(f, "figures")?;
            check_keys(fo, &Figures::KEYS, "figures")?;
            for (k, v) in fo {
                let n = int_in(v, &format!("figures.{k}"), 0..=255)? as u8;
                config.figures.set(k, n);
            }
        }
        let mut start_tiles = None;
        if let Some(st) = o.get("start") {
            let so = object(st, "start")?;
            check_keys(so, &["tile", "rot", "tiles"], "start")?;
            let id = text(
                so.get("tile")
                    .ok_or_else(|| ConfigError::new("start.tile", "missing"))?,
                "start.tile",
            )?;
            let kind = catalogue().by_id(id).ok_or_else(|| {
                ConfigError::new(
                    "start.tile",
                    format!("unknown tile id {}", kind_of(&so["tile"])),
                )
            })?;
            let rot = match so.get("rot") {
                Some(v) => Rotation::new(int_in(v, "start.rot", 0..=3)? as u8).expect("checked"),
                None => Rotation::default(),
            };
            config.start = Some((kind, rot));
            if let Some(tiles) = so.get("tiles") {
                start_tiles = Some(read_start_tiles(tiles)?);
            }
        }
        if let Some(seed) = o.get("seed") {
            config.seed = seed.as_u64().ok_or_else(|| {
                ConfigError::new(
                    "seed",
                    format!("expected an integer in 0..=2^64-1, found {}", kind_of(seed)),
                )
            })?;
        }
        config.validate()?;
        if let Some(tiles) = start_tiles {
            if tiles != config.start_tiles() {
                return Err(ConfigError::new(
                    "start.tiles",
                    "not the start layout of the sets in play (the City of Carcassonne at (-2, -1)..(1, 1), a spring at (2, -1), all at rotation 0, CC1, CC9)",
                ));
            }
        }
        Ok(config)
    }

    /// The configuration object of this configuration (every switch and figure).
    pub fn to_json(&self) -> Value {
        let (start, rot) = self.start_tile();
        let f = &self.figures;
        let mut start_json = json!({"tile": start.id(), "rot": rot.quarter_turns()});
        let layout = self.start_tiles();
        if layout.len() > 1 {
            start_json["tiles"] = layout
                .iter()
                .map(|(t, p, r)| json!({"tile": t.id(), "x": p.x, "y": p.y, "rot": r.quarter_turns()}))
                .collect();
        }
        json!({
            "players": self.players,
            "edition": self.edition.name(),
            "sets": self.sets.iter().map(|s| s.key()).collect::<Vec<_>>(),
            "rules": self.rules.to_json(),
            "figures": Figures::KEYS.iter().zip(f.counts()).map(|(k, n)| (k.to_string(), json!(n))).collect::<serde_json::Map<_, _>>(),
            "start": start_json,
            "seed": self.seed,
        })
    }
}

/// Reads a `start.tiles` list: `[{"tile", "x", "y", "rot"}, ...]`.
fn read_start_tiles(v: &Value) -> Result<Vec<(TileKind, Pos, Rotation)>, ConfigError> {
    let list = v.as_array().ok_or_else(|| {
        ConfigError::new(
            "start.tiles",
            format!("expected an array, found {}", kind_of(v)),
        )
    })?;
    list.iter()
        .enumerate()
        .map(|(i, t)| {
            let p = format!("start.tiles[{i}]");
            let o = object(t, &p)?;
            check_keys(o, &["tile", "x", "y", "rot"], &p)?;
            let get = |k: &str| {
                o.get(k)
                    .ok_or_else(|| ConfigError::new(format!("{p}.{k}"), "missing"))
            };
            let id = text(get("tile")?, &format!("{p}.tile"))?;
            let kind = catalogue().by_id(id).ok_or_else(|| {
                ConfigError::new(
                    format!("{p}.tile"),
                    format!("unknown tile id {}", kind_of(get("tile").expect("present"))),
                )
            })?;
            let x = int_in(get("x")?, &format!("{p}.x"), -1000..=1000)? as i32;
            let y = int_in(get("y")?, &format!("{p}.y"), -1000..=1000)? as i32;
            let rot = int_in(get("rot")?, &format!("{p}.rot"), 0..=3)? as u8;
            Ok((kind, Pos::new(x, y), Rotation::new(rot).expect("checked")))
        })
        .collect()
}

impl Figures {
    fn set(&mut self, key: &str, n: u8) {
        let i = Figures::key_index(key).expect("keys checked against Figures::KEYS");
        let mut counts = self.counts();
        counts[i] = n;
        *self = Figures::from_counts(counts);
    }
}

impl RuleSwitches {
    /// Reads a `rules` object (absent switches keep their defaults); `path` names it in
    /// errors (`rules`).
    pub fn from_json(v: &Value, path: &str) -> Result<RuleSwitches, ConfigError> {
        let mut rules = RuleSwitches::default();
        for (k, v) in object(v, path)? {
            let p = format!("{path}.{}", key_in_path(k));
            let t = match v {
                Value::String(s) => s.clone(),
                Value::Number(n) => n.to_string(),
                Value::Bool(b) => b.to_string(),
                _ => {
                    return Err(ConfigError::new(
                        &p,
                        format!("unexpected value {}", kind_of(v)),
                    ))
                }
            };
            let bad = |allowed: &str| {
                ConfigError::new(
                    &p,
                    format!("unknown value {} (allowed: {allowed})", kind_of(v)),
                )
            };
            if let Some(set) = rules.set(k, v, &t) {
                set.map_err(|allowed| bad(&allowed.join(", ")))?;
            } else if let Some((_, only)) = FIXED_SETTINGS.iter().find(|(key, _)| key == k) {
                if t != *only {
                    return Err(bad(&format!("{only}, the only reading implemented")));
                }
            } else {
                return Err(ConfigError::new(p, "unknown rule switch"));
            }
        }
        Ok(rules)
    }
}
