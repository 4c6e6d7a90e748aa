//! Connection limits, each set small through its `ployd serve` flag: a request's headers
//! within `--header-timeout` (from the connection's start, or on a kept-alive connection
//! from the next request's first byte), its body within `--body-timeout` (`408
//! request_timeout`), a kept-alive connection waits `--idle-timeout` for its next request,
//! at most `--max-connections` open (event streams counted; one more gets `503 busy` at
//! once while the open ones keep working), and an event stream sends a comment line every
//! `--stream-keepalive`.

use std::io::{BufRead, BufReader, ErrorKind, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

use crate::common::{Server, get, post, signup, temp_dir};
use serde_json::json;

/// Reads until the server closes the connection (or `limit` passes: `None`); returns what
/// came and when the end came, counted from `since`.
fn until_closed(
    stream: &mut TcpStream,
    since: Instant,
    limit: Duration,
) -> Option<(Vec<u8>, Duration)> {
    stream
        .set_read_timeout(Some(Duration::from_millis(100)))
        .unwrap();
    let mut got = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        if since.elapsed() > limit {
            return None;
        }
        match stream.read(&mut buf) {
            Ok(0) => return Some((got, since.elapsed())),
            Ok(n) => got.extend_from_slice(&buf[..n]),
            Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {}
            Err(_) => return Some((got, since.elapsed())),
        }
    }
}

/// Whether the server has closed the connection (without waiting).
fn is_closed(stream: &mut TcpStream) -> bool {
    stream.set_nonblocking(true).unwrap();
    let mut buf = [0u8; 1];
    let closed = match stream.read(&mut buf) {
        Ok(0) => true,
        Ok(_) => false,
        Err(e) => e.kind() != ErrorKind::WouldBlock,
    };
    stream.set_nonblocking(false).unwrap();
    closed
}

/// One response on a kept-alive connection (headers and a `Content-Length` body).
fn read_response(reader: &mut BufReader<TcpStream>) -> (u16, String) {
    let mut status = String::new();
    reader.read_line(&mut status).unwrap();
    let code: u16 = status
        .split_whitespace()
        .nth(1)
        .unwrap_or_else(|| panic!("a status line, not {status:?}"))
        .parse()
        .unwrap();
    let mut length = 0;
    loop {
        let mut line = String::new();
        reader.read_line(&mut line).unwrap();
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some((k, v)) = line.split_once(':')
            && k.eq_ignore_ascii_case("content-length")
        {
            length = v.trim().parse().unwrap();
        }
    }
    let mut body = vec![0; length];
    reader.read_exact(&mut body).unwrap();
    (code, String::from_utf8_lossy(&body).into_owned())
}

fn connect(addr: SocketAddr) -> TcpStream {
    TcpStream::connect_timeout(&addr, Duration::from_secs(5)).unwrap()
}

#[test]
fn headers_must_arrive_within_the_header_timeout() {
    let dir = temp_dir("conn-header");
    let server = Server::start(&dir.join("db"), &["--header-timeout", "1s"]);
    let addr = server.addr;
    let start = Instant::now();
    // Silent, half a header line, and headers dripping a byte every 200 ms.
    let mut silent = connect(addr);
    let mut half = connect(addr);
    half.write_all(b"GET /api/types HTTP/1.1\r\nHost: x\r\n")
        .unwrap();
    let mut drip = connect(addr);
    let dripper = {
        let mut drip = drip.try_clone().unwrap();
        std::thread::spawn(move || {
            for b in
                b"GET /api/types HTTP/1.1\r\nHost: x\r\nX-Slow: aaaaaaaaaaaaaaaaaaaaaaaaa".iter()
            {
                if drip.write_all(&[*b]).is_err() {
                    break;
                }
                std::thread::sleep(Duration::from_millis(200));
            }
        })
    };
    std::thread::sleep(Duration::from_millis(300));
    for (what, s) in [
        ("silent", &mut silent),
        ("half", &mut half),
        ("drip", &mut drip),
    ] {
        assert!(!is_closed(s), "{what}: open before the timeout");
    }
    for (what, s) in [
        ("silent", &mut silent),
        ("half", &mut half),
        ("drip", &mut drip),
    ] {
        let (got, at) = until_closed(s, start, Duration::from_secs(6))
            .unwrap_or_else(|| panic!("{what}: still open after 6 s"));
        assert!(at >= Duration::from_millis(900), "{what}: closed at {at:?}");
        // hyper may answer 408 first; it never answers 200.
        let text = String::from_utf8_lossy(&got);
        assert!(
            got.is_empty() || text.starts_with("HTTP/1.1 408"),
            "{what}: {text}"
        );
    }
    dripper.join().unwrap();
    // Meanwhile and after, a whole request is answered.
    assert_eq!(get(addr, "/api/types").status, 200);
}

