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
  const SVGNS = 'http://www.w3.org/2000/svg';
  const COLUMNS = 'ABCDEFGHJKLMNOPQRST';
  const GAP = 50;
  const MARGIN = 48; // left and bottom (labels)
  const EDGE = 32; // top and right

  function svg(tag, attrs) {
    const e = document.createElementNS(SVGNS, tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined) continue;
      if (k === 'text') e.textContent = v;
      else e.setAttribute(k, v);
    }
    return e;
  }

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

    title(view) {
      let size = view.position && view.position.size;
      for (const o of view.options || []) {
        const m = /^-(?:size|board_size)=(\d+)$/.exec(o);
        if (!size && m) size = Number(m[1]);
      }
      return 'Pente' + (size ? ' ' + size + '×' + size : '');
    },

    seatMarker(view, seat) {
      const s = svg('svg', { viewBox: '-24 -24 48 48', 'aria-hidden': 'true', focusable: 'false' });
      s.append(stone(seatColour(seat), 20));
      return s;
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

  class Board {
    constructor(root, host) {
      this.root = root;
      this.host = host;
      this.cursor = null;
      this.keyboard = false;
      this.svg = svg('svg', {
        role: 'application', tabindex: '0', 'aria-roledescription': 'board',
        'aria-label': 'Pente board. Arrow keys move the cursor; Enter or Space places a stone.',
      });
      root.replaceChildren(this.svg);
      this.svg.addEventListener('click', (ev) => {
        const t = ev.target.closest('[data-point]');
        if (!t) return;
        this.keyboard = false;
        this.cursor = t.getAttribute('data-point');
        this.act(this.cursor);
      });
      this.svg.addEventListener('keydown', (ev) => this.key(ev));
      this.svg.addEventListener('blur', () => this.draw());
    }

    destroy() {
      this.root.replaceChildren();
    }

    focus() {
      this.svg.focus();
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
      s.setAttribute('viewBox', `0 0 ${side} ${side}`);
      s.replaceChildren();
      s.append(svg('rect', { x: 0, y: 0, width: side, height: side, fill: '#e2b86b', rx: 8 }));
      const font = { 'font-size': 20, fill: '#3d2d12', 'font-family': 'system-ui, sans-serif' };
      for (let i = 0; i < n; i++) {
        const [x0, y0] = this.xy(pointName(0, i));
        const [x1] = this.xy(pointName(n - 1, i));
        const [cx, top] = this.xy(pointName(i, n - 1));
        const [, bottom] = this.xy(pointName(i, 0));
        s.append(svg('line', { x1: x0, y1: y0, x2: x1, y2: y0, stroke: '#5a4320', 'stroke-width': 2 }));
        s.append(svg('line', { x1: cx, y1: top, x2: cx, y2: bottom, stroke: '#5a4320', 'stroke-width': 2 }));
        s.append(svg('text', Object.assign({ x: cx, y: side - 12, 'text-anchor': 'middle', text: COLUMNS[i] }, font)));
        s.append(svg('text', Object.assign({ x: 20, y: y0, 'text-anchor': 'middle', 'dominant-baseline': 'central', text: String(i + 1) }, font)));
      }
      const mid = (n - 1) / 2;
      const [mx, my] = this.xy(pointName(mid, mid));
      s.append(svg('circle', { cx: mx, cy: my, r: 6, fill: '#5a4320' }));
      // The tournament rule's forbidden points, greyed.
      for (const p of this.forbidden) {
        const [x, y] = this.xy(p);
        s.append(svg('rect', { x: x - GAP / 2 + 3, y: y - GAP / 2 + 3, width: GAP - 6, height: GAP - 6, fill: '#6b6b6b', 'fill-opacity': 0.45, rx: 6, class: 'forbidden', 'data-forbidden': p }));
      }
      if (this.legal.size === 1 && this.ctx && this.ctx.live && this.view.status === 'active') {
        const [x, y] = this.xy([...this.legal][0]);
        s.append(svg('circle', { cx: x, cy: y, r: 10, fill: '#1f5fbf', 'fill-opacity': 0.8, stroke: '#fff', 'stroke-width': 2.5, class: 'playable', 'data-playable': [...this.legal][0] }));
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
        const g = stone(colour, 21);
        g.setAttribute('transform', `translate(${x} ${y})`);
        g.setAttribute('data-stone', p);
        g.append(svg('title', { text: (colour === 'white' ? 'White' : 'Black') + ' stone on ' + p }));
        s.append(g);
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
      if (this.keyboard && document.activeElement === this.svg && this.cursor) {
        const [x, y] = this.xy(this.cursor);
        s.append(svg('rect', { x: x - GAP / 2 + 2, y: y - GAP / 2 + 2, width: GAP - 4, height: GAP - 4, fill: 'none', stroke: '#111', 'stroke-width': 4, 'stroke-dasharray': '8 4', class: 'cursor' }));
      }
      for (let c = 0; c < n; c++) {
        for (let r = 0; r < n; r++) {
          const p = pointName(c, r);
          const [x, y] = this.xy(p);
          s.append(svg('rect', { x: x - GAP / 2, y: y - GAP / 2, width: GAP, height: GAP, fill: 'transparent', 'data-point': p }));
        }
      }
    }

    act(p) {
      if (this.ctx.whyNot) {
        this.host.explain(this.ctx.whyNot);
        return;
      }
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

    key(ev) {
      const steps = { ArrowUp: [0, 1], ArrowDown: [0, -1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] };
      if (steps[ev.key]) {
        ev.preventDefault();
        this.keyboard = true;
        const [c, r] = parsePoint(this.cursor);
        const [dc, dr] = steps[ev.key];
        this.cursor = pointName(Math.max(0, Math.min(this.size - 1, c + dc)), Math.max(0, Math.min(this.size - 1, r + dr)));
        this.draw();
        const st = this.stones.get(this.cursor);
        this.host.explain(this.cursor + ': ' + (st ? 'a ' + st + ' stone' : this.legal.has(this.cursor) ? 'empty, playable' : 'empty'), 'info');
      } else if (ev.key === 'Enter' || ev.key === ' ') {
        ev.preventDefault();
        this.keyboard = true;
        this.act(this.cursor);
      }
    }
  }

  window.PloydBoards = window.PloydBoards || {};
  window.PloydBoards.pente = Pente;
})();
