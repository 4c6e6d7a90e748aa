//! Where the session's lines come from: an [`Input`] that blocks on a reader, or one that
//! reads on a thread of its own so that a clock can run out while nobody types.

use std::io::{self, BufRead};
use std::sync::mpsc;
use std::time::Duration;

/// One thing an [`Input`] has for the session.
pub(crate) enum Event {
    /// A line (without its line end), as bytes: it may not be UTF-8.
    Line(Vec<u8>),
    /// Nothing came within the wait: time to look at the clock.
    Tick,
    /// The end of the input.
    End,
}

/// Where a session's lines come from.
pub(crate) trait Input {
    /// Whether the input shows the prompt and the typed text itself (a line editor in a
    /// terminal) and so can show a running clock in the prompt.
    fn edits(&self) -> bool {
        false
    }

    /// The next line, the end of input, or (only when `wait` is given and the input can
    /// wait) a tick after at most `wait`. An editing input shows `prompt`.
    ///
    /// # Errors
    /// Reading failed.
    fn next(&mut self, prompt: &str, wait: Option<Duration>) -> io::Result<Event>;

    /// Clears the prompt line being edited before the session writes (an editing input
    /// draws it again at the next [`Input::next`]).
    ///
    /// # Errors
    /// Writing failed.
    fn suspend(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Lines read straight from a reader: every call waits for a whole line.
pub(super) struct Blocking<R>(pub(super) R);

impl<R: BufRead> Input for Blocking<R> {
    fn next(&mut self, _prompt: &str, _wait: Option<Duration>) -> io::Result<Event> {
        let mut buf = Vec::new();
        if self.0.read_until(b'\n', &mut buf)? == 0 {
            return Ok(Event::End);
        }
        trim_line_end(&mut buf);
        Ok(Event::Line(buf))
    }
}

pub(super) fn trim_line_end(buf: &mut Vec<u8>) {
    if buf.last() == Some(&b'\n') {
        buf.pop();
        if buf.last() == Some(&b'\r') {
            buf.pop();
        }
    }
}

/// Lines read by a thread and passed through a channel, so that the session can wait for
/// one with a time limit.
pub(super) struct Threaded {
    lines: mpsc::Receiver<io::Result<Vec<u8>>>,
}

impl Threaded {
    pub(super) fn new(mut input: impl BufRead + Send + 'static) -> Threaded {
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            loop {
                let mut buf = Vec::new();
                match input.read_until(b'\n', &mut buf) {
                    Ok(0) => break,
                    Ok(_) => {
                        trim_line_end(&mut buf);
                        if tx.send(Ok(buf)).is_err() {
                            break;
                        }
                    }
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                    Err(e) => {
                        let _ = tx.send(Err(e));
                        break;
                    }
                }
            }
        });
        Threaded { lines }
    }
}

impl Input for Threaded {
    fn next(&mut self, _prompt: &str, wait: Option<Duration>) -> io::Result<Event> {
        let got = match wait {
            None => self
                .lines
                .recv()
                .map_err(|_| mpsc::RecvTimeoutError::Disconnected),
            Some(w) => self.lines.recv_timeout(w),
        };
        match got {
            Ok(Ok(line)) => Ok(Event::Line(line)),
            Ok(Err(e)) => Err(e),
            Err(mpsc::RecvTimeoutError::Timeout) => Ok(Event::Tick),
            Err(mpsc::RecvTimeoutError::Disconnected) => Ok(Event::End),
        }
    }
}

/// How often an editing input redraws a running clock.
pub(super) const CLOCK_REDRAW: Duration = Duration::from_millis(100);
