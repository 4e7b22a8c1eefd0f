//! One process: every item in order, and a run resumed from its checkpoint.

use super::*;

#[test]
fn one_process_computes_every_item_in_order() {
    let out = run_local_all(&Squares(50), &Options::default()).unwrap();
    assert_eq!(out, (0..50u64).map(|i| i * i).collect::<Vec<_>>());
    let e = run_local_all(&Squares(1001), &Options::default()).unwrap_err();
    assert_eq!(e, "item 1000: no");
}

#[test]
fn a_resumed_run_computes_only_what_the_checkpoint_lacks() {
    let dir = scratch("resume");
    let path = dir.join("c.ckpt");
    let options = Options {
        checkpoint: Some(path.clone()),
        resume: true,
        command: "test".into(),
        rank_timeout: None,
    };
    let fp = fingerprint(&Squares(10), &options);
    // Items 0..5 done, with marked values that a recount would not give.
    let part: Vec<Option<u64>> = (0..10).map(|i| (i < 5).then_some(1000 + i)).collect();
    checkpoint::save(&path, &fp, &part).unwrap();
    let out = run_local_all(&Squares(10), &options).unwrap();
    assert_eq!(out[..5], [1000, 1001, 1002, 1003, 1004]);
    assert_eq!(out[5..], [25, 36, 49, 64, 81]);
    // The finished run's checkpoint holds everything; a resume only reads it.
    assert_eq!(
        checkpoint::load::<u64>(&path, &fp, 10).unwrap().unwrap(),
        out.iter().map(|&v| Some(v)).collect::<Vec<_>>()
    );
    assert_eq!(run_local_all(&Squares(10), &options).unwrap(), out);
    // Without --resume an existing checkpoint is refused; another job's too.
    let fresh = Options {
        resume: false,
        ..options.clone()
    };
    assert!(run_local_all(&Squares(10), &fresh)
        .unwrap_err()
        .contains("exists: add --resume"));
    assert!(run_local_all(&Squares(11), &options)
        .unwrap_err()
        .contains("belongs to another command"));
    let _ = std::fs::remove_dir_all(dir);
}
