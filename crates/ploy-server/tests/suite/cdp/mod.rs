//! A small driver for a real headless Chromium over the DevTools protocol: launch, navigate,
//! evaluate JavaScript, mouse and keyboard input, viewport, screenshots. Only the handful of
//! protocol methods the page tests use, over one WebSocket (`tungstenite`) to the page.
//!
//! The browser is Debian's `chromium` (or the program named by `PLOYD_CHROMIUM`), started
//! with a fresh profile directory and every background service off, so it never reaches
//! the network.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tungstenite::{Message, WebSocket};

/// What went wrong talking to the browser.
pub type Error = Box<dyn std::error::Error + Send + Sync>;

/// The Chromium program: `PLOYD_CHROMIUM`, else the first of `chromium`,
/// `chromium-browser`, `google-chrome` on the `PATH`.
pub fn find_chromium() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("PLOYD_CHROMIUM") {
        return Some(PathBuf::from(p));
    }
    let path = std::env::var_os("PATH")?;
    for name in ["chromium", "chromium-browser", "google-chrome"] {
        for dir in std::env::split_paths(&path) {
            let candidate = dir.join(name);
            if candidate.is_file() {
                return Some(candidate);
            }
        }
    }
    None
}

/// The browser for a test, or `None` (with a notice on stderr) when there is none and the
/// test should be skipped. Under `CI=true` a missing browser fails the test instead. The
/// page's tests run on either database (`PLOYD_TEST_BACKEND`), as the rest of the suite.
pub fn browser_or_skip(test: &str) -> Option<Browser> {
    let Some(program) = find_chromium() else {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "{test}: Chromium is missing and CI=true: install Debian's `chromium` package"
        );
        // Straight to the process's standard error, past the test harness's capture, so
        // that the notice shows in a plain `cargo test`.
        let _ = writeln!(
            std::io::stderr(),
            "NOTICE: {test} skipped: no Chromium found (install Debian's `chromium` package, \
             or set PLOYD_CHROMIUM)"
        );
        return None;
    };
    // A start can fail for reasons of the moment (a busy machine, a system call interrupted
    // by a signal meant for another test's child): try three times.
    let mut tries = 0;
    loop {
        tries += 1;
        match Browser::launch(&program) {
            Ok(b) => return Some(b),
            Err(e) if tries < 3 => {
                let _ = writeln!(
                    std::io::stderr(),
                    "{test}: Chromium did not start ({e}); again"
                );
            }
            Err(e) => panic!("{test}: Chromium: {e}"),
        }
    }
}

/// A headless Chromium with one page, driven over the DevTools protocol.
pub struct Browser {
    child: Child,
    profile: PathBuf,
    ws: WebSocket<TcpStream>,
    next_id: u64,
}

