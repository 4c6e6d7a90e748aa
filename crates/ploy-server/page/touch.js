// Touch screens on ployd's page: a confirm step before a move is sent, and zoom for big
// boards.
//
// Confirming: with the setting "Confirm each move" on, a click (or Enter) on the board does
// not send the move; a bar under the board names it, with "Play it" and "Cancel", and a
// board module with `preview(text)` shows it on the board meanwhile (Pente: a pale stone). The
// setting is on by default on screens narrower than 600 px (where a finger easily hits the
// wrong point) and off otherwise; once changed by hand it is kept in localStorage for this
// browser.
//
// Zoom: a board of 15x15 or more gets a "Zoom in" button that draws it at least 44 px a
// point (a finger's width) inside a box that scrolls, centred where it was.
'use strict';

(function () {
  const KEY = 'ployd-confirm-moves';
  const NARROW = window.matchMedia('(max-width: 599px)');
  const ZOOM_FROM = 15;
  const $ = (id) => document.getElementById(id);
  let pending = null; // {text, send, key}
  let zoomSide = 0;

  function stored() {
    try {
      return localStorage.getItem(KEY);
    } catch (e) {
      return null;
    }
  }

  /** Whether a move waits for confirmation before it is sent. */
  function confirmOn() {
    const s = stored();
    if (s === 'on') return true;
    if (s === 'off') return false;
    return NARROW.matches;
  }

  function showSetting() {
    $('confirm-moves').checked = confirmOn();
  }

  /**
   * Asks to confirm move `text`; `send()` sends it; `key` names the position it is for;
   * `done()` (optional) is called once the question goes, whatever the answer.
   */
  function ask(text, send, key, done) {
    if (pending && pending.done) pending.done();
    pending = { text, send, key, done };
    $('confirm-text').textContent = 'Play ' + text + '?';
    $('confirm').hidden = false;
    $('confirm-yes').focus({ preventScroll: true });
  }

  /** Forgets a move waiting for confirmation. */
  function clear() {
    if (pending && pending.done) pending.done();
    pending = null;
    $('confirm').hidden = true;
  }

  /** The move waiting for confirmation, or null. */
  function waiting() {
    return pending && pending.text;
  }

  /**
   * After each drawing of a game: `side` is the board's side (0 when unknown), `key` names
   * the position shown and whether a move can be made in it (a waiting move is dropped when
   * it changes).
   */
  function update(side, key) {
    if (pending && pending.key !== key) clear();
    const big = side >= ZOOM_FROM;
    $('zoom').hidden = !big;
    if (side !== zoomSide) {
      zoomSide = side;
      setZoom(false);
    }
  }

  function setZoom(on) {
    const board = $('board');
    const before = [board.scrollLeft + board.clientWidth / 2, board.scrollTop + board.clientHeight / 2,
      board.scrollWidth, board.scrollHeight];
    board.classList.toggle('zoomed', on);
    board.classList.toggle('zoom-' + zoomSide, on);
    for (const c of [...board.classList]) if (c.startsWith('zoom-') && c !== 'zoom-' + zoomSide) board.classList.remove(c);
    $('zoom').setAttribute('aria-pressed', on ? 'true' : 'false');
    $('zoom').textContent = on ? 'Zoom out' : 'Zoom in';
    if (on) {
      // Keep the middle of what was seen in the middle (the whole board's middle at first).
      const fx = before[2] ? before[0] / before[2] : 0.5;
      const fy = before[3] ? before[1] / before[3] : 0.5;
      board.scrollLeft = fx * board.scrollWidth - board.clientWidth / 2;
      board.scrollTop = fy * board.scrollHeight - board.clientHeight / 2;
    }
  }

  function init() {
    showSetting();
    const follow = () => showSetting();
    if (NARROW.addEventListener) NARROW.addEventListener('change', follow);
    $('confirm-moves').addEventListener('change', () => {
      try {
        localStorage.setItem(KEY, $('confirm-moves').checked ? 'on' : 'off');
      } catch (e) {
        /* private mode: the choice lasts while the page is open */
      }
      if (!$('confirm-moves').checked && pending) clear();
    });
    $('confirm-yes').addEventListener('click', () => {
      const p = pending;
      clear();
      if (p) p.send();
    });
    $('confirm-no').addEventListener('click', () => {
      clear();
      const svg = document.querySelector('#board svg');
      if (svg) svg.focus({ preventScroll: true });
    });
    $('zoom').addEventListener('click', () => setZoom(!$('board').classList.contains('zoomed')));
  }

  window.PloydTouch = { init, confirmOn, ask, clear, waiting, update };
})();
