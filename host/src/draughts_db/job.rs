//! `ply db build checkers` as a job of items ([`crate::distributed`]): under `mpirun`
//! (the `mpi` feature) rank 0 deals the pairs of slices out to the ranks as the
//! slices they need are built, and every rank writes its pairs' files into the one
//! database directory (shared by every machine); with `--checkpoint FILE` the
//! finished pairs are kept in FILE and `--resume` goes on from it, in one process
//! or on any number of ranks. docs/games/draughts-databases.md ("Many machines").
//!
//! **An item is a pair** ([`SliceKey::swapped`]): the levels of a pair's build
//! un-move pieces from any position of one slice into any of the other, over
//! cells shared by the threads, so a pair is one machine's work (splitting it
//! across machines would take a message round a level). Item `i` needs the pairs
//! of the slices its conversions lead to ([`SliceKey::conversions`]: fewer pieces,
//! or as many and fewer men); [`Job::needed`] lists the items whose needs are all
//! built, and the dispatcher deals those out. A rank reads the slices its pair
//! needs from their files, inflated into memory (lookups as fast as in a one-process
//! build, memory only for what this pair needs: [`job_memory`]), builds the pair
//! on its threads, writes its files (whole or not at all, `crate::files`) and
//! answers with what they hold ([`PairRecord`]: wins, losses, draws, longest
//! distance, width and bytes of each slice), from which rank 0 prints the summary
//! of a one-process build. A pair whose files are there and good is read, not
//! built, as in one process; a pair needed by a later one is read from the files
//! whichever rank wrote them, so the files of a run equal a one-process build's.

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Instant;

use ply_core::games::draughts::db::{
    keys_of, slice_size, Database, Slice, SliceKey, BYTE_MAX_DISTANCE,
};

use super::build::{read_or_convert, BuildReport};
use super::cache::inflate;
use super::census::{slice_census, SliceCensus};
use super::file;
use super::pair::{build_pair, entries};
use super::summary::SliceSummary;
use crate::distributed::{self, Job, Options, Record};

/// What an item found of one slice ([`PairRecord`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SliceRecord {
    /// What the slice holds (`width` 0: no slice, the second of a pair that is one).
    pub census: SliceCensus,
    /// Bytes of its file.
    pub bytes: u64,
}

/// The result of an item: a pair of slices, built now or found in good files.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PairRecord {
    /// Positions built now (0: read from its files).
    pub built: u64,
    /// Slices converted from plain (format 2) files.
    pub converted: u64,
    /// Nanoseconds the build of the pair took (the retrograde analysis alone).
    pub build_ns: u64,
    /// The pair's slices, the second zero where the pair is one slice.
    pub slices: [SliceRecord; 2],
}

impl Record for PairRecord {
    const WORDS: usize = 3 + 2 * 6;

    fn encode(&self) -> Vec<u64> {
        let mut w = vec![self.built, self.converted, self.build_ns];
        for s in &self.slices {
            let c = &s.census;
            let longest = c
                .longest
                .map_or(0, |(d, loss)| 1 + ((u64::from(d) << 1) | u64::from(loss)));
            w.extend([c.won, c.lost, c.drawn, longest, c.width as u64, s.bytes]);
        }
        w
    }

    fn decode(words: &[u64]) -> Option<Self> {
        if words.len() != Self::WORDS {
            return None;
        }
        let mut r = PairRecord {
            built: words[0],
            converted: words[1],
            build_ns: words[2],
            ..PairRecord::default()
        };
        for (s, w) in r.slices.iter_mut().zip(words[3..].chunks(6)) {
            let longest = match w[3] {
                0 => None,
                l => Some((u16::try_from((l - 1) >> 1).ok()?, (l - 1) & 1 == 1)),
            };
            let width = usize::try_from(w[4]).ok().filter(|&w| w <= 2)?;
            *s = SliceRecord {
                census: SliceCensus {
                    won: w[0],
                    lost: w[1],
                    drawn: w[2],
                    longest,
                    width,
                },
                bytes: w[5],
            };
        }
        (r.slices[0].census.width > 0).then_some(r)
    }

