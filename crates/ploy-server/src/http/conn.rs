//! Serving connections with bounds: at most `max_connections` open at once (a
//! [`tokio::sync::Semaphore`]; one more gets `503 busy` and is closed at once, while the
//! open ones keep working), hyper's own header read timeout, an idle limit for kept-alive
//! connections, and a graceful stop.
//!
//! hyper's HTTP/1 server starts its header timer whenever it waits for a request: when the
//! connection opens, and again after each response. On its own that would close an idle
//! kept-alive connection after the header timeout. [`HeadTimer`], the connection's
//! [`hyper::rt::Timer`], keeps hyper's timer but sets its deadline the way well-run
//! servers do: the first request's headers must be complete `header_timeout` after the
//! connection opened; on a kept-alive connection the wait for the next request may last
//! `idle_timeout`, and once its first byte has arrived its headers must be complete within
//! `header_timeout`.

use std::convert::Infallible;
use std::future::Future;
use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use axum::Router;
use axum::extract::ConnectInfo;
use hyper::body::Incoming;
use hyper::rt::{Sleep, Timer};
use hyper_util::rt::TokioIo;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{Semaphore, watch};

use super::ServeOptions;

/// How long open requests and streams may go on after the stop signal.
const STOP_GRACE: Duration = Duration::from_secs(2);

/// Serves `app` on `listener` with the bounds of `options` until `stop` turns true; then
/// stops accepting and gives open connections [`STOP_GRACE`] to finish.
pub(super) async fn serve(
    listener: TcpListener,
    app: Router,
    options: &ServeOptions,
    mut stop: watch::Receiver<bool>,
) -> io::Result<()> {
    let slots = Arc::new(Semaphore::new(options.max_connections.max(1)));
    let graceful = hyper_util::server::graceful::GracefulShutdown::new();
    loop {
        let accepted = tokio::select! {
            accepted = listener.accept() => accepted,
            _ = stop.wait_for(|s| *s) => break,
        };
        let (stream, peer) = match accepted {
            Ok(a) => a,
            Err(e) => {
                // Out of file descriptors and the like: wait a little rather than spin.
                eprintln!("ployd: accepting a connection: {e}");
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        let Ok(slot) = Arc::clone(&slots).try_acquire_owned() else {
            refuse(&stream);
            continue;
        };
        let _ = stream.set_nodelay(true);
        let reads = Arc::new(AtomicU64::new(0));
        let io = TokioIo::new(Counted {
            inner: stream,
            reads: Arc::clone(&reads),
        });
        let router = app.clone();
        let service = hyper::service::service_fn(move |mut request: hyper::Request<Incoming>| {
            request.extensions_mut().insert(ConnectInfo(peer));
            let mut router = router.clone();
            async move {
                tower_service::Service::call(&mut router, request).await as Result<_, Infallible>
            }
        });
        let mut http = hyper::server::conn::http1::Builder::new();
        http.timer(HeadTimer {
            reads,
            header: options.header_timeout,
            idle: options.idle_timeout,
            waited: Arc::new(AtomicBool::new(false)),
        })
        .header_read_timeout(options.header_timeout)
        .keep_alive(true);
        let connection = graceful.watch(http.serve_connection(io, service));
        tokio::spawn(async move {
            let _ = connection.await;
            drop(slot);
        });
    }
    drop(listener);
    tokio::select! {
        () = graceful.shutdown() => {}
        () = tokio::time::sleep(STOP_GRACE) => {}
    }
    Ok(())
}

/// The answer to a connection beyond `max_connections`: written if the socket takes it at
/// once, then the connection is closed.
fn refuse(stream: &TcpStream) {
    const BODY: &str = r#"{"error":"busy","message":"the server has as many connections open as it allows; try again"}"#;
    let answer = format!(
        "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\
         Retry-After: 1\r\nConnection: close\r\nCache-Control: no-store\r\n\
         X-Content-Type-Options: nosniff\r\nX-Frame-Options: DENY\r\n\
         Content-Security-Policy: frame-ancestors 'none'\r\nReferrer-Policy: no-referrer\r\n\r\n{BODY}",
        BODY.len()
    );
    let _ = stream.try_write(answer.as_bytes());
}

/// A socket that counts its reads that brought bytes, for [`HeadTimer`].
struct Counted {
    inner: TcpStream,
    reads: Arc<AtomicU64>,
}

impl AsyncRead for Counted {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        let out = Pin::new(&mut self.inner).poll_read(cx, buf);
        if buf.filled().len() > before {
            self.reads.fetch_add(1, Ordering::Relaxed);
        }
        out
    }
}

impl AsyncWrite for Counted {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.inner).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.inner).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }
}

/// One connection's timer for hyper (see the module's documentation). hyper's HTTP/1
/// server uses its timer for the header read timeout only.
#[derive(Clone)]
struct HeadTimer {
    /// The connection's reads that brought bytes.
    reads: Arc<AtomicU64>,
    header: Duration,
    idle: Duration,
    /// Whether hyper has waited for a request before (the first wait has no idle part).
    waited: Arc<AtomicBool>,
}

impl Timer for HeadTimer {
    fn sleep(&self, duration: Duration) -> Pin<Box<dyn Sleep>> {
        Box::pin(Wait::fixed(Instant::now() + duration))
    }

    fn sleep_until(&self, _deadline: Instant) -> Pin<Box<dyn Sleep>> {
        // hyper asks for this when it starts to wait for a request's headers.
        let now = Instant::now();
        if self.waited.swap(true, Ordering::Relaxed) {
            Box::pin(Wait {
                sleep: Box::pin(tokio::time::sleep_until((now + self.idle).into())),
                next: Some(NextRequest {
                    reads: Arc::clone(&self.reads),
                    seen: self.reads.load(Ordering::Relaxed),
                    header: self.header,
                }),
            })
        } else {
            Box::pin(Wait::fixed(now + self.header))
        }
    }
}

/// The wait for a kept-alive connection's next request, until its first byte.
struct NextRequest {
    reads: Arc<AtomicU64>,
    /// The count of reads when the wait began.
    seen: u64,
    header: Duration,
}

/// A deadline of [`HeadTimer`]: fixed, or the idle limit until a request's first byte
/// arrives and the header limit from then on.
struct Wait {
    sleep: Pin<Box<tokio::time::Sleep>>,
    next: Option<NextRequest>,
}

impl Wait {
    fn fixed(deadline: Instant) -> Wait {
        Wait {
            sleep: Box::pin(tokio::time::sleep_until(deadline.into())),
            next: None,
        }
    }
}

impl Future for Wait {
    type Output = ();

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        // hyper polls this right after each read of the headers, in the same task, so a
        // first byte is seen here as soon as it has been read.
        if let Some(next) = &self.next
            && next.reads.load(Ordering::Relaxed) != next.seen
        {
            let deadline = Instant::now() + next.header;
            self.next = None;
            self.sleep.as_mut().reset(deadline.into());
        }
        self.sleep.as_mut().poll(cx)
    }
}

impl Sleep for Wait {}
