// The Pyloff board module of ployd's page (see app.js for the module interface).
//
// It draws the pyramid from the server's JSON of a Pyloff game (the `position` of the game
// state). A point is {"cell": "c3", "level": k, "i": i, "j": j}: level 0 is the board; the
// point (k, i, j) sits in the cell at column x = 2i + k (letter a, b, ...) and row
// y = 2j + k (1 at the bottom), so a piece on an upper level is drawn between the four it
// rests on.
//
//   {"size": 4, "players": 2, "rules": "default",
//    "symbols": ["x", "o"],                        each player's mark
//    "status": "place",                            or "must_pass", "over", "capped"
//    "player_to_move": 1,                          or null once over
//    "swap_allowed": false,
//    "moves_made": 8, "move_cap": 120,
//    "scores": [3, 2],                             pieces on the board, player 1 first
//    "pieces": [{"cell": "a1", "level": 0, "i": 0, "j": 0, "player": 1, "seat": 0,
//                "buried": false}, ...],
//    "targets": [{"cell": "c1", "level": 0, "i": 1, "j": 0}, ...],   where each legal
//                                                  placement goes ([] once over)
//    "last_move": {"move": "c3", "player": 2,
//                  "captured": [{"cell": "a1", "level": 0, "i": 0, "j": 0}, ...]}  or null}
//
// `legal` (the game state's) lists the cells one may place on now (and `swap`); the point a
// cell's placement takes is the lowest free point of the cell (`targets`). Players 1..4 are
// seats 0..3.
'use strict';

