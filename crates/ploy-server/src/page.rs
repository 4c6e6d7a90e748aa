//! The browser page: static HTML, CSS and JavaScript compiled into the binary.
//!
//! `GET /` serves `index.html`; the files it loads are served under `/page/`. Nothing is
//! generated: the page reads everything through the JSON API and the event stream. The
//! files live in the crate's `page/` directory:
//!
//! - `index.html`, `page.css`: the page and its style;
//! - `app.js`: sign-in, routing, the new-game form, live updates and the board-module
//!   registry; it loads last and hands its shared helpers to `lists.js` and `game.js`;
//! - `lists.js`: the lists of games ("Your games", and "Watch games": every game, paged);
//! - `game.js`: the game view (players, move list with a slider, draw offers, resignation,
//!   the record to download, rematch; read-only for whoever holds no seat);
//! - `ploy.js`, `pente.js`, `pyloff.js`: the board modules of Ploy (every variant), Pente
//!   and Pyloff, drawn in SVG from each game's JSON (each file's head describes it);
//! - `board.js`: what the three board modules share (SVG elements, a board's click and
//!   keyboard input), loaded before them;
//! - `options.js`: the new-game form's option fields, built from `GET /api/types`;
//! - `notes.js`: times as dates, and the notifications shown under the game list;
//! - `howto.js`: "How to play", a short account of each game's rules;
//! - `touch.js`: the confirm step before a move is sent, and zoom for big boards;
//! - `ratings.js`: the leaderboards, the players' ratings beside their names and the
//!   new-game form's "Rated game" checkbox;
//! - a game without a module of its own is shown by a generic one in `game.js`: its text
//!   board and its legal moves as buttons.
//!
//! Every response carries a Content-Security-Policy that allows only this server as a
//! source, so the page makes no request anywhere else.

/// One static file of the page.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Asset {
    /// The path it is served at.
    pub path: &'static str,
    /// Its `Content-Type`.
    pub content_type: &'static str,
    /// Its bytes.
    pub body: &'static str,
}

impl Asset {
    /// A file served at `path` with `content_type`.
    const fn new(path: &'static str, content_type: &'static str, body: &'static str) -> Asset {
        Asset {
            path,
            content_type,
            body,
        }
    }
}

/// The `Content-Type` of the page's scripts.
const SCRIPT: &str = "text/javascript; charset=utf-8";

/// Every file of the page.
pub const ASSETS: &[Asset] = &[
    Asset::new(
        "/",
        "text/html; charset=utf-8",
        include_str!("../page/index.html"),
    ),
    Asset::new(
        "/page/page.css",
        "text/css; charset=utf-8",
        include_str!("../page/page.css"),
    ),
    Asset::new("/page/app.js", SCRIPT, include_str!("../page/app.js")),
    Asset::new("/page/lists.js", SCRIPT, include_str!("../page/lists.js")),
    Asset::new("/page/game.js", SCRIPT, include_str!("../page/game.js")),
    Asset::new("/page/board.js", SCRIPT, include_str!("../page/board.js")),
    Asset::new("/page/ploy.js", SCRIPT, include_str!("../page/ploy.js")),
    Asset::new("/page/pente.js", SCRIPT, include_str!("../page/pente.js")),
    Asset::new("/page/pyloff.js", SCRIPT, include_str!("../page/pyloff.js")),
    Asset::new(
        "/page/options.js",
        SCRIPT,
        include_str!("../page/options.js"),
    ),
    Asset::new("/page/notes.js", SCRIPT, include_str!("../page/notes.js")),
    Asset::new("/page/howto.js", SCRIPT, include_str!("../page/howto.js")),
    Asset::new("/page/touch.js", SCRIPT, include_str!("../page/touch.js")),
    Asset::new(
        "/page/ratings.js",
        SCRIPT,
        include_str!("../page/ratings.js"),
    ),
];

/// The Content-Security-Policy of the page: this server only, no inline script.
pub const CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self'; \
                       img-src 'self' data:; connect-src 'self'; base-uri 'none'; \
                       form-action 'self'; frame-ancestors 'none'";

/// The file served at `path`, if any.
#[must_use]
pub fn asset(path: &str) -> Option<&'static Asset> {
    ASSETS.iter().find(|a| a.path == path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_loads_only_files_that_are_served() {
        let index = asset("/").unwrap().body;
        for part in index
            .split("src=\"")
            .skip(1)
            .chain(index.split("href=\"").skip(1))
        {
            let url = &part[..part.find('"').unwrap()];
            if url.starts_with('#') {
                continue;
            }
            assert!(asset(url).is_some(), "{url} is not served");
        }
        // No address of another server (the SVG namespace is a name, never fetched).
        for a in ASSETS {
            let body = a.body.replace("http://www.w3.org/2000/svg", "");
            assert!(
                !body.contains("http://") && !body.contains("https://"),
                "{}",
                a.path
            );
            assert!(
                !body.contains("//cdn") && !body.contains("@import"),
                "{}",
                a.path
            );
        }
    }
}
