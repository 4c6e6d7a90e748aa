// The Ploy board module of ployd's page (see app.js for the module interface).
//
// It draws the 9x9 board in SVG from the server's JSON of a Ploy position
// (`position.pieces`: square, colour, kind, flags, directions; `position.controllers`,
// `in_play`, `mover`, `last_move`) and plays the moves of `legal` (university strings
// `from-to-r`: r eighths of a turn clockwise). Pieces differ by colour, shape and letter:
// Green a circle `g`, Red a square `r`, Yellow a diamond `y`, Blue a hexagon `b`; a
// commander has a capital letter and a second outline. Each flag is a dark pointer on the
// piece's edge in the direction it may move.
'use strict';

(function () {
  const { svg, icon, cursor, label, place, stepped, Base } = window.PloydBoardKit;
  const FILES = 'abcdefghi';
  // Directions clockwise from north, as the direction masks count them: [file step, rank step].
  const DIRS = [[0, 1], [1, 1], [1, 0], [1, -1], [0, -1], [-1, -1], [-1, 0], [-1, 1]];
  const DIR_NAMES = ['N', 'NE', 'E', 'SE', 'S', 'SW', 'W', 'NW'];
  const DIR_WORDS = ['north', 'north-east', 'east', 'south-east', 'south', 'south-west', 'west', 'north-west'];
  const KINDS = { 1: 'shield', 2: 'probe', 3: 'lance', 4: 'commander' };
  const RANGE = { shield: 1, probe: 2, lance: 3, commander: 1 };
  const COLOURS = {
    green: { fill: '#2e8b57', ink: '#ffffff', shape: 'circle', letter: 'g', name: 'Green' },
    red: { fill: '#c8372d', ink: '#ffffff', shape: 'square', letter: 'r', name: 'Red' },
    yellow: { fill: '#f2c230', ink: '#1d1d1f', shape: 'diamond', letter: 'y', name: 'Yellow' },
    blue: { fill: '#2f6fd0', ink: '#ffffff', shape: 'hexagon', letter: 'b', name: 'Blue' },
  };
  const TEAM = { green: 'yellow', yellow: 'green', red: 'blue', blue: 'red' };
  const S = 100; // one square
  const LEFT = 44;
  const TOP = 8;
  const SIZE = LEFT + 9 * S + 8;
  const BOTTOM = 44;

  function seatColours(view) {
    const variant = view.position && view.position.variant;
    if (variant === 'two-player' || (view.players && view.players.length === 2)) return ['green', 'red'];
    return ['green', 'red', 'yellow', 'blue'];
  }

  function parseSquare(sq) {
    return [sq.charCodeAt(0) - 97, Number(sq.slice(1)) - 1];
  }

  function squareName(f, r) {
    return FILES[f] + (r + 1);
  }

  function parseMove(text) {
    // `e3-e4-0`
    const [from, to, r] = text.split('-');
    return { from, to, r: Number(r), text };
  }

  function rotate(flags, r) {
    r = ((r % 8) + 8) % 8;
    return ((flags << r) | (flags >> (8 - r))) & 255;
  }

  function flagCount(flags) {
    let n = 0;
    for (let d = 0; d < 8; d++) if (flags & (1 << d)) n++;
    return n;
  }

  function flagList(flags) {
    const out = [];
    for (let d = 0; d < 8; d++) if (flags & (1 << d)) out.push(DIR_NAMES[d]);
    return out.join(', ');
  }

  function turnLabel(r) {
    return ['no turn', '↻ 45°', '↻ 90°', '↻ 135°', '180°', '↺ 135°', '↺ 90°', '↺ 45°'][r];
  }

  function turnWords(r) {
    if (r === 0) return 'without turning';
    if (r === 4) return 'turned half round';
    if (r < 4) return 'turned ' + r * 45 + ' degrees clockwise';
    return 'turned ' + (8 - r) * 45 + ' degrees counterclockwise';
  }

  // The body shape of a colour, centred on 0,0, about `r` across the middle.
  function bodyShape(shape, r, attrs) {
    switch (shape) {
      case 'square':
        return svg('rect', Object.assign({ x: -r * 0.9, y: -r * 0.9, width: r * 1.8, height: r * 1.8, rx: r * 0.18 }, attrs));
      case 'diamond': {
        const q = r * 1.2;
        return svg('polygon', Object.assign({ points: `0,${-q} ${q},0 0,${q} ${-q},0` }, attrs));
      }
      case 'hexagon': {
        const pts = [];
        for (let i = 0; i < 6; i++) {
          const a = (Math.PI / 3) * i;
          pts.push((r * 1.08 * Math.cos(a)).toFixed(2) + ',' + (r * 1.08 * Math.sin(a)).toFixed(2));
        }
        return svg('polygon', Object.assign({ points: pts.join(' ') }, attrs));
      }
      default:
        return svg('circle', Object.assign({ cx: 0, cy: 0, r }, attrs));
    }
  }

  // A piece centred on 0,0 in a 100-unit square. `flip` turns the picture half round.
  function pieceGroup(colour, flags, flip) {
    const c = COLOURS[colour] || COLOURS.green;
    const g = svg('g', { class: 'piece' });
    const commander = flagCount(flags) === 4;
    for (let d = 0; d < 8; d++) {
      if (!(flags & (1 << d))) continue;
      let [dx, dy] = DIRS[d];
      dy = -dy;
      if (flip) {
        dx = -dx;
        dy = -dy;
      }
      const len = Math.hypot(dx, dy);
      const ux = dx / len;
      const uy = dy / len;
      const px = -uy;
      const py = ux;
      const base = 16;
      const tip = 47;
      const w = 11;
      const pts = [
        [ux * tip, uy * tip],
        [ux * base + px * w, uy * base + py * w],
        [ux * base - px * w, uy * base - py * w],
      ].map(([x, y]) => x.toFixed(2) + ',' + y.toFixed(2));
      g.append(svg('polygon', { points: pts.join(' '), fill: '#1b1b1b', stroke: '#ffffff', 'stroke-width': 2.5, 'stroke-linejoin': 'round', class: 'flag' }));
    }
    g.append(bodyShape(c.shape, 25, { fill: c.fill, stroke: '#1b1b1b', 'stroke-width': 3 }));
    if (commander) g.append(bodyShape(c.shape, 18.5, { fill: 'none', stroke: c.ink, 'stroke-width': 3 }));
    g.append(svg('text', {
      x: 0, y: 1, 'text-anchor': 'middle', 'dominant-baseline': 'central',
      'font-size': commander ? 22 : 27, 'font-weight': 700, 'font-family': 'system-ui, sans-serif',
      fill: c.ink, text: commander ? c.letter.toUpperCase() : c.letter,
    }));
    return g;
  }

  function markerSvg(colour, flags) {
    return icon(flags ? '-50 -50 100 100' : '-30 -30 60 60', pieceGroup(colour, flags, false));
  }

  function variantWords(view) {
    const v = (view.position && view.position.variant) || (function () {
      for (const o of view.options || []) if (o.startsWith('-variant=')) return o.slice(9);
      return 'two-player';
    })();
    return {
      'two-player': 'two players',
      ffa: 'four-player free-for-all',
      'free-for-all': 'four-player free-for-all',
      partnership: 'four-player partnership',
    }[v] || v;
  }

  const Ploy = {
    name: 'Ploy',
    moveExample: 'e3-e4',
    // The new-game form's words for the options (see options.js).
    optionLabels: {
      variant: 'Players',
      rules: 'Draw rules',
      relaxed: 'Relaxed elimination',
      single_step: 'Turns of one step',
      no_repetition: 'No draw by repetition',
      no_capture_limit: 'Moves without a capture that draw',
      plays_on: 'Eliminated partner plays on',
      bare_commander_removed: 'Remove a bare commander',
    },
    choiceWords: {
      variant: { 'two-player': 'two players', ffa: 'four-player free-for-all', partnership: 'four players in two teams' },
      rules: { standard: 'standard', university: 'university (no draw rules)' },
    },

    title(view) {
      return 'Ploy, ' + variantWords(view);
    },

    seatMarker(view, seat) {
      const colour = seatColours(view)[seat] || 'green';
      const s = markerSvg(colour, 0);
      s.setAttribute('class', 'seat-marker seat-' + colour);
      return s;
    },

    seatNote(view, seat) {
      const pos = view.position;
      const colour = seatColours(view)[seat];
      if (!pos || !colour) return { out: false, note: '' };
      const out = pos.in_play && !pos.in_play.includes(colour);
      const also = Object.entries(pos.controllers || {})
        .filter(([c, by]) => by === colour && c !== colour)
        .map(([c]) => COLOURS[c].name);
      let note = out ? 'out' : '';
      if (also.length) note += (note ? ', ' : '') + 'moves ' + also.join(' and ') + ' too';
      return { out, note };
    },

    // Two-player Red and partnership Red/Blue players see their side at the bottom.
    flipFor(view, seats) {
      const colours = seatColours(view);
      return seats.length > 0 && seats.every((s) => colours[s] === 'red' || (colours.length === 4 && colours[s] === 'blue' && view.position.variant === 'partnership'));
    },

    create(root, host) {
      return new Board(root, host);
    },
  };

  class Board extends Base {
    constructor(root, host) {
      super(root, host, {
        attr: 'data-square', start: 'e5', viewBox: `0 0 ${SIZE} ${TOP + 9 * S + BOTTOM}`,
        label: 'Ploy board. Arrow keys move the cursor; Enter or Space picks a piece and moves it; Escape lets go.',
      });
      this.view = null;
      this.ctx = null;
      this.selected = null;
      this.layers = {};
      for (const name of ['squares', 'marks', 'pieces', 'targets', 'cursor', 'hits']) {
        this.layers[name] = svg('g', { class: 'layer-' + name });
        this.svg.append(this.layers[name]);
      }
      this.layers.targets.setAttribute('pointer-events', 'none');
      this.layers.pieces.setAttribute('pointer-events', 'none');
      this.layers.marks.setAttribute('pointer-events', 'none');
      this.layers.cursor.setAttribute('pointer-events', 'none');
      this.svg.addEventListener('focus', () => this.drawCursor());
    }

    // Square name -> top-left corner on the screen.
    xy(sq) {
      const [f, r] = parseSquare(sq);
      const flip = this.ctx && this.ctx.flipped;
      const col = flip ? 8 - f : f;
      const row = flip ? r : 8 - r;
      return [LEFT + col * S, TOP + row * S];
    }

    update(view, ctx) {
      const plyChanged = !this.view || this.view.ply !== view.ply || this.view.id !== view.id || this.view.moves_played !== view.moves_played;
      const flipChanged = !this.ctx || this.ctx.flipped !== ctx.flipped;
      this.view = view;
      this.ctx = ctx;
      this.pieces = new Map();
      for (const p of (view.position && view.position.pieces) || []) this.pieces.set(p.square, p);
      this.legal = (view.legal || []).map(parseMove);
      if (plyChanged || !ctx.myTurn || ctx.busy) {
        this.selected = null;
      }
      if (flipChanged || !this.drawn) this.drawSquares();
      this.draw();
    }

    drawSquares() {
      this.drawn = true;
      const sq = this.layers.squares;
      const hits = this.layers.hits;
      sq.replaceChildren();
      hits.replaceChildren();
      sq.append(svg('rect', { x: 0, y: 0, width: SIZE, height: TOP + 9 * S + BOTTOM, fill: '#f6f3ec' }));
      sq.append(svg('rect', { x: LEFT - 3, y: TOP - 3, width: 9 * S + 6, height: 9 * S + 6, fill: '#5c4a32', rx: 4 }));
      for (let f = 0; f < 9; f++) {
        for (let r = 0; r < 9; r++) {
          const name = squareName(f, r);
          const [x, y] = this.xy(name);
          sq.append(svg('rect', { x, y, width: S, height: S, fill: (f + r) % 2 ? '#efe3c8' : '#e3d2ad', 'data-base': name }));
          hits.append(svg('rect', { x, y, width: S, height: S, fill: 'transparent', 'data-square': name, class: 'hit' }));
        }
      }
      // Coordinates.
      for (let i = 0; i < 9; i++) {
        const [x] = this.xy(squareName(i, 0));
        sq.append(label(x + S / 2, TOP + 9 * S + 34, FILES[i], false, 32, '#4a4a4a'));
        const [, y] = this.xy(squareName(0, i));
        sq.append(label(LEFT / 2 - 2, y + S / 2, String(i + 1), true, 32, '#4a4a4a'));
      }
    }

    movesFrom(sq) {
      return this.legal.filter((m) => m.from === sq);
    }

    draw() {
      const view = this.view;
      const ctx = this.ctx;
      const marks = this.layers.marks;
      const pieces = this.layers.pieces;
      const targets = this.layers.targets;
      marks.replaceChildren();
      pieces.replaceChildren();
      targets.replaceChildren();
      const last = view.position && view.position.last_move;
      if (last) {
        const m = parseMove(last.move);
        for (const s of new Set([m.from, m.to])) {
          const [x, y] = this.xy(s);
          marks.append(svg('rect', { x: x + 2, y: y + 2, width: S - 4, height: S - 4, fill: '#f0c419', 'fill-opacity': 0.35, stroke: '#c99a00', 'stroke-width': 3, class: 'last-move' }));
        }
      }
      if (this.selected) {
        const [x, y] = this.xy(this.selected);
        marks.append(svg('rect', { x: x + 3, y: y + 3, width: S - 6, height: S - 6, fill: '#7fb2ff', 'fill-opacity': 0.45, stroke: '#1f5fbf', 'stroke-width': 5, class: 'selected' }));
      }
      const flip = ctx.flipped;
      for (const [sq, p] of this.pieces) {
        const [x, y] = this.xy(sq);
        const title = COLOURS[p.colour].name + ' ' + p.kind + ' on ' + sq + ', flags ' + flagList(p.flags);
        pieces.append(place(pieceGroup(p.colour, p.flags, flip), x + S / 2, y + S / 2, 'data-piece', sq, title));
      }
      if (this.selected) {
        const dests = new Map();
        for (const m of this.movesFrom(this.selected)) {
          if (m.to !== m.from) dests.set(m.to, (dests.get(m.to) || 0) + 1);
        }
        for (const [to] of dests) {
          const [x, y] = this.xy(to);
          const capture = this.pieces.has(to);
          if (capture) {
            targets.append(svg('circle', { cx: x + S / 2, cy: y + S / 2, r: 44, fill: 'none', stroke: '#b3261e', 'stroke-width': 6, 'stroke-dasharray': '14 8', class: 'target capture', 'data-target': to }));
          } else {
            targets.append(svg('circle', { cx: x + S / 2, cy: y + S / 2, r: 14, fill: '#1f5fbf', 'fill-opacity': 0.75, stroke: '#ffffff', 'stroke-width': 3, class: 'target', 'data-target': to }));
          }
        }
      }
      this.drawCursor();
      this.drawChoices();
    }

    drawCursor() {
      const layer = this.layers.cursor;
      layer.replaceChildren();
      if (!this.showsCursor()) return;
      const [x, y] = this.xy(this.cursor);
      layer.append(cursor(x + S / 2, y + S / 2, S - 10, 5, '12 6'));
    }

    // The turn buttons under the board: the selected piece's turns in place and, for a
    // shield, its moves that turn after moving (a click on the marked square moves it
    // without turning; the turn is a step of its own, here).
    drawChoices() {
      const box = this.host.choices;
      box.replaceChildren();
      if (!this.selected || !this.ctx.myTurn) {
        box.hidden = true;
        return;
      }
      const p = this.pieces.get(this.selected);
      const from = this.selected;
      const all = this.movesFrom(from).sort((a, b) => (a.to === b.to ? a.r - b.r : a.to < b.to ? -1 : 1));
      const inPlace = all.filter((m) => m.to === from);
      const turning = all.filter((m) => m.to !== from && m.r !== 0);
      if (!p || (!inPlace.length && !turning.length)) {
        box.hidden = true;
        return;
      }
      const group = (text, moves) => {
        if (!moves.length) return;
        const title = document.createElement('p');
        title.className = 'choices-title';
        title.textContent = text;
        box.append(title);
        for (const m of moves) box.append(this.choiceButton(p, m));
      };
      group('Turn the ' + p.kind + ' on ' + from + ' (or click a marked square to move it):', inPlace);
      const dests = [...new Set(turning.map((m) => m.to))];
      for (const to of dests) {
        group('Or move it to ' + to + (this.pieces.has(to) ? ' (capturing)' : '') + ' and turn it there:',
          turning.filter((m) => m.to === to));
      }
      const cancel = document.createElement('button');
      cancel.type = 'button';
      cancel.className = 'cancel';
      cancel.textContent = 'Cancel';
      cancel.addEventListener('click', () => {
        this.letGo();
        this.svg.focus();
      });
      box.append(cancel);
      box.hidden = false;
    }

    // The button of move `m` of piece `p`: the piece as it would point afterwards.
    choiceButton(p, m) {
      const b = document.createElement('button');
      b.type = 'button';
      b.setAttribute('data-move', m.text);
      const flags = rotate(p.flags, m.r);
      const moving = m.to !== m.from;
      b.setAttribute('aria-label', (moving ? 'Move to ' + m.to + ' ' : 'Turn ') + turnWords(m.r) + ': flags ' + flagList(flags) + ' (' + m.text + ')');
      const s = icon('-50 -50 100 100', pieceGroup(p.colour, flags, this.ctx.flipped));
      const turn = document.createElement('span');
      turn.textContent = (moving ? m.to + ' ' : '') + turnLabel(m.r);
      b.append(s, turn);
      b.addEventListener('click', () => {
        this.host.play(m.text);
        // The buttons go with the move: keep the keyboard on the board.
        this.svg.focus({ preventScroll: true });
      });
      return b;
    }

    mover() {
      return this.view.position.mover;
    }

    // Whether the colour's pieces are moved by the player to move.
    isMovers(colour) {
      const pos = this.view.position;
      return (pos.controllers[colour] || colour) === pos.mover;
    }

    // Whether the colour is on the mover's side (his own or his partner's).
    isFriendly(colour) {
      const pos = this.view.position;
      const by = pos.controllers[colour] || colour;
      if (by === pos.mover) return true;
      return pos.variant === 'partnership' && by === TEAM[pos.mover];
    }

    moverColours() {
      const pos = this.view.position;
      return Object.keys(pos.controllers).filter((c) => pos.controllers[c] === pos.mover).map((c) => COLOURS[c].name);
    }

    act(sq) {
      if (!this.view || !this.view.position) return;
      if (this.refused()) return;
      const piece = this.pieces.get(sq);
      if (this.selected) {
        if (sq === this.selected) {
          this.letGo();
          return;
        }
        const moves = this.movesFrom(this.selected).filter((m) => m.to === sq);
        // One move there, or a shield's: the move without a turn (its turns after moving
        // are the buttons under the board).
        const straight = moves.length === 1 ? moves[0] : moves.find((m) => m.r === 0);
        if (straight) {
          this.host.play(straight.text);
          return;
        }
        if (piece && this.isMovers(piece.colour)) {
          this.select(sq);
          return;
        }
        this.host.explain(this.why(this.selected, sq));
        return;
      }
      if (!piece) {
        this.host.explain(sq + ' is empty. Pick one of your pieces (' + this.moverColours().join(', ') + ') first.');
        return;
      }
      if (!this.isMovers(piece.colour)) {
        const whose = COLOURS[piece.colour].name;
        if (this.isFriendly(piece.colour)) {
          this.host.explain('The ' + piece.kind + ' on ' + sq + ' is on your partner\'s side; you move ' + this.moverColours().join(' and ') + '.');
        } else {
          this.host.explain('The ' + piece.kind + ' on ' + sq + ' is ' + whose + '\'s; you move ' + this.moverColours().join(' and ') + '.');
        }
        return;
      }
      this.select(sq);
    }

    // Lets go of the selected piece.
    letGo() {
      this.selected = null;
      this.host.explain('');
      this.draw();
    }

    select(sq) {
      const p = this.pieces.get(sq);
      this.selected = sq;
      const dests = new Set(this.movesFrom(sq).filter((m) => m.to !== sq).map((m) => m.to));
      this.host.explain(
        'The ' + p.kind + ' on ' + sq + ' (flags ' + flagList(p.flags) + ')' +
          (dests.size ? ' can move to ' + [...dests].sort().join(', ') + ', or turn.' : ' cannot move; it can turn.'),
        'info');
      this.draw();
    }

    // Why `from` cannot go to `to`, in the rules' terms.
    why(from, to) {
      const p = this.pieces.get(from);
      const [f0, r0] = parseSquare(from);
      const [f1, r1] = parseSquare(to);
      const df = f1 - f0;
      const dr = r1 - r0;
      const steps = Math.max(Math.abs(df), Math.abs(dr));
      const dir = DIRS.findIndex(([a, b]) => a * steps === df && b * steps === dr);
      const kind = p.kind;
      if (dir < 0) {
        return 'A piece moves in a straight line along a rank, a file or a diagonal; ' + to + ' is not on a line from ' + from + '.';
      }
      if (!(p.flags & (1 << dir))) {
        return 'The ' + kind + ' on ' + from + ' has no flag pointing ' + DIR_WORDS[dir] + '; it moves only where its flags point (' + flagList(p.flags) + '). Turning it is a move of its own.';
      }
      const range = RANGE[kind] || 1;
      if (steps > range) {
        return 'A ' + kind + ' moves at most ' + range + (range === 1 ? ' square' : ' squares') + '; ' + to + ' is ' + steps + ' away.';
      }
      for (let k = 1; k < steps; k++) {
        const s = squareName(f0 + DIRS[dir][0] * k, r0 + DIRS[dir][1] * k);
        if (this.pieces.has(s)) return 'The way from ' + from + ' to ' + to + ' is blocked by the piece on ' + s + '; no piece jumps.';
      }
      const target = this.pieces.get(to);
      if (target && this.isFriendly(target.colour)) {
        return this.isMovers(target.colour)
          ? to + ' holds a piece you move; nobody captures his own pieces.'
          : to + ' holds a piece of your partner\'s side; partners do not capture each other.';
      }
      return from + ' to ' + to + ' is not a legal move here.';
    }

    step(df, dr) {
      if (this.ctx && this.ctx.flipped) {
        df = -df;
        dr = -dr;
      }
      this.cursor = stepped(this.cursor, df, dr, 8, parseSquare, squareName);
      this.drawCursor();
      const p = this.pieces && this.pieces.get(this.cursor);
      const what = p ? COLOURS[p.colour].name + ' ' + p.kind + ', flags ' + flagList(p.flags) : 'empty';
      const mark = this.selected && this.movesFrom(this.selected).some((m) => m.to === this.cursor && m.to !== m.from) ? ' (a marked square)' : '';
      this.host.explain(this.cursor + ': ' + what + mark, 'info');
    }

    key(ev) {
      const done = super.key(ev);
      if (done === 'act') {
        this.drawCursor();
      } else if (!done && ev.key === 'Escape' && this.selected) {
        ev.preventDefault();
        this.letGo();
      }
    }
  }

  window.PloydBoards = window.PloydBoards || {};
  window.PloydBoards.ploy = Ploy;
})();
