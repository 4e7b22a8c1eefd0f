//! The threads of one process that compute items: [`super::Job::slots`] of them, each
//! taking the next item number given to the process and handing back its result.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::thread::Scope;
use std::time::{Duration, Instant};

use super::Job;

/// The longest [`Executor::finished`] sleeps while items wait queued: the queue
/// given to a process's threads should hold several slices of work.
pub const SLICE: Duration = Duration::from_millis(1);

/// One computed item.
#[derive(Debug)]
pub struct Finished<R> {
    /// The item.
    pub index: usize,
    /// Its result, or why there is none (a panic is caught and becomes an error).
    pub output: Result<R, String>,
    /// Nanoseconds it took.
    pub busy_ns: u64,
}

/// The computing threads of a process, started in a thread scope: they end when it is
/// dropped, once their current items are done.
pub struct Executor<R> {
    todo: Option<Sender<usize>>,
    done: Receiver<Finished<R>>,
    cancel: Arc<AtomicBool>,
    in_flight: usize,
    slots: usize,
}

impl<R: Send + 'static> Executor<R> {
    /// Starts `job.slots()` threads in `scope`.
    pub fn start<'scope, 'env, J>(scope: &'scope Scope<'scope, 'env>, job: &'env J) -> Self
    where
        J: Job<Output = R>,
    {
        let (todo, todo_rx) = channel::<usize>();
        let (done_tx, done) = channel();
        let todo_rx = Arc::new(Mutex::new(todo_rx));
        let cancel = Arc::new(AtomicBool::new(false));
        for _ in 0..job.slots().max(1) {
            let todo_rx = Arc::clone(&todo_rx);
            let done_tx = done_tx.clone();
            let cancel = Arc::clone(&cancel);
            scope.spawn(move || loop {
                let next = todo_rx.lock().unwrap_or_else(|e| e.into_inner()).recv();
                let Ok(index) = next else { break };
                if cancel.load(Ordering::Relaxed) {
                    continue;
                }
                let t = Instant::now();
                let output =
                    catch_unwind(AssertUnwindSafe(|| job.run(index))).unwrap_or_else(|p| {
                        Err(format!("item {} panicked: {}", index, panic_text(&p)))
                    });
                let busy_ns = u64::try_from(t.elapsed().as_nanos()).unwrap_or(u64::MAX);
                if done_tx
                    .send(Finished {
                        index,
                        output,
                        busy_ns,
                    })
                    .is_err()
                {
                    break;
                }
            });
        }
        Executor {
            todo: Some(todo),
            done,
            cancel,
            in_flight: 0,
            slots: job.slots().max(1),
        }
    }

    /// Queues item `index`.
    pub fn submit(&mut self, index: usize) {
        if let Some(tx) = &self.todo {
            if tx.send(index).is_ok() {
                self.in_flight += 1;
            }
        }
    }

    /// Items queued or being computed.
    pub fn in_flight(&self) -> usize {
        self.in_flight
    }

    /// The items computed so far, waiting at most `wait`. While items wait queued
    /// beyond the threads (every thread has its next item), it sleeps at most
    /// [`SLICE`] and takes every item computed meanwhile: one wake-up for many short
    /// items, where waking for each one cost more than a short item itself.
    /// Otherwise it returns as soon as an item is computed, with any others already
    /// done.
    pub fn finished(&mut self, wait: Duration) -> Vec<Finished<R>> {
        let mut out = Vec::new();
        if self.in_flight == 0 {
            std::thread::sleep(wait);
            return out;
        }
        if self.in_flight > self.slots {
            std::thread::sleep(wait.min(SLICE));
        } else {
            match self.done.recv_timeout(wait) {
                Ok(f) => out.push(f),
                Err(RecvTimeoutError::Timeout) | Err(RecvTimeoutError::Disconnected) => return out,
            }
        }
        while let Ok(f) = self.done.try_recv() {
            out.push(f);
        }
        self.in_flight -= out.len();
        out
    }

    /// Drops the queued items; the threads finish the items they are computing.
    pub fn cancel(&mut self) {
        self.cancel.store(true, Ordering::Relaxed);
        self.todo = None;
    }
}

fn panic_text(p: &Box<dyn std::any::Any + Send>) -> String {
    if let Some(s) = p.downcast_ref::<&str>() {
        s.to_string()
    } else if let Some(s) = p.downcast_ref::<String>() {
        s.clone()
    } else {
        "a panic".into()
    }
}
