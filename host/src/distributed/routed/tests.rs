//! The routed count on 1 to 4 ranks as threads joined by channels, against
//! sequential perft: every game, a roomy table and one of a single bucket, routed
//! shallow and deep, with small batches and small plies (the cap on a ply's
//! positions reached).

use std::sync::mpsc::{channel, Receiver, Sender};

use ply_core::games::{Draughts, Halma8, Kalah, TicTacToe};
use ply_core::perft::PerftKey;
use ply_core::Game;

use super::*;
use crate::distributed::codec::Message;
use crate::distributed::perft::{PerftJob, SubtreeCount};
use crate::distributed::Options;
use crate::parallel::SharedPerftTable;

/// A rank of a run whose ranks are threads: messages go over channels.
struct Chan {
    me: usize,
    to: Vec<Sender<(usize, i32, Vec<u8>)>>,
    from: Receiver<(usize, i32, Vec<u8>)>,
}

fn chans(n: usize) -> Vec<Chan> {
    let (to, from): (Vec<_>, Vec<_>) = (0..n).map(|_| channel()).unzip();
    from.into_iter()
        .enumerate()
        .map(|(me, from)| Chan {
            me,
            to: to.clone(),
            from,
        })
        .collect()
}

impl Net for Chan {
    fn rank(&self) -> usize {
        self.me
    }
    fn size(&self) -> usize {
        self.to.len()
    }
    fn send(&mut self, rank: usize, msg: &Message) -> Result<(), String> {
        let (tag, bytes) = msg.encode();
        self.to[rank]
            .send((self.me, tag, bytes))
            .map_err(|e| e.to_string())
    }
    fn post(&mut self, rank: usize, bytes: Vec<u8>) -> Result<(), String> {
        self.to[rank]
            .send((self.me, ROUTE_TAG, bytes))
            .map_err(|e| e.to_string())
    }
    fn poll(&mut self) -> Result<Option<(usize, i32, Vec<u8>)>, String> {
        Ok(self.from.try_recv().ok())
    }
    fn flushed(&mut self) -> bool {
        true
    }
}

/// Runs the routed count of `g` to `depth` on `ranks` threads, each with a table of
/// `bytes`; rank 0's counts and the summed probes.
fn routed<G: PerftKey + Send + Sync>(
    g: &G,
    depth: u32,
    ranks: usize,
    bytes: u64,
    routing: Routing,
    options: &Options,
) -> Result<Vec<SubtreeCount>, String> {
    let bits = G::perft_key_bits(g.rules());
    let nets = chans(ranks);
    std::thread::scope(|s| {
        let handles: Vec<_> = nets
            .into_iter()
            .map(|mut net| {
                s.spawn(move || {
                    let table = SharedPerftTable::new(bytes, bits).unwrap();
                    let job = PerftJob::new(g, depth, 2, Some(&table));
                    count(&job, &table, routing, options, &mut net, "t".into(), false)
                })
            })
            .collect();
        let mut out = None;
        for (r, h) in handles.into_iter().enumerate() {
            let got = h.join().expect("a rank panicked")?;
            assert_eq!(got.is_some(), r == 0);
            if r == 0 {
                out = got;
            }
        }
        Ok(out.expect("rank 0's counts"))
    })
}

fn check<G: PerftKey + Send + Sync>(g: &G, depths: &[u32]) {
    let settings = [
        Routing::DEFAULT,
        Routing {
            rest: 1,
            level_nodes: 1 << 20,
            batch: 32,
        },
        Routing {
            rest: 2,
            level_nodes: 40,
            batch: 8,
        },
    ];
    for &depth in depths {
        let want = ply_core::perft::perft(g, depth);
        let mut seq = Vec::new();
        ply_core::perft::perft_divide(g, depth, |m, n| seq.push((m, n)));
        for ranks in 1..=4 {
            // The single bucket on 1 and 3 ranks (constant replacement), the roomy
            // table on every number.
            let tables: &[u64] = if ranks % 2 == 1 {
                &[4 << 20, 64]
            } else {
                &[4 << 20]
            };
            for &bytes in tables {
                for routing in settings {
                    let counts = routed(g, depth, ranks, bytes, routing, &Options::default())
                        .unwrap_or_else(|e| panic!("{}", e));
                    let total: u64 = counts.iter().map(|c| c.leaves).sum();
                    let what = format!(
                        "depth {}, {} ranks, {} bytes, {:?}",
                        depth, ranks, bytes, routing
                    );
                    assert_eq!(total, want, "{}", what);
                    let bits = G::perft_key_bits(g.rules());
                    let table = SharedPerftTable::new(64, bits).unwrap();
                    let job = PerftJob::new(g, depth, 1, Some(&table));
                    if depth > 0 {
                        assert_eq!(job.divide(&counts), seq, "{}", what);
                    }
                    assert!(counts.iter().all(|c| c.hits <= c.probes), "{}", what);
                }
            }
        }
    }
}

#[test]
fn the_routed_count_equals_perft_on_one_to_four_ranks() {
    // Draughts 9 and Kalah 8 are split 3 plies above the leaves: routed 1 or 2
    // plies below their items by the settings that route deep.
    check(&Draughts::start(Default::default()), &[1, 2, 9]);
    check(&Kalah::start(Default::default()), &[8]);
    check(&TicTacToe::start(()), &[9]);
    check(&Halma8::start(Default::default()), &[4]);
}

#[test]
fn the_ranks_tables_act_as_one_when_routed_to_the_last_table_depth() {
    // Perft 10 of draughts: routed down to the last plies a table holds, 4 ranks look
    // up (and miss) about as often as 1 rank; routed only at the items (each rank
    // counts its subtrees through its own table), they miss more.
    let g = Draughts::start(Default::default());
    let lookups = |ranks, rest| {
        let r = Routing {
            rest,
            ..Routing::DEFAULT
        };
        let counts = routed(&g, 10, ranks, 4 << 20, r, &Options::default()).unwrap();
        assert_eq!(counts.iter().map(|c| c.leaves).sum::<u64>(), 18_391_564);
        let probes: u64 = counts.iter().map(|c| c.probes).sum();
        let hits: u64 = counts.iter().map(|c| c.hits).sum();
        (probes, probes - hits)
    };
    let min = ply_core::perft::table::MIN_TABLE_DEPTH;
    let (one, one_misses) = lookups(1, min);
    let (four, four_misses) = lookups(4, min);
    assert!(
        four * 100 <= one * 102,
        "{} probes on 4 ranks, {} on 1",
        four,
        one
    );
    assert!(
        four_misses * 100 <= one_misses * 102,
        "{} misses on 4 ranks, {} on 1",
        four_misses,
        one_misses
    );
    let (_, apart_misses) = lookups(4, 10);
    assert!(
        apart_misses > four_misses * 11 / 10,
        "{} misses with separate tables, {} joined",
        apart_misses,
        four_misses
    );
}