    fn nodes(&self) -> u64 {
        self.built
    }
}

/// The pairs of 1 to `pieces` pieces in build order, as their first slice (the
/// smaller key), and for each the pairs it needs ([`SliceKey::conversions`]).
pub fn pairs(pieces: u32) -> (Vec<SliceKey>, Vec<Vec<usize>>) {
    let pairs: Vec<SliceKey> = (1..=pieces)
        .flat_map(keys_of)
        .filter(|k| *k <= k.swapped())
        .collect();
    let item = |k: SliceKey| pairs.iter().position(|p| *p == k || p.swapped() == k);
    let needs = pairs
        .iter()
        .enumerate()
        .map(|(i, &key)| {
            let mut n: Vec<usize> = needed_slices(key)
                .into_iter()
                .filter_map(item)
                .filter(|&j| j != i)
                .collect();
            n.sort_unstable();
            n.dedup();
            n
        })
        .collect();
    (pairs, needs)
}

/// The slices the build of pair `key` looks its conversions up in, sorted.
fn needed_slices(key: SliceKey) -> Vec<SliceKey> {
    let mut n: Vec<SliceKey> = key
        .conversions()
        .chain(key.swapped().conversions())
        .collect();
    n.sort_unstable();
    n.dedup();
    n
}

/// Bytes of memory a rank needs to build the pairs of up to `pieces` pieces as
/// items: for the largest item, the slices it needs in memory (a byte a position)
/// and its own cells and entries (three bytes a position).
pub fn job_memory(pieces: u32) -> u64 {
    let (pairs, _) = pairs(pieces);
    pairs
        .iter()
        .map(|&key| {
            let own = slice_size(key)
                + if key.swapped() == key {
                    0
                } else {
                    slice_size(key.swapped())
                };
            let needs: u64 = needed_slices(key).into_iter().map(slice_size).sum();
            3 * own + needs
        })
        .max()
        .unwrap_or(0)
}

/// The build of the slices of 1 to `pieces` pieces into `dir` as a job.
pub struct BuildJob {
    pieces: u32,
    threads: usize,
    dir: PathBuf,
    pairs: Vec<SliceKey>,
    needs: Vec<Vec<usize>>,
    /// Rank 0's tally of the pairs answered in this run (not read from the
    /// checkpoint): positions built, nanoseconds building, slices converted.
    tally: Mutex<(u64, u64, u64)>,
}

impl BuildJob {
    /// The job of the pairs of 1 to `pieces` pieces, built on `threads` threads a
    /// rank, their files in `dir`.
    pub fn new(pieces: u32, threads: usize, dir: &Path) -> Self {
        let (pairs, needs) = pairs(pieces);
        BuildJob {
            pieces,
            threads: threads.max(1),
            dir: dir.to_path_buf(),
            pairs,
            needs,
            tally: Mutex::new((0, 0, 0)),
        }
    }

    /// The pair's file names, as the progress lines show them.
    fn names(&self, key: SliceKey) -> String {
        if key.swapped() == key {
            file::file_name(key)
        } else {
            format!(
                "{} and {}",
                file::file_name(key),
                file::file_name(key.swapped())
            )
        }
    }

    /// What slice `key`'s file in the directory holds, where it is good (a plain
    /// file converted to a compressed one, with a line); `None` where it must be
    /// built (a line says why a file there is not used).
    fn existing(&self, key: SliceKey, r: &mut PairRecord) -> Result<Option<SliceRecord>, String> {
        let p = file::path(&self.dir, key);
        match file::read(&p, key) {
            file::Read::Good(f) => {
                return Ok(Some(SliceRecord {
                    census: slice_census(f.view(), self.threads),
                    bytes: f.file_bytes().len() as u64,
                }))
            }
            file::Read::Bad(why) => {
                crate::errln!("checkers db: {}: {}; rebuilding it", p.display(), why);
                return Ok(None);
            }
            file::Read::Missing => {}
        }
        let mut report = BuildReport::default();
        let found = read_or_convert(&self.dir, key, self.threads, &mut report, &mut |l| {
            crate::errln!("{}", l)
        })?;
        r.converted += report.converted as u64;
        Ok(found.map(|slice| SliceRecord {
            census: slice_census(slice, self.threads),
            bytes: std::fs::metadata(&p).map_or(0, |m| m.len()),
        }))
    }

