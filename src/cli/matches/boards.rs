//! The games `ploy match` plays seat by seat, Pente, Pyloff and Ploy's free-for-all with
//! `--ffa-seats`, as the match plays them: which game under which options ([`BoardKind`]),
//! a game in progress ([`Board`]) with its moves ([`BoardMove`]), and its openings
//! ([`BoardOpenings`]).
//!
//! The rules are the game crates': a move is played with the crate's checked `play`; a
//! Pente game ends with five in a row or ten captured stones (or a full board, a draw); a
//! Pyloff game ends when nobody can place, and the player with the most pieces on the board
//! wins (equal highest scores share the win). Pyloff's rules have no move cap, but a game can
//! go on long: the match stops it at a cap, by default the crate's
//! [`pyloff::Options::move_cap`] (364 moves on a board of 6), and the score then decides
//! (as the crate's own match programs do). Pente needs no cap (the board fills); with
//! `--ply-cap` a Pente game reaching it is a draw.
//!
//! Ploy's free-for-all is played under the match's Ploy rules from the four-player start:
//! the last player in play wins; a game drawn by the rules or stopped at the ply cap (200
//! by default) ranks the players still in play level at the top. Players knocked out rank
//! below those in play, the later out above the earlier (see [`Board::scores`]).
//!
//! # Openings
//!
//! A random opening of `N` plies is drawn by a generator seeded with the match's seed and
//! the opening's number (the same seed gives the same openings on every machine):
//!
//! - **Pente**: the first stone is White's on the centre (the only legal first move); every
//!   later stone is drawn uniformly from the legal points within three points of the centre
//!   (Chebyshev distance: the 7 × 7 square around it), so with the tournament rule White's
//!   second stone (the third ply) lies on that square's edge, exactly three points out. The
//!   default is 3 plies: the three-stone openings (White's centre, Black's answer, White's
//!   second stone).
//! - **Pyloff**: each ply is drawn uniformly from the legal moves other than `swap` (a
//!   forced `pass` is played when it is the only move). The default is 4 plies.
//! - **Ploy's free-for-all**: each ply is drawn uniformly from the legal moves. The default
//!   is 4 plies (one move each).
//!
//! A ply that would end the game is not played (the opening is then shorter). An openings
//! file (`--openings FILE`) has one opening a line: moves in the game's notation (`K10 L9
//! M12`, `c3 e5 swap`) separated by white space, played from the empty board under the
//! match's options; they must be legal and leave the game undecided. Blank lines and lines
//! starting with `#` are skipped. For Ploy's free-for-all the file is a Ploy openings file
//! (see [`super::openings`]) whose openings all start from the free-for-all start (`ffa |
//! b3-c4-0 ...`). With `--opening-plies N` as well, `N` random plies follow each opening of
//! the file.

use std::fmt;

use ploy_search::splitmix64;

use crate::cli::excerpt;

/// A game of a match other than Ploy, with its options.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoardKind {
    /// Pente under these rules (board size, tournament rule).
    Pente(pente::Rules),
    /// Pyloff with these options (size, players, rule set).
    Pyloff(pyloff::Options),
    /// Ploy's four-player free-for-all under these rules.
    PloyFfa(ploy_core::Rules),
}

impl BoardKind {
    /// The number of players.
    #[must_use]
    pub fn players(self) -> usize {
        match self {
            BoardKind::Pente(_) => 2,
            BoardKind::Pyloff(o) => usize::from(o.players()),
            BoardKind::PloyFfa(_) => 4,
        }
    }

