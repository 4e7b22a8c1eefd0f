//! Rank 0's loop ([`coordinate`]): deal out items, compute some itself, check and
//! gather the answers, keep the checkpoint; and the other ranks' loop ([`work`]). The same loop runs a job in one process (a [`Transport`] with
//! no other ranks), so the `mpi` feature adds only the transport.

use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::checkpoint;
use super::codec::{fnv1a, Message, Record};
use super::dispatch::Dispatcher;
use super::exec::Executor;
use super::{Job, Options};
use crate::quote::quote;

/// How messages reach the other ranks of a run.
pub trait Transport {
    /// The number of ranks of the run, this one included (1: a process alone).
    fn size(&self) -> usize;
    /// The next message from any other rank as (rank, tag, bytes), if one has arrived;
    /// never waits.
    fn poll(&mut self) -> Result<Option<(usize, i32, Vec<u8>)>, String>;
    /// Sends `msg` to `rank`.
    fn send(&mut self, rank: usize, msg: &Message) -> Result<(), String>;
    /// Rank 0 has not heard from `rank` for too long and will send it nothing more:
    /// the run cannot end with it in the ordinary way (over MPI it is aborted once
    /// rank 0 has saved its checkpoint and said why).
    fn unresponsive(&mut self, _rank: usize) {}
}

/// A process alone: no other ranks.
pub struct Alone;

impl Transport for Alone {
    fn size(&self) -> usize {
        1
    }
    fn poll(&mut self) -> Result<Option<(usize, i32, Vec<u8>)>, String> {
        Ok(None)
    }
    fn send(&mut self, rank: usize, _msg: &Message) -> Result<(), String> {
        Err(format!("no rank {} in a process alone", rank))
    }
}

/// The longest a run goes without writing its checkpoint once an item has finished.
pub const CHECKPOINT_EVERY: Duration = Duration::from_secs(1);

/// How long rank 0 waits for its own threads before it looks for messages again (a
/// blocking MPI receive would keep a core busy).
pub const POLL: Duration = Duration::from_micros(200);

/// The fingerprint the checkpoint keeps and the ranks compare: the command's
/// arguments and the job's own description.
pub fn fingerprint<J: Job>(job: &J, options: &Options) -> String {
    if options.command.is_empty() {
        job.fingerprint()
    } else {
        format!("{}; {}", options.command, job.fingerprint())
    }
}

/// Runs `job` in this process alone.
pub fn run_local<J: Job>(job: &J, options: &Options) -> Result<Vec<J::Output>, String> {
    coordinate(job, options, &mut Alone, "local".into(), false)
}

/// The results read back from the checkpoint (all `None` without one, or when
/// `--resume` finds no file yet).
fn start_results<R: Record>(
    options: &Options,
    fingerprint: &str,
    items: usize,
) -> Result<Vec<Option<R>>, String> {
    let fresh = || (0..items).map(|_| None).collect();
    let Some(path) = &options.checkpoint else {
        return Ok(fresh());
    };
    let shown = quote(&path.to_string_lossy());
    if !options.resume {
        if path.exists() {
            return Err(exists_error(path));
        }
        return Ok(fresh());
    }
    match checkpoint::load(path, fingerprint, items)? {
        Some(r) => Ok(r),
        None => {
            crate::errln!(
                "checkpoint {} does not exist yet: starting from the first item",
                shown
            );
            Ok(fresh())
        }
    }
}

/// The error for a checkpoint file that is there already when `--resume` was not given.
pub fn exists_error(path: &Path) -> String {
    format!(
        "--checkpoint {} exists: add --resume to go on from it, or remove it to start again",
        quote(&path.to_string_lossy())
    )
}

/// The checkpoint as the interrupt handler and the loop share it.
struct Saver<R> {
    path: Option<std::path::PathBuf>,
    fingerprint: String,
    results: Arc<Mutex<Vec<Option<R>>>>,
    last: Instant,
    unsaved: bool,
}

impl<R: Record> Saver<R> {
    fn store(&mut self, index: usize, r: R) {
        self.results.lock().unwrap_or_else(|e| e.into_inner())[index] = Some(r);
        self.unsaved = true;
    }

    fn save(&mut self, force: bool) -> Result<(), String> {
        let Some(path) = &self.path else {
            return Ok(());
        };
        if !self.unsaved || (!force && self.last.elapsed() < CHECKPOINT_EVERY) {
            return Ok(());
        }
        let results = self.results.lock().unwrap_or_else(|e| e.into_inner());
        checkpoint::save(path, &self.fingerprint, &results)?;
        self.last = Instant::now();
        self.unsaved = false;
        Ok(())
    }

