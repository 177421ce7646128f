//! The listener: accepts connections under bounds that hold against slow and idle clients
//! (slowloris), for every kind of connection — page requests and websockets alike.
//!
//! - **A global cap** ([`Config::max_connections`]): a connection over it is closed at
//!   once (it never holds a descriptor or a task); a full accept queue or out of
//!   descriptors makes the loop wait a moment, never stop.
//! - **Per address** ([`Config::max_sockets_per_ip`]): one address cannot take the whole
//!   cap; the trusted proxies (`--trusted-proxy`) are not counted so.
//! - **A header-read timeout** ([`Config::header_timeout`], hyper's own): a request whose
//!   headers have not all come in time is dropped.
//! - **A body timeout** ([`Config::body_timeout`]): a request not answered in time (a body
//!   sent slowly, say) is answered 408.
//! - **An idle timeout** ([`Config::conn_idle_timeout`]): a connection that has sent
//!   nothing for that long is closed — a kept-alive page connection between requests, a
//!   half-sent request, a websocket whose client stopped answering the server's pings
//!   (sent every third of the timeout; browsers answer them by themselves).
//!
//! [`Config::max_connections`]: crate::Config::max_connections
//! [`Config::max_sockets_per_ip`]: crate::Config::max_sockets_per_ip
//! [`Config::header_timeout`]: crate::Config::header_timeout
//! [`Config::body_timeout`]: crate::Config::body_timeout
//! [`Config::conn_idle_timeout`]: crate::Config::conn_idle_timeout

use std::collections::HashMap;
use std::future::Future;
use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;

use axum::Router;
use axum::extract::ConnectInfo;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio::time::{Instant, Sleep};
use tower::ServiceExt;

use crate::Server;

/// Open sockets per address.
#[derive(Debug, Default)]
struct PerIp(Mutex<HashMap<IpAddr, usize>>);

/// One socket's place in its address's count.
#[derive(Debug)]
struct IpPlace {
    counts: Arc<PerIp>,
    ip: Option<IpAddr>,
}

impl Drop for IpPlace {
    fn drop(&mut self) {
        let Some(ip) = self.ip else { return };
        let mut m = self
            .counts
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(n) = m.get_mut(&ip) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                m.remove(&ip);
            }
        }
    }
}

/// A socket that fails its reads once nothing has been read from it for `idle`, and holds
/// its places in the caps for as long as it lives (through a websocket upgrade too).
struct IdleIo {
    inner: TcpStream,
    idle: Duration,
    timer: Pin<Box<Sleep>>,
    _places: (OwnedSemaphorePermit, IpPlace),
}

impl AsyncRead for IdleIo {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        let before = buf.filled().len();
        match Pin::new(&mut self.inner).poll_read(cx, buf) {
            Poll::Ready(Ok(())) => {
                if buf.filled().len() > before {
                    let next = Instant::now() + self.idle;
                    self.timer.as_mut().reset(next);
                }
                Poll::Ready(Ok(()))
            }
            Poll::Pending => match self.timer.as_mut().poll(cx) {
                Poll::Ready(()) => Poll::Ready(Err(std::io::Error::new(
                    std::io::ErrorKind::TimedOut,
                    "the connection was idle too long",
                ))),
                Poll::Pending => Poll::Pending,
            },
            other => other,
        }
    }
}

impl AsyncWrite for IdleIo {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        Pin::new(&mut self.inner).poll_write(cx, buf)
    }
    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }
    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

/// The client's address for a request from `peer`: from a trusted proxy, the last address
/// of `X-Forwarded-For` that is not itself a trusted proxy (the proxy appends the address
/// it saw; what the client wrote before that is not believed); otherwise `peer`, whatever
/// the header says.
fn client_addr(server: &Server, peer: SocketAddr, headers: &axum::http::HeaderMap) -> SocketAddr {
    if !server.trusted_proxy(peer.ip()) {
        return peer;
    }
    let hops: Vec<&str> = headers
        .get_all("x-forwarded-for")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(str::trim)
        .collect();
    for hop in hops.iter().rev() {
        let Ok(ip) = hop.parse::<IpAddr>() else {
            // Something not an address where the proxy's hop should be: trust nothing.
            return peer;
        };
        if !server.trusted_proxy(ip) {
            return SocketAddr::new(ip, peer.port());
        }
    }
    peer
}