impl Browser {
    /// Starts `program` headless on about:blank and connects to its page.
    ///
    /// # Errors
    /// The browser does not start or does not answer.
    pub fn launch(program: &Path) -> Result<Browser, Error> {
        let profile = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!(
            "chromium-profile-{}-{:?}",
            std::process::id(),
            std::thread::current().id()
        ));
        let _ = std::fs::remove_dir_all(&profile);
        std::fs::create_dir_all(&profile)?;
        let mut child = Command::new(program)
            .args([
                "--headless",
                "--no-sandbox",
                "--no-first-run",
                "--no-default-browser-check",
                "--disable-sync",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-default-apps",
                "--disable-extensions",
                "--disable-gpu",
                "--disable-dev-shm-usage",
                "--hide-scrollbars",
                "--mute-audio",
                "--window-size=1280,800",
                "--remote-debugging-address=127.0.0.1",
                "--remote-debugging-port=0",
            ])
            .arg(format!("--user-data-dir={}", profile.display()))
            .arg("about:blank")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()?;
        match Browser::attach(&mut child) {
            Ok(ws) => {
                let mut b = Browser {
                    child,
                    profile,
                    ws,
                    next_id: 0,
                };
                b.call("Page.enable", json!({}))?;
                b.call("Runtime.enable", json!({}))?;
                b.viewport(1280, 800, false)?;
                Ok(b)
            }
            Err(e) => {
                let _ = child.kill();
                let _ = child.wait();
                let _ = std::fs::remove_dir_all(&profile);
                Err(e)
            }
        }
    }

    /// Connects to the page of the browser `child` has just started.
    fn attach(child: &mut Child) -> Result<WebSocket<TcpStream>, Error> {
        // Chromium writes "DevTools listening on ws://..." on stderr; keep draining it.
        let stderr = child.stderr.take().ok_or("no stderr")?;
        let (tx, rx) = std::sync::mpsc::channel::<String>();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                if line.contains("DevTools listening on") {
                    let _ = tx.send(line.clone());
                }
                if std::env::var_os("PLOYD_TEST_LOG").is_some() {
                    eprintln!("[chromium] {line}");
                }
            }
        });
        let line = rx
            .recv_timeout(Duration::from_secs(30))
            .map_err(|_| "Chromium did not open its DevTools port within 30 s")?;
        let browser_url = line
            .split_whitespace()
            .find(|w| w.starts_with("ws://"))
            .ok_or("no ws:// address")?;
        let hostport = browser_url
            .trim_start_matches("ws://")
            .split('/')
            .next()
            .ok_or("bad address")?
            .to_owned();
        let page_url = page_target(&hostport)?;
        let stream = TcpStream::connect(&hostport)?;
        stream.set_read_timeout(Some(Duration::from_secs(60)))?;
        let (ws, _) = tungstenite::client(page_url.as_str(), stream)
            .map_err(|e| format!("WebSocket handshake: {e}"))?;
        Ok(ws)
    }

    /// Sends one protocol command and waits for its answer (events in between are
    /// dropped).
    ///
    /// # Errors
    /// The connection fails or the browser answers with an error.
    pub fn call(&mut self, method: &str, params: Value) -> Result<Value, Error> {
        self.next_id += 1;
        let id = self.next_id;
        let msg = json!({"id": id, "method": method, "params": params}).to_string();
        self.ws.send(Message::text(msg))?;
        loop {
            let text = match self.ws.read()? {
                Message::Text(t) => t.to_string(),
                Message::Binary(b) => String::from_utf8_lossy(&b).into_owned(),
                Message::Close(_) => return Err("the browser closed the connection".into()),
                _ => continue,
            };
            let v: Value = serde_json::from_str(&text)?;
            if v["id"].as_u64() == Some(id) {
                if let Some(e) = v.get("error") {
                    return Err(format!("{method}: {e}").into());
                }
                return Ok(v["result"].clone());
            }
        }
    }

    /// Loads `url` and waits until the document has loaded.
    ///
    /// # Errors
    /// The page does not load within 20 s.
    pub fn navigate(&mut self, url: &str) -> Result<(), Error> {
        self.call("Page.navigate", json!({"url": url}))?;
        std::thread::sleep(Duration::from_millis(50));
        self.wait_for(
            "document.readyState === 'complete'",
            Duration::from_secs(20),
        )?;
        Ok(())
    }

    /// Reloads the page and waits until it has loaded.
    ///
    /// # Errors
    /// As [`Browser::navigate`].
    pub fn reload(&mut self) -> Result<(), Error> {
        self.eval("location.reload(); true")?;
        std::thread::sleep(Duration::from_millis(200));
        self.wait_for(
            "document.readyState === 'complete'",
            Duration::from_secs(20),
        )?;
        Ok(())
    }

    /// The value of a JavaScript expression (promises awaited).
    ///
    /// # Errors
    /// The expression throws.
    pub fn eval(&mut self, expression: &str) -> Result<Value, Error> {
        let r = self.call(
            "Runtime.evaluate",
            json!({"expression": expression, "returnByValue": true, "awaitPromise": true}),
        )?;
        if let Some(e) = r.get("exceptionDetails") {
            let text = e["exception"]["description"]
                .as_str()
                .or_else(|| e["text"].as_str())
                .unwrap_or("an exception");
            return Err(format!("`{expression}` threw: {text}").into());
        }
        Ok(r["result"]["value"].clone())
    }

    /// Waits until `expression` is truthy; returns its value.
    ///
    /// # Errors
    /// It is not truthy within `timeout`.
    pub fn wait_for(&mut self, expression: &str, timeout: Duration) -> Result<Value, Error> {
        let start = Instant::now();
        loop {
            let v = self.eval(expression).unwrap_or(Value::Null);
            let truthy = match &v {
                Value::Null => false,
                Value::Bool(b) => *b,
                Value::Number(n) => n.as_f64() != Some(0.0),
                Value::String(s) => !s.is_empty(),
                _ => true,
            };
            if truthy {
                return Ok(v);
            }
            if start.elapsed() > timeout {
                return Err(format!("waited {timeout:?} for `{expression}`").into());
            }
            std::thread::sleep(Duration::from_millis(25));
        }
    }

    /// A left click at page coordinates (CSS pixels of the viewport).
    ///
    /// # Errors
    /// The browser refuses the input.
    pub fn click_at(&mut self, x: f64, y: f64) -> Result<(), Error> {
        self.press_at(x, y)?;
        self.release_at(x, y)
    }

    /// Moves the pointer to page coordinates and presses the left button there (a click's
    /// first half: [`Browser::release_at`] ends it).
    ///
    /// # Errors
    /// The browser refuses the input.
    pub fn press_at(&mut self, x: f64, y: f64) -> Result<(), Error> {
        self.call(
            "Input.dispatchMouseEvent",
            json!({"type": "mouseMoved", "x": x, "y": y}),
        )?;
        self.call(
            "Input.dispatchMouseEvent",
            json!({"type": "mousePressed", "x": x, "y": y, "button": "left", "buttons": 1, "clickCount": 1}),
        )?;
        Ok(())
    }

    /// Releases the left button at page coordinates.
    ///
    /// # Errors
    /// The browser refuses the input.
    pub fn release_at(&mut self, x: f64, y: f64) -> Result<(), Error> {
        self.call(
            "Input.dispatchMouseEvent",
            json!({"type": "mouseReleased", "x": x, "y": y, "button": "left", "buttons": 1, "clickCount": 1}),
        )?;
        Ok(())
    }

    /// The centre of the first element matching `selector`, scrolled into view.
    ///
    /// # Errors
    /// No element matches, or it has no size.
    pub fn centre(&mut self, selector: &str) -> Result<(f64, f64), Error> {
        let sel = serde_json::to_string(selector)?;
        let v = self.eval(&format!(
            "(() => {{ const e = document.querySelector({sel}); if (!e) return null;
               const r0 = e.getBoundingClientRect();
               if (r0.top < 0 || r0.bottom > innerHeight || r0.left < 0 || r0.right > innerWidth)
                 e.scrollIntoView({{block: 'center', inline: 'center'}});
               const r = e.getBoundingClientRect();
               return [r.left + r.width / 2, r.top + r.height / 2, r.width, r.height]; }})()"
        ))?;
        let a = v
            .as_array()
            .ok_or_else(|| format!("no element `{selector}`"))?;
        let num = |i: usize| a[i].as_f64().unwrap_or(0.0);
        if num(2) <= 0.0 || num(3) <= 0.0 {
            return Err(format!("`{selector}` has no size (hidden?)").into());
        }
        Ok((num(0), num(1)))
    }

    /// Clicks the middle of the first element matching `selector`, as a person would.
    ///
    /// # Errors
    /// As [`Browser::centre`].
    pub fn click(&mut self, selector: &str) -> Result<(), Error> {
        let (x, y) = self.centre(selector)?;
        self.click_at(x, y)
    }

    /// Presses and releases a key (`Tab`, `Enter`, `ArrowUp`, `Escape`, ` `, ...).
    ///
    /// # Errors
    /// The browser refuses the input.
    pub fn key(&mut self, key: &str) -> Result<(), Error> {
        let (code, vk, text) = match key {
            "Tab" => ("Tab", 9, ""),
            "Enter" => ("Enter", 13, "\r"),
            "Escape" => ("Escape", 27, ""),
            " " => ("Space", 32, " "),
            "ArrowLeft" => ("ArrowLeft", 37, ""),
            "ArrowUp" => ("ArrowUp", 38, ""),
            "ArrowRight" => ("ArrowRight", 39, ""),
            "ArrowDown" => ("ArrowDown", 40, ""),
            other => return Err(format!("no key code for `{other}`").into()),
        };
        let mut down = json!({"type": if text.is_empty() { "rawKeyDown" } else { "keyDown" },
                              "key": key, "code": code, "windowsVirtualKeyCode": vk,
                              "nativeVirtualKeyCode": vk});
        if !text.is_empty() {
            down["text"] = json!(text);
            down["unmodifiedText"] = json!(text);
        }
        self.call("Input.dispatchKeyEvent", down)?;
        self.call(
            "Input.dispatchKeyEvent",
            json!({"type": "keyUp", "key": key, "code": code, "windowsVirtualKeyCode": vk,
                   "nativeVirtualKeyCode": vk}),
        )?;
        Ok(())
    }

    /// Types text into the focused element.
    ///
    /// # Errors
    /// The browser refuses the input.
    pub fn type_text(&mut self, text: &str) -> Result<(), Error> {
        self.call("Input.insertText", json!({"text": text}))?;
        Ok(())
    }

    /// Sets the viewport (CSS pixels); `mobile` as a phone would.
    ///
    /// # Errors
    /// The browser refuses.
    pub fn viewport(&mut self, width: u32, height: u32, mobile: bool) -> Result<(), Error> {
        self.call(
            "Emulation.setDeviceMetricsOverride",
            json!({"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile}),
        )?;
        Ok(())
    }

    /// The nodes of the page's accessibility tree that a screen reader sees (ignored nodes
    /// left out), as `(role, name)` pairs.
    ///
    /// # Errors
    /// The browser refuses.
    pub fn accessible_nodes(&mut self) -> Result<Vec<(String, String)>, Error> {
        let r = self.call("Accessibility.getFullAXTree", json!({}))?;
        let nodes = r["nodes"].as_array().ok_or("no accessibility nodes")?;
        Ok(nodes
            .iter()
            .filter(|n| n["ignored"] != json!(true))
            .map(|n| {
                (
                    n["role"]["value"].as_str().unwrap_or("").to_owned(),
                    n["name"]["value"].as_str().unwrap_or("").trim().to_owned(),
                )
            })
            .collect())
    }

    /// Saves a PNG of the element matching `selector` (at the current viewport) to `path`.
    ///
    /// # Errors
    /// No such element, or the browser or the file system fails.
    pub fn screenshot_of(&mut self, selector: &str, path: &Path) -> Result<(), Error> {
        let sel = serde_json::to_string(selector)?;
        let v = self.eval(&format!(
            "(() => {{ const r = document.querySelector({sel}).getBoundingClientRect();
               return [r.left + scrollX, r.top + scrollY, r.width, r.height]; }})()"
        ))?;
        let a = v.as_array().ok_or("no element")?;
        let n = |i: usize| a[i].as_f64().unwrap_or(0.0);
        let r = self.call(
            "Page.captureScreenshot",
            json!({"format": "png", "captureBeyondViewport": true,
                   "clip": {"x": n(0), "y": n(1), "width": n(2), "height": n(3), "scale": 1}}),
        )?;
        let data = r["data"].as_str().ok_or("no screenshot data")?;
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)?;
        }
        std::fs::write(path, base64_decode(data)?)?;
        Ok(())
    }

    /// Saves a PNG of the viewport to `path`.
    ///
    /// # Errors
    /// The browser or the file system fails.
    pub fn screenshot(&mut self, path: &Path) -> Result<(), Error> {
        let r = self.call("Page.captureScreenshot", json!({"format": "png"}))?;
        let data = r["data"].as_str().ok_or("no screenshot data")?;
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)?;
        }
        std::fs::write(path, base64_decode(data)?)?;
        Ok(())
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.ws.close(None);
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.profile);
    }
}