    /// `pente`, `pyloff` or `ploy`, as the engine protocol's `Game` option takes it.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            BoardKind::Pente(_) => "pente",
            BoardKind::Pyloff(_) => "pyloff",
            BoardKind::PloyFfa(_) => "ploy",
        }
    }

    /// The options that tell an engine program the game: `Game`, then the game's options
    /// (Pente: `Size`, `Tournament rule`; Pyloff: `Size`, `Players`, `All freedoms`, `Cut
    /// down`); for Ploy the rules alone, as in Ploy's matches (the `position ffa` command
    /// says the game).
    #[must_use]
    pub fn engine_options(self) -> Vec<(String, String)> {
        if let BoardKind::PloyFfa(rules) = self {
            return super::process::rule_options(rules)
                .into_iter()
                .map(|(n, v)| (n.to_owned(), v))
                .collect();
        }
        let mut options = vec![("Game", self.name().to_owned())];
        match self {
            BoardKind::Pente(r) => {
                options.push(("Size", r.size.get().to_string()));
                options.push(("Tournament rule", r.tournament_rule.to_string()));
            }
            BoardKind::Pyloff(o) => {
                let rules = o.rules();
                options.push(("Size", o.size().to_string()));
                options.push(("Players", o.players().to_string()));
                options.push((
                    "All freedoms",
                    (rules == pyloff::RuleSet::AllFreedoms).to_string(),
                ));
                options.push(("Cut down", (rules == pyloff::RuleSet::CutDown).to_string()));
            }
            BoardKind::PloyFfa(_) => {}
        }
        options
            .into_iter()
            .map(|(n, v)| (n.to_owned(), v))
            .collect()
    }

    /// The empty board.
    #[must_use]
    pub fn board(self) -> Board {
        match self {
            BoardKind::Pente(r) => Board::Pente(Box::new(pente::Game::new(r))),
            BoardKind::Pyloff(o) => Board::Pyloff(pyloff::Game::new(o)),
            BoardKind::PloyFfa(rules) => Board::Ploy(Box::new(ploy_core::Game::start(
                ploy_core::Variant::FreeForAll,
                rules,
            ))),
        }
    }

    /// The cap a game is stopped at unless `--ply-cap` says otherwise: none for Pente, the
    /// crate's move cap for Pyloff, 200 plies for Ploy (as in Ploy's matches).
    #[must_use]
    pub fn default_cap(self) -> Option<usize> {
        match self {
            BoardKind::Pente(_) => None,
            BoardKind::Pyloff(o) => Some(o.move_cap() as usize),
            BoardKind::PloyFfa(_) => Some(200),
        }
    }

    /// The seats' names: `white`, `black` (Pente); `player 1` to `player 4` (Pyloff);
    /// `green`, `red`, `yellow`, `blue` (Ploy).
    #[must_use]
    pub fn seat_name(self, seat: usize) -> String {
        match self {
            BoardKind::Pente(_) => ["white", "black"][seat.min(1)].to_owned(),
            BoardKind::Pyloff(_) => format!("player {}", seat + 1),
            BoardKind::PloyFfa(_) => ploy_core::Seat::ALL[seat.min(3)].name().to_owned(),
        }
    }
}

impl fmt::Display for BoardKind {
    /// `pente 19x19, tournament rule`, `pyloff size=6 players=4 rules=default`, `ploy
    /// free-for-all`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BoardKind::Pente(r) => write!(
                f,
                "pente {0}x{0}, {1}",
                r.size.get(),
                if r.tournament_rule {
                    "tournament rule"
                } else {
                    "no tournament rule"
                }
            ),
            BoardKind::Pyloff(o) => write!(f, "pyloff {o}"),
            BoardKind::PloyFfa(_) => f.write_str("ploy free-for-all"),
        }
    }
}

/// A move of a [`Board`]: `K10` in Pente; `c3`, `swap` or `pass` in Pyloff.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoardMove {
    /// A Pente move.
    Pente(pente::Move),
    /// A Pyloff move.
    Pyloff(pyloff::Move),
    /// A Ploy move.
    Ploy(ploy_core::Move),
}

impl fmt::Display for BoardMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BoardMove::Pente(m) => m.fmt(f),
            BoardMove::Pyloff(m) => m.fmt(f),
            BoardMove::Ploy(m) => ploy_notation::UniversityMove::from(*m).fmt(f),
        }
    }
}

/// A game of Pente or Pyloff in progress, from the empty board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Board {
    /// Pente.
    Pente(Box<pente::Game>),
    /// Pyloff.
    Pyloff(pyloff::Game),
    /// Ploy's free-for-all.
    Ploy(Box<ploy_core::Game>),
}

impl Board {
    /// The game and its options.
    #[must_use]
    pub fn kind(&self) -> BoardKind {
        match self {
            Board::Pente(g) => BoardKind::Pente(g.rules()),
            Board::Pyloff(g) => BoardKind::Pyloff(g.options()),
            Board::Ploy(g) => BoardKind::PloyFfa(g.rules()),
        }
    }