(function () {
  const { svg, icon, square, cursor, playable, label, place, lay, boardSize, stepped, Base } = window.PloydBoardKit;
  const G = 36; // half the distance between two board points
  const M = 62; // left and bottom margin (labels)
  const T = 42; // top and right margin
  const PLAYERS = [
    { fill: '#c8372d', ink: '#fff', mark: '×', name: 'x' },
    { fill: '#f7f5ef', ink: '#1d1d1f', mark: '○', name: 'o' },
    { fill: '#2f6fd0', ink: '#fff', mark: '+', name: '+' },
    { fill: '#f2c230', ink: '#1d1d1f', mark: '*', name: '*' },
  ];

  function cellName(x, y) {
    return String.fromCharCode(97 + x) + (y + 1);
  }

  function parseCell(c) {
    return [c.charCodeAt(0) - 97, Number(c.slice(1)) - 1];
  }

  // A point's key in `occupied`.
  function pointKey(p) {
    return p.level + ',' + p.i + ',' + p.j;
  }

  function ball(player, r, buried) {
    const p = PLAYERS[(player - 1) % 4] || PLAYERS[0];
    const g = svg('g', { class: 'ball player-' + player });
    g.append(svg('circle', {
      cx: 0, cy: 0, r, fill: p.fill, stroke: '#1b1b1b', 'stroke-width': 2.5,
      'stroke-dasharray': buried ? '5 4' : null,
    }));
    g.append(svg('circle', { cx: -r * 0.35, cy: -r * 0.35, r: r * 0.22, fill: '#ffffff', 'fill-opacity': 0.35 }));
    g.append(svg('text', {
      x: 0, y: 1, 'text-anchor': 'middle', 'dominant-baseline': 'central', 'font-size': r * 0.95,
      'font-weight': 700, 'font-family': 'system-ui, sans-serif', fill: p.ink, text: p.mark,
    }));
    return g;
  }

  const Pyloff = {
    name: 'Pyloff',
    moveExample: 'c3',
    // The new-game form's words for the options (see options.js).
    optionLabels: { all_freedoms: 'All freedoms', cut_down: 'Cut-down rules' },

    title(view) {
      const size = boardSize(view);
      return 'Pyloff' + (size ? ', size ' + size : '');
    },

    seatMarker(view, seat) {
      return icon('-24 -24 48 48', ball(seat + 1, 20, false));
    },

    seatNote(view, seat) {
      const pos = view.position;
      if (!pos || !pos.scores) return { out: false, note: '' };
      return { out: false, note: 'score ' + (pos.scores[seat] || 0) };
    },

    create(root, host) {
      return new Board(root, host);
    },
  };

  class Board extends Base {
    constructor(root, host) {
      super(root, host, {
        attr: 'data-cell', start: 'a1',
        label: 'Pyloff board. Arrow keys move the cursor over the cells; Enter or Space places a piece.',
      });
      this.shownLevels = null; // null: every level
      const controls = document.createElement('div');
      controls.className = 'board-controls';
      const levels = document.createElement('label');
      levels.textContent = 'Levels shown ';
      this.levelSelect = document.createElement('select');
      this.levelSelect.id = 'pyloff-levels';
      this.levelSelect.addEventListener('change', () => {
        const v = this.levelSelect.value;
        this.shownLevels = v === 'all' ? null : Number(v);
        this.draw();
      });
      levels.append(this.levelSelect);
      this.count = document.createElement('span');
      this.count.className = 'move-count';
      controls.append(levels, this.count);
      this.svg.before(controls);
    }

    xy(x, y) {
      return [M + x * G, T + (2 * this.size - 2 - y) * G];
    }

    update(view, ctx) {
      this.view = view;
      this.ctx = ctx;
      this.pos = view.position || {};
      const n = this.pos.size || 4;
      if (this.size !== n) {
        this.size = n;
        this.levelSelect.replaceChildren();
        const all = document.createElement('option');
        all.value = 'all';
        all.textContent = 'all';
        this.levelSelect.append(all);
        for (let k = 1; k <= n; k++) {
          const o = document.createElement('option');
          o.value = String(k);
          o.textContent = k === 1 ? 'the board only' : 'up to level ' + k;
          this.levelSelect.append(o);
        }
      }
      const made = this.pos.moves_made;
      const cap = this.pos.move_cap;
      this.count.textContent = made !== undefined && cap ? made + ' of at most ' + cap + ' moves' : '';
      this.occupied = new Map();
      for (const p of this.pos.pieces || []) this.occupied.set(pointKey(p), p);
      // Where each legal placement goes: the server's `targets`, else the lowest free point
      // of each legal cell.
      this.playable = new Map();
      if (Array.isArray(this.pos.targets)) {
        for (const p of this.pos.targets) this.playable.set(p.cell, p);
      } else {
        for (const cell of view.legal || []) {
          if (cell === 'swap' || cell === 'pass') continue;
          const free = this.pointsOf(cell).find((p) => !this.occupied.has(pointKey(p)));
          if (free) this.playable.set(cell, free);
        }
      }
      this.draw();
      this.drawChoices();
    }

    draw() {
      const n = this.size;
      const side = M + T + (2 * n - 2) * G;
      const s = this.svg;
      lay(s, side, '#d9c9a3');
      // The board's points: hollows in the tray.
      for (let i = 0; i < n; i++) {
        for (let j = 0; j < n; j++) {
          const [x, y] = this.xy(2 * i, 2 * j);
          s.append(svg('circle', { cx: x, cy: y, r: G * 0.55, fill: '#bba77b' }));
        }
      }
      // Labels of the cells' columns and rows.
      for (let x = 0; x < 2 * n - 1; x++) {
        const [cx] = this.xy(x, 0);
        s.append(label(cx, side - 12, String.fromCharCode(97 + x), false, 18, '#4a3d22'));
        const [, cy] = this.xy(0, x);
        s.append(label(16, cy, String(x + 1), true, 18, '#4a3d22'));
      }
      const top = this.shownLevels === null ? n : this.shownLevels;
      const last = this.pos.last_move;
      for (const p of (last && (last.captured || last.removed)) || []) {
        const [x, y] = this.xy(2 * p.i + p.level, 2 * p.j + p.level);
        s.append(svg('path', { d: `M${x - 12},${y - 12} L${x + 12},${y + 12} M${x + 12},${y - 12} L${x - 12},${y + 12}`, stroke: '#b3261e', 'stroke-width': 4, opacity: 0.6, class: 'removed', 'data-removed': p.cell }));
      }
      const pieces = [...(this.pos.pieces || [])].sort((a, b) => a.level - b.level);
      for (const p of pieces) {
        if (p.level >= top) continue;
        const [x, y] = this.xy(2 * p.i + p.level, 2 * p.j + p.level);
        // Each level a little smaller, so that the pieces under it show.
        const r = G * (0.95 - 0.08 * Math.min(p.level, 5));
        if (p.level > 0) {
          // A shadow on the pieces below, so that the stack reads as a stack.
          s.append(svg('circle', { cx: x + 4, cy: y + 5, r, fill: '#000', 'fill-opacity': 0.28 }));
        }
        const title = 'Player ' + p.player + ' (' + this.symbol(p.player) + ') on ' + p.cell + (p.level ? ', level ' + p.level : '') + (p.buried ? ', buried' : '');
        s.append(place(ball(p.player, r, p.buried), x, y, 'data-piece', p.cell + '@' + p.level, title));
      }
      if (last && last.move && this.occupiedCell(last.move)) {
        const [cx, cy] = parseCell(last.move);
        const [x, y] = this.xy(cx, cy);
        s.append(svg('circle', { cx: x, cy: y, r: G * 0.95 + 4, fill: 'none', stroke: '#d23b2b', 'stroke-width': 4, class: 'last-move' }));
      }
      if (this.ctx && this.ctx.myTurn) {
        for (const [cell, p] of this.playable) {
          const [x, y] = this.xy(2 * p.i + p.level, 2 * p.j + p.level);
          s.append(playable(x, y, 9, cell));
        }
      }
      if (this.showsCursor()) {
        const [cx, cy] = parseCell(this.cursor);
        const [x, y] = this.xy(cx, cy);
        s.append(cursor(x, y, G + 8, 3, '6 4'));
      }
      for (let x = 0; x < 2 * n - 1; x++) {
        for (let y = 0; y < 2 * n - 1; y++) {
          const [px, py] = this.xy(x, y);
          s.append(square(px, py, G, { fill: 'transparent', 'data-cell': cellName(x, y) }));
        }
      }
    }

    symbol(player) {
      const symbols = this.pos.symbols || [];
      return symbols[player - 1] || PLAYERS[(player - 1) % 4].mark;
    }

    occupiedCell(cell) {
      return this.pointsOf(cell).some((p) => this.occupied.has(pointKey(p)));
    }

    // The points of a cell, lowest first.
    pointsOf(cell) {
      const [x, y] = parseCell(cell);
      const out = [];
      for (let k = 0; k < this.size; k++) {
        if ((x - k) % 2 || (y - k) % 2) continue;
        const i = (x - k) / 2;
        const j = (y - k) / 2;
        if (i < 0 || j < 0 || i > this.size - 1 - k || j > this.size - 1 - k) continue;
        out.push({ level: k, i, j });
      }
      return out;
    }

    drawChoices() {
      const box = this.host.choices;
      box.replaceChildren();
      const legal = this.view.legal || [];
      if (!this.ctx.myTurn || !legal.includes('swap')) {
        box.hidden = true;
        return;
      }
      const b = document.createElement('button');
      b.type = 'button';
      b.setAttribute('data-move', 'swap');
      b.textContent = 'Swap: take the first piece as yours';
      b.addEventListener('click', () => this.host.play('swap'));
      box.append(b);
      box.hidden = false;
    }

    act(cell) {
      if (this.refused()) return;
      if (this.playable.has(cell)) {
        this.host.play(cell);
        return;
      }
      const points = this.pointsOf(cell);
      if (!points.length) {
        this.host.explain(cell + ' holds no point: a cell is on the board\'s grid or between four points below.');
        return;
      }
      const free = points.find((p) => !this.occupied.has(pointKey(p)));
      if (!free) {
        this.host.explain('Every point of ' + cell + ' is taken.');
        return;
      }
      const k = free.level;
      const below = free === points[0] ? '' : 'The point of ' + cell + ' on level ' + points[0].level + ' is taken; ';
      if (k > 0) {
        const under = [[0, 0], [1, 0], [0, 1], [1, 1]].filter(([a, b]) => !this.occupied.has(k - 1 + ',' + (free.i + a) + ',' + (free.j + b)));
        if (under.length) {
          this.host.explain((below || 'The ') + (below ? 'the ' : '') + 'point of ' + cell + ' on level ' + k + ' needs all four pieces under it; ' + under.length + (under.length === 1 ? ' is' : ' are') + ' missing.');
          return;
        }
      }
      this.host.explain('A piece on ' + cell + ' would have no freedom: a placement may not be suicide.');
    }

    step(dx, dy) {
      this.cursor = stepped(this.cursor, dx, dy, 2 * this.size - 2, parseCell, cellName);
      this.draw();
      this.host.explain(this.cursor + (this.playable.has(this.cursor) ? ': playable' : ''), 'info');
    }
  }

  window.PloydBoards = window.PloydBoards || {};
  window.PloydBoards.pyloff = Pyloff;
})();
