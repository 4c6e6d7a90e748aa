// What the board modules of ployd's page (ploy.js, pente.js, pyloff.js) and its other
// scripts share: HTML and SVG elements, the board's size from a game's view, and `Base`, a board's focusable SVG with
// its click and keyboard input (see app.js for the module interface). Loaded before the
// modules, as window.PloydBoardKit.
'use strict';

(function () {
  const SVGNS = 'http://www.w3.org/2000/svg';
  // The arrow keys' steps: [column step, row step], rows counted upwards.
  const STEPS = { ArrowUp: [0, 1], ArrowDown: [0, -1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] };

  // An HTML element: `text` is its text, `class` its class, `on...` its event handlers, an
  // attribute of null, undefined or false is left out (true: present and empty); children
  // that are null or undefined are skipped.
  function el(tag, attrs, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k === 'text') e.textContent = v;
      else if (k === 'class') e.className = v;
      else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
      else e.setAttribute(k, v === true ? '' : v);
    }
    for (const c of children) if (c !== null && c !== undefined) e.append(c);
    return e;
  }

  // An SVG element; `text` is its text, a null or undefined value leaves the attribute out.
  function svg(tag, attrs) {
    const e = document.createElementNS(SVGNS, tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined) continue;
      if (k === 'text') e.textContent = v;
      else e.setAttribute(k, v);
    }
    return e;
  }

  // A small picture of `child` (a seat's marker, a turn's button), hidden from screen readers.
  function icon(viewBox, child) {
    const s = svg('svg', { viewBox, 'aria-hidden': 'true', focusable: 'false' });
    s.append(child);
    return s;
  }

  // A square `side` across centred on x, y.
  function square(x, y, side, attrs) {
    return svg('rect', Object.assign({ x: x - side / 2, y: y - side / 2, width: side, height: side }, attrs));
  }

  // The keyboard cursor: a dashed square `side` across centred on x, y.
  function cursor(x, y, side, width, dash) {
    return square(x, y, side, { fill: 'none', stroke: '#111', 'stroke-width': width, 'stroke-dasharray': dash, class: 'cursor' });
  }

  // The mark of the one place a click plays on (`name`), a dot of radius r at x, y.
  function playable(x, y, r, name) {
    return svg('circle', { cx: x, cy: y, r, fill: '#1f5fbf', 'fill-opacity': 0.8, stroke: '#fff', 'stroke-width': 2.5, class: 'playable', 'data-playable': name });
  }

  // A coordinate's label at x, y: under a column (`central` false) or beside a row (true).
  function label(x, y, text, central, size, fill) {
    return svg('text', {
      x, y, 'text-anchor': 'middle', 'dominant-baseline': central ? 'central' : null,
      'font-size': size, fill, 'font-family': 'system-ui, sans-serif', text,
    });
  }

  // Puts a piece's group `g` at x, y, named `name` in its attribute `attr`, with a tooltip.
  function place(g, x, y, attr, name, title) {
    g.setAttribute('transform', `translate(${x} ${y})`);
    g.setAttribute(attr, name);
    g.append(svg('title', { text: title }));
    return g;
  }

  // Starts the drawing of a square board `side` across: empties the SVG and lays the board.
  function lay(s, side, fill) {
    s.setAttribute('viewBox', `0 0 ${side} ${side}`);
    s.replaceChildren();
    s.append(svg('rect', { x: 0, y: 0, width: side, height: side, fill, rx: 8 }));
  }

  // The board's size in the view's position, else in its options (`-size=n`), else undefined.
  function boardSize(view) {
    let size = view.position && view.position.size;
    for (const o of view.options || []) {
      const m = /^-(?:size|board_size)=(\d+)$/.exec(o);
      if (!size && m) size = Number(m[1]);
    }
    return size;
  }

  // The place dx, dy from `name` (parsed and named by `parse` and `make`), kept within 0..hi
  // on both axes.
  function stepped(name, dx, dy, hi, parse, make) {
    const [x, y] = parse(name);
    return make(Math.max(0, Math.min(hi, x + dx)), Math.max(0, Math.min(hi, y + dy)));
  }

  // A board: its SVG, played by clicks on the elements with the attribute `attr` (the place
  // they name) and by keyboard: the arrow keys move `cursor` (through the board's
  // `step(dx, dy)`), Enter and Space act on it (through `act(place)`). A board draws the
  // cursor only while it has the focus and the keyboard was the last used; `drawCursor` (by
  // default the whole board) is called when the focus goes.
  class Base {
    constructor(root, host, { attr, label: aria, viewBox, start }) {
      this.root = root;
      this.host = host;
      this.cursor = start;
      this.keyboard = false;
      this.svg = svg('svg', {
        viewBox, role: 'application', tabindex: '0', 'aria-roledescription': 'board', 'aria-label': aria,
      });
      this.svg.addEventListener('click', (ev) => {
        const t = ev.target.closest('[' + attr + ']');
        if (!t) return;
        this.keyboard = false;
        this.cursor = t.getAttribute(attr);
        this.act(this.cursor);
      });
      this.svg.addEventListener('keydown', (ev) => this.key(ev));
      this.svg.addEventListener('blur', () => this.drawCursor());
      root.replaceChildren(this.svg);
    }

    destroy() {
      this.root.replaceChildren();
      this.host.choices.hidden = true;
      this.host.choices.replaceChildren();
    }

    focus() {
      this.svg.focus();
    }

    drawCursor() {
      this.draw();
    }

    // Whether the cursor shows: the board has the focus and the keyboard was the last used.
    showsCursor() {
      return this.keyboard && document.activeElement === this.svg;
    }

    // Whether the game takes no move of the user's now (the page's `whyNot`: not his turn, an
    // earlier ply shown, ...); if so, it says why.
    refused() {
      if (!this.ctx.whyNot) return false;
      this.host.explain(this.ctx.whyNot);
      return true;
    }

    // A key on the board: 'step' (an arrow), 'act' (Enter, Space) or '' (another, not handled).
    key(ev) {
      const step = STEPS[ev.key];
      if (!step && ev.key !== 'Enter' && ev.key !== ' ') return '';
      ev.preventDefault();
      this.keyboard = true;
      if (!step) {
        this.act(this.cursor);
        return 'act';
      }
      this.step(step[0], step[1]);
      return 'step';
    }
  }

  window.PloydBoardKit = { el, svg, icon, square, cursor, playable, label, place, lay, boardSize, stepped, Base };
})();