#[test]
fn kept_alive_connections_wait_the_idle_timeout_then_close() {
    let dir = temp_dir("conn-idle");
    let server = Server::start(
        &dir.join("db"),
        &["--header-timeout", "1s", "--idle-timeout", "3s"],
    );
    let addr = server.addr;
    let stream = connect(addr);
    let mut writer = stream.try_clone().unwrap();
    let mut reader = BufReader::new(stream);
    let ask = b"GET /api/types HTTP/1.1\r\nHost: x\r\n\r\n";
    writer.write_all(ask).unwrap();
    assert_eq!(read_response(&mut reader).0, 200);
    // Idle longer than the header timeout, shorter than the idle timeout: still served.
    std::thread::sleep(Duration::from_millis(1600));
    // The idle time counts from the answer, which comes after this instant however slowly
    // the test reads it.
    let start = Instant::now();
    writer.write_all(ask).unwrap();
    assert_eq!(read_response(&mut reader).0, 200);
    // Then idle: closed after the idle timeout, not before the header timeout would have.
    let mut stream = reader.into_inner();
    let (_, at) = until_closed(&mut stream, start, Duration::from_secs(8))
        .expect("an idle connection is closed");
    assert!(at >= Duration::from_millis(2500), "closed at {at:?}");

    // On a kept-alive connection, once the next request has begun, the header timeout
    // counts from its first byte.
    let stream = connect(addr);
    let mut writer = stream.try_clone().unwrap();
    let mut reader = BufReader::new(stream);
    writer.write_all(ask).unwrap();
    assert_eq!(read_response(&mut reader).0, 200);
    writer.write_all(b"GET /api/types HTTP/1.1\r\n").unwrap();
    let start = Instant::now();
    let mut stream = reader.into_inner();
    let (_, at) =
        until_closed(&mut stream, start, Duration::from_secs(8)).expect("a half request is closed");
    assert!(
        at < Duration::from_millis(2500),
        "closed at {at:?}, not by the header timeout"
    );
}