    /// The moves played.
    #[must_use]
    pub fn moves(&self) -> Vec<BoardMove> {
        match self {
            Board::Pente(g) => g.moves().iter().map(|&m| BoardMove::Pente(m)).collect(),
            Board::Pyloff(g) => g
                .moves()
                .iter()
                .map(|&(_, m)| BoardMove::Pyloff(m))
                .collect(),
            Board::Ploy(g) => g.moves().iter().map(|&m| BoardMove::Ploy(m)).collect(),
        }
    }

    /// The number of moves played.
    #[must_use]
    pub fn plies(&self) -> usize {
        match self {
            Board::Pente(g) => g.moves().len(),
            Board::Pyloff(g) => g.moves().len(),
            Board::Ploy(g) => g.moves().len(),
        }
    }

    /// The seat to move, counting from 0 (White, or player 1, is seat 0).
    #[must_use]
    pub fn to_move(&self) -> usize {
        match self {
            Board::Pente(g) => g.position().turn().index(),
            Board::Pyloff(g) => g.position().to_move().index(),
            Board::Ploy(g) => g.position().mover().index(),
        }
    }

    /// Whether the rules have ended the game.
    #[must_use]
    pub fn is_over(&self) -> bool {
        match self {
            Board::Pente(g) => g.outcome().is_some(),
            Board::Pyloff(g) => g.position().is_over(),
            Board::Ploy(g) => g.outcome().is_some(),
        }
    }

    /// The legal moves.
    #[must_use]
    pub fn legal_moves(&self) -> Vec<BoardMove> {
        match self {
            Board::Pente(g) => g
                .position()
                .legal_moves()
                .into_iter()
                .map(BoardMove::Pente)
                .collect(),
            Board::Pyloff(g) => g
                .position()
                .legal_moves()
                .into_iter()
                .map(BoardMove::Pyloff)
                .collect(),
            Board::Ploy(g) => g
                .legal_moves()
                .iter()
                .map(|&m| BoardMove::Ploy(m))
                .collect(),
        }
    }

    /// Reads `text` in the game's notation as a move here (not checked for legality).
    ///
    /// # Errors
    /// A message when `text` is not a move of the game.
    pub fn read_move(&self, text: &str) -> Result<BoardMove, String> {
        match self {
            Board::Pente(_) => text
                .parse()
                .map(BoardMove::Pente)
                .map_err(|e: pente::ParsePointError| e.to_string()),
            Board::Pyloff(_) => text
                .parse()
                .map(BoardMove::Pyloff)
                .map_err(|e: pyloff::ParseMoveError| e.to_string()),
            Board::Ploy(g) => ploy_notation::read_algebraic(g.position(), text)
                .map(BoardMove::Ploy)
                .map_err(|e| e.to_string()),
        }
    }

    /// Plays `mv` if it is legal.
    ///
    /// # Errors
    /// Why it is not (a move of the other game is not legal either); the game is then
    /// unchanged.
    pub fn play(&mut self, mv: BoardMove) -> Result<(), String> {
        match (self, mv) {
            (Board::Pente(g), BoardMove::Pente(m)) => g.play(m).map_err(|e| e.to_string()),
            (Board::Pyloff(g), BoardMove::Pyloff(m)) => g.play(m).map_err(|e| e.to_string()),
            (Board::Ploy(g), BoardMove::Ploy(m)) => g.play(m).map_err(|e| e.to_string()),
            _ => Err("a move of another game".to_owned()),
        }
    }

    /// The engine protocol's `position` command for the game: `position startpos` and the
    /// moves.
    #[must_use]
    pub fn position_command(&self) -> String {
        if let Board::Ploy(g) = self {
            return super::process::EngineProcess::position_command(g);
        }
        let mut s = "position startpos".to_owned();
        let moves = self.moves();
        if !moves.is_empty() {
            s.push_str(" moves");
            for m in moves {
                s.push(' ');
                s.push_str(&m.to_string());
            }
        }
        s
    }