    /// `error`, saying how much the checkpoint holds, after saving it.
    fn fail(&mut self, error: String) -> String {
        let saved = self.save(true);
        match (&self.path, saved) {
            (None, _) => error,
            (Some(path), Ok(())) => {
                let results = self.results.lock().unwrap_or_else(|e| e.into_inner());
                let done = results.iter().filter(|r| r.is_some()).count();
                format!(
                    "{} ({} of {} items are saved in {}: rerun the same command with --resume \
                     to finish)",
                    error,
                    done,
                    results.len(),
                    quote(&path.to_string_lossy())
                )
            }
            (Some(_), Err(e)) => format!("{} ({})", error, e),
        }
    }
}

/// Clears the interrupt hook when the run ends, however it ends.
struct HookGuard;

impl Drop for HookGuard {
    fn drop(&mut self) {
        crate::interrupt::on_interrupt(None);
    }
}

/// Makes Ctrl-C and SIGTERM (what `mpirun` sends when a rank dies) save the checkpoint
/// and say how to go on.
fn install_hook<R: Record>(saver: &Saver<R>) -> Option<HookGuard> {
    let path = saver.path.clone()?;
    let fingerprint = saver.fingerprint.clone();
    let results = Arc::clone(&saver.results);
    crate::interrupt::on_interrupt(Some(Box::new(move || {
        let results = results.lock().unwrap_or_else(|e| e.into_inner());
        let done = results.iter().filter(|r| r.is_some()).count();
        let shown = quote(&path.to_string_lossy());
        match checkpoint::save(&path, &fingerprint, &results) {
            Ok(()) => crate::errln!(
                "stopped: {} of {} items are saved in {}: rerun the same command with \
                 --resume to finish",
                done,
                results.len(),
                shown
            ),
            Err(e) => crate::errln!("stopped: {}", e),
        }
    })));
    Some(HookGuard)
}

/// How often a worker says it is alive ([`Message::Alive`]) when it has sent nothing
/// else.
pub const ALIVE_EVERY: Duration = Duration::from_secs(1);

/// Rank 0's loop over `transport` (see the module docs); `host` names this process's
/// host in the summary, which is printed on standard error when `summary` is set. A
/// rank that holds work and sends nothing for `PLY_RANK_TIMEOUT` seconds (default
/// [`crate::settings::DEFAULT_RANK_TIMEOUT`]) ends the run with an error naming it.
pub fn coordinate<J: Job, T: Transport>(
    job: &J,
    options: &Options,
    transport: &mut T,
    host: String,
    summary: bool,
) -> Result<Vec<J::Output>, String> {
    let timeout = crate::settings::environment()?
        .rank_timeout
        .unwrap_or(crate::settings::DEFAULT_RANK_TIMEOUT);
    coordinate_within(
        job,
        options,
        transport,
        host,
        summary,
        Duration::from_secs(timeout),
    )
}

