//! A small command-line option parser (standard library only).
//!
//! Options are `--name value` or `--name=value`; switches take no value; `--help` or `-h`
//! anywhere asks for help; `--` ends the options. Every mistake is a [`CliError::Usage`]
//! that names the option.

use crate::CliError;

/// One option a subcommand accepts.
#[derive(Copy, Clone, Debug)]
pub struct OptSpec {
    /// The name without dashes (`players` for `--players`).
    pub name: &'static str,
    /// Whether the option may be given more than once (values are kept in order).
    pub repeatable: bool,
    /// Whether the option is a switch, given without a value.
    pub switch: bool,
}

impl OptSpec {
    /// An option with a value, given at most once.
    pub const fn once(name: &'static str) -> OptSpec {
        OptSpec {
            name,
            repeatable: false,
            switch: false,
        }
    }

    /// An option with a value that may be repeated.
    pub const fn many(name: &'static str) -> OptSpec {
        OptSpec {
            name,
            repeatable: true,
            switch: false,
        }
    }

    /// A switch: an option without a value, given at most once.
    pub const fn switch(name: &'static str) -> OptSpec {
        OptSpec {
            name,
            repeatable: false,
            switch: true,
        }
    }
}

/// The parsed command line of a subcommand.
#[derive(Debug, Default)]
pub struct Parsed {
    values: Vec<(&'static str, String)>,
    /// Arguments that are not options, in order.
    pub positionals: Vec<String>,
    /// Whether `--help` or `-h` was given.
    pub help: bool,
}

impl Parsed {
    /// The value of a once-only option, if given.
    pub fn value(&self, name: &str) -> Option<&str> {
        self.values
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Whether a switch was given.
    pub fn flag(&self, name: &str) -> bool {
        self.value(name).is_some()
    }

    /// Every value of a repeatable option, in order.
    pub fn values<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a str> + 'a {
        self.values
            .iter()
            .filter(move |(n, _)| *n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// Parses `args` (the words after the subcommand) against `specs`.
pub fn parse(args: &[String], specs: &[OptSpec]) -> Result<Parsed, CliError> {
    let mut parsed = Parsed::default();
    let mut words = args.iter();
    while let Some(word) = words.next() {
        if word == "--" {
            parsed.positionals.extend(words.by_ref().cloned());
            break;
        }
        if word == "--help" || word == "-h" {
            parsed.help = true;
            continue;
        }
        let Some(body) = word.strip_prefix("--") else {
            if word.starts_with('-') && word.len() > 1 && !looks_numeric(word) {
                return Err(CliError::Usage(format!("unknown option {word}")));
            }
            parsed.positionals.push(word.clone());
            continue;
        };
        let (name, inline) = match body.split_once('=') {
            Some((n, v)) => (n, Some(v.to_string())),
            None => (body, None),
        };
        let spec = specs
            .iter()
            .find(|s| s.name == name)
            .ok_or_else(|| CliError::Usage(format!("unknown option --{name}")))?;
        let value = match inline {
            Some(_) if spec.switch => {
                return Err(CliError::Usage(format!("--{name} takes no value")))
            }
            None if spec.switch => String::new(),
            Some(v) => v,
            None => words
                .next()
                .cloned()
                .ok_or_else(|| CliError::Usage(format!("--{name} needs a value")))?,
        };
        if !spec.repeatable && parsed.value(spec.name).is_some() {
            return Err(CliError::Usage(format!("--{name} given more than once")));
        }
        parsed.values.push((spec.name, value));
    }
    Ok(parsed)
}

/// Whether a word is a (negative) number rather than an option.
fn looks_numeric(word: &str) -> bool {
    word.parse::<f64>().is_ok()
}

#[cfg(test)]
#[path = "tests/unit/args.rs"]
mod tests;
