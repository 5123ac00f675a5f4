// GPU Atlas sortable tables: a table of class "sortable" gets a button in each
// column heading that sorts its rows by that column, ascending then descending.
// A cell sorts by its data-v value (a number where it reads as one, else text
// in the page's language); an empty cell sorts last either way. Without
// JavaScript the table reads as the server ordered it.
(function () {
  'use strict';
  var lang = document.documentElement.lang || 'en';
  var collator = new Intl.Collator(lang, { numeric: true, sensitivity: 'base' });

  function key(cell) {
    if (!cell) return null;
    var v = cell.hasAttribute('data-v') ? cell.getAttribute('data-v') : null;
    if (v === null || v === '') return null;
    var n = Number(v);
    return isNaN(n) ? { s: v } : { n: n };
  }

  function compare(a, b) {
    if (a.n !== undefined && b.n !== undefined) return a.n - b.n;
    return collator.compare(a.s !== undefined ? a.s : String(a.n), b.s !== undefined ? b.s : String(b.n));
  }

  function sortBy(table, col, dir) {
    var body = table.tBodies[0];
    var rows = [].slice.call(body.rows).map(function (r, i) { return { r: r, i: i, k: key(r.cells[col]) }; });
    rows.sort(function (a, b) {
      if (a.k === null || b.k === null) return a.k === b.k ? a.i - b.i : a.k === null ? 1 : -1;
      var c = compare(a.k, b.k);
      return c === 0 ? a.i - b.i : dir === 'ascending' ? c : -c;
    });
    rows.forEach(function (x) { body.appendChild(x.r); });
    [].forEach.call(table.tHead.rows[0].cells, function (th, i) {
      th.setAttribute('aria-sort', i === col ? dir : 'none');
    });
  }

  [].forEach.call(document.querySelectorAll('table.sortable'), function (table) {
    if (!table.tHead || !table.tBodies.length) return;
    [].forEach.call(table.tHead.rows[0].cells, function (th, col) {
      var b = document.createElement('button');
      b.type = 'button';
      b.className = 'sort';
      while (th.firstChild) b.appendChild(th.firstChild);
      th.appendChild(b);
      b.addEventListener('click', function () {
        sortBy(table, col, th.getAttribute('aria-sort') === 'ascending' ? 'descending' : 'ascending');
      });
    });
  });
})();
