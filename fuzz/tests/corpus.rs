//! Replays the committed corpus (`fuzz/corpus/TARGET/*`) through every target with a
//! plain `cargo test`: no libFuzzer, no nightly flags. Every target must have a corpus,
//! and every `fuzz_targets/*.rs` binary must be listed in `targets::ALL`.

use std::path::Path;

use ply_fuzz::targets::ALL;

#[test]
fn every_target_has_a_binary_and_a_corpus() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut bins: Vec<String> = std::fs::read_dir(root.join("fuzz_targets"))
        .unwrap()
        .map(|e| {
            e.unwrap()
                .path()
                .file_stem()
                .unwrap()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    bins.sort();
    let mut names: Vec<String> = ALL.iter().map(|(n, _)| n.to_string()).collect();
    names.sort();
    assert_eq!(bins, names);
    for (name, _) in ALL {
        let dir = root.join("corpus").join(name);
        let n = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {}", dir.display(), e))
            .count();
        assert!(n > 0, "{} has an empty corpus", name);
    }
}

#[test]
fn the_corpus_replays_without_a_failure() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
    let mut total = 0;
    let mut failures = Vec::new();
    for (name, target) in ALL {
        let Ok(dir) = std::fs::read_dir(root.join(name)) else {
            continue;
        };
        let mut paths: Vec<_> = dir.map(|e| e.unwrap().path()).collect();
        paths.sort();
        for path in paths {
            let data = std::fs::read(&path).unwrap();
            // Every input runs, so one failure does not hide another.
            if std::panic::catch_unwind(|| target(&data)).is_err() {
                failures.push(format!(
                    "{}/{}",
                    name,
                    path.file_name().unwrap().to_string_lossy()
                ));
            }
            total += 1;
        }
    }
    println!("replayed {} corpus inputs", total);
    assert!(
        failures.is_empty(),
        "failing inputs (messages above): {:?}",
        failures
    );
}