    /// What ranks the players if the game stops now, by seat (higher is better): in Pente
    /// 1 for the winner and 0 otherwise (an unfinished game or a full board: a draw); in
    /// Pyloff each player's pieces on the board (the score the rules rank by, at the end
    /// or at a cap); in Ploy's free-for-all the winner (if any) above the players still in
    /// play, they above the players knocked out, and a player knocked out above those
    /// knocked out before him (by the ply at which he left play).
    #[must_use]
    pub fn scores(&self) -> Vec<i64> {
        match self {
            Board::Pente(g) => {
                let winner = g.outcome().and_then(pente::Outcome::winner);
                [pente::Color::White, pente::Color::Black]
                    .into_iter()
                    .map(|c| i64::from(winner == Some(c)))
                    .collect()
            }
            Board::Pyloff(g) => g
                .position()
                .scores()
                .iter()
                .map(|&s| i64::from(s))
                .collect(),
            Board::Ploy(g) => {
                let positions = g.positions();
                let end = positions.len() as i64;
                let winners = g.outcome().map(|o| o.winners()).unwrap_or_default();
                let last = g.position().in_play();
                ploy_core::Seat::ALL
                    .into_iter()
                    .map(|seat| {
                        if winners.contains(seat) {
                            end + 2
                        } else if last.contains(seat) {
                            end + 1
                        } else {
                            // The first position without him in play.
                            positions
                                .iter()
                                .position(|p| !p.in_play().contains(seat))
                                .map_or(0, |i| i as i64)
                        }
                    })
                    .collect()
            }
        }
    }

    /// How the rules ended the game: `white wins (five)`, `draw (full board)`; `player 2
    /// wins (score 20 14 9 11)`, `players 1 and 3 share the win (...)`, `draw (...)`.
    #[must_use]
    pub fn outcome_text(&self) -> String {
        match self {
            Board::Pente(g) => g
                .outcome()
                .map_or_else(|| "unfinished".to_owned(), |o| o.to_string()),
            Board::Pyloff(g) => score_text(g.position().scores()),
            Board::Ploy(g) => ploy_sheet::ResultText(g.outcome()).to_string(),
        }
    }
}

/// `player 2 wins (score 20 14 9 11)`: the Pyloff result the scores give.
pub(super) fn score_text(scores: &[u32]) -> String {
    let list = scores
        .iter()
        .map(u32::to_string)
        .collect::<Vec<_>>()
        .join(" ");
    match pyloff::Outcome::from_scores(scores) {
        pyloff::Outcome::Draw => format!("draw (score {list})"),
        pyloff::Outcome::Win(w) if w.len() == 1 => format!("player {w} wins (score {list})"),
        pyloff::Outcome::Win(w) => format!("players {w} share the win (score {list})"),
    }
}

/// One opening of a Pente or Pyloff match: the moves played before the players take over.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardOpening {
    /// The moves from the empty board (legal, and the game is still undecided after them).
    pub moves: Vec<BoardMove>,
    /// Where it came from: `random`, or the file's line number (`line 12`).
    pub source: String,
}

impl BoardOpening {
    /// The moves as a line of an openings file: `K10 L9 M12`.
    #[must_use]
    pub fn to_line(&self) -> String {
        self.moves
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// The game after the opening under `kind`.
    ///
    /// # Panics
    /// Never for an opening built by this module for `kind` (its moves were checked).
    #[must_use]
    pub fn board(&self, kind: BoardKind) -> Board {
        let mut board = kind.board();
        for &m in &self.moves {
            board
                .play(m)
                .expect("an opening's moves were checked when it was built");
        }
        board
    }
}

/// Where the openings of a Pente or Pyloff match come from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardOpenings {
    /// The openings of a file, in order (from the top again when they run out); empty for
    /// random openings from the empty board.
    pub list: Vec<BoardOpening>,
    /// The match's seed.
    pub seed: u64,
    /// Random plies after each opening (of the file, or the empty board).
    pub plies: u32,
}

impl BoardOpenings {
    /// Opening number `index` (counting from 0) under `kind`.
    #[must_use]
    pub fn opening(&self, kind: BoardKind, index: u32) -> BoardOpening {
        let mut opening = if self.list.is_empty() {
            BoardOpening {
                moves: Vec::new(),
                source: "random".to_owned(),
            }
        } else {
            self.list[index as usize % self.list.len()].clone()
        };
        if self.plies == 0 {
            return opening;
        }
        let mut state = self.seed.wrapping_mul(1000).wrapping_add(u64::from(index));
        let mut board = opening.board(kind);
        for _ in 0..self.plies {
            let moves = random_candidates(&board);
            if moves.is_empty() {
                break;
            }
            let mv = moves[(splitmix64(&mut state) >> 8) as usize % moves.len()];
            let mut next = board.clone();
            if next.play(mv).is_err() || next.is_over() {
                break;
            }
            board = next;
            opening.moves.push(mv);
        }
        if opening.source != "random" {
            opening.source = format!("{} + {} random plies", opening.source, self.plies);
        }
        opening
    }
}