/// [`coordinate`], waiting at most `timeout` for a word from a rank that holds work.
fn coordinate_within<J: Job, T: Transport>(
    job: &J,
    options: &Options,
    transport: &mut T,
    host: String,
    summary: bool,
    timeout: Duration,
) -> Result<Vec<J::Output>, String> {
    let fp = fingerprint(job, options);
    let items = job.items();
    let results = match start_results::<J::Output>(options, &fp, items) {
        Ok(r) => r,
        Err(e) => {
            // The other ranks wait for their first message: tell them to end.
            for rank in 1..transport.size() {
                let _ = transport.send(rank, &Message::Stop { abort: true });
            }
            return Err(e);
        }
    };
    let mut book = Dispatcher::new(items, |i| results[i].is_some(), transport.size());
    let resumed = book.done();
    if resumed > 0 {
        crate::errln!("resuming: {} of {} items were done already", resumed, items);
    }
    book.hello(0, host, job.slots())?;
    let mut saver = Saver {
        path: options.checkpoint.clone(),
        fingerprint: fp.clone(),
        results: Arc::new(Mutex::new(results)),
        last: Instant::now(),
        unsaved: false,
    };
    let _hook = install_hook(&saver);
    let wait = if transport.size() > 1 {
        POLL
    } else {
        Duration::from_millis(20)
    };
    let started = Instant::now();
    // When each rank was last heard from.
    let mut heard = vec![started; transport.size()];
    let mut progress = crate::interrupt::Progress::new();
    let outcome = std::thread::scope(|scope| {
        let mut exec = Executor::start(scope, job);
        let r = (|| -> Result<(), String> {
            loop {
                // One item queued beyond the threads, so none waits for its next.
                let cap = job.slots() + 1;
                while let Some(i) = book.assign(0, cap) {
                    exec.submit(i);
                }
                while let Some((rank, t, bytes)) = transport.poll()? {
                    if let Some(h) = heard.get_mut(rank) {
                        *h = Instant::now();
                    }
                    let msg = Message::decode(t, &bytes)
                        .map_err(|e| format!("rank {} sent {}", rank, e))?;
                    on_message(job, &fp, &mut book, &mut saver, transport, rank, msg)?;
                }
                silent_rank(&mut book, transport, &heard, timeout)?;
                if let Some(f) = exec.next(wait) {
                    let out = f.output.map_err(|e| format!("item {}: {}", f.index, e))?;
                    book.answer(0, f.index, out.nodes(), f.busy_ns)?;
                    job.finished(f.index, &out);
                    saver.store(f.index, out);
                }
                saver.save(false)?;
                if let Some(label) = job.label() {
                    progress.tick(|| {
                        format!(
                            "{}: {}/{} items, {}",
                            label,
                            book.done(),
                            items,
                            crate::commands::secs(started.elapsed().as_secs_f64())
                        )
                    });
                }
                if book.all_done() && book.workers_stopped() {
                    return Ok(());
                }
            }
        })();
        if r.is_err() {
            exec.cancel();
            for rank in 1..transport.size() {
                if !book.ranks()[rank].stopped {
                    let _ = transport.send(rank, &Message::Stop { abort: true });
                    book.stopped(rank);
                }
            }
        }
        r
    });
    progress.finish();
    if let Err(e) = outcome {
        return Err(saver.fail(e));
    }
    saver.save(true)?;
    if summary {
        print_summary(&book, resumed);
    }
    let results = std::mem::take(&mut *saver.results.lock().unwrap_or_else(|e| e.into_inner()));
    Ok(results
        .into_iter()
        .map(|r| r.expect("every item is done"))
        .collect())
}

/// An error for the first rank that is still to run or holds work and has sent
/// nothing for `timeout`; that rank is given up (no message goes to it any more).
fn silent_rank<T: Transport>(
    book: &mut Dispatcher,
    transport: &mut T,
    heard: &[Instant],
    timeout: Duration,
) -> Result<(), String> {
    let Some(rank) =
        (1..heard.len()).find(|&r| !book.ranks()[r].stopped && heard[r].elapsed() > timeout)
    else {
        return Ok(());
    };
    book.stopped(rank);
    transport.unresponsive(rank);
    let r = &book.ranks()[rank];
    let secs = timeout.as_secs_f64();
    Err(match &r.host {
        None => format!(
            "rank {} has not said hello within {} s (PLY_RANK_TIMEOUT): it did not start, \
             or it is stuck or cut off",
            rank, secs
        ),
        Some(host) => format!(
            "rank {} on {} has sent nothing for {} s while it held {} item{} \
             (PLY_RANK_TIMEOUT): it is stopped, stuck or cut off",
            rank,
            quote(host),
            secs,
            r.outstanding,
            if r.outstanding == 1 { "" } else { "s" }
        ),
    })
}

/// Handles one message from `rank`.
fn on_message<J: Job, T: Transport>(
    job: &J,
    fp: &str,
    book: &mut Dispatcher,
    saver: &mut Saver<J::Output>,
    transport: &mut T,
    rank: usize,
    msg: Message,
) -> Result<(), String> {
    match msg {
        Message::Hello {
            fingerprint,
            slots,
            host,
        } => {
            if fingerprint != fnv1a(fp.as_bytes()) {
                return Err(format!(
                    "rank {} on {} has another job: every rank must run the same ply with \
                     the same arguments",
                    rank,
                    quote(&host)
                ));
            }
            book.hello(rank, host, slots)?;
        }
        Message::Done {
            index,
            busy_ns,
            words,
        } => {
            let out = J::Output::decode(&words).ok_or_else(|| {
                format!(
                    "rank {} answered item {} with {} words that are not a result",
                    rank,
                    index,
                    words.len()
                )
            })?;
            book.answer(rank, index, out.nodes(), busy_ns)?;
            job.finished(index, &out);
            saver.store(index, out);
        }
        Message::Failed { index, error } => {
            return Err(format!("rank {}, item {}: {}", rank, index, error));
        }
        Message::Alive => return Ok(()),
        Message::Assign { .. } | Message::Stop { .. } => {
            return Err(format!("rank {} sent rank 0 {:?}", rank, msg));
        }
    }
    feed(book, transport, rank)
}

