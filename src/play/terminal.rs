//! The terminal line editor of [`super::run_stdio`]: raw mode, key events read by a thread
//! of their own, and one prompt line drawn in place, so that a person's clock can run down
//! in the prompt while he types without garbling what he typed.
//!
//! Why raw mode (with `crossterm`) rather than a status line redrawn above a line the
//! terminal edits itself: with the terminal's own line editing, the kernel echoes keys at
//! the cursor at any moment, between our cursor moves; a redraw then lands in the middle of
//! the typed text. In raw mode this program is the only writer of the screen: the reader
//! thread only passes keys on, and the session's thread draws.

use std::io::{self, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use crossterm::event::{self, Event as Key, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use crossterm::terminal;

use super::{Event, Input, Options};

/// Runs a session in the terminal (standard input and output are terminals).
pub(super) fn run(options: Options) -> io::Result<()> {
    let _raw = RawMode::enable()?;
    let mut editor = Editor::start();
    let out = CrLf(io::stdout());
    let result = super::session(&mut editor, out, options);
    drop(editor);
    result
}

/// Raw mode while it lives.
struct RawMode;

impl RawMode {
    fn enable() -> io::Result<RawMode> {
        terminal::enable_raw_mode()?;
        Ok(RawMode)
    }
}

impl Drop for RawMode {
    fn drop(&mut self) {
        let _ = terminal::disable_raw_mode();
    }
}

/// Writes `\r\n` for every `\n`: raw mode leaves the carriage where it is on a line feed.
struct CrLf<W>(W);

impl<W: Write> Write for CrLf<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let mut parts = buf.split(|&b| b == b'\n');
        if let Some(first) = parts.next() {
            self.0.write_all(first)?;
        }
        for part in parts {
            self.0.write_all(b"\r\n")?;
            self.0.write_all(part)?;
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.0.flush()
    }
}

/// The line being typed, with the cursor, the earlier lines, and what is on the screen.
struct Editor {
    keys: mpsc::Receiver<io::Result<Key>>,
    /// Set while the session works (the engine thinks): Ctrl-C then leaves at once.
    busy: Arc<AtomicBool>,
    line: Vec<char>,
    cursor: usize,
    history: Vec<String>,
    /// The history entry shown (Up/Down), if any.
    browsing: Option<usize>,
    /// Whether the prompt line is on the screen now.
    shown: bool,
    out: io::Stdout,
}

impl Editor {
    fn start() -> Editor {
        let (tx, keys) = mpsc::channel();
        let busy = Arc::new(AtomicBool::new(true));
        let flag = Arc::clone(&busy);
        std::thread::spawn(move || {
            loop {
                match event::read() {
                    Ok(key) => {
                        if is_ctrl(&key, 'c') && flag.load(Ordering::SeqCst) {
                            let _ = terminal::disable_raw_mode();
                            let _ = writeln!(io::stdout(), "\r\ninterrupted");
                            std::process::exit(130);
                        }
                        if tx.send(Ok(key)).is_err() {
                            break;
                        }
                    }
                    Err(e) => {
                        let _ = tx.send(Err(e));
                        break;
                    }
                }
            }
        });
        Editor {
            keys,
            busy,
            line: Vec::new(),
            cursor: 0,
            history: Vec::new(),
            browsing: None,
            shown: false,
            out: io::stdout(),
        }
    }

    /// Draws `prompt` and the line, the cursor where it is; a line too long for the
    /// terminal is shown from where the cursor can be seen.
    fn draw(&mut self, prompt: &str) -> io::Result<()> {
        let width = terminal::size()
            .ok()
            .map(|(w, _)| usize::from(w))
            .filter(|&w| w >= 20)
            .unwrap_or(80);
        let room = width.saturating_sub(prompt.chars().count() + 1).max(1);
        let first = self.cursor.saturating_sub(room.saturating_sub(1));
        let last = (first + room).min(self.line.len());
        let visible: String = self.line[first..last].iter().collect();
        let col = prompt.chars().count() + self.cursor - first;
        write!(self.out, "\r\x1b[K{prompt}{visible}\r")?;
        if col > 0 {
            write!(self.out, "\x1b[{col}C")?;
        }
        self.out.flush()?;
        self.shown = true;
        Ok(())
    }

    /// Handles one key; a whole line or the end when it completes one.
    fn key(&mut self, key: KeyEvent) -> Option<Event> {
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        match key.code {
            KeyCode::Enter => {
                let text: String = self.line.drain(..).collect();
                self.cursor = 0;
                self.browsing = None;
                if !text.trim().is_empty() && self.history.last() != Some(&text) {
                    self.history.push(text.clone());
                }
                return Some(Event::Line(text.into_bytes()));
            }
            KeyCode::Char('c') if ctrl => {
                if self.line.is_empty() {
                    return Some(Event::End);
                }
                self.line.clear();
                self.cursor = 0;
            }
            KeyCode::Char('d') if ctrl => {
                if self.line.is_empty() {
                    return Some(Event::End);
                }
                if self.cursor < self.line.len() {
                    self.line.remove(self.cursor);
                }
            }
            KeyCode::Char('a') if ctrl => self.cursor = 0,
            KeyCode::Char('e') if ctrl => self.cursor = self.line.len(),
            KeyCode::Char('u') if ctrl => {
                self.line.drain(..self.cursor);
                self.cursor = 0;
            }
            KeyCode::Char('k') if ctrl => self.line.truncate(self.cursor),
            KeyCode::Char(c) if !ctrl && !c.is_control() => {
                self.line.insert(self.cursor, c);
                self.cursor += 1;
            }
            KeyCode::Backspace if self.cursor > 0 => {
                self.cursor -= 1;
                self.line.remove(self.cursor);
            }
            KeyCode::Delete if self.cursor < self.line.len() => {
                self.line.remove(self.cursor);
            }
            KeyCode::Left => self.cursor = self.cursor.saturating_sub(1),
            KeyCode::Right => self.cursor = (self.cursor + 1).min(self.line.len()),
            KeyCode::Home => self.cursor = 0,
            KeyCode::End => self.cursor = self.line.len(),
            KeyCode::Up if !self.history.is_empty() => {
                let i = self
                    .browsing
                    .map_or(self.history.len() - 1, |i| i.saturating_sub(1));
                self.show_history(Some(i));
            }
            KeyCode::Down => {
                let next = self
                    .browsing
                    .map(|i| i + 1)
                    .filter(|&i| i < self.history.len());
                self.show_history(next);
            }
            _ => {}
        }
        None
    }

    fn show_history(&mut self, entry: Option<usize>) {
        self.browsing = entry;
        self.line = entry
            .and_then(|i| self.history.get(i))
            .map_or_else(Vec::new, |t| t.chars().collect());
        self.cursor = self.line.len();
    }
}

impl Drop for Editor {
    fn drop(&mut self) {
        // The reader thread may still wait for a key; it ends with the process.
        self.busy.store(true, Ordering::SeqCst);
    }
}

fn is_ctrl(key: &Key, c: char) -> bool {
    matches!(key, Key::Key(k) if k.code == KeyCode::Char(c)
        && k.modifiers.contains(KeyModifiers::CONTROL)
        && k.kind != KeyEventKind::Release)
}

impl Input for Editor {
    fn edits(&self) -> bool {
        true
    }

    fn next(&mut self, prompt: &str, wait: Option<Duration>) -> io::Result<Event> {
        self.busy.store(false, Ordering::SeqCst);
        let deadline = wait.map(|w| Instant::now() + w);
        self.draw(prompt)?;
        let event = loop {
            let got = match deadline {
                None => self
                    .keys
                    .recv()
                    .map_err(|_| mpsc::RecvTimeoutError::Disconnected),
                Some(d) => self
                    .keys
                    .recv_timeout(d.saturating_duration_since(Instant::now())),
            };
            let key = match got {
                Ok(Ok(key)) => key,
                Ok(Err(e)) => return Err(e),
                Err(mpsc::RecvTimeoutError::Timeout) => return Ok(Event::Tick),
                Err(mpsc::RecvTimeoutError::Disconnected) => break Event::End,
            };
            match key {
                Key::Key(k) if k.kind != KeyEventKind::Release => {
                    if let Some(done) = self.key(k) {
                        break done;
                    }
                    self.draw(prompt)?;
                }
                Key::Resize(..) => self.draw(prompt)?,
                _ => {}
            }
        };
        // The typed line stays on the screen, and the session writes below it.
        write!(self.out, "\r\n")?;
        self.out.flush()?;
        self.shown = false;
        self.busy.store(true, Ordering::SeqCst);
        Ok(event)
    }

    fn suspend(&mut self) -> io::Result<()> {
        if self.shown {
            write!(self.out, "\r\x1b[K")?;
            self.out.flush()?;
            self.shown = false;
        }
        self.busy.store(true, Ordering::SeqCst);
        Ok(())
    }
}
