//! The one rule for echoing user input in an error line: a short excerpt, never the
//! whole text. A 128 KiB position pasted into `--position` is quoted as its first
//! [`EXCERPT_CHARS`] characters, `…`, and its length, so that every error stays one
//! readable line.

/// The most characters of user input an error line quotes.
pub const EXCERPT_CHARS: usize = 60;

/// The longest error line `ply` prints, in characters: a backstop for messages built
/// from several inputs (see [`cap_line`]).
pub const MAX_LINE_CHARS: usize = 400;

/// `text` between single quotes if it has at most [`EXCERPT_CHARS`] characters;
/// otherwise its first [`EXCERPT_CHARS`] characters and `…` between the quotes,
/// followed by its length: `'xx…' (131230 characters)`.
pub fn quote(text: &str) -> String {
    match text.char_indices().nth(EXCERPT_CHARS) {
        None => format!("'{}'", text),
        Some((cut, _)) => format!("'{}…' ({} characters)", &text[..cut], text.chars().count()),
    }
}

/// `line` with every `'…'`-quoted part longer than [`EXCERPT_CHARS`] characters
/// replaced by its [`quote`]: for messages written by others (the argument parser's),
/// which quote a value whole.
pub fn shorten_quoted(line: &str) -> String {
    let mut out = String::with_capacity(line.len().min(1024));
    let mut rest = line;
    while let Some(open) = rest.find('\'') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        match after.find('\'') {
            Some(close) => {
                out.push_str(&quote(&after[..close]));
                rest = &after[close + 1..];
            }
            None => {
                rest = &rest[open..];
                break;
            }
        }
    }
    out.push_str(rest);
    out
}

/// `line` if it has at most [`MAX_LINE_CHARS`] characters; otherwise its start and
/// its end (where the reason usually is) with `…` between them.
pub fn cap_line(line: &str) -> String {
    let n = line.chars().count();
    if n <= MAX_LINE_CHARS {
        return line.to_string();
    }
    let head = MAX_LINE_CHARS * 3 / 4;
    let tail = MAX_LINE_CHARS - head - 1;
    let start: String = line.chars().take(head).collect();
    let end: String = line.chars().skip(n - tail).collect();
    format!("{}…{}", start, end)
}

/// The widest help text [`wrap`] makes, whatever the terminal (clap's own limit).
pub const MAX_HELP_WIDTH: usize = 100;

/// The width `--help` is wrapped to: the terminal's (standard output's, on Unix),
/// else `COLUMNS`, else [`MAX_HELP_WIDTH`]; at most [`MAX_HELP_WIDTH`] and at least
/// 40.
pub fn help_width() -> usize {
    #[cfg(unix)]
    {
        // SAFETY: TIOCGWINSZ fills the winsize it is given; on a descriptor that
        // is not a terminal it fails and leaves it zeroed.
        let mut size: libc::winsize = unsafe { std::mem::zeroed() };
        let r = unsafe { libc::ioctl(libc::STDOUT_FILENO, libc::TIOCGWINSZ, &mut size) };
        if r == 0 && size.ws_col > 0 {
            return usize::from(size.ws_col).clamp(40, MAX_HELP_WIDTH);
        }
    }
    std::env::var("COLUMNS")
        .ok()
        .and_then(|c| c.trim().parse::<usize>().ok())
        .unwrap_or(MAX_HELP_WIDTH)
        .clamp(40, MAX_HELP_WIDTH)
}

/// The characters of `text` a terminal shows: ANSI escape sequences (`ESC [ … m`,
/// the colours of help text) take no room.
fn visible_width(text: &str) -> usize {
    let mut n = 0;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c == '\x1b' {
            // Up to and including the sequence's final letter.
            for d in chars.by_ref() {
                if d.is_ascii_alphabetic() {
                    break;
                }
            }
        } else {
            n += 1;
        }
    }
    n
}

/// `text` with every line wider than `width` broken at spaces, each continuation
/// indented as its line is (help text: a paragraph, or an option's description
/// under it). A word wider than the room is left whole.
pub fn wrap(text: &str, width: usize) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 32);
    for line in text.split_inclusive('\n') {
        let (body, newline) = match line.strip_suffix('\n') {
            Some(b) => (b, "\n"),
            None => (line, ""),
        };
        if visible_width(body) <= width {
            out.push_str(line);
            continue;
        }
        let indent_len = body.len() - body.trim_start_matches(' ').len();
        let indent = &body[..indent_len];
        let mut col = 0;
        out.push_str(indent);
        col += indent_len;
        let mut first = true;
        for word in body[indent_len..].split(' ').filter(|w| !w.is_empty()) {
            let w = visible_width(word);
            if !first && col + 1 + w > width {
                out.push('\n');
                out.push_str(indent);
                col = indent_len;
                first = true;
            }
            if !first {
                out.push(' ');
                col += 1;
            }
            out.push_str(word);
            col += w;
            first = false;
        }
        out.push_str(newline);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn help_lines_are_wrapped_with_their_indent() {
        let text = "Usage: ply\n          one two three four five six\nshort\n";
        assert_eq!(
            wrap(text, 24),
            "Usage: ply\n          one two three\n          four five six\nshort\n"
        );
        // Colours take no room.
        let coloured = "\x1b[1mbold\x1b[0m word";
        assert_eq!(wrap(coloured, 9), coloured);
        assert_eq!(wrap("a verylongword", 5), "a\nverylongword");
    }

    #[test]
    fn short_text_is_quoted_whole() {
        assert_eq!(quote("b2"), "'b2'");
        assert_eq!(quote(""), "''");
        let sixty = "é".repeat(EXCERPT_CHARS);
        assert_eq!(quote(&sixty), format!("'{}'", sixty));
    }

    #[test]
    fn long_text_is_cut_and_measured() {
        let long = "x".repeat(131_230);
        let q = quote(&long);
        assert_eq!(q, format!("'{}…' (131230 characters)", "x".repeat(60)));
        // Cut on a character boundary.
        let wide = "é".repeat(100);
        assert_eq!(
            quote(&wide),
            format!("'{}…' (100 characters)", "é".repeat(60))
        );
    }

    #[test]
    fn quoted_parts_of_others_messages_are_shortened() {
        let long = "9".repeat(1000);
        let line = format!(
            "error: invalid value '{}' for '--depth <DEPTH>': too large",
            long
        );
        assert_eq!(
            shorten_quoted(&line),
            format!(
                "error: invalid value '{}…' (1000 characters) for '--depth <DEPTH>': too large",
                "9".repeat(60)
            )
        );
        assert_eq!(shorten_quoted("it's 'short'"), "it's 'short'");
        assert_eq!(shorten_quoted("no quotes"), "no quotes");
    }

    #[test]
    fn long_lines_keep_their_start_and_end() {
        let line = format!("start {} end", "y".repeat(10_000));
        let c = cap_line(&line);
        assert_eq!(c.chars().count(), MAX_LINE_CHARS);
        assert!(c.starts_with("start ") && c.ends_with(" end") && c.contains('…'));
        assert_eq!(cap_line("short"), "short");
    }
}
