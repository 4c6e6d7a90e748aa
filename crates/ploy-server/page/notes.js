// Times and notifications on ployd's page.
//
// The server counts time in seconds since 1970 (UTC); the page shows each time as a date in
// the reader's own time zone and language, inside <time datetime="..."> so that the exact
// instant stays readable by machines. `notes` renders the notifications of GET /api/inbox
// ({"id", "at", "game", "subject", "body"}) as a list, newest first, each linking to its
// game.
'use strict';

(function () {
  const FORMAT = { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' };

  /** `at` (seconds since 1970) as a date and time for people, e.g. "Nov 26, 2026, 10:15 PM". */
  function dateText(at) {
    return new Date(at * 1000).toLocaleString(undefined, FORMAT);
  }

  /** A <time> element for `at` (seconds since 1970). */
  function timeElement(at) {
    const t = document.createElement('time');
    t.setAttribute('datetime', new Date(at * 1000).toISOString());
    t.textContent = dateText(at);
    return t;
  }

  /** The list of `notes` (newest first, at most `limit`) as an element. */
  function list(notes, limit) {
    const ul = document.createElement('ul');
    ul.className = 'note-list';
    const newest = [...notes].sort((a, b) => b.id - a.id).slice(0, limit);
    for (const n of newest) {
      const li = document.createElement('li');
      li.setAttribute('data-note', n.id);
      li.append(timeElement(n.at), ' ');
      if (n.game) {
        const a = document.createElement('a');
        a.href = '#game/' + n.game;
        a.textContent = n.subject;
        li.append(a);
      } else {
        li.append(n.subject);
      }
      ul.append(li);
    }
    return ul;
  }

  window.PloydTimes = { dateText, timeElement, notes: list };
})();