#[test]
fn bodies_must_arrive_within_the_body_timeout() {
    let dir = temp_dir("conn-body");
    let server = Server::start(&dir.join("db"), &["--body-timeout", "1s"]);
    let addr = server.addr;
    let body = r#"{"userid":"slowpoke","password":"slow-pass-1"}"#;
    // Half a body, then silence; and the whole body dripping a byte every 100 ms (which
    // would take 4.6 s).
    let head = format!(
        "POST /api/users HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    let mut half = connect(addr);
    half.write_all(head.as_bytes()).unwrap();
    half.write_all(&body.as_bytes()[..10]).unwrap();
    let mut drip = connect(addr);
    drip.write_all(head.as_bytes()).unwrap();
    let dripper = {
        let mut drip = drip.try_clone().unwrap();
        let body = body.to_owned();
        std::thread::spawn(move || {
            for b in body.bytes() {
                if drip.write_all(&[b]).is_err() {
                    break;
                }
                std::thread::sleep(Duration::from_millis(100));
            }
        })
    };
    let start = Instant::now();
    for (what, s) in [("half", &mut half), ("drip", &mut drip)] {
        let (got, _) = until_closed(s, start, Duration::from_secs(4))
            .unwrap_or_else(|| panic!("{what}: still open after 4 s"));
        let text = String::from_utf8_lossy(&got);
        assert!(text.starts_with("HTTP/1.1 408"), "{what}: {text}");
        assert!(
            text.contains(r#""error":"request_timeout""#),
            "{what}: {text}"
        );
    }
    dripper.join().unwrap();
    // No account was made; a body sent at once is read.
    let r = post(
        addr,
        "/api/sessions",
        &json!({"userid": "slowpoke", "password": "slow-pass-1"}),
    );
    assert_eq!(r.status, 403, "{}", r.text());
    signup(addr, "slowpoke", "slow-pass-1");
}

#[test]
fn connections_beyond_the_limit_are_refused_at_once_while_open_ones_work() {
    let dir = temp_dir("conn-max");
    let server = Server::start(
        &dir.join("db"),
        &["--max-connections", "3", "--stream-keepalive", "500ms"],
    );
    let addr = server.addr;
    // Three open: an event stream, a kept-alive connection, a silent socket.
    let mut stream = connect(addr);
    stream
        .write_all(b"GET /api/events HTTP/1.1\r\nHost: x\r\n\r\n")
        .unwrap();
    let mut events = BufReader::new(stream.try_clone().unwrap());
    let mut line = String::new();
    events.read_line(&mut line).unwrap();
    assert!(line.starts_with("HTTP/1.1 200"), "{line}");
    let kept = connect(addr);
    let mut kept_writer = kept.try_clone().unwrap();
    let mut kept_reader = BufReader::new(kept);
    let ask = b"GET /api/types HTTP/1.1\r\nHost: x\r\n\r\n";
    kept_writer.write_all(ask).unwrap();
    assert_eq!(read_response(&mut kept_reader).0, 200);
    let silent = connect(addr);
    std::thread::sleep(Duration::from_millis(200));

    // A fourth: 503 busy at once, and closed.
    let mut fourth = connect(addr);
    let start = Instant::now();
    let (got, at) = until_closed(&mut fourth, start, Duration::from_secs(5))
        .expect("the fourth connection is closed");
    let text = String::from_utf8_lossy(&got);
    assert!(text.starts_with("HTTP/1.1 503"), "{text}");
    assert!(text.contains(r#""error":"busy""#), "{text}");
    assert!(at < Duration::from_secs(2), "refused at {at:?}");

    // The open ones keep working: another request on the kept-alive one, and the event
    // stream sends its comment lines (every 500 ms here).
    kept_writer.write_all(ask).unwrap();
    assert_eq!(read_response(&mut kept_reader).0, 200);
    stream
        .set_read_timeout(Some(Duration::from_secs(5)))
        .unwrap();
    let mut comment = false;
    for _ in 0..40 {
        line.clear();
        events.read_line(&mut line).unwrap();
        if line.starts_with(':') {
            comment = true;
            break;
        }
    }
    assert!(comment, "no comment line on the event stream");

    // One closes: a new connection gets in (once the server has seen the close).
    drop(silent);
    let mut answered = false;
    for _ in 0..50 {
        let r = crate::common::raw_with_timeout(
            addr,
            b"GET /api/types HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
            Duration::from_secs(5),
        );
        if r.is_ok_and(|r| r.status == 200) {
            answered = true;
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    assert!(answered, "a freed slot is used again");
}

#[test]
fn sigterm_stops_accepting_and_ends_open_streams_within_the_grace() {
    let dir = temp_dir("conn-stop");
    let mut server = Server::start(&dir.join("db"), &[]);
    let addr = server.addr;
    // An open event stream and an idle kept-alive connection.
    let mut stream = connect(addr);
    stream
        .write_all(b"GET /api/events HTTP/1.1\r\nHost: x\r\n\r\n")
        .unwrap();
    let mut events = BufReader::new(stream.try_clone().unwrap());
    let mut line = String::new();
    events.read_line(&mut line).unwrap();
    assert!(line.starts_with("HTTP/1.1 200"), "{line}");
    let kept = connect(addr);
    let mut kept_writer = kept.try_clone().unwrap();
    let mut kept_reader = BufReader::new(kept);
    kept_writer
        .write_all(b"GET /api/types HTTP/1.1\r\nHost: x\r\n\r\n")
        .unwrap();
    assert_eq!(read_response(&mut kept_reader).0, 200);

    // The server ends within its two seconds of grace (and the streams with it).
    let took = server
        .terminate(Duration::from_secs(8))
        .expect("ployd ends after SIGTERM");
    assert!(took < Duration::from_secs(6), "took {took:?}");
    let mut stream = events.into_inner();
    assert!(
        until_closed(&mut stream, Instant::now(), Duration::from_secs(2)).is_some(),
        "the event stream is closed"
    );
    assert!(TcpStream::connect_timeout(&addr, Duration::from_secs(1)).is_err());
}

#[test]
fn limits_of_nothing_are_refused_at_start() {
    let dir = temp_dir("conn-flags");
    for (flag, value) in [
        ("--header-timeout", "0"),
        ("--body-timeout", "0s"),
        ("--idle-timeout", "0ms"),
        ("--stream-keepalive", "0"),
        ("--max-connections", "0"),
    ] {
        let out = crate::common::ployd()
            .args(["serve", "--listen", "127.0.0.1:0", flag, value, "--db"])
            .arg(crate::common::db_arg(&dir.join("db")))
            .output()
            .unwrap();
        assert!(!out.status.success(), "{flag} {value}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(flag), "{flag} {value}: {err}");
    }
}
