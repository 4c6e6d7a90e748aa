// The option fields of ployd's new-game form, built from GET /api/types.
//
// Every option of a game type becomes a labelled field: a flag a checkbox, a `choice` a
// select of its words, a `number` a select of its values when it has few (at most
// MAX_SELECT of them: board sizes, bot levels) and a number field otherwise. The label is in
// words: the board module's `optionLabels[name]`, else a common word for the name, else the
// name with its underscores as spaces; the server's `help` text is the field's description.
// A board module may narrow a number's values with `optionValues[name](n) -> bool` (Pente's
// sizes are odd) and name a choice's words with `choiceWords[name][word]`. A new option of
// the server thus appears without any change here.
'use strict';

(function () {
  const MAX_SELECT = 50;

  // Words for option names several games share.
  const COMMON = {
    size: 'Board size',
    level: 'Bot strength',
    deadline: 'Time for each move',
    rated: 'Rated game',
  };

  const el = window.PloydBoardKit.el;

  /** The label of option `o` in words. */
  function label(o, mod) {
    const own = mod && mod.optionLabels && mod.optionLabels[o.name];
    if (own) return own;
    if (COMMON[o.name]) return COMMON[o.name];
    const words = o.name.replace(/[_-]+/g, ' ').trim();
    return words.charAt(0).toUpperCase() + words.slice(1);
  }

  /** The values a number option offers in a select, or null for a number field. */
  function numberValues(o, mod) {
    const min = o.values && o.values.min;
    const max = o.values && o.values.max;
    if (typeof min !== 'number' || typeof max !== 'number' || max < min || max - min + 1 > MAX_SELECT) return null;
    const keep = (mod && mod.optionValues && mod.optionValues[o.name]) || (() => true);
    const out = [];
    for (let n = min; n <= max; n++) if (keep(n)) out.push(n);
    return out;
  }

  /**
   * The field of option `o` (of the game whose board module is `mod`): an element holding
   * its label, its input (id `opt-NAME`, attribute `data-option`) and its description.
   */
  function field(o, mod, onchange) {
    const id = 'opt-' + o.name;
    const helpId = id + '-help';
    const help = o.help ? el('p', { class: 'hint', id: helpId, text: o.help }) : null;
    const described = o.help ? helpId : null;
    if (o.kind === 'flag') {
      return el('div', { class: 'option' },
        el('label', { class: 'inline', for: id },
          el('input', { type: 'checkbox', id, 'data-option': o.name, onchange, 'aria-describedby': described }),
          ' ' + label(o, mod)),
        help);
    }
    let input;
    if (o.kind === 'choice') {
      const words = (mod && mod.choiceWords && mod.choiceWords[o.name]) || {};
      input = el('select', { id, 'data-option': o.name, onchange, 'aria-describedby': described },
        ...o.values.map((v, j) => el('option', { value: j === 0 ? '' : v, text: (words[v] || v) + (j === 0 ? ' (default)' : '') })));
    } else {
      const values = numberValues(o, mod);
      if (values) {
        input = el('select', { id, 'data-option': o.name, onchange, 'aria-describedby': described },
          el('option', { value: '', text: 'default' }),
          ...values.map((n) => el('option', { value: String(n), text: String(n) })));
      } else {
        input = el('input', {
          id, type: 'number', min: o.values && o.values.min, max: o.values && o.values.max, 'data-option': o.name,
          placeholder: 'default', inputmode: 'numeric', onchange, 'aria-describedby': described,
        });
      }
    }
    return el('div', { class: 'option' }, el('label', { for: id, text: label(o, mod) }), input, help);
  }

  window.PloydOptions = { field, label, numberValues };
})();
