// ployd's page: the game view. The board (drawn by the game's board module), the players,
// the move list with its slider, live updates, and the game's actions: moves, draw offers,
// resigning (in a Ploy free-for-all: withdrawing), joining or declining an invitation, the
// record to download, and a rematch once the game is over.
//
// Anyone may look at any game (every game is public): a user who holds no seat in it, or
// nobody signed in, watches it. The board then takes no move and the move controls, the
// draw offer and *Resign* are not shown; the game follows its players' moves live, through
// the same event stream as a player's board.
//
// app.js calls `window.PloydParts.game(app)` once, with its shared helpers (see app.js),
// and gets back the functions below.
'use strict';

(function () {
  const parts = (window.PloydParts = window.PloydParts || {});

  parts.game = function (app) {
    const { $, el, api, state, same, notice, showOnly, moduleFor, resultText, durationText, SVGNS } = app;

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
      // A reading that finds the game as it is on the screen draws nothing again, so a button
      // (a turn under the board) is never replaced under the pointer while it is being clicked.
      if (g.latest && (!g.follow || g.shown === g.latest) && JSON.stringify(view) === JSON.stringify(g.latest)) return;
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
      // A player who left a free-for-all (his pieces left the board) is seated but out.
      const out = seated && !!mod.seatNote && ctx.mySeats.every((s) => mod.seatNote(v, s).out);
      const playing = seated && !out;
      const active = v.status === 'active';
      const offers = v.draw_offers || [];
      const iOffer = offers.some((u) => same(u, state.me));
      // The bot never agrees to a draw: no offer in a game with a bot seat.
      const withBot = v.players.some((p) => same(p, 'bot'));
      $('typed').hidden = !(playing && active);
      $('propose').hidden = !(playing && active) || withBot || iOffer || offers.length > 0;
      $('accept').hidden = !(playing && active) || iOffer || offers.length === 0;
      $('reject').hidden = !(playing && active) || iOffer || offers.length === 0;
      $('resign').hidden = !(playing && active);
      // Only a player of the game may ask for a rematch, once it is over.
      $('rematch').hidden = !(seated && v.status === 'over' && state.me);
      // Anyone may download the record, of a game going on too.
      const record = $('record');
      record.href = '/api/games/' + v.id + '/record';
      record.hidden = false;
      record.setAttribute('aria-label', 'Download the record of board ' + v.id);
      // Watching: no seat, or none signed in. The confirm setting is for moves, so it goes.
      $('watching').hidden = seated;
      $('watching').textContent = state.me
        ? 'You are watching this game: it follows its players\' moves as they are made.'
        : 'You are watching this game: it follows its players\' moves as they are made. Sign in to play your own games.';
      $('confirm-moves').closest('label').hidden = !playing;
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

    // A new game after this one: the same options, every player one seat on (the server
    // invites the other people again). The page opens it.
    async function rematch() {
      const g = state.game;
      if (!g) return;
      const b = $('rematch');
      b.disabled = true;
      try {
        const view = await api('POST', '/api/games/' + g.id + '/rematch', {});
        explain('');
        location.hash = '#game/' + view.id;
      } catch (e) {
        explain(e.message);
      } finally {
        b.disabled = false;
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

    function wire() {
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
      $('rematch').addEventListener('click', rematch);
      $('typed').addEventListener('submit', (ev) => {
        ev.preventDefault();
        const g = state.game;
        const text = $('typed-move').value.trim();
        if (!g || !text) return;
        $('typed-move').value = '';
        playMove(g, text, true);
      });
    }

    return { openGame, closeGame, refreshGame, showPly, genericModule, wire };
  };
})();
