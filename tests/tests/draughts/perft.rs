//! Draughts perft from the start position against the published counts in
//! `tests/data/checkers_perft.txt`, in both conventions (every capture path, or
//! capture paths with the same result once).
//!
//! The normal suite checks through depth 11 (85 million leaves). Depths 12 and 13
//! (388 million and 1.77 billion leaves), and depths 14 to 16 with the table of exact
//! counts shared by two threads (8 billion to 166 billion leaves), are `#[ignore]`d
//! here and run by `scripts/test-draughts-perft-deep.sh` (`cargo test ... --
//! --ignored`, part of scripts/test.sh). Depths 17 to 20 are `scripts/perft-deep.sh`'s.

use ply_core::games::draughts::{Draughts, Rules};
use ply_core::perft::perft;
use ply_core::Game;

struct Row {
    rules: &'static str,
    convention: &'static str,
    depth: u32,
    leaves: u64,
}

fn table_rows() -> Vec<Row> {
    let text = include_str!("../../data/checkers_perft.txt");
    let mut rows = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let f: Vec<&'static str> = line.split_whitespace().collect();
        assert_eq!(f.len(), 4, "line {}: expected 4 fields", i + 1);
        rows.push(Row {
            rules: f[0],
            convention: f[1],
            depth: f[2].parse().unwrap(),
            leaves: f[3].parse().unwrap(),
        });
    }
    rows
}

fn check(filter: impl Fn(&Row) -> bool) -> usize {
    let mut checked = 0;
    for row in table_rows().iter().filter(|r| filter(r)) {
        let rules = Draughts::parse_rules(row.rules).unwrap();
        let rules = match row.convention {
            "paths" => rules,
            "unique" => rules.with_unique_captures(true),
            other => panic!("unknown convention {}", other),
        };
        let n = perft(&Draughts::start(rules), row.depth);
        assert_eq!(
            n, row.leaves,
            "{} {} depth {}",
            row.rules, row.convention, row.depth
        );
        checked += 1;
    }
    checked
}

#[test]
fn english_paths_through_depth_11() {
    assert_eq!(
        check(|r| r.rules == "english" && r.convention == "paths" && r.depth <= 11),
        11
    );
}

#[test]
fn english_unique_through_depth_11() {
    assert_eq!(
        check(|r| r.rules == "english" && r.convention == "unique" && r.depth <= 11),
        11
    );
}

#[test]
fn calgary_through_depth_9() {
    assert_eq!(check(|r| r.rules == "calgary"), 9);
}

#[test]
fn unique_rules_parse_from_the_spec() {
    let r = Draughts::parse_rules("english:unique").unwrap();
    assert_eq!(r, Rules::english().with_unique_captures(true));
}

#[test]
#[ignore = "deep perft (2.2 billion leaves): run by scripts/test-draughts-perft-deep.sh in scripts/test.sh"]
fn english_depth_12_and_13_both_conventions() {
    assert_eq!(
        check(|r| r.rules == "english" && (12..=13).contains(&r.depth)),
        4
    );
}

#[test]
#[ignore = "deep perft with the table (14-16, about a minute on 2 cores): run by scripts/test-draughts-perft-deep.sh in scripts/test.sh"]
fn english_depth_14_to_16_with_the_table_on_two_threads() {
    use ply_core::perft::PerftKey;
    use ply_host::parallel::SharedPerftTable;
    let rules = Rules::english();
    let table = SharedPerftTable::new(1 << 30, Draughts::perft_key_bits(rules)).unwrap();
    let start = Draughts::start(rules);
    let mut checked = 0;
    for row in table_rows()
        .iter()
        .filter(|r| r.rules == "english" && r.convention == "paths" && (14..=16).contains(&r.depth))
    {
        let t = std::time::Instant::now();
        let s = ply_host::parallel::perft::perft_tabled(&start, row.depth, 2, &table, &mut |_| {});
        println!(
            "perft {} = {} in {:.1} s, {:.1}% of {} lookups answered",
            row.depth,
            s.leaves,
            t.elapsed().as_secs_f64(),
            100.0 * s.hits as f64 / s.probes.max(1) as f64,
            s.probes
        );
        assert_eq!(s.leaves, row.leaves, "depth {}", row.depth);
        checked += 1;
    }
    assert_eq!(checked, 3);
}