/// Gives `rank` items up to its slots and one more, or tells it to stop.
fn feed<T: Transport>(book: &mut Dispatcher, transport: &mut T, rank: usize) -> Result<(), String> {
    let cap = book.ranks()[rank].slots + 1;
    while let Some(index) = book.assign(rank, cap) {
        transport.send(rank, &Message::Assign { index })?;
    }
    if book.should_stop(rank) {
        transport.send(rank, &Message::Stop { abort: false })?;
        book.stopped(rank);
    }
    Ok(())
}

/// A rank other than 0: says hello (its job's fingerprint hash, its slots, its host),
/// computes the items it is given and sends each result back, until rank 0 tells it to
/// stop.
pub fn work<J: Job, T: Transport>(
    job: &J,
    options: &Options,
    transport: &mut T,
    host: String,
) -> Result<(), String> {
    let fp = fnv1a(fingerprint(job, options).as_bytes());
    transport.send(
        0,
        &Message::Hello {
            fingerprint: fp,
            slots: job.slots(),
            host,
        },
    )?;
    let mut last_sent = Instant::now();
    std::thread::scope(|scope| {
        let mut exec = Executor::start(scope, job);
        let mut stop: Option<bool> = None;
        loop {
            if last_sent.elapsed() >= ALIVE_EVERY {
                transport.send(0, &Message::Alive)?;
                last_sent = Instant::now();
            }
            while let Some((from, t, bytes)) = transport.poll()? {
                let msg =
                    Message::decode(t, &bytes).map_err(|e| format!("rank {} sent {}", from, e))?;
                match msg {
                    Message::Assign { index } if index < job.items() && stop.is_none() => {
                        exec.submit(index)
                    }
                    Message::Stop { abort } => {
                        stop = Some(abort);
                        if abort {
                            exec.cancel();
                        }
                    }
                    other => return Err(format!("rank {} sent {:?}", from, other)),
                }
            }
            match stop {
                // Rank 0 failed and says why: this rank ends quietly.
                Some(true) => return Ok(()),
                Some(false) if exec.in_flight() == 0 => return Ok(()),
                _ => {}
            }
            if let Some(f) = exec.next(POLL) {
                let msg = match f.output {
                    Ok(out) => Message::Done {
                        index: f.index,
                        busy_ns: f.busy_ns,
                        words: out.encode(),
                    },
                    Err(error) => Message::Failed {
                        index: f.index,
                        error,
                    },
                };
                transport.send(0, &msg)?;
                last_sent = Instant::now();
            }
        }
    })
}

