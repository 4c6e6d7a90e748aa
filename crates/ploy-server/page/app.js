// ployd's page: sign-in, the game list, challenges and the game view.
//
// Plain JavaScript, no build step, no request to any other server. Everything comes from
// the JSON API (/api/...) and the event stream (/api/events). Each game type draws its board
// through a board module registered in window.PloydBoards (ploy.js for Ploy); a game type
// without one is shown by the generic module below (its text board and its legal moves as
// buttons), so a new game type is playable here before its module is written.
//
// A board module is an object with
//   create(root, host) -> board   root: the element to draw in; host: see `boardHost` below
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
    game: null, // the open game: see openGame
    lobbyTimer: null,
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

  function el(tag, attrs, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k === 'class') e.className = v;
      else if (k === 'text') e.textContent = v;
      else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
      else e.setAttribute(k, v === true ? '' : v);
    }
    for (const c of children) {
      if (c === null || c === undefined) continue;
      e.append(c);
    }
    return e;
  }

  function same(a, b) {
    return typeof a === 'string' && typeof b === 'string' && a.toLowerCase() === b.toLowerCase();
  }

  function notice(text) {
    const n = $('notice');
    n.textContent = text || '';
    n.hidden = !text;
  }

  function showOnly(id) {
    for (const s of ['signin', 'lobby', 'new', 'game', 'ratings']) $(s).hidden = s !== id;
    for (const [nav, section] of [['nav-games', 'lobby'], ['nav-new', 'new'], ['nav-ratings', 'ratings']]) {
      if (id === section) $(nav).setAttribute('aria-current', 'page');
      else $(nav).removeAttribute('aria-current');
    }
  }

  function moduleFor(game) {
    return boards[game] || genericModule;
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
    $('nav').hidden = !userid;
    $('who-name').textContent = userid ? 'Signed in as ' + userid : '';
  }

  // ------------------------------------------------------------------------------------
  // Routing: #, #new, #game/101.
  // ------------------------------------------------------------------------------------

  function route() {
    notice('');
    const hash = location.hash.replace(/^#\/?/, '');
    const m = /^game\/(\d+)$/.exec(hash);
    if (m) {
      openGame(Number(m[1]));
      return;
    }
    closeGame();
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
      loadLobby();
    }
  }

  // ------------------------------------------------------------------------------------
  // The game list.
  // ------------------------------------------------------------------------------------

  async function loadTypes() {
    if (!state.types) state.types = (await api('GET', '/api/types')).types;
    return state.types;
  }

  function gameLabel(summary) {
    const mod = moduleFor(summary.game);
    return mod.title ? mod.title(summary) : summary.game;
  }

  async function loadLobby() {
    if (!state.me) return;
    const box = $('games');
    let games;
    try {
      games = (await api('GET', '/api/games?user=' + encodeURIComponent(state.me) + '&filter=all')).games;
    } catch (e) {
      box.replaceChildren(el('p', { class: 'message', text: e.message }));
      return;
    }
    const invitedMe = (g) => g.status === 'invited' && (g.waiting_for || []).some((u) => same(u, state.me));
    const invitations = games.filter(invitedMe);
    const mine = games.filter((g) => g.status === 'active' && same(g.to_move, state.me));
    const waiting = games.filter((g) => (g.status === 'active' && !same(g.to_move, state.me)) ||
      (g.status === 'invited' && !invitedMe(g)));
    const over = games.filter((g) => g.status === 'over');
    const groups = [
      ['Invitations', invitations],
      ['Your move', mine],
      ['Waiting for others', waiting],
    ];
    if ($('show-finished').checked) groups.push(['Finished', over]);
    const out = [];
    for (const [title, list] of groups) {
      if (!list.length) continue;
      out.push(
        el('div', { class: 'game-group' },
          el('h2', { text: title + ' (' + list.length + ')' }),
          el('ul', { class: 'game-list' }, ...list.map(gameItem)))
      );
    }
    if (!out.length) {
      out.push(
        el('p', { class: 'empty' },
          games.length ? 'No game waits for you. ' : 'You have no games yet. ',
          el('a', { href: '#new', text: 'Start a new game' }),
          ' against the bot or another player.')
      );
    }
    if (!$('show-finished').checked && over.length) {
      out.push(el('p', { class: 'hint', text: plural(over.length, 'finished game', 'finished games') + ' hidden.' }));
    }
    box.replaceChildren(...out);
    loadNotes();
  }

  // The newest notifications, each with its date (notes.js).
  async function loadNotes() {
    const box = $('notes');
    let notes;
    try {
      notes = (await api('GET', '/api/inbox')).notes;
    } catch (e) {
      box.hidden = true;
      return;
    }
    box.hidden = notes.length === 0;
    $('notes-list').replaceChildren(window.PloydTimes.notes(notes, 20));
  }

  function gameItem(g) {
    const yours = g.status === 'active' && same(g.to_move, state.me);
    const waitingFor = g.waiting_for || [];
    const invited = g.status === 'invited' && waitingFor.some((u) => same(u, state.me));
    let stateText;
    if (g.status === 'invited') stateText = invited ? 'You are invited' : 'Waiting for ' + waitingFor.join(', ') + ' to join';
    else if (g.status !== 'active') stateText = resultText(g.result);
    else if (yours) stateText = 'Your move';
    else stateText = (g.to_move || '?') + ' to move';
    const players = g.players.map((p) => (same(p, state.me) ? p + ' (you)' : p)).join(', ');
    const link = el('a', { href: '#game/' + g.id, class: yours || invited ? 'your-move' : null, 'data-game': g.id },
      el('span', { class: 'gid', text: '#' + g.id }),
      el('span', { class: 'gname', text: gameLabel(g) }),
      el('span', { class: 'gplayers', text: players }),
      el('span', { class: 'gstate', text: stateText + (g.status === 'active' ? ' · move ' + (g.ply + 1) : '') }));
    if (!invited) return el('li', {}, link);
    // An invitation: join or decline it from the list.
    const answer = async (action) => {
      try {
        await api('POST', '/api/games/' + g.id + '/' + action, {});
        if (action === 'join') location.hash = '#game/' + g.id;
        else loadLobby();
      } catch (e) {
        notice(e.message);
      }
    };
    return el('li', { class: 'invitation' }, link,
      el('span', { class: 'invite-actions' },
        el('button', { type: 'button', class: 'primary', 'data-join': g.id, text: 'Join',
          'aria-label': 'Join board ' + g.id, onclick: () => answer('join') }),
        el('button', { type: 'button', 'data-decline': g.id, text: 'Decline',
          'aria-label': 'Decline board ' + g.id, onclick: () => answer('decline') })));
  }

  function lobbySoon() {
    clearTimeout(state.lobbyTimer);
    state.lobbyTimer = setTimeout(() => {
      if (!$('lobby').hidden) loadLobby();
    }, 150);
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
  // The game view.
  // ------------------------------------------------------------------------------------

  // state.game: {id, latest (the state with every move), shown (the state on the board),
  // follow (whether the board follows the latest move), cache (earlier states by ply),
  // module, board, flipped, busy, seq}
  function closeGame() {
    const g = state.game;
    if (!g) return;
    window.PloydTouch.update(0, null); // before the board goes: a waiting move's preview
    if (g.board) g.board.destroy();
    state.game = null;
    $('board').replaceChildren();
    $('game-howto').replaceChildren();
    $('choices').hidden = true;
    $('choices').replaceChildren();
  }

  async function openGame(id) {
    if (state.game && state.game.id === id) {
      showOnly('game');
      return;
    }
    closeGame();
    showOnly('game');
    const g = {
      id, latest: null, shown: null, follow: true, cache: new Map(), module: null, board: null,
      flipped: null, busy: false, refreshSeq: 0, plySeq: 0,
    };
    state.game = g;
    $('game-title').textContent = 'Board ' + id;
    $('game-status').textContent = 'Loading...';
    $('moves').replaceChildren();
    $('players').replaceChildren();
    explain('');
    try {
      const view = await api('GET', '/api/games/' + id);
      if (state.game !== g) return;
      setLatest(g, view);
    } catch (e) {
      if (state.game !== g) return;
      $('game-status').textContent = '';
      notice(e.status === 404 ? 'There is no board ' + id + '.' : e.message);
    }
  }

  function setLatest(g, view) {
    if (g.latest && view.moves_played < g.latest.moves_played) return; // an older answer
    const first = !g.latest;
    g.latest = view;
    if (!g.module) {
      g.module = moduleFor(view.game);
      g.board = g.module.create($('board'), boardHost(g));
      const howto = window.PloydHowTo.section(view.game);
      $('game-howto').replaceChildren(...(howto ? [howto] : []));
    }
    if (g.flipped === null) g.flipped = g.module.flipFor ? g.module.flipFor(view, mySeats(view)) : false;
    if (g.follow) g.shown = view;
    render(g);
    if (first) document.title = 'ployd: board ' + view.id;
  }

  async function refreshGame() {
    const g = state.game;
    if (!g) return;
    const seq = ++g.refreshSeq;
    try {
      const view = await api('GET', '/api/games/' + g.id);
      if (state.game !== g || seq !== g.refreshSeq) return;
      setLatest(g, view);
    } catch (e) {
      /* the event stream will bring the next change */
    }
  }

  function mySeats(view) {
    const out = [];
    (view.players || []).forEach((p, i) => {
      if (same(p, state.me)) out.push(i);
    });
    return out;
  }

  // What the board module may ask of the page.
  function boardHost(g) {
    return {
      play: (text) => playMove(g, text),
      explain,
      choices: $('choices'),
      svgns: SVGNS,
    };
  }

  function explain(text, kind) {
    const e = $('explain');
    e.textContent = text || '';
    e.className = 'explain' + (kind === 'info' ? ' info' : '');
  }

  function context(g) {
    const latest = g.latest;
    const shown = g.shown;
    const live = shown === latest;
    const seats = mySeats(latest);
    return {
      me: state.me,
      mySeats: seats,
      live,
      myTurn: live && latest.status === 'active' && same(latest.to_move, state.me),
      busy: g.busy,
      flipped: g.flipped,
      latestPly: latest.moves_played,
      whyNot: whyNot(g, live, seats),
    };
  }

  // Why no move can be made on the board now, or null.
  function whyNot(g, live, seats) {
    const latest = g.latest;
    if (!live) {
      return 'You are looking at the position after move ' + g.shown.ply + ' of ' + latest.moves_played +
        '. Go to the latest position (the button after the slider) to move.';
    }
    if (latest.status === 'over') return 'The game is over: ' + resultText(latest.result) + '.';
    if (latest.status === 'invited') {
      return 'The game starts when everyone invited has joined (waiting for ' +
        (latest.waiting_for || []).join(', ') + ').';
    }
    if (!state.me) return 'Sign in to play.';
    if (!seats.length) return 'You do not play in this game; you are watching it.';
    if (g.busy) return 'Your move is on its way to the server.';
    if (!same(latest.to_move, state.me)) {
      const mod = g.module;
      if (mod && mod.seatNote && seats.every((s) => mod.seatNote(latest, s).out)) {
        return 'You are out of this game; the others play on.';
      }
      const seat = latest.seats[latest.to_move_seat];
      return 'It is ' + latest.to_move + ' (' + seat + ') to move, not you.' +
        (latest.to_move === 'bot' ? ' The bot is thinking.' : '');
    }
    return null;
  }

  // `confirmed`: sent without the confirm step (touch.js), as a typed move or a confirmed one.
  async function playMove(g, text, confirmed) {
    if (g !== state.game) return;
    const ctx = context(g);
    if (ctx.whyNot) {
      explain(ctx.whyNot);
      return;
    }
    if (!confirmed && window.PloydTouch.confirmOn()) {
      explain('Check the move, then play it or cancel.', 'info');
      if (g.board.preview) g.board.preview(text);
      window.PloydTouch.ask(text, () => playMove(g, text, true), positionKey(g),
        () => g.board.preview && g.board.preview(null));
      return;
    }
    window.PloydTouch.clear();
    g.busy = true;
    explain('Sending ' + text + '...', 'info');
    render(g);
    try {
      const view = await api('POST', '/api/games/' + g.id + '/moves', { move: text, ply: g.latest.moves_played });
      g.busy = false;
      if (state.game !== g) return;
      explain('');
      g.follow = true;
      setLatest(g, view);
    } catch (e) {
      g.busy = false;
      if (state.game !== g) return;
      explain(e.message);
      render(g);
      if (e.status === 409) refreshGame();
    }
  }

  // Names the position a move is made in (a move waiting for confirmation belongs to it).
  function positionKey(g) {
    return g.id + '/' + g.latest.moves_played + '/' + g.shown.ply;
  }

  async function showPly(n) {
    const g = state.game;
    if (!g || !g.latest) return;
    n = Math.max(0, Math.min(n, g.latest.moves_played));
    if (n === g.latest.moves_played) {
      g.plySeq++;
      g.follow = true;
      g.shown = g.latest;
      render(g);
      return;
    }
    g.follow = false;
    const seq = ++g.plySeq;
    let view = g.cache.get(n);
    if (!view) {
      try {
        view = await api('GET', '/api/games/' + g.id + '?ply=' + n);
      } catch (e) {
        explain(e.message);
        return;
      }
      g.cache.set(n, view);
    }
    if (state.game !== g || seq !== g.plySeq || g.follow) return;
    g.shown = view;
    render(g);
  }

  function statusText(g, ctx) {
    const v = g.latest;
    if (v.status === 'over') return { text: 'Game over: ' + resultText(v.result), cls: 'over' };
    if (v.status === 'invited') {
      const mine = (v.waiting_for || []).some((u) => same(u, state.me));
      return {
        text: mine ? 'You are invited: join or decline' : 'Waiting for ' + v.waiting_for.join(', ') + ' to join',
        cls: mine ? 'your-move' : '',
      };
    }
    let text;
    let cls = '';
    const seat = v.seats[v.to_move_seat];
    if (ctx.myTurn) {
      text = 'Your move (' + seat + ')';
      cls = 'your-move';
    } else {
      text = v.to_move + ' (' + seat + ') to move';
    }
    if (v.deadline_at) {
      const left = v.deadline_at - Math.floor(Date.now() / 1000);
      text += ' · ' + durationText(left) + ' left (until ' + window.PloydTimes.dateText(v.deadline_at) + ')';
    }
    if (v.draw_offers && v.draw_offers.length) text += ' · draw offered by ' + v.draw_offers.join(', ');
    return { text, cls };
  }

  function render(g) {
    const v = g.latest;
    const shown = g.shown;
    const mod = g.module;
    const ctx = context(g);
    $('game-title').textContent = 'Board ' + v.id + ' · ' + (mod.title ? mod.title(v) : v.game);
    const st = statusText(g, ctx);
    $('game-status').textContent = st.text;
    $('game-status').className = 'status ' + st.cls;

    // Players.
    const players = v.players.map((p, i) => {
      const note = mod.seatNote ? mod.seatNote(shown, i) : { out: false, note: '' };
      const toMove = shown.status === 'active' && shown.to_move_seat === i;
      return el('li', { class: (toMove ? 'to-move ' : '') + (note.out ? 'out' : ''), 'data-seat': i },
        mod.seatMarker ? mod.seatMarker(shown, i) : null,
        el('span', {},
          el('span', { class: 'pname', text: p + (same(p, state.me) ? ' (you)' : '') }),
          ' ',
          el('span', { class: 'pnote', text: v.seats[i] + (note.note ? ' · ' + note.note : '') + (toMove ? ' · to move' : '') })));
    });
    $('players').replaceChildren(...players);
    window.PloydRatings.decorate($('players'), v);

    // The move list and the slider.
    const moves = $('moves');
    const items = v.moves.map((m, i) => {
      const seat = v.move_seats ? v.move_seats[i] : null;
      return el('li', {},
        el('button', {
          type: 'button', 'data-ply': i + 1, 'aria-current': shown.ply === i + 1 ? 'true' : null,
          'aria-label': 'Move ' + (i + 1) + ' by ' + (seat !== null ? v.players[seat] + ' (' + v.seats[seat] + ')' : '?') + ': ' + m,
          onclick: () => showPly(i + 1),
        },
        el('span', { class: 'num', text: i + 1 + '.' }),
        seat !== null && mod.seatMarker ? mod.seatMarker(v, seat) : null,
        m));
    });
    moves.replaceChildren(...items);
    const current = moves.querySelector('[aria-current="true"]');
    if (current && current.scrollIntoView && moves.scrollHeight > moves.clientHeight) {
      const top = current.offsetTop - moves.offsetTop;
      if (top < moves.scrollTop || top > moves.scrollTop + moves.clientHeight - 24) moves.scrollTop = top - moves.clientHeight / 2;
    }
    const slider = $('slider');
    slider.max = String(v.moves_played);
    if (document.activeElement !== slider || Number(slider.value) !== shown.ply) slider.value = String(shown.ply);
    slider.setAttribute('aria-valuetext', shown.ply === 0 ? 'the start position' : 'after move ' + shown.ply + ' of ' + v.moves_played);
    $('ply-label').textContent = shown.ply === v.moves_played
      ? (v.moves_played === 0 ? 'The start position; no move yet.' : 'The latest position, after move ' + v.moves_played + '.')
      : 'Looking back: after move ' + shown.ply + ' of ' + v.moves_played + '.';
    $('first').disabled = shown.ply === 0;
    $('prev').disabled = shown.ply === 0;
    $('next').disabled = shown.ply === v.moves_played;
    $('last').disabled = shown.ply === v.moves_played;

    // Actions.
    const seated = ctx.mySeats.length > 0;
    const active = v.status === 'active';
    const offers = v.draw_offers || [];
    const iOffer = offers.some((u) => same(u, state.me));
    // The bot never agrees to a draw: no offer in a game with a bot seat.
    const withBot = v.players.some((p) => same(p, 'bot'));
    $('typed').hidden = !(seated && active);
    $('propose').hidden = !(seated && active) || withBot || iOffer || offers.length > 0;
    $('accept').hidden = !(seated && active) || iOffer || offers.length === 0;
    $('reject').hidden = !(seated && active) || iOffer || offers.length === 0;
    $('resign').hidden = !(seated && active);
    const invited = v.status === 'invited';
    const myInvitation = invited && (v.waiting_for || []).some((u) => same(u, state.me));
    $('join').hidden = !myInvitation;
    $('decline').hidden = !(seated && invited);
    $('decline').textContent = v.challenger && same(v.challenger, state.me) ? 'Cancel the game' : 'Decline';
    $('flip').hidden = !mod.flipFor;
    $('typed-move').placeholder = mod.moveExample || '';

    g.board.update(shown, ctx);
    window.PloydTouch.update(window.PloydBoardKit.boardSize(shown) || 0, ctx.myTurn && !ctx.busy ? positionKey(g) : null);
  }

  async function gameAction(action) {
    const g = state.game;
    if (!g) return;
    try {
      const view = await api('POST', '/api/games/' + g.id + '/' + action, {});
      explain('');
      g.follow = true;
      setLatest(g, view);
    } catch (e) {
      explain(e.message);
    }
  }

  let resignArmed = null;
  function resignClicked() {
    const b = $('resign');
    if (resignArmed) {
      clearTimeout(resignArmed);
      resignArmed = null;
      b.textContent = 'Resign';
      gameAction('resign');
      return;
    }
    b.textContent = 'Really resign? Click again';
    resignArmed = setTimeout(() => {
      resignArmed = null;
      b.textContent = 'Resign';
    }, 5000);
  }

  // ------------------------------------------------------------------------------------
  // The generic board module: the text board and the legal moves as buttons.
  // ------------------------------------------------------------------------------------

  const genericModule = {
    name: null,
    title: (view) => view.game + ((view.options || []).length ? ' (' + view.options.join(' ') + ')' : ''),
    create(root, host) {
      const pre = el('pre', { class: 'textboard', 'aria-label': 'The board' });
      const list = el('div', { class: 'legal-list', role: 'group', 'aria-label': 'Legal moves' });
      root.replaceChildren(pre, list);
      return {
        update(view, ctx) {
          pre.textContent = view.board || '';
          list.replaceChildren();
          if (ctx.myTurn && !ctx.busy) {
            for (const m of view.legal) {
              list.append(el('button', { type: 'button', 'data-move': m, text: m, onclick: () => host.play(m) }));
            }
          }
        },
        focus() {
          const b = list.querySelector('button');
          if (b) b.focus();
        },
        destroy() {
          root.replaceChildren();
        },
      };
    },
  };

  // ------------------------------------------------------------------------------------
  // Live updates.
  // ------------------------------------------------------------------------------------

  const KINDS = ['new', 'move', 'resignation', 'agreement', 'time', 'draw_offer', 'draw_rejected', 'reminder',
    'joined', 'declined', 'started', 'lapsed'];

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
      if (state.game && data.id === state.game.id) refreshGame();
      lobbySoon();
    };
    for (const k of KINDS) es.addEventListener(k, onChange);
    es.addEventListener('ready', () => {
      // (Re)connected: whatever was missed while away.
      if (state.game) refreshGame();
      lobbySoon();
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
    $('show-finished').addEventListener('change', loadLobby);
    $('new-game').addEventListener('change', renderOptionFields);
    $('new-deadline').addEventListener('change', refreshSeats);
    $('new-form').addEventListener('submit', submitNewGame);
    $('slider').addEventListener('input', () => showPly(Number($('slider').value)));
    $('first').addEventListener('click', () => showPly(0));
    $('prev').addEventListener('click', () => state.game && state.game.shown && showPly(state.game.shown.ply - 1));
    $('next').addEventListener('click', () => state.game && state.game.shown && showPly(state.game.shown.ply + 1));
    $('last').addEventListener('click', () => state.game && state.game.latest && showPly(state.game.latest.moves_played));
    $('flip').addEventListener('click', () => {
      const g = state.game;
      if (!g || !g.latest) return;
      g.flipped = !g.flipped;
      render(g);
    });
    $('propose').addEventListener('click', () => gameAction('propose'));
    $('accept').addEventListener('click', () => gameAction('accept'));
    $('reject').addEventListener('click', () => gameAction('reject'));
    $('resign').addEventListener('click', resignClicked);
    $('join').addEventListener('click', () => gameAction('join'));
    $('decline').addEventListener('click', () => gameAction('decline'));
    $('typed').addEventListener('submit', (ev) => {
      ev.preventDefault();
      const g = state.game;
      const text = $('typed-move').value.trim();
      if (!g || !text) return;
      $('typed-move').value = '';
      playMove(g, text, true);
    });
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
    showPly,
  };

  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();
})();