    /// Item `i`: the pair read from its files, or built from the files of the
    /// slices it needs and written.
    fn pair(&self, i: usize) -> Result<PairRecord, String> {
        let key = self.pairs[i];
        let other = key.swapped();
        let count = if other == key { 1 } else { 2 };
        let keys = [key, other];
        let mut r = PairRecord::default();
        let mut found = [None; 2];
        for (s, k) in keys.iter().take(count).enumerate() {
            found[s] = self.existing(*k, &mut r)?;
            if found[s].is_none() {
                break;
            }
        }
        if found.iter().take(count).all(Option::is_some) {
            for (s, f) in found.iter().enumerate() {
                r.slices[s] = f.unwrap_or_default();
            }
            return Ok(r);
        }
        // The slices its conversions lead to, from their files, inflated.
        let mut held = Vec::new();
        for k in needed_slices(key) {
            let p = file::path(&self.dir, k);
            let why = match file::read(&p, k) {
                file::Read::Good(f) => {
                    held.push((k, inflate(f.view(), self.threads)));
                    continue;
                }
                file::Read::Missing => "it is missing".to_string(),
                file::Read::Bad(why) => why,
            };
            return Err(format!(
                "checkers db: building {}: {}: {}, though an item built before it wrote it \
                 (a file removed or changed during the run): run the build again without \
                 --resume; it goes on from the good files there",
                self.names(key),
                p.display(),
                why
            ));
        }
        let mut db = Box::new(Database::new());
        for (k, (bytes, width)) in &held {
            db.set(*k, entries(bytes, *width)?)
                .map_err(str::to_string)?;
        }
        let t = Instant::now();
        let built = build_pair(key, &db, self.threads, BYTE_MAX_DISTANCE)?;
        r.build_ns = u64::try_from(t.elapsed().as_nanos()).unwrap_or(u64::MAX);
        for (s, (k, (bytes, width))) in keys.iter().zip(built).take(count).enumerate() {
            let codes = entries(&bytes, width)?;
            let p = file::path(&self.dir, *k);
            let written = file::save(&p, *k, codes, self.threads)
                .map_err(|e| format!("cannot write {}: {}", p.display(), e))?;
            r.built += codes.len() as u64;
            r.slices[s] = SliceRecord {
                census: slice_census(Slice::Plain(codes), self.threads),
                bytes: written,
            };
        }
        Ok(r)
    }
}

impl Job for BuildJob {
    type Output = PairRecord;

    fn fingerprint(&self) -> String {
        format!(
            "checkers endgame databases of up to {} pieces in {}: {} pairs of slices, files of format {}",
            self.pieces,
            self.dir.display(),
            self.pairs.len(),
            file::VERSION
        )
    }

    fn items(&self) -> usize {
        self.pairs.len()
    }

    /// A pair is built on every thread of its rank.
    fn slots(&self) -> usize {
        1
    }

    /// None queued: a pair can take hours, and one queued behind a busy rank would
    /// leave another idle.
    fn ahead(&self) -> usize {
        0
    }

    fn run(&self, index: usize) -> Result<PairRecord, String> {
        self.pair(index)
    }

    /// The pairs whose needs are all built (those built already among them).
    fn needed(&self, results: &[Option<PairRecord>]) -> Option<Vec<usize>> {
        Some(
            (0..self.pairs.len())
                .filter(|&i| self.needs[i].iter().all(|&j| results[j].is_some()))
                .collect(),
        )
    }