/// One line per rank on standard error: its host, items, busy time and nodes.
fn print_summary(book: &Dispatcher, resumed: usize) {
    if resumed > 0 {
        crate::errln!("{} items read from the checkpoint", resumed);
    }
    for (rank, b) in book.ranks().iter().enumerate() {
        crate::errln!(
            "rank {} on {}: {} items, {} busy on {} thread{}, {} nodes",
            rank,
            b.host.as_deref().unwrap_or("?"),
            b.items,
            super::secs(b.busy_ns),
            b.slots,
            if b.slots == 1 { "" } else { "s" },
            b.nodes
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::VecDeque;

    /// Squares of the item numbers, on 2 threads.
    struct Squares(usize);

    impl Job for Squares {
        type Output = u64;
        fn fingerprint(&self) -> String {
            format!("squares {}", self.0)
        }
        fn items(&self) -> usize {
            self.0
        }
        fn slots(&self) -> usize {
            2
        }
        fn run(&self, index: usize) -> Result<u64, String> {
            if index == 1000 {
                return Err("no".into());
            }
            Ok((index * index) as u64)
        }
        fn label(&self) -> Option<&str> {
            Some("squares")
        }
    }

    fn scratch(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("ply-coord-{}-{}", name, std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn one_process_computes_every_item_in_order() {
        let out = run_local(&Squares(50), &Options::default()).unwrap();
        assert_eq!(out, (0..50u64).map(|i| i * i).collect::<Vec<_>>());
        let e = run_local(&Squares(1001), &Options::default()).unwrap_err();
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
        };
        let fp = fingerprint(&Squares(10), &options);
        // Items 0..5 done, with marked values that a recount would not give.
        let part: Vec<Option<u64>> = (0..10).map(|i| (i < 5).then_some(1000 + i)).collect();
        checkpoint::save(&path, &fp, &part).unwrap();
        let out = run_local(&Squares(10), &options).unwrap();
        assert_eq!(out[..5], [1000, 1001, 1002, 1003, 1004]);
        assert_eq!(out[5..], [25, 36, 49, 64, 81]);
        // The finished run's checkpoint holds everything; a resume only reads it.
        assert_eq!(
            checkpoint::load::<u64>(&path, &fp, 10).unwrap().unwrap(),
            out.iter().map(|&v| Some(v)).collect::<Vec<_>>()
        );
        assert_eq!(run_local(&Squares(10), &options).unwrap(), out);
        // Without --resume an existing checkpoint is refused; another job's too.
        let fresh = Options {
            resume: false,
            ..options.clone()
        };
        assert!(run_local(&Squares(10), &fresh)
            .unwrap_err()
            .contains("exists: add --resume"));
        assert!(run_local(&Squares(11), &options)
            .unwrap_err()
            .contains("belongs to another command"));
        let _ = std::fs::remove_dir_all(dir);
    }

    /// Another rank played by a script: what it sends when given its first item.
    struct Scripted {
        inbox: VecDeque<(usize, i32, Vec<u8>)>,
        answer: Box<dyn FnMut(usize) -> Vec<Message>>,
        sent: Vec<(usize, Message)>,
    }

    impl Transport for Scripted {
        fn size(&self) -> usize {
            2
        }
        fn poll(&mut self) -> Result<Option<(usize, i32, Vec<u8>)>, String> {
            Ok(self.inbox.pop_front())
        }
        fn send(&mut self, rank: usize, msg: &Message) -> Result<(), String> {
            if let Message::Assign { index } = msg {
                for m in (self.answer)(*index) {
                    let (t, b) = m.encode();
                    self.inbox.push_back((rank, t, b));
                }
            }
            self.sent.push((rank, msg.clone()));
            Ok(())
        }
    }

    fn scripted(answer: impl FnMut(usize) -> Vec<Message> + 'static, fp: u64) -> Scripted {
        let (t, b) = Message::Hello {
            fingerprint: fp,
            slots: 1,
            host: "h".into(),
        }
        .encode();
        Scripted {
            inbox: VecDeque::from([(1, t, b)]),
            answer: Box::new(answer),
            sent: Vec::new(),
        }
    }

    fn good(index: usize) -> Vec<Message> {
        vec![Message::Done {
            index,
            busy_ns: 1,
            words: vec![(index * index) as u64],
        }]
    }

    #[test]
    fn a_second_rank_shares_the_items_and_is_stopped() {
        let job = Squares(200);
        let fp = fnv1a(fingerprint(&job, &Options::default()).as_bytes());
        let mut t = scripted(good, fp);
        let out = coordinate(&job, &Options::default(), &mut t, "me".into(), true).unwrap();
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

    type Packet = (usize, i32, Vec<u8>);

    /// Ranks as threads of this process, joined by channels.
    struct Channels {
        me: usize,
        inbox: std::sync::mpsc::Receiver<Packet>,
        to: Vec<std::sync::mpsc::Sender<Packet>>,
    }

    impl Transport for Channels {
        fn size(&self) -> usize {
            self.to.len()
        }
        fn poll(&mut self) -> Result<Option<Packet>, String> {
            Ok(self.inbox.try_recv().ok())
        }
        fn send(&mut self, rank: usize, msg: &Message) -> Result<(), String> {
            let (t, b) = msg.encode();
            self.to[rank]
                .send((self.me, t, b))
                .map_err(|e| e.to_string())
        }
    }

    fn channels(n: usize) -> Vec<Channels> {
        let (tx, rx): (Vec<_>, Vec<_>) = (0..n).map(|_| std::sync::mpsc::channel()).unzip();
        rx.into_iter()
            .enumerate()
            .map(|(me, inbox)| Channels {
                me,
                inbox,
                to: tx.clone(),
            })
            .collect()
    }

    #[test]
    fn three_ranks_compute_what_one_process_does() {
        let job = Squares(500);
        let options = Options::default();
        let mut ranks = channels(3);
        let mut zero = ranks.remove(0);
        let out = std::thread::scope(|s| {
            for (k, mut t) in ranks.into_iter().enumerate() {
                let (job, options) = (&job, &options);
                s.spawn(move || work(job, options, &mut t, format!("h{}", k + 1)).unwrap());
            }
            coordinate(&job, &options, &mut zero, "h0".into(), true).unwrap()
        });
        assert_eq!(out, run_local(&job, &options).unwrap());
    }

    /// Rank 1: says hello, then answers each item `delay` after it was given, saying
    /// it is alive every 10 ms meanwhile when `alive`.
    struct Slow {
        delay: Duration,
        alive: bool,
        hello: bool,
        given: VecDeque<(usize, Instant)>,
        last_alive: Instant,
        unresponsive: Vec<usize>,
        sent: Vec<(usize, Message)>,
    }

    impl Slow {
        fn new(delay: Duration, alive: bool) -> Self {
            Slow {
                delay,
                alive,
                hello: false,
                given: VecDeque::new(),
                last_alive: Instant::now(),
                unresponsive: Vec::new(),
                sent: Vec::new(),
            }
        }
    }

    impl Transport for Slow {
        fn size(&self) -> usize {
            2
        }
        fn poll(&mut self) -> Result<Option<(usize, i32, Vec<u8>)>, String> {
            let msg = if !self.hello {
                self.hello = true;
                Some(Message::Hello {
                    fingerprint: fnv1a(fingerprint(&Squares(40), &Options::default()).as_bytes()),
                    slots: 1,
                    host: "h".into(),
                })
            } else if self
                .given
                .front()
                .is_some_and(|(_, at)| at.elapsed() >= self.delay)
            {
                let (index, _) = self.given.pop_front().expect("one is given");
                Some(Message::Done {
                    index,
                    busy_ns: 1,
                    words: vec![(index * index) as u64],
                })
            } else if self.alive && self.last_alive.elapsed() >= Duration::from_millis(10) {
                self.last_alive = Instant::now();
                Some(Message::Alive)
            } else {
                None
            };
            Ok(msg.map(|m| {
                let (t, b) = m.encode();
                (1, t, b)
            }))
        }
        fn send(&mut self, rank: usize, msg: &Message) -> Result<(), String> {
            assert!(
                !self.unresponsive.contains(&rank),
                "{:?} sent to a rank given up",
                msg
            );
            if let Message::Assign { index } = msg {
                self.given.push_back((*index, Instant::now()));
            }
            self.sent.push((rank, msg.clone()));
            Ok(())
        }
        fn unresponsive(&mut self, rank: usize) {
            self.unresponsive.push(rank);
        }
    }

    #[test]
    fn a_rank_that_says_it_is_alive_may_take_longer_than_the_timeout() {
        let mut t = Slow::new(Duration::from_millis(150), true);
        let out = coordinate_within(
            &Squares(40),
            &Options::default(),
            &mut t,
            "me".into(),
            false,
            Duration::from_millis(60),
        )
        .unwrap();
        assert_eq!(out, (0..40u64).map(|i| i * i).collect::<Vec<_>>());
        assert!(t.unresponsive.is_empty());
    }

    #[test]
    fn a_silent_rank_ends_the_run_and_is_sent_nothing_more() {
        let dir = scratch("silent");
        let options = Options {
            checkpoint: Some(dir.join("c.ckpt")),
            ..Options::default()
        };
        let mut t = Slow::new(Duration::from_secs(3600), false);
        let e = coordinate_within(
            &Squares(40),
            &options,
            &mut t,
            "me".into(),
            false,
            Duration::from_millis(60),
        )
        .unwrap_err();
        assert!(
            e.starts_with(
                "rank 1 on 'h' has sent nothing for 0.06 s while it held 2 items \
                 (PLY_RANK_TIMEOUT): it is stopped, stuck or cut off"
            ),
            "{}",
            e
        );
        // What rank 0 computed itself is saved.
        assert!(e.contains("items are saved in"), "{}", e);
        assert_eq!(t.unresponsive, [1]);
        assert!(!t.sent.contains(&(1, Message::Stop { abort: true })));
        let _ = std::fs::remove_dir_all(dir);
    }
}
