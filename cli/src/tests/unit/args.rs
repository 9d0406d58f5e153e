//! Unit tests of `args`, included by `args.rs` so they see its private items.

use super::*;

fn words(s: &str) -> Vec<String> {
    s.split_whitespace().map(String::from).collect()
}

const SPECS: [OptSpec; 2] = [OptSpec::once("players"), OptSpec::many("rule")];

#[test]
fn values_in_both_spellings_and_repeats() {
    let p = parse(
        &words("--players 3 --rule a=b --rule=c=d file.json"),
        &SPECS,
    )
    .unwrap();
    assert_eq!(p.value("players"), Some("3"));
    assert_eq!(p.values("rule").collect::<Vec<_>>(), ["a=b", "c=d"]);
    assert_eq!(p.positionals, ["file.json"]);
    assert!(!p.help);
}

#[test]
fn mistakes_name_the_option() {
    let msg = |s: &str| match parse(&words(s), &SPECS) {
        Err(CliError::Usage(m)) => m,
        other => panic!("{s}: {other:?}"),
    };
    assert!(msg("--players 2 --players 3").contains("--players"));
    assert!(msg("--players").contains("--players needs a value"));
    assert!(msg("--colour red").contains("--colour"));
    assert!(msg("-x").contains("-x"));
}

#[test]
fn help_and_end_of_options() {
    let p = parse(&words("-h -- --players"), &SPECS).unwrap();
    assert!(p.help);
    assert_eq!(p.positionals, ["--players"]);
}

#[test]
fn switches_take_no_value() {
    let specs = [OptSpec::switch("quiet"), OptSpec::once("players")];
    let p = parse(&words("--quiet file.json --players 2"), &specs).unwrap();
    assert!(p.flag("quiet"));
    assert_eq!(p.positionals, ["file.json"]);
    assert!(!parse(&words("file.json"), &specs).unwrap().flag("quiet"));
    for (line, message) in [
        ("--quiet=yes", "--quiet takes no value"),
        ("--quiet --quiet", "--quiet given more than once"),
    ] {
        match parse(&words(line), &specs) {
            Err(CliError::Usage(m)) => assert!(m.contains(message), "{line}: {m}"),
            other => panic!("{line}: {other:?}"),
        }
    }
}