/// The WebSocket address of the browser's first page (`GET /json/list`).
fn page_target(hostport: &str) -> Result<String, Error> {
    let start = Instant::now();
    loop {
        let mut s = TcpStream::connect(hostport)?;
        s.set_read_timeout(Some(Duration::from_secs(10)))?;
        write!(
            s,
            "GET /json/list HTTP/1.1\r\nHost: {hostport}\r\nConnection: close\r\n\r\n"
        )?;
        // Chromium keeps the connection open: read the headers, then Content-Length bytes.
        let mut buf = Vec::new();
        let mut chunk = [0u8; 4096];
        let body = loop {
            let n = s.read(&mut chunk)?;
            if n == 0 {
                break None;
            }
            buf.extend_from_slice(&chunk[..n]);
            let text = String::from_utf8_lossy(&buf).into_owned();
            if let Some((head, body)) = text.split_once("\r\n\r\n") {
                let len = head
                    .lines()
                    .filter_map(|l| l.split_once(':'))
                    .find(|(k, _)| k.trim().eq_ignore_ascii_case("content-length"))
                    .and_then(|(_, v)| v.trim().parse::<usize>().ok())
                    .unwrap_or(0);
                if body.len() >= len {
                    break Some(body.to_owned());
                }
            }
        };
        if let Some(body) = body
            && let Ok(Value::Array(targets)) = serde_json::from_str::<Value>(&body)
            && let Some(url) = targets
                .iter()
                .find(|t| t["type"] == "page")
                .and_then(|t| t["webSocketDebuggerUrl"].as_str())
        {
            return Ok(url.to_owned());
        }
        if start.elapsed() > Duration::from_secs(20) {
            return Err("Chromium lists no page".into());
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// Standard base64 (with padding), as the protocol sends screenshots.
fn base64_decode(text: &str) -> Result<Vec<u8>, Error> {
    let mut out = Vec::with_capacity(text.len() / 4 * 3);
    let mut acc: u32 = 0;
    let mut bits = 0;
    for c in text.bytes() {
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            b'=' | b'\n' | b'\r' => continue,
            _ => return Err(format!("not base64: byte {c}").into()),
        };
        acc = (acc << 6) | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    Ok(out)
}

#[test]
fn base64_decodes() {
    assert_eq!(base64_decode("aGVsbG8=").unwrap(), b"hello");
    assert_eq!(base64_decode("aGk=").unwrap(), b"hi");
    assert_eq!(base64_decode("AAEC/w==").unwrap(), [0, 1, 2, 255]);
}
