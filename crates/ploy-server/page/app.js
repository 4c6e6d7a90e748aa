// ployd's page: sign-in, routing, the new-game form, live updates, and what the page's other
// parts share. lists.js holds the lists of games ("Your games", "Watch games"), game.js the
// game view; each is a function of `app` (below) registered in window.PloydParts, and both
// load before this file.
//
// Plain JavaScript, no build step, no request to any other server. Everything comes from
// the JSON API (/api/...) and the event stream (/api/events). Each game type draws its board
// through a board module registered in window.PloydBoards (ploy.js for Ploy); a game type
// without one is shown by the generic module below (its text board and its legal moves as
// buttons, in game.js), so a new game type is playable here before its module is written.
//
// A board module is an object with
//   create(root, host) -> board   root: the element to draw in; host: see `boardHost` (game.js)
//   title(view) -> text           e.g. "Ploy, four-player free-for-all"
//   seatMarker(view, seat) -> SVG element, the seat's colour and shape (players, move list)
//   seatNote(view, seat) -> {out: bool, note: text}   (optional)
// and a board has update(view, ctx), focus() and destroy().
'use strict';

(function () {
  const SVGNS = 'http://www.w3.org/2000/svg';
  const $ = (id) => document.getElementById(id);
  const boards = (window.PloydBoards = window.PloydBoards || {});

  const state = {
    me: null, // the signed-in userid, as the server spells it
    types: null, // GET /api/types
    game: null, // the open game: see openGame (game.js)
    events: null,
  };

  // ------------------------------------------------------------------------------------
  // The API.
  // ------------------------------------------------------------------------------------

  class ApiError extends Error {
    constructor(status, word, message) {
      super(message);
      this.status = status;
      this.word = word;
    }
  }

  async function api(method, path, body) {
    const init = { method, credentials: 'same-origin', headers: {} };
    if (body !== undefined) {
      init.headers['Content-Type'] = 'application/json';
      init.body = JSON.stringify(body);
    }
    let res;
    try {
      res = await fetch(path, init);
    } catch (e) {
      throw new ApiError(0, 'network', 'The server does not answer. Is ployd running?');
    }
    if (res.status === 204) return null;
    const type = res.headers.get('Content-Type') || '';
    const data = type.startsWith('application/json') ? await res.json() : await res.text();
    if (!res.ok) {
      const message = data && data.message ? data.message : 'The server refused (' + res.status + ').';
      throw new ApiError(res.status, data && data.error, message);
    }
    return data;
  }

  // ------------------------------------------------------------------------------------
  // Small helpers.
  // ------------------------------------------------------------------------------------

  const el = window.PloydBoardKit.el;

  function same(a, b) {
    return typeof a === 'string' && typeof b === 'string' && a.toLowerCase() === b.toLowerCase();
  }

  function notice(text) {
    const n = $('notice');
    n.textContent = text || '';
    n.hidden = !text;
  }

  // The page's views (sections of index.html) and the links of the navigation to them.
  const VIEWS = ['signin', 'lobby', 'new', 'watch', 'ratings', 'game'];
  const NAV = [['nav-games', 'lobby'], ['nav-new', 'new'], ['nav-watch', 'watch'], ['nav-ratings', 'ratings']];

  function showOnly(id) {
    for (const s of VIEWS) $(s).hidden = s !== id;
    for (const [nav, section] of NAV) {
      if (id === section) $(nav).setAttribute('aria-current', 'page');
      else $(nav).removeAttribute('aria-current');
    }
  }

  function moduleFor(game) {
    return boards[game] || game_.genericModule;
  }

  function optionValue(options, name) {
    for (const o of options || []) {
      if (o === '-' + name) return true;
      if (o.startsWith('-' + name + '=')) return o.slice(name.length + 2);
    }
    return null;
  }

  function plural(n, one, many) {
    return n + ' ' + (n === 1 ? one : many);
  }

  // `alice (Green) wins (commander_captured)` -> `... (commander captured)`.
  function resultText(result) {
    return (result || 'over').replace(/_/g, ' ');
  }

  function durationText(seconds) {
    if (seconds <= 0) return 'no time';
    const d = Math.floor(seconds / 86400);
    const h = Math.floor((seconds % 86400) / 3600);
    const m = Math.floor((seconds % 3600) / 60);
    if (d > 0) return d + 'd ' + h + 'h';
    if (h > 0) return h + 'h ' + m + 'm';
    return Math.max(m, 1) + 'm';
  }

  // ------------------------------------------------------------------------------------
  // Signing in.
  // ------------------------------------------------------------------------------------

  async function signIn(signUp) {
    const userid = $('userid').value.trim();
    const password = $('password').value;
    const msg = $('signin-message');
    msg.className = 'message';
    if (!userid || !password) {
      msg.textContent = 'Type a userid and a password.';
      return;
    }
    msg.textContent = signUp ? 'Signing up...' : 'Signing in...';
    try {
      if (signUp) await api('POST', '/api/users', { userid, password });
      const s = await api('POST', '/api/sessions', { userid, password });
      $('password').value = '';
      msg.textContent = '';
      setUser(s.userid);
      route();
    } catch (e) {
      msg.textContent = e.message;
    }
  }

  async function signOut() {
    try {
      await api('DELETE', '/api/sessions');
    } catch (e) {
      /* the cookie is cleared either way */
    }
    setUser(null);
    location.hash = '';
    route();
  }

  function setUser(userid) {
    state.me = userid;
    $('who').hidden = !userid;
    // Signed out, the navigation offers watching games only.
    $('nav-games').hidden = !userid;
    $('nav-new').hidden = !userid;
    $('nav-signin').hidden = !!userid;
    $('who-name').textContent = userid ? 'Signed in as ' + userid : '';
  }

  // ------------------------------------------------------------------------------------
  // Routing: #, #new, #watch (#watch?game=pente&show=over&page=2), #game/101.
  // ------------------------------------------------------------------------------------

  function route() {
    notice('');
    const hash = location.hash.replace(/^#\/?/, '');
    const m = /^game\/(\d+)$/.exec(hash);
    if (m) {
      game_.openGame(Number(m[1]));
      return;
    }
    game_.closeGame();
    if (/^watch(\?|$)/.test(hash)) {
      showOnly('watch');
      document.title = 'ployd: watch games';
      lists.loadWatch(hash);
      return;
    }
    // The leaderboards (ratings.js) are public.
    if (/^ratings(\/|$)/.test(hash)) {
      showOnly('ratings');
      document.title = 'ployd: ratings';
      window.PloydRatings.show(hash);
      return;
    }
    if (!state.me) {
      showOnly('signin');
      document.title = 'ployd: sign in';
      return;
    }
    if (hash === 'new') {
      showOnly('new');
      document.title = 'ployd: new game';
      loadNewForm();
    } else {
      showOnly('lobby');
      document.title = 'ployd: your games';
      lists.loadLobby();
    }
  }

  async function loadTypes() {
    if (!state.types) state.types = (await api('GET', '/api/types')).types;
    return state.types;
  }

  // ------------------------------------------------------------------------------------
  // A new game.
  // ------------------------------------------------------------------------------------

  let setupSeq = 0;

  async function loadNewForm() {
    const msg = $('new-message');
    msg.textContent = '';
    let types;
    try {
      types = await loadTypes();
    } catch (e) {
      msg.textContent = e.message;
      return;
    }
    const select = $('new-game');
    if (!select.options.length) {
      for (const t of types) {
        select.append(el('option', { value: t.name, text: moduleFor(t.name).name || t.name }));
      }
      renderOptionFields();
    } else {
      refreshSeats();
    }
  }

  function currentType() {
    return (state.types || []).find((t) => t.name === $('new-game').value);
  }

  // The first option of a game type (Ploy's variant, a board size) is shown at once; the
  // others under "More options". options.js builds each field.
  function renderOptionFields() {
    const t = currentType();
    const main = $('new-main-options');
    const more = $('new-option-fields');
    main.replaceChildren();
    more.replaceChildren();
    if (!t) return;
    const mod = moduleFor(t.name);
    const howto = window.PloydHowTo.section(t.name);
    $('new-howto').replaceChildren(...(howto ? [howto] : []));
    t.options.forEach((o, i) => {
      (i === 0 || o.name === 'level' || o.name === 'rated' ? main : more).append(window.PloydOptions.field(o, mod, refreshSeats));
    });
    refreshSeats();
  }

  function chosenOptions() {
    const out = [];
    for (const input of $('new-form').querySelectorAll('[data-option]')) {
      const name = input.getAttribute('data-option');
      if (input.type === 'checkbox') {
        if (input.checked) out.push('-' + name);
      } else if (input.value !== '') {
        out.push('-' + name + '=' + input.value);
      }
    }
    const deadline = $('new-deadline').value.trim();
    if (deadline) out.push('-deadline=' + deadline);
    return out;
  }

  async function refreshSeats() {
    const t = currentType();
    if (!t) return;
    const seq = ++setupSeq;
    const msg = $('new-message');
    let setup;
    try {
      setup = await api('POST', '/api/types/' + encodeURIComponent(t.name) + '/seats', { options: chosenOptions() });
    } catch (e) {
      if (seq === setupSeq) {
        msg.className = 'message';
        msg.textContent = e.message;
        $('new-submit').disabled = true;
      }
      return;
    }
    if (seq !== setupSeq) return;
    msg.textContent = '';
    $('new-submit').disabled = false;
    const box = $('new-seat-fields');
    const old = [...box.querySelectorAll('.seat-row')].map((r) => ({
      who: r.querySelector('select').value,
      name: r.querySelector('input').value,
    }));
    box.replaceChildren();
    setup.seats.forEach((seatName, i) => {
      const optional = i >= setup.players.min;
      const who = old[i] ? old[i].who : i === 0 ? 'me' : optional ? 'nobody' : 'bot';
      const select = el('select', { id: 'seat-' + i, 'aria-label': seatName + ': who plays', onchange: () => seatChanged(i) },
        el('option', { value: 'me', text: 'you' }),
        el('option', { value: 'bot', text: 'the bot' }),
        el('option', { value: 'player', text: 'another player' }),
        optional ? el('option', { value: 'nobody', text: 'nobody' }) : null);
      select.value = who;
      const input = el('input', {
        id: 'seat-user-' + i, 'aria-label': seatName + ': userid', placeholder: 'userid',
        autocomplete: 'off', spellcheck: 'false', maxlength: 32,
      });
      input.value = old[i] ? old[i].name : '';
      input.hidden = who !== 'player';
      box.append(
        el('div', { class: 'seat-row' },
          el('span', { class: 'seat-name', text: seatName + (i === 0 ? ' (moves first)' : '') }),
          el('span', { class: 'seat-inputs' }, select, input)));
    });
    if (![...box.querySelectorAll('select')].some((s) => s.value === 'me')) {
      const first = box.querySelector('select');
      if (first) first.value = 'me';
    }
    // What the seats were drawn for (the browser tests wait for it).
    box.setAttribute('data-for', [t.name, ...setup.options].join(' '));
  }

  function seatChanged(i) {
    const rows = [...$('new-seat-fields').querySelectorAll('.seat-row')];
    const select = rows[i].querySelector('select');
    if (select.value === 'me') {
      rows.forEach((r, j) => {
        const s = r.querySelector('select');
        if (j !== i && s.value === 'me') s.value = 'bot';
      });
    }
    rows.forEach((r) => {
      r.querySelector('input').hidden = r.querySelector('select').value !== 'player';
    });
    if (select.value === 'player') rows[i].querySelector('input').focus();
  }

  async function submitNewGame(ev) {
    ev.preventDefault();
    const t = currentType();
    const msg = $('new-message');
    msg.className = 'message';
    const players = [];
    let me = false;
    for (const r of $('new-seat-fields').querySelectorAll('.seat-row')) {
      const who = r.querySelector('select').value;
      if (who === 'me') {
        players.push(state.me);
        me = true;
      } else if (who === 'bot') players.push('bot');
      else if (who === 'player') {
        const name = r.querySelector('input').value.trim();
        if (!name) {
          msg.textContent = 'Type the userid of the other player.';
          r.querySelector('input').focus();
          return;
        }
        players.push(name);
      }
    }
    if (!me) {
      msg.textContent = 'You must take one of the seats.';
      return;
    }
    msg.textContent = 'Starting...';
    try {
      const view = await api('POST', '/api/games', { game: t.name, options: chosenOptions(), players });
      msg.textContent = '';
      location.hash = '#game/' + view.id;
    } catch (e) {
      msg.textContent = e.message;
    }
  }

  // ------------------------------------------------------------------------------------
  // Live updates.
  // ------------------------------------------------------------------------------------

  // Every kind of change the event stream names (docs/server.md, "GET /api/events").
  const KINDS = ['new', 'move', 'resignation', 'agreement', 'time', 'withdrawal', 'abandoned', 'draw_offer',
    'draw_rejected', 'reminder', 'joined', 'declined', 'started', 'lapsed'];

  function connectEvents() {
    if (!window.EventSource) return;
    const es = new EventSource('/api/events');
    state.events = es;
    const onChange = (ev) => {
      let data = {};
      try {
        data = JSON.parse(ev.data);
      } catch (e) {
        return;
      }
      if (state.game && data.id === state.game.id) game_.refreshGame();
      lists.listsSoon();
    };
    for (const k of KINDS) es.addEventListener(k, onChange);
    es.addEventListener('ready', () => {
      // (Re)connected: whatever was missed while away.
      if (state.game) game_.refreshGame();
      lists.listsSoon();
    });
  }

  // ------------------------------------------------------------------------------------
  // Start.
  // ------------------------------------------------------------------------------------

  function wire() {
    $('signin-form').addEventListener('submit', (ev) => {
      ev.preventDefault();
      signIn(false);
    });
    $('signup-button').addEventListener('click', () => signIn(true));
    $('signout').addEventListener('click', signOut);
    $('new-game').addEventListener('change', renderOptionFields);
    $('new-deadline').addEventListener('change', refreshSeats);
    $('new-form').addEventListener('submit', submitNewGame);
    lists.wire();
    game_.wire();
    window.addEventListener('hashchange', route);
    window.PloydTouch.init();
  }

  async function start() {
    wire();
    try {
      const s = await api('GET', '/api/sessions');
      setUser(s && s.userid);
    } catch (e) {
      setUser(null);
    }
    connectEvents();
    route();
  }

  // For the browser tests and for people poking at the page from the console.
  window.ployd = {
    state: () => state,
    shown: () => state.game && state.game.shown,
    latest: () => state.game && state.game.latest,
    showPly: (n) => game_.showPly(n),
  };

  // What lists.js and game.js use of this file.
  const app = {
    $, el, api, state, same, notice, showOnly, moduleFor, resultText, durationText, plural, optionValue,
    loadTypes, SVGNS,
  };
  const lists = window.PloydParts.lists(app);
  const game_ = window.PloydParts.game(app);

  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();
})();

