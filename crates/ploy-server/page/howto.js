// "How to play": a short account of each game's rules for the page, in its own words (the
// full rules: docs/rules.md for Ploy, docs/pente.md, docs/pyloff.md). Built with DOM calls
// only. `PloydHowTo.section(game)` answers a <details> element, or null for a game without
// an account here.
'use strict';

(function () {
  // Each game: a title and its parts, each a heading and its points.
  const RULES = {
    ploy: {
      title: 'How to play Ploy',
      parts: [
        ['The pieces', [
          'Each piece points along its flags, drawn as pointers round it. The number of flags says what it is and how far it goes.',
          'A shield (1 flag) steps one square; a probe (2 flags) goes one or two squares; a lance (3 flags) one to three; the commander (4 flags) one square.',
        ]],
        ['A move', [
          'Either move one of your pieces in a straight line along one of its flags, over empty squares only, or turn it where it stands by one to seven eighths of a circle (its flags turn with it). Passing is not allowed.',
          'Ending a move on an enemy piece captures it. Capturing is never forced, and only one piece goes per move.',
          'A shield may step and then turn in the same move.',
        ]],
        ['Winning', [
          'A player whose commander is captured, or who has nothing left but his commander, is out. With the option "relaxed elimination" only the commander\'s capture counts.',
          'Two players: the one who puts the other out wins. Free-for-all: the pieces of a player who is put out go to the one who captured; the last player in play wins. Partnership: Green and Yellow against Red and Blue; the last team in play wins.',
          'Standard rules draw a game when a position comes a third time, or after 200 moves in a row without a capture. University rules have no draw rule.',
        ]],
      ],
    },
    pente: {
      title: 'How to play Pente',
      parts: [
        ['A move', [
          'White and Black take turns placing one stone on an empty point. White begins, on the centre.',
          'Tournament rule (on unless switched off): White\'s second stone must be at least three points from the centre.',
        ]],
        ['Captures', [
          'Bracket exactly two enemy stones in a row, on a line in any direction, between your new stone and another of yours, and the two are taken off.',
          'Placing your own stone between two enemy stones is safe: only the stone just placed captures.',
        ]],
        ['Winning', [
          'Five or more of your stones in an unbroken line (across, down or diagonal), or ten captured stones, wins.',
          'A full board with no winner is a draw.',
        ]],
      ],
    },
    pyloff: {
      title: 'How to play Pyloff',
      parts: [
        ['A move', [
          'Two to four players take turns placing one piece on an empty point: on the board, or on top of four pieces of any colour that touch each other, so that a pyramid grows.',
          'With two players, the second player may swap on his first move: the first piece becomes his.',
          'No one passes by choice; a player with no place to go passes. The game ends when nobody can place, or at the move cap shown beside the players.',
        ]],
        ['Groups and captures', [
          'Your pieces that touch side by side on one level, or sit one on another, make a group. A group lives while one of its board-level pieces has an empty neighbouring point (other rule sets count freedoms on every level).',
          'After a placement, every other player\'s group without a freedom is captured: its pieces leave unless a piece that stays rests on them. A placement that leaves your own piece without a freedom is not allowed.',
          'A piece with a piece two levels straight above it is buried: it links to nothing and is captured by the next placement of another player.',
        ]],
        ['Winning', [
          'At the end each player scores the pieces of his on the board, on every level. The highest score wins.',
        ]],
      ],
    },
  };

  function section(game) {
    const r = RULES[game];
    if (!r) return null;
    const d = document.createElement('details');
    d.className = 'help howto';
    d.setAttribute('data-howto', game);
    const s = document.createElement('summary');
    s.textContent = r.title;
    d.append(s);
    for (const [heading, points] of r.parts) {
      const h = document.createElement('h3');
      h.textContent = heading;
      const ul = document.createElement('ul');
      for (const p of points) {
        const li = document.createElement('li');
        li.textContent = p;
        ul.append(li);
      }
      d.append(h, ul);
    }
    return d;
  }

  window.PloydHowTo = { section, games: () => Object.keys(RULES) };
})();
