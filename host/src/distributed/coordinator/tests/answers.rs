//! A second rank played by a script: the items shared, and wrong, missing and
//! damaged answers caught.

use super::*;

#[test]
fn a_second_rank_shares_the_items_and_is_stopped() {
    let job = Squares(200);
    let fp = fnv1a(fingerprint(&job, &Options::default()).as_bytes());
    let mut t = scripted(good, fp);
    let out = complete(coordinate(&job, &Options::default(), &mut t, "me".into(), true).unwrap())
        .unwrap();
    assert_eq!(out, (0..200u64).map(|i| i * i).collect::<Vec<_>>());
    let given = t
        .sent
        .iter()
        .filter(|(_, m)| matches!(m, Message::Assign { .. }))
        .count();
    assert!(given > 0, "rank 1 got items");
    assert_eq!(t.sent.last(), Some(&(1, Message::Stop { abort: false })));
}

#[test]
fn wrong_and_missing_answers_are_caught() {
    let job = Squares(200);
    let fp = fnv1a(fingerprint(&job, &Options::default()).as_bytes());
    let run = |answer: fn(usize) -> Vec<Message>, fp: u64| {
        let mut t = scripted(answer, fp);
        let e = coordinate(&job, &Options::default(), &mut t, "me".into(), false).unwrap_err();
        assert_eq!(
            t.sent.last(),
            Some(&(1, Message::Stop { abort: true })),
            "{}",
            e
        );
        e
    };
    // Another item than the one given.
    let e = run(|i| good(i + 1000), fp);
    assert!(e.contains("answered item"), "{}", e);
    // The same item twice.
    let e = run(|i| [good(i), good(i)].concat(), fp);
    assert!(e.contains("answered already"), "{}", e);
    // A result of the wrong size.
    let e = run(
        |index| {
            vec![Message::Done {
                index,
                busy_ns: 1,
                words: vec![1, 2],
            }]
        },
        fp,
    );
    assert!(e.contains("2 words that are not a result"), "{}", e);
    // A failure.
    let e = run(
        |index| {
            vec![Message::Failed {
                index,
                error: "out of memory".into(),
            }]
        },
        fp,
    );
    assert!(
        e.contains("rank 1, item ") && e.contains("out of memory"),
        "{}",
        e
    );
    // Another job.
    let e = run(good, fp ^ 1);
    assert!(e.contains("has another job"), "{}", e);
}

#[test]
fn a_damaged_message_is_caught() {
    let job = Squares(100);
    let fp = fnv1a(fingerprint(&job, &Options::default()).as_bytes());
    let mut t = scripted(good, fp);
    let (tag, mut b) = good(0).remove(0).encode();
    b[8] ^= 1;
    t.inbox.push_back((1, tag, b));
    let e = coordinate(&job, &Options::default(), &mut t, "me".into(), false).unwrap_err();
    assert!(
        e.contains("rank 1 sent a message (tag 4) whose checksum"),
        "{}",
        e
    );
}
