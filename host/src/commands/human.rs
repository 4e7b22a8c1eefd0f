//! A human's turn in `ply play`: the prompt, and what a typed line can be.
//!
//! * a move in the game's notation: played if legal, otherwise refused with the
//!   reason and asked again;
//! * `moves`: the legal moves; `help` or `?`: the legal moves and how to type one;
//! * `quit`, `exit` or the end of input (Ctrl-D): goodbye, the game is left (the
//!   words in any case);
//! * a line that is not UTF-8 text, or longer than [`MAX_LINE`] bytes: refused, and
//!   asked again.

use std::io::{BufRead, Read, Write};

use crate::games::HostGame;
use crate::position::move_texts;

/// What the human chose.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply<G> {
    /// The position after the human's (legal) move.
    Moved(G),
    /// The human left the game (`quit`, `exit`, end of input); goodbye was said.
    Quit,
}

/// Asks the human playing `name` for a move in `game` until a legal one (or a way
/// out) is typed. Errors: only failures to read or write.
pub fn ask_move<G: HostGame>(
    game: &G,
    name: &str,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> Result<Reply<G>, String> {
    let io = |e: std::io::Error| format!("cannot write output: {}", e);
    loop {
        write!(
            out,
            "{} to move ('help' explains, 'moves' lists them, 'quit' ends): ",
            name
        )
        .map_err(io)?;
        out.flush().map_err(io)?;
        let read = |e: std::io::Error| format!("cannot read input: {}", e);
        // At most MAX_LINE bytes are kept: a line without end costs no memory.
        let mut bytes = Vec::new();
        let n = (&mut *input)
            .take(MAX_LINE as u64)
            .read_until(b'\n', &mut bytes)
            .map_err(read)?;
        if n == 0 {
            // End of input (Ctrl-D): a normal way to leave.
            writeln!(out, "\ngoodbye: the game is left unfinished").map_err(io)?;
            return Ok(Reply::Quit);
        }
        if n == MAX_LINE && bytes.last() != Some(&b'\n') {
            skip_line(input).map_err(read)?;
            writeln!(
                out,
                "not a move: the line is longer than {} bytes; type a move such as {}",
                MAX_LINE,
                example(game)
            )
            .map_err(io)?;
            continue;
        }
        let Ok(line) = String::from_utf8(bytes) else {
            writeln!(
                out,
                "not a move: the line is not UTF-8 text; type a move such as {}, or 'help'",
                example(game)
            )
            .map_err(io)?;
            continue;
        };
        let text = line.trim();
        match text.to_ascii_lowercase().as_str() {
            "" => continue,
            "quit" | "exit" => {
                writeln!(out, "goodbye: the game is left unfinished").map_err(io)?;
                return Ok(Reply::Quit);
            }
            "moves" => {
                writeln!(out, "{}", move_texts(game).join(" ")).map_err(io)?;
                continue;
            }
            "help" | "?" => {
                writeln!(out, "legal moves: {}", move_texts(game).join(" ")).map_err(io)?;
                writeln!(
                    out,
                    "type one of them as shown (e.g. {}) and press Enter; 'moves' lists \
                     them again, 'quit' or Ctrl-D ends the game",
                    example(game)
                )
                .map_err(io)?;
                continue;
            }
            _ => {}
        }
        match game.parse_move(text) {
            Err(e) => writeln!(out, "not a move: {}", e).map_err(io)?,
            Ok(mv) => match game.play(mv) {
                Err(e) => writeln!(out, "{}", e).map_err(io)?,
                Ok(next) => return Ok(Reply::Moved(next)),
            },
        }
    }
}

/// The longest input line read as a move, in bytes; longer lines are refused.
pub const MAX_LINE: usize = 4096;

/// Reads and drops the rest of the current line (up to and including its newline).
fn skip_line(input: &mut dyn BufRead) -> std::io::Result<()> {
    loop {
        let buf = input.fill_buf()?;
        if buf.is_empty() {
            return Ok(());
        }
        match buf.iter().position(|&b| b == b'\n') {
            Some(i) => {
                input.consume(i + 1);
                return Ok(());
            }
            None => {
                let n = buf.len();
                input.consume(n);
            }
        }
    }
}

/// The first legal move, as an example of the notation.
fn example<G: HostGame>(game: &G) -> String {
    move_texts(game)
        .into_iter()
        .next()
        .unwrap_or_else(|| "(none: the game is over)".into())
}
