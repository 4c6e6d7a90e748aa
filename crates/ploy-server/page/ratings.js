// Ratings on ployd's page: the leaderboard view (#ratings/GAME/SIZE, from GET
// /api/ratings), each player's rating beside his name on a game's board (from GET
// /api/users/{id}), and the new-game form's "Rated game" checkbox, shown only while the
// seats hold exactly two people (no bot).
//
// app.js calls three hooks: `show(hash)` when the address is #ratings..., `decorate(list,
// view)` after it draws a game's players, and nothing for the form: the checkbox follows
// the seat selects by itself (it listens to their changes).
'use strict';

(function () {
  const $ = (id) => document.getElementById(id);

  const el = window.PloydBoardKit.el;

  async function getJson(path) {
    const res = await fetch(path, { credentials: 'same-origin' });
    let body = null;
    try {
      body = await res.json();
    } catch (e) {
      body = null;
    }
    if (!res.ok) throw new Error((body && body.message) || 'HTTP ' + res.status);
    return body;
  }

  /** The board side a game's ratings are kept for: its JSON's size, 9 for Ploy. */
  function boardSize(view) {
    const size = view && view.position && view.position.size;
    return typeof size === 'number' ? size : 9;
  }

  function gameTitle(name) {
    const mod = window.PloydBoards && window.PloydBoards[name];
    return (mod && mod.name) || name;
  }

  const round = (x) => String(Math.round(x));

  // ------------------------------------------------------------------------------------
  // Ratings beside the players' names.
  // ------------------------------------------------------------------------------------

  // userid (lower case) -> {stamp, profile: Promise}
  const profiles = new Map();

  // A profile, fetched again when `stamp` changes (a game's status: ratings change only
  // when a game ends).
  function profile(userid, stamp) {
    const key = userid.toLowerCase();
    const known = profiles.get(key);
    if (known && known.stamp === stamp) return known.profile;
    const p = getJson('/api/users/' + encodeURIComponent(userid)).catch(() => null);
    profiles.set(key, { stamp, profile: p });
    return p;
  }

  /**
   * Adds each person's rating for the game's type and board size to the player list
   * `list` (the items app.js drew, each with `data-seat`), and a note when the game is
   * rated.
   */
  function decorate(list, view) {
    if (!list || !view) return;
    const stamp = view.id + ':' + view.status;
    const size = boardSize(view);
    const drawn = list.firstElementChild;
    const old = list.parentNode && list.parentNode.querySelector('.rated-note');
    if (old) old.remove();
    if (view.rated && list.parentNode) {
      list.after(el('p', { class: 'rated-note hint', text: 'Rated game: its result changes both players\u2019 ratings.' }));
    }
    view.players.forEach((userid, seat) => {
      if (userid.toLowerCase() === 'bot') return;
      const item = list.querySelector('li[data-seat="' + seat + '"]');
      if (!item || item.querySelector('.prating')) return;
      // The badge takes its place now, with room for any rating (page.css), and is filled
      // in when the profile comes: nothing on the page moves under a pointer meanwhile.
      const badge = el('span', { class: 'prating', 'data-user': userid, text: '\u2026', 'aria-hidden': 'true' });
      const name = item.querySelector('.pname');
      if (name) name.after(' ', badge);
      else item.append(badge);
      profile(userid, stamp).then((p) => {
        // app.js may have drawn the list again meanwhile: write only into the items drawn
        // together with this call.
        if (list.firstElementChild !== drawn || !badge.isConnected) return;
        const r = p && (p.ratings || []).find((x) => x.game === view.game && x.size === size);
        const label = r
          ? 'rating ' + round(r.rating) + ', deviation ' + round(r.deviation) + ', ' + r.games + (r.games === 1 ? ' rated game' : ' rated games')
          : 'no rating yet for ' + gameTitle(view.game) + ' ' + size + 'x' + size;
        badge.textContent = r ? round(r.rating) : 'unrated';
        badge.title = label;
        badge.setAttribute('aria-label', label);
        badge.removeAttribute('aria-hidden');
      });
    });
  }

  // ------------------------------------------------------------------------------------
  // The leaderboard view.
  // ------------------------------------------------------------------------------------

  let types = null;
  let seq = 0;

  async function loadTypes() {
    if (!types) types = (await getJson('/api/types')).types;
    return types;
  }

  /** The board sizes to offer for game type `t`: its size option's values, else none. */
  function sizesOf(t) {
    const o = (t.options || []).find((x) => x.name === 'size');
    if (!o || o.kind !== 'number') return [];
    const mod = window.PloydBoards && window.PloydBoards[t.name];
    if (window.PloydOptions) return window.PloydOptions.numberValues(o, mod) || [];
    const out = [];
    for (let n = o.values.min; n <= o.values.max; n++) out.push(n);
    return out;
  }

  function parse(hash) {
    const parts = hash.split('/');
    return {
      game: parts[1] || null,
      size: parts[2] && /^\d+$/.test(parts[2]) ? Number(parts[2]) : null,
      page: parts[3] && /^\d+$/.test(parts[3]) ? Math.max(1, Number(parts[3])) : 1,
    };
  }

  function address(game, size, page) {
    return '#ratings/' + game + (size ? '/' + size + (page > 1 ? '/' + page : '') : '');
  }

  function skeleton(section) {
    if ($('ratings-game')) return;
    section.replaceChildren(
      el('h1', { id: 'ratings-title', text: 'Ratings' }),
      el('p', { class: 'hint', text: 'Glicko-2 ratings from rated games between two people, kept for each game and board size. Everybody starts at 1500; the deviation says how sure the rating is (it shrinks as the player plays rated games).' }),
      el('form', { id: 'ratings-form', class: 'ratings-form', onsubmit: (ev) => ev.preventDefault() },
        el('div', {},
          el('label', { for: 'ratings-game', text: 'Game' }),
          el('select', { id: 'ratings-game' })),
        el('div', {},
          el('label', { for: 'ratings-size', text: 'Board size' }),
          el('select', { id: 'ratings-size' }))),
      el('p', { id: 'ratings-message', class: 'message', role: 'status', 'aria-live': 'polite' }),
      el('div', { id: 'ratings-table' }),
      el('div', { class: 'buttons' },
        el('button', { type: 'button', id: 'ratings-prev', text: 'Previous page', hidden: true }),
        el('button', { type: 'button', id: 'ratings-next', text: 'Next page', hidden: true })));
    $('ratings-game').addEventListener('change', () => {
      location.hash = address($('ratings-game').value, null, 1);
    });
    $('ratings-size').addEventListener('change', () => {
      location.hash = address($('ratings-game').value, Number($('ratings-size').value), 1);
    });
  }

  /** Shows the leaderboard the address `hash` (`ratings/GAME/SIZE/PAGE`) names. */
  async function show(hash) {
    const section = $('ratings');
    skeleton(section);
    const mine = ++seq;
    const msg = $('ratings-message');
    msg.textContent = '';
    let all;
    try {
      all = await loadTypes();
    } catch (e) {
      msg.textContent = e.message;
      return;
    }
    const want = parse(hash);
    const t = all.find((x) => x.name === want.game) || all[0];
    if (!t) return;
    const gameSelect = $('ratings-game');
    if (!gameSelect.options.length) {
      for (const x of all) gameSelect.append(el('option', { value: x.name, text: gameTitle(x.name) }));
    }
    gameSelect.value = t.name;
    let board;
    try {
      board = await getJson('/api/ratings?game=' + encodeURIComponent(t.name) +
        (want.size ? '&size=' + want.size : '') + '&page=' + want.page);
    } catch (e) {
      if (mine === seq) msg.textContent = e.message;
      return;
    }
    if (mine !== seq) return;
    const sizes = sizesOf(t);
    if (!sizes.includes(board.size)) sizes.push(board.size);
    sizes.sort((a, b) => a - b);
    const sizeSelect = $('ratings-size');
    sizeSelect.replaceChildren(...sizes.map((n) => el('option', { value: String(n), text: n + 'x' + n })));
    sizeSelect.value = String(board.size);
    sizeSelect.disabled = sizes.length < 2;
    document.title = 'ployd: ratings, ' + gameTitle(board.game) + ' ' + board.size + 'x' + board.size;
    const box = $('ratings-table');
    box.setAttribute('data-for', board.game + ' ' + board.size + ' ' + board.page);
    if (!board.ratings.length) {
      box.replaceChildren(el('p', { class: 'empty', text: board.page > 1
        ? 'No more ratings.'
        : 'Nobody has a rating for ' + gameTitle(board.game) + ' on a ' + board.size + 'x' + board.size + ' board yet: it takes a rated game.' }));
    } else {
      const me = window.ployd && window.ployd.state && window.ployd.state().me;
      box.replaceChildren(
        el('table', { class: 'ratings' },
          el('caption', { text: gameTitle(board.game) + ', ' + board.size + 'x' + board.size + ' board' + (board.page > 1 ? ', page ' + board.page : '') }),
          el('thead', {}, el('tr', {},
            el('th', { scope: 'col', text: 'Rank' }),
            el('th', { scope: 'col', text: 'Player' }),
            el('th', { scope: 'col', text: 'Rating' }),
            el('th', { scope: 'col', class: 'wide', text: 'Deviation' }),
            el('th', { scope: 'col', text: 'Games' }))),
          el('tbody', {}, ...board.ratings.map((r) =>
            el('tr', { class: me && me.toLowerCase() === r.userid.toLowerCase() ? 'me' : null, 'data-user': r.userid },
              el('td', { text: String(r.rank) }),
              el('th', { scope: 'row', text: r.userid }),
              el('td', { text: round(r.rating) }),
              el('td', { class: 'wide', text: '\u00b1' + round(r.deviation) }),
              el('td', { text: String(r.games) }))))));
    }
    const prev = $('ratings-prev');
    const next = $('ratings-next');
    prev.hidden = board.page <= 1;
    next.hidden = !board.next_page;
    prev.onclick = () => { location.hash = address(board.game, board.size, board.page - 1); };
    next.onclick = () => { location.hash = address(board.game, board.size, board.next_page); };
  }

  // ------------------------------------------------------------------------------------
  // The new-game form's "Rated game" checkbox.
  // ------------------------------------------------------------------------------------

  // Shown while exactly two seats are taken, both by people; unticked when hidden.
  function syncRated() {
    const box = $('opt-rated');
    if (!box) return;
    const field = box.closest('.option') || box;
    const whos = [...document.querySelectorAll('#new-seat-fields .seat-row select')]
      .map((s) => s.value)
      .filter((v) => v !== 'nobody');
    const people = whos.length === 2 && whos.every((v) => v === 'me' || v === 'player');
    field.hidden = !people;
    if (!people && box.checked) {
      box.checked = false;
      box.dispatchEvent(new Event('change'));
    }
  }

  function watchForm() {
    const form = $('new-form');
    if (!form) return;
    // In the capture phase (a change event a script sends need not bubble), and after
    // app.js's own handlers (which may move "you" to another seat).
    form.addEventListener('change', () => setTimeout(syncRated, 0), true);
    // The seats and the option fields are drawn again when the game or options change.
    new MutationObserver(syncRated).observe(form, { childList: true, subtree: true });
  }

  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', watchForm);
  else watchForm();

  window.PloydRatings = { show, decorate, boardSize };
})();