    fn finished(&self, index: usize, out: &PairRecord) {
        if out.built > 0 {
            crate::errln!(
                "checkers db: built {} ({} positions) in {:.2} s",
                self.names(self.pairs[index]),
                out.built,
                out.build_ns as f64 / 1e9
            );
        }
        let mut tally = self.tally.lock().unwrap_or_else(|e| e.into_inner());
        tally.0 += out.built;
        tally.1 += out.build_ns;
        tally.2 += out.converted;
    }

    fn label(&self) -> Option<&str> {
        None
    }
}

/// Builds the slices of 1 to `pieces` pieces into `dir` as a job ([`BuildJob`]:
/// under `mpirun` on every rank, `threads` threads each; `options` has the
/// checkpoint). On rank 0 (or the one process): every slice's summary in build
/// order and the report (of the pairs built in this run, not those the
/// checkpoint held); `None` on the other ranks. `--verify` (`verify`) runs in
/// one process only: it is refused on several.
pub fn build(
    pieces: u32,
    threads: usize,
    verify: bool,
    dir: &Path,
    options: &Options,
) -> Result<Option<(Vec<SliceSummary>, BuildReport)>, String> {
    if verify && distributed::several_processes() {
        return Err(format!(
            "--verify checks the databases in one process, not under mpirun: once the \
             ranks have built them, run ply db build checkers --pieces {} --verify \
             without mpirun (it reads the files and builds nothing)",
            pieces
        ));
    }
    crate::memory::check_available(
        job_memory(pieces) * distributed::local_processes() as u64,
        &format!(
            "building the pairs of slices of up to {} pieces ({} a machine at once)",
            pieces,
            distributed::local_processes()
        ),
    )?;
    std::fs::create_dir_all(dir).map_err(|e| {
        format!(
            "cannot make the database directory {}: {}",
            dir.display(),
            e
        )
    })?;
    // Rank 0 holds the directory against other builds; the ranks share it.
    let _lock = if distributed::other_rank() {
        None
    } else {
        Some(crate::files::Lock::take(
            &dir.join("build"),
            "the draughts database directory",
            "set PLY_TABLES_DIR to another directory",
        )?)
    };
    let job = BuildJob::new(pieces, threads, dir);
    let Some(records) = distributed::run(&job, options)? else {
        return Ok(None);
    };
    let (built, build_ns, converted) = *job.tally.lock().unwrap_or_else(|e| e.into_inner());
    let report = BuildReport {
        built,
        build_secs: build_ns as f64 / 1e9,
        threads: job.threads,
        converted: converted as usize,
        ranks: distributed::launch().and_then(|l| l.size).unwrap_or(1),
        ..BuildReport::default()
    };
    let mut slices = Vec::new();
    for key in (1..=pieces).flat_map(keys_of) {
        let (i, s) = job
            .pairs
            .iter()
            .enumerate()
            .find_map(|(i, p)| {
                if *p == key {
                    Some((i, 0))
                } else if p.swapped() == key {
                    Some((i, 1))
                } else {
                    None
                }
            })
            .ok_or_else(|| {
                format!(
                    "checkers db: no pair holds {} (a bug)",
                    file::file_name(key)
                )
            })?;
        let rec = records[i].slices[s];
        if rec.census.width == 0 {
            return Err(format!(
                "checkers db: the record of {} holds no slice (a bug)",
                file::file_name(key)
            ));
        }
        slices.push(SliceSummary {
            key,
            census: rec.census,
            bytes: rec.bytes,
        });
    }
    Ok(Some((slices, report)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use ply_core::games::draughts::db::{unrank, Placement};
    use ply_core::games::draughts::{DraughtsMoves, Rules};
    use ply_core::Game;

    /// Every conversion of every position of up to 4 pieces leads into a slice its
    /// pair's item lists as needed, and each item needs only items before it (so
    /// the job can always go on, and finishes).
    #[test]
    fn conversions_lead_only_into_the_slices_an_item_needs() {
        let mut moves = DraughtsMoves::default();
        for n in 1..=4 {
            for key in keys_of(n) {
                let needed = needed_slices(key.min(key.swapped()));
                for i in 0..slice_size(key) {
                    let g = unrank(key, i).game_with(Rules::english());
                    g.generate_moves(&mut moves);
                    for &m in moves.iter() {
                        if m.is_capture() || m.crowns() {
                            let c = SliceKey::of(&Placement::of(&g.play_unchecked(m)));
                            assert!(
                                needed.contains(&c),
                                "{:?} position {}: a conversion into {:?}",
                                key,
                                i,
                                c
                            );
                        }
                    }
                }
            }
        }
        let (pairs, needs) = pairs(8);
        assert_eq!(pairs.len(), needs.len());
        for (i, n) in needs.iter().enumerate() {
            assert!(n.iter().all(|&j| j < i), "{:?} needs {:?}", pairs[i], n);
        }
        // A king against two: a king taken (one or both of the two), nothing of
        // 3 pieces.
        let (p, n) = super::pairs(3);
        let i = p
            .iter()
            .position(|k| *k == SliceKey::new(0, 1, 0, 2))
            .unwrap();
        let names: Vec<SliceKey> = n[i].iter().map(|&j| p[j]).collect();
        assert_eq!(
            names,
            [
                SliceKey::new(0, 0, 0, 1),
                SliceKey::new(0, 0, 0, 2),
                SliceKey::new(0, 1, 0, 1)
            ],
            "{:?}",
            names
        );
    }

    #[test]
    fn a_record_round_trips_and_bad_words_are_refused() {
        let r = PairRecord {
            built: 5,
            converted: 1,
            build_ns: 77,
            slices: [
                SliceRecord {
                    census: SliceCensus {
                        won: 1,
                        lost: 2,
                        drawn: 3,
                        longest: Some((300, true)),
                        width: 2,
                    },
                    bytes: 99,
                },
                SliceRecord {
                    census: SliceCensus {
                        won: 4,
                        lost: 0,
                        drawn: 0,
                        longest: Some((0, false)),
                        width: 1,
                    },
                    bytes: 5,
                },
            ],
        };
        let w = r.encode();
        assert_eq!(w.len(), PairRecord::WORDS);
        assert_eq!(PairRecord::decode(&w), Some(r));
        let mut bad = w.clone();
        bad[3 + 4] = 3; // width 3
        assert_eq!(PairRecord::decode(&bad), None);
        assert_eq!(PairRecord::decode(&w[1..]), None);
        let mut none = w;
        none[3 + 4] = 0; // the first slice absent
        assert_eq!(PairRecord::decode(&none), None);
    }

    /// The job in one process, into a directory: the same files and the same
    /// summary as the one-process build's.
    #[test]
    fn the_job_in_one_process_writes_the_files_of_the_plain_build() {
        let root = std::env::temp_dir().join(format!("ply-cdb-job-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        let (a, b) = (root.join("a"), root.join("b"));
        std::fs::create_dir_all(&a).unwrap();
        crate::draughts_db::build_all(3, 2, &a, &mut |_| {}).unwrap();
        let ckpt = root.join("job.ckpt");
        let options = Options {
            checkpoint: Some(ckpt.clone()),
            command: "test".into(),
            ..Options::default()
        };
        let (slices, report) = build(3, 2, false, &b, &options).unwrap().unwrap();
        assert_eq!(report.built, 261_224 + 6_972 + 120);
        assert_eq!(slices.len(), 4 + 10 + 20);
        for s in &slices {
            let name = file::file_name(s.key);
            let want = std::fs::read(a.join(&name)).unwrap();
            assert_eq!(std::fs::read(b.join(&name)).unwrap(), want, "{}", name);
            assert_eq!(s.bytes, want.len() as u64);
        }
        // Again from the checkpoint: nothing built, the same summary.
        let resumed = Options {
            resume: true,
            ..options
        };
        let (again, report) = build(3, 2, false, &b, &resumed).unwrap().unwrap();
        assert_eq!((report.built, again), (0, slices));
        std::fs::remove_dir_all(&root).unwrap();
    }
}