/// Answer 408 to a request not answered within the server's body timeout.
async fn body_timeout(
    axum::extract::State(limit): axum::extract::State<Duration>,
    req: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    use axum::response::IntoResponse;
    match tokio::time::timeout(limit, next.run(req)).await {
        Ok(r) => r,
        Err(_) => (
            axum::http::StatusCode::REQUEST_TIMEOUT,
            "the request took too long to arrive",
        )
            .into_response(),
    }
}

/// Serve `app` on `listener` under the bounds of `server`'s configuration until `stopped`
/// completes; then wait (a few seconds at most) for the requests in flight.
pub(crate) async fn run(
    server: Arc<Server>,
    listener: tokio::net::TcpListener,
    app: Router,
    stopped: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let config = &server.config;
    let app = app.layer(axum::middleware::from_fn_with_state(
        config.body_timeout,
        body_timeout,
    ));
    let open = Arc::new(Semaphore::new(config.max_connections.max(1)));
    let per_ip = Arc::new(PerIp::default());
    // Told to the connections at shutdown; each connection task holds a clone of `tasks`.
    let (shut_tx, shut_rx) = tokio::sync::watch::channel(false);
    let tasks = Arc::new(());
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(config.header_timeout);
    let mut stopped = std::pin::pin!(stopped);
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(x) => x,
                Err(_) => {
                    // Out of descriptors, or a connection reset before it was accepted:
                    // wait a moment (the timeouts free descriptors) and go on.
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut stopped => break,
        };
        // Over the cap: closed at once, holding nothing.
        let Ok(permit) = Arc::clone(&open).try_acquire_owned() else {
            continue;
        };
        let place = {
            let counted = !server.trusted_proxy(peer.ip());
            let mut m = per_ip
                .0
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            if counted {
                let n = m.entry(peer.ip()).or_insert(0);
                if *n >= config.max_sockets_per_ip {
                    continue;
                }
                *n += 1;
            }
            IpPlace {
                counts: Arc::clone(&per_ip),
                ip: counted.then_some(peer.ip()),
            }
        };
        let _ = stream.set_nodelay(true);
        let idle = config.conn_idle_timeout;
        let io = IdleIo {
            inner: stream,
            idle,
            timer: Box::pin(tokio::time::sleep(idle)),
            _places: (permit, place),
        };
        let app = app.clone();
        let srv = Arc::clone(&server);
        let service = hyper::service::service_fn(move |mut req: hyper::Request<_>| {
            let client = client_addr(&srv, peer, req.headers());
            req.extensions_mut()
                .insert(ConnectInfo::<SocketAddr>(client));
            app.clone().oneshot(req.map(axum::body::Body::new))
        });
        let conn = builder
            .serve_connection(TokioIo::new(io), service)
            .with_upgrades();
        let mut shut = shut_rx.clone();
        let task = Arc::clone(&tasks);
        tokio::spawn(async move {
            let _task = task;
            let mut conn = std::pin::pin!(conn);
            tokio::select! {
                _ = conn.as_mut() => return,
                _ = shut.wait_for(|s| *s) => {}
            }
            // Stopping: finish the request in flight, then close.
            conn.as_mut().graceful_shutdown();
            let _ = conn.await;
        });
    }
    drop(listener);
    let _ = shut_tx.send(true);
    // The requests in flight end (upgraded websockets were told and end by themselves).
    let end = Instant::now() + Duration::from_secs(5);
    while Arc::strong_count(&tasks) > 1 && Instant::now() < end {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    Ok(())
}
