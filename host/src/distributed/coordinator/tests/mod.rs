//! The coordinator on one process, on scripted ranks and on ranks over channels: one
//! file a topic, the jobs and transports they share here.

use super::*;
use crate::distributed::{checkpoint, complete};
use std::collections::VecDeque;

mod answers;
mod deal;
mod gated;
mod local;
mod sharing;
mod timeout;

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