/// The moves a random opening draws from (see the module docs).
fn random_candidates(board: &Board) -> Vec<BoardMove> {
    let moves = board.legal_moves();
    match board {
        Board::Pente(g) => {
            let centre = g.rules().size.centre();
            moves
                .into_iter()
                .filter(|m| matches!(m, BoardMove::Pente(p) if p.point().distance(centre) <= 3))
                .collect()
        }
        Board::Pyloff(_) => moves
            .into_iter()
            .filter(|m| *m != BoardMove::Pyloff(pyloff::Move::Swap))
            .collect(),
        Board::Ploy(_) => moves,
    }
}

/// Reads an openings file of a Pente or Pyloff match (see the [module docs](self)).
///
/// # Errors
/// A message naming the line of the first move that cannot be read, is not legal or ends
/// the game, or saying the file has no opening.
pub fn read_board_openings(text: &str, kind: BoardKind) -> Result<Vec<BoardOpening>, String> {
    if let BoardKind::PloyFfa(rules) = kind {
        let start = ploy_core::Position::start(ploy_core::Variant::FreeForAll, rules);
        let list = super::openings::read_openings(text, rules).map_err(|e| e.to_string())?;
        return list
            .into_iter()
            .map(|o| {
                if o.start.with_rules(rules).unwrap_or(o.start.clone()) != start {
                    return Err(format!(
                        "{}: an opening of a free-for-all match starts from `ffa`",
                        o.source
                    ));
                }
                Ok(BoardOpening {
                    moves: o.moves.into_iter().map(BoardMove::Ploy).collect(),
                    source: o.source,
                })
            })
            .collect();
    }
    let mut list = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut board = kind.board();
        let mut moves = Vec::new();
        for (n, word) in line.split_whitespace().enumerate() {
            let at = |why: String| {
                format!(
                    "line {}: move {} `{}`: {why}",
                    i + 1,
                    n + 1,
                    excerpt(word, 20)
                )
            };
            let mv = board.read_move(word).map_err(at)?;
            board.play(mv).map_err(at)?;
            if board.is_over() {
                return Err(at(format!("it ends the game ({})", board.outcome_text())));
            }
            moves.push(mv);
        }
        list.push(BoardOpening {
            moves,
            source: format!("line {}", i + 1),
        });
    }
    if list.is_empty() {
        return Err("no opening in the file".to_owned());
    }
    Ok(list)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pente9() -> BoardKind {
        BoardKind::Pente(pente::Rules::new(pente::Size::S9))
    }

    #[test]
    fn pente_three_stone_openings() {
        let kind = BoardKind::Pente(pente::Rules::default());
        let openings = BoardOpenings {
            list: Vec::new(),
            seed: 7,
            plies: 3,
        };
        let centre = pente::Size::S19.centre();
        for i in 0..50 {
            let o = openings.opening(kind, i);
            assert_eq!(
                o,
                openings.opening(kind, i),
                "the same seed, the same opening"
            );
            assert_eq!(o.moves.len(), 3);
            let points: Vec<_> = o
                .moves
                .iter()
                .map(|m| match m {
                    BoardMove::Pente(m) => m.point(),
                    _ => unreachable!("a Pente opening"),
                })
                .collect();
            assert_eq!(points[0], centre);
            assert!(points[1].distance(centre) <= 3 && points[1] != centre);
            // The tournament rule: White's second stone exactly three points out here.
            assert_eq!(points[2].distance(centre), 3, "{o:?}");
        }
        assert_ne!(openings.opening(kind, 0), openings.opening(kind, 1));
    }

    #[test]
    fn pyloff_openings_are_legal_and_never_swap() {
        let kind = BoardKind::Pyloff(pyloff::Options::new(4, 2, pyloff::RuleSet::Default).unwrap());
        let openings = BoardOpenings {
            list: Vec::new(),
            seed: 1,
            plies: 4,
        };
        for i in 0..40 {
            let o = openings.opening(kind, i);
            assert_eq!(o.moves.len(), 4);
            assert!(!o.moves.contains(&BoardMove::Pyloff(pyloff::Move::Swap)));
            let board = o.board(kind);
            assert_eq!(board.plies(), 4);
            assert!(
                board
                    .position_command()
                    .starts_with("position startpos moves ")
            );
        }
    }

    #[test]
    fn openings_files() {
        let kind = pente9();
        let list = read_board_openings("# a comment\n\nE5 F6 B2\nE5\n", kind).unwrap();
        assert_eq!(list.len(), 2);
        assert_eq!(list[0].to_line(), "E5 F6 B2");
        assert_eq!(list[1].source, "line 4");
        // The tournament rule: White's second stone too near the centre.
        let e = read_board_openings("E5 F6 E6\n", kind).unwrap_err();
        assert!(e.starts_with("line 1: move 3 `E6`"), "{e}");
        assert!(
            read_board_openings("E5 Z99\n", kind)
                .unwrap_err()
                .contains("move 2")
        );
        assert!(read_board_openings("# none\n", kind).is_err());
        // Random plies follow each opening of the file.
        let openings = BoardOpenings {
            list,
            seed: 3,
            plies: 2,
        };
        let o = openings.opening(kind, 1);
        assert_eq!(o.moves.len(), 3);
        assert_eq!(o.source, "line 4 + 2 random plies");
        let pyloff = BoardKind::Pyloff(pyloff::Options::default());
        let list = read_board_openings("c3 swap e5\n", pyloff).unwrap();
        assert_eq!(list[0].moves.len(), 3);
        assert!(read_board_openings("c3 c3\n", pyloff).is_err());
    }

    #[test]
    fn engine_options_and_scores() {
        let kind = BoardKind::Pyloff(pyloff::Options::new(5, 3, pyloff::RuleSet::CutDown).unwrap());
        let names: Vec<_> = kind
            .engine_options()
            .into_iter()
            .map(|(n, v)| format!("{n}={v}"))
            .collect();
        assert_eq!(
            names,
            [
                "Game=pyloff",
                "Size=5",
                "Players=3",
                "All freedoms=false",
                "Cut down=true"
            ]
        );
        assert_eq!(kind.players(), 3);
        let pente = pente9();
        assert_eq!(
            pente.engine_options()[2],
            ("Tournament rule".to_owned(), "true".to_owned())
        );
        // Five in a row for White: White scores 1, Black 0.
        let mut board = pente.board();
        for m in ["E5", "A9", "B5", "B9", "C5", "C9", "D5", "D9", "F5"] {
            board.play(board.read_move(m).unwrap()).unwrap();
        }
        assert!(board.is_over());
        assert_eq!(board.scores(), [1, 0]);
        assert_eq!(board.outcome_text(), "white wins (five)");
        assert_eq!(
            score_text(&[3, 5, 5]),
            "players 2 3 share the win (score 3 5 5)"
        );
    }

    /// Random free-for-all games: the winner ranks alone at the top, and of two other
    /// players the one who stayed in play longer ranks higher (level when both stayed to
    /// the end).
    #[test]
    fn ploy_free_for_all_ranks_by_who_stayed_longest() {
        let kind = BoardKind::PloyFfa(ploy_core::Rules::standard());
        let mut knocked_out = 0;
        for seed in 0..12u64 {
            let mut board = kind.board();
            let mut rng = seed;
            while !board.is_over() && board.plies() < 300 {
                let moves = board.legal_moves();
                let mv = moves[(splitmix64(&mut rng) >> 8) as usize % moves.len()];
                board.play(mv).unwrap();
            }
            let Board::Ploy(g) = &board else {
                unreachable!("a Ploy game")
            };
            // The last position each seat was in play in (the end when it still is).
            let positions = g.positions();
            let stayed = |seat: ploy_core::Seat| {
                positions
                    .iter()
                    .rposition(|p| p.in_play().contains(seat))
                    .unwrap_or(0)
            };
            let scores = board.scores();
            let winners = g.outcome().map(|o| o.winners()).unwrap_or_default();
            for (i, s) in ploy_core::Seat::ALL.into_iter().enumerate() {
                if winners.contains(s) {
                    assert!(
                        scores
                            .iter()
                            .enumerate()
                            .all(|(j, &o)| j == i || o < scores[i])
                    );
                    continue;
                }
                knocked_out += usize::from(!g.position().in_play().contains(s));
                for (j, t) in ploy_core::Seat::ALL.into_iter().enumerate() {
                    if winners.contains(t) || i == j {
                        continue;
                    }
                    assert_eq!(
                        scores[i].cmp(&scores[j]),
                        stayed(s).cmp(&stayed(t)),
                        "seed {seed}: {s:?} {t:?} {scores:?}"
                    );
                }
            }
        }
        assert!(knocked_out > 0, "some player was knocked out");
    }
}
