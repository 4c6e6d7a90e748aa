// The Pente board module of ployd's page (see app.js for the module interface).
//
// It draws the grid from the server's JSON of a Pente game (the `position` of the game
// state):
//
//   {"size": 9,                                    board side, odd, 7..19
//    "columns": ["A", "B", ..., "J"],              column letters (pente.org: no I)
//    "stones": [{"point": "E5", "col": 4, "row": 4, "colour": "white"}, ...],
//    "captures": {"white": 2, "black": 0},         stones each colour has captured
//    "turn": "black",                              the colour to move
//    "tournament_rule": true,
//    "last_move": {"move": "H5", "colour": "white", "captured": ["F5", "G5"]},  or null
//    "winning_line": ["E5", "F5", "G5", "H5", "J5"]}   a line of five or more, or []
//
// and plays the points of `legal` (the game state's). While the game goes on, an empty point
// that is not in `legal` is one the rules forbid at that move (the first stone on the
// tournament rule's middle for White's second stone): those are greyed. When only one point
// is legal (the first stone, on the centre), it is marked instead.
'use strict';

(function () {
  const { svg, icon, square, cursor, playable, label, place, lay, boardSize, stepped, Base } = window.PloydBoardKit;
  const COLUMNS = 'ABCDEFGHJKLMNOPQRST';
  const GAP = 50;
  const MARGIN = 48; // left and bottom (labels)
  const EDGE = 32; // top and right

  function pointName(c, r) {
    return COLUMNS[c] + (r + 1);
  }

  function parsePoint(p) {
    return [COLUMNS.indexOf(p[0].toUpperCase()), Number(p.slice(1)) - 1];
  }

  function stone(colour, r) {
    const g = svg('g', { class: 'stone stone-' + colour });
    if (colour === 'white') {
      g.append(svg('circle', { cx: 0, cy: 0, r, fill: '#fbfbf7', stroke: '#2b2b2b', 'stroke-width': 2.5 }));
    } else {
      g.append(svg('circle', { cx: 0, cy: 0, r, fill: '#1f1f1f', stroke: '#000', 'stroke-width': 2.5 }));
      // A ring inside, so that the two kinds of stone differ by more than their shade.
      g.append(svg('circle', { cx: 0, cy: 0, r: r * 0.55, fill: 'none', stroke: '#8a8a8a', 'stroke-width': 2 }));
    }
    return g;
  }

  function seatColour(seat) {
    return seat === 0 ? 'white' : 'black';
  }

  const Pente = {
    name: 'Pente',
    moveExample: 'K10',
    // The new-game form (see options.js): a Pente board's side is odd.
    optionLabels: { no_tournament_rule: 'Without the tournament rule' },
    optionValues: { size: (n) => n % 2 === 1 },

    title(view) {
      const size = boardSize(view);
      return 'Pente' + (size ? ' ' + size + '×' + size : '');
    },

    seatMarker(view, seat) {
      return icon('-24 -24 48 48', stone(seatColour(seat), 20));
    },

    seatNote(view, seat) {
      const pos = view.position;
      if (!pos || !pos.captures) return { out: false, note: '' };
      const n = pos.captures[seatColour(seat)] || 0;
      return { out: false, note: 'captured ' + n + ' of 10' };
    },

    create(root, host) {
      return new Board(root, host);
    },
  };

  class Board extends Base {
    constructor(root, host) {
      super(root, host, {
        attr: 'data-point', start: null,
        label: 'Pente board. Arrow keys move the cursor; Enter or Space places a stone.',
      });
    }

    xy(p) {
      const [c, r] = parsePoint(p);
      return [MARGIN + c * GAP, EDGE + (this.size - 1 - r) * GAP];
    }

    update(view, ctx) {
      this.view = view;
      this.ctx = ctx;
      this.pos = view.position || {};
      this.size = this.pos.size || 19;
      if (!this.cursor) {
        const mid = (this.size - 1) / 2;
        this.cursor = pointName(mid, mid);
      }
      this.stones = new Map((this.pos.stones || []).map((s) => [s.point, s.colour]));
      this.legal = new Set(view.legal || []);
      this.forbidden = new Set();
      if (view.status === 'active' && this.legal.size > 1) {
        for (let c = 0; c < this.size; c++) {
          for (let r = 0; r < this.size; r++) {
            const p = pointName(c, r);
            if (!this.stones.has(p) && !this.legal.has(p)) this.forbidden.add(p);
          }
        }
      }
      this.draw();
    }

    draw() {
      const n = this.size;
      const side = MARGIN + EDGE + (n - 1) * GAP;
      const s = this.svg;
      lay(s, side, '#e2b86b');
      for (let i = 0; i < n; i++) {
        const [x0, y0] = this.xy(pointName(0, i));
        const [x1] = this.xy(pointName(n - 1, i));
        const [cx, top] = this.xy(pointName(i, n - 1));
        const [, bottom] = this.xy(pointName(i, 0));
        s.append(svg('line', { x1: x0, y1: y0, x2: x1, y2: y0, stroke: '#5a4320', 'stroke-width': 2 }));
        s.append(svg('line', { x1: cx, y1: top, x2: cx, y2: bottom, stroke: '#5a4320', 'stroke-width': 2 }));
        s.append(label(cx, side - 12, COLUMNS[i], false, 20, '#3d2d12'));
        s.append(label(20, y0, String(i + 1), true, 20, '#3d2d12'));
      }
      const mid = (n - 1) / 2;
      const [mx, my] = this.xy(pointName(mid, mid));
      s.append(svg('circle', { cx: mx, cy: my, r: 6, fill: '#5a4320' }));
      // The tournament rule's forbidden points, greyed.
      for (const p of this.forbidden) {
        const [x, y] = this.xy(p);
        s.append(square(x, y, GAP - 6, { fill: '#6b6b6b', 'fill-opacity': 0.45, rx: 6, class: 'forbidden', 'data-forbidden': p }));
      }
      if (this.legal.size === 1 && this.ctx && this.ctx.live && this.view.status === 'active') {
        const [x, y] = this.xy([...this.legal][0]);
        s.append(playable(x, y, 10, [...this.legal][0]));
      }
      const last = this.pos.last_move;
      for (const p of (last && last.captured) || []) {
        const [x, y] = this.xy(p);
        const g = svg('g', { transform: `translate(${x} ${y})`, opacity: 0.35, class: 'captured', 'data-captured': p });
        g.append(stone(last.colour === 'white' ? 'black' : 'white', 20));
        g.append(svg('path', { d: 'M-12,-12 L12,12 M12,-12 L-12,12', stroke: '#b3261e', 'stroke-width': 4 }));
        s.append(g);
      }
      for (const [p, colour] of this.stones) {
        const [x, y] = this.xy(p);
        s.append(place(stone(colour, 21), x, y, 'data-stone', p, (colour === 'white' ? 'White' : 'Black') + ' stone on ' + p));
      }
      if (last && this.stones.has(last.move)) {
        const [x, y] = this.xy(last.move);
        s.append(svg('circle', { cx: x, cy: y, r: 6, fill: '#d23b2b', class: 'last-move' }));
      }
      const five = this.pos.winning_line || [];
      if (five.length > 1) {
        const [x1, y1] = this.xy(five[0]);
        const [x2, y2] = this.xy(five[five.length - 1]);
        s.append(svg('line', { x1, y1, x2, y2, stroke: '#d23b2b', 'stroke-width': 8, 'stroke-linecap': 'round', opacity: 0.75, class: 'five' }));
      }
      // A move waiting for confirmation (touch.js): a pale stone of the colour to move.
      if (this.previewed && !this.stones.has(this.previewed) && this.pos.turn) {
        const [x, y] = this.xy(this.previewed);
        const g = svg('g', { transform: `translate(${x} ${y})`, opacity: 0.55, class: 'preview', 'data-preview': this.previewed });
        g.append(stone(this.pos.turn, 21));
        s.append(g);
      }
      if (this.showsCursor() && this.cursor) {
        const [x, y] = this.xy(this.cursor);
        s.append(cursor(x, y, GAP - 4, 4, '8 4'));
      }
      for (let c = 0; c < n; c++) {
        for (let r = 0; r < n; r++) {
          const p = pointName(c, r);
          const [x, y] = this.xy(p);
          s.append(square(x, y, GAP, { fill: 'transparent', 'data-point': p }));
        }
      }
    }

    // Shows move `p` (a point) as waiting for confirmation, or none when null.
    preview(p) {
      this.previewed = p;
      this.draw();
    }

    act(p) {
      if (this.refused()) return;
      if (this.legal.has(p)) {
        this.host.play(p);
        return;
      }
      if (this.stones.has(p)) {
        this.host.explain(p + ' already holds a stone.');
      } else if (this.legal.size === 1) {
        this.host.explain('The first stone goes on the centre, ' + [...this.legal][0] + '.');
      } else if (this.forbidden.has(p)) {
        this.host.explain('The tournament rule: White\'s second stone must be at least three points from the centre; ' + p + ' is nearer.');
      } else {
        this.host.explain(p + ' is not a legal point now.');
      }
    }

    step(dc, dr) {
      this.cursor = stepped(this.cursor, dc, dr, this.size - 1, parsePoint, pointName);
      this.draw();
      const st = this.stones.get(this.cursor);
      this.host.explain(this.cursor + ': ' + (st ? 'a ' + st + ' stone' : this.legal.has(this.cursor) ? 'empty, playable' : 'empty'), 'info');
    }
  }

  window.PloydBoards = window.PloydBoards || {};
  window.PloydBoards.pente = Pente;
})();
