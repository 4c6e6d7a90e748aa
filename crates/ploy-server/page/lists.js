// ployd's page: the lists of games. "Your games" (the games the user holds a seat in, with
// his invitations and his notifications) and "Watch games" (every game on the server: any
// game is public, so this list needs no sign-in).
//
// Both read GET /api/games, which answers 50 games a page and `next_page` (null on the last
// page). Your running games and invitations are read page after page to the end, so none is
// left out; your finished games and the games to watch are shown a page at a time (*More
// finished games*; *Previous page* and *Next page*), because there may be thousands.
//
// app.js calls `window.PloydParts.lists(app)` once, with its shared helpers (see app.js),
// and gets back the functions below.
'use strict';

(function () {
  const parts = (window.PloydParts = window.PloydParts || {});

  parts.lists = function (app) {
    const { $, el, api, state, same, notice, moduleFor, resultText, plural } = app;

    // The most pages of one list read in one go (50 games each): a guard against a list that
    // never ends, far beyond anyone's running games.
    const MAX_PAGES = 40;

    let lobbyTimer = null;
    let watchTimer = null;
    let overPages = 1; // how many pages of finished games "Your games" shows
    let lobbySeq = 0;
    let watchSeq = 0;
    // What each list shows now (see `listKey`): a reading that would show the same is not
    // drawn again, so a link or button is never replaced under the pointer while it is being
    // clicked (the event stream's `ready` and every change read the lists again).
    let lobbyShown = null;
    let watchShown = null;

    function gameLabel(summary) {
      const mod = moduleFor(summary.game);
      return mod.title ? mod.title(summary) : summary.game;
    }

    // Pages 1 to `pages` of `query` (a GET /api/games query string), following `next_page`:
    // {games, next_page}. `pages` null: every page.
    async function readPages(query, pages) {
      const games = [];
      let page = 1;
      let read = 0;
      const most = pages === null ? MAX_PAGES : Math.min(pages, MAX_PAGES);
      while (page && read < most) {
        const answer = await api('GET', '/api/games?' + query + '&page=' + page);
        games.push(...answer.games);
        page = answer.next_page;
        read++;
      }
      return { games, next_page: page || null };
    }

    // ------------------------------------------------------------------------------------
    // Your games.
    // ------------------------------------------------------------------------------------

    async function loadLobby() {
      if (!state.me) return;
      const box = $('games');
      const seq = ++lobbySeq;
      const user = 'user=' + encodeURIComponent(state.me);
      const showOver = $('show-finished').checked;
      let games;
      let over;
      try {
        // Every running game and invitation; the finished ones a page at a time (the first
        // page is read even while they are hidden, to say how many there are).
        [games, over] = await Promise.all([
          readPages(user + '&filter=active', null),
          readPages(user + '&filter=over', showOver ? overPages : 1),
        ]);
      } catch (e) {
        if (seq === lobbySeq) {
          lobbyShown = null;
          box.replaceChildren(el('p', { class: 'message', text: e.message }));
        }
        return;
      }
      if (seq !== lobbySeq) return; // a newer reading is on its way
      const key = listKey(showOver, games.games, over.games, over.next_page);
      if (key === lobbyShown && box.childElementCount) {
        loadNotes();
        return;
      }
      lobbyShown = key;
      games = games.games;
      const invitedMe = (g) => g.status === 'invited' && (g.waiting_for || []).some((u) => same(u, state.me));
      const invitations = games.filter(invitedMe);
      const mine = games.filter((g) => g.status === 'active' && same(g.to_move, state.me));
      const waiting = games.filter((g) => (g.status === 'active' && !same(g.to_move, state.me)) ||
        (g.status === 'invited' && !invitedMe(g)));
      const groups = [
        ['Invitations', invitations],
        ['Your move', mine],
        ['Waiting for others', waiting],
      ];
      const out = [];
      for (const [title, list] of groups) {
        if (!list.length) continue;
        out.push(
          el('div', { class: 'game-group' },
            el('h2', { text: title + ' (' + list.length + ')' }),
            el('ul', { class: 'game-list' }, ...list.map((g) => gameItem(g, true))))
        );
      }
      const overCount = over.games.length + (over.next_page ? '+' : '');
      if (showOver && over.games.length) {
        const more = over.next_page
          ? el('button', { type: 'button', id: 'more-finished', text: 'More finished games',
            onclick: () => {
              overPages++;
              loadLobby();
            } })
          : null;
        out.push(
          el('div', { class: 'game-group' },
            el('h2', { text: 'Finished (' + overCount + ')' }),
            el('ul', { class: 'game-list' }, ...over.games.map((g) => gameItem(g, true))),
            more)
        );
      }
      if (!out.length) {
        out.push(
          el('p', { class: 'empty' },
            games.length || over.games.length ? 'No game waits for you. ' : 'You have no games yet. ',
            el('a', { href: '#new', text: 'Start a new game' }),
            ' against the bot or another player, or ',
            el('a', { href: '#watch', text: 'watch other games' }),
            '.')
        );
      }
      if (!showOver && over.games.length) {
        const n = over.next_page ? 'More than ' + over.games.length + ' finished games' :
          plural(over.games.length, 'finished game', 'finished games');
        out.push(el('p', { class: 'hint', text: n + ' hidden.' }));
      }
      box.replaceChildren(...out);
      loadNotes();
    }

    // Everything of a reading that a list shows: who reads it, what was asked and which games in
    // which state (the fields `gameItem` uses), each part a value or a list of games.
    function listKey(...parts) {
      const item = (g) => [g.id, g.game, g.status, g.to_move, g.ply, g.players, g.waiting_for, g.result,
        gameLabel(g)];
      return JSON.stringify([state.me, ...parts.map((p) => (Array.isArray(p) ? p.map(item) : p))]);
    }

    // The newest notifications, each with its date (notes.js). GET /api/inbox answers them
    // all at once (it has no pages).
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

    // One game of a list; with `actions`, an invitation to the user has Join and Decline.
    function gameItem(g, actions) {
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
      if (!invited || !actions) return el('li', {}, link);
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

    // ------------------------------------------------------------------------------------
    // Watch games: #watch, #watch?game=pente&show=over&page=2.
    // ------------------------------------------------------------------------------------

    const SHOW = ['active', 'over', 'all'];

    // What the address asks the watch list for.
    function watchQuery(hash) {
      const q = new URLSearchParams(hash.includes('?') ? hash.slice(hash.indexOf('?') + 1) : '');
      const page = Number(q.get('page'));
      const show = q.get('show');
      return {
        game: q.get('game') || '',
        show: SHOW.includes(show) ? show : 'active',
        page: Number.isInteger(page) && page >= 1 ? page : 1,
      };
    }

    function watchHash(w) {
      const q = new URLSearchParams();
      if (w.game) q.set('game', w.game);
      if (w.show !== 'active') q.set('show', w.show);
      if (w.page > 1) q.set('page', String(w.page));
      const s = q.toString();
      return '#watch' + (s ? '?' + s : '');
    }

    let watching = { game: '', show: 'active', page: 1 };

    async function loadWatch(hash) {
      if (hash !== undefined) watching = watchQuery(hash);
      const w = watching;
      const seq = ++watchSeq;
      const select = $('watch-game');
      if (select.options.length <= 1) {
        try {
          for (const t of await app.loadTypes()) {
            if (![...select.options].some((o) => o.value === t.name)) {
              select.append(el('option', { value: t.name, text: moduleFor(t.name).name || t.name }));
            }
          }
        } catch (e) {
          /* the list below says what went wrong */
        }
      }
      select.value = w.game;
      $('watch-show').value = w.show;
      const box = $('watch-games');
      let answer;
      try {
        const q = 'filter=' + w.show + (w.game ? '&game=' + encodeURIComponent(w.game) : '') + '&page=' + w.page;
        answer = await api('GET', '/api/games?' + q);
      } catch (e) {
        if (seq === watchSeq) {
          watchShown = null;
          box.replaceChildren(el('p', { class: 'message', text: e.message }));
        }
        return;
      }
      if (seq !== watchSeq) return;
      const what = w.show === 'over' ? 'finished games' : w.show === 'all' ? 'games' : 'running games';
      const key = listKey(w.game, w.show, w.page, answer.games);
      if (key === watchShown && box.childElementCount) {
        // The same as on the screen.
      } else if (answer.games.length) {
        box.replaceChildren(el('ul', { class: 'game-list' }, ...answer.games.map((g) => gameItem(g, false))));
      } else {
        box.replaceChildren(el('p', { class: 'empty', text: w.page > 1 ? 'No more ' + what + '.' : 'No ' + what + ' yet.' }));
      }
      watchShown = key;
      $('watch-prev').disabled = w.page <= 1;
      $('watch-next').disabled = !answer.next_page;
      $('watch-page').textContent = 'Page ' + w.page;
      $('watch-games').setAttribute('data-page', String(w.page));
    }

    // A filter changed: back to its first page.
    function watchFilterChanged() {
      location.hash = watchHash({ game: $('watch-game').value, show: $('watch-show').value, page: 1 });
    }

    function watchPage(delta) {
      location.hash = watchHash({ ...watching, page: Math.max(1, watching.page + delta) });
    }

    // ------------------------------------------------------------------------------------
    // Live.
    // ------------------------------------------------------------------------------------

    // A game changed: the list on the screen is read again (once for a burst of changes).
    function listsSoon() {
      clearTimeout(lobbyTimer);
      lobbyTimer = setTimeout(() => {
        if (!$('lobby').hidden) loadLobby();
      }, 150);
      clearTimeout(watchTimer);
      watchTimer = setTimeout(() => {
        if (!$('watch').hidden) loadWatch();
      }, 150);
    }

    function wire() {
      $('show-finished').addEventListener('change', () => {
        overPages = 1;
        loadLobby();
      });
      $('watch-game').addEventListener('change', watchFilterChanged);
      $('watch-show').addEventListener('change', watchFilterChanged);
      $('watch-prev').addEventListener('click', () => watchPage(-1));
      $('watch-next').addEventListener('click', () => watchPage(1));
    }

    return { loadLobby, loadWatch, listsSoon, wire };
  };
})();
