//! A real SMTP relay for the mail tests: `tests/smtp_relay.py` (Debian's aiosmtpd, run
//! with the system python3) on a loopback port, delivering into a Maildir the tests read.

use std::io::{BufRead, BufReader};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

use mail_parser::MessageParser;

/// The Python that runs the relay: `PLOYD_PYTHON`, or the system's.
fn python() -> String {
    std::env::var("PLOYD_PYTHON").unwrap_or_else(|_| "/usr/bin/python3".to_owned())
}

/// A running relay.
pub struct Relay {
    child: Option<Child>,
    pub port: u16,
    pub maildir: PathBuf,
    extra: Vec<String>,
}

impl Relay {
    /// Starts a relay on a free loopback port, delivering into `dir/maildir`.
    pub fn start(dir: &Path, extra: &[&str]) -> Relay {
        let port = TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let mut relay = Relay {
            child: None,
            port,
            maildir: dir.join("maildir"),
            extra: extra.iter().map(|s| (*s).to_owned()).collect(),
        };
        relay.restart();
        relay
    }

    /// `HOST:PORT` for `--smtp`.
    pub fn target(&self) -> String {
        format!("127.0.0.1:{}", self.port)
    }

    /// Starts it again (on the same port and Maildir).
    pub fn restart(&mut self) {
        assert!(self.child.is_none(), "the relay runs already");
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/smtp_relay.py");
        let mut child = Command::new(python())
            .arg(script)
            .arg(self.port.to_string())
            .arg(&self.maildir)
            .args(&self.extra)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("python3 runs (the relay needs Debian's python3-aiosmtpd)");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        assert_eq!(
            line.trim(),
            "ready",
            "the SMTP relay did not start: is python3-aiosmtpd installed?"
        );
        self.child = Some(child);
    }

    /// Stops it (the port then refuses connections).
    pub fn stop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    /// Every message delivered so far, in the order of their `Message-ID` numbers.
    pub fn messages(&self) -> Vec<Delivered> {
        let mut out = Vec::new();
        for sub in ["new", "cur"] {
            let Ok(entries) = std::fs::read_dir(self.maildir.join(sub)) else {
                continue;
            };
            for e in entries {
                let raw = std::fs::read(e.unwrap().path()).unwrap();
                out.push(Delivered::parse(&raw));
            }
        }
        out.sort_by_key(|m| m.number);
        out
    }
}

impl Drop for Relay {
    fn drop(&mut self) {
        self.stop();
    }
}

/// A delivered message, read with `mail-parser`.
#[derive(Clone, Debug)]
pub struct Delivered {
    /// The envelope's recipients.
    pub envelope_to: String,
    pub from: String,
    pub to: String,
    pub subject: String,
    /// Without the angle brackets.
    pub message_id: String,
    pub in_reply_to: Option<String>,
    pub references: Option<String>,
    pub content_type: String,
    pub body: String,
    /// The number in the `Message-ID` (`ployd.N@...`).
    pub number: i64,
}

impl Delivered {
    fn parse(raw: &[u8]) -> Delivered {
        let m = MessageParser::default().parse(raw).expect("a message");
        let text = |h: &mail_parser::HeaderValue<'_>| h.as_text().map(str::to_owned);
        let address = |a: Option<&mail_parser::Address<'_>>| {
            a.and_then(|a| a.first())
                .and_then(|a| a.address())
                .unwrap_or_default()
                .to_owned()
        };
        let message_id = m.message_id().unwrap_or_default().to_owned();
        let number = message_id
            .strip_prefix("ployd.")
            .and_then(|r| r.split('@').next())
            .and_then(|n| n.parse().ok())
            .unwrap_or(-1);
        let ct = m
            .header_raw("Content-Type")
            .unwrap_or_default()
            .split(';')
            .next()
            .unwrap_or_default()
            .trim()
            .to_ascii_lowercase();
        Delivered {
            envelope_to: m
                .header_raw("X-Envelope-To")
                .unwrap_or_default()
                .trim()
                .to_owned(),
            from: address(m.from()),
            to: address(m.to()),
            subject: m.subject().unwrap_or_default().to_owned(),
            message_id,
            in_reply_to: text(m.in_reply_to()),
            references: text(m.references()),
            content_type: ct,
            body: m.body_text(0).unwrap_or_default().replace("\r\n", "\n"),
            number,
        }
    }
}
