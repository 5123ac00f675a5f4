// GPU Atlas benchmarks page: filters the server-rendered table of runs (and the
// cost sections) by workload, provider and GPU model. Without JavaScript the page
// shows every run. The filters are kept in the URL (?workload=&provider=&gpu=).
// Vanilla JavaScript, nothing loaded from other hosts.
(function () {
  'use strict';

  var form = document.getElementById('bench-filters');
  var body = document.getElementById('bench-body');
  var count = document.getElementById('bench-count');
  if (!form || !body || !count) return;
  var keys = ['workload', 'provider', 'gpu'];
  var rows = Array.prototype.slice.call(body.querySelectorAll('tr'));
  var sections = Array.prototype.slice.call(document.querySelectorAll('section.workload'));

  function control(k) { return document.getElementById('bf-' + k); }

  function state() {
    var s = {};
    keys.forEach(function (k) { s[k] = control(k).value; });
    return s;
  }

  function matches(el, s, which) {
    return which.every(function (k) { return !s[k] || el.getAttribute('data-' + k) === s[k]; });
  }

  function apply() {
    var s = state();
    var shown = 0;
    rows.forEach(function (r) {
      var ok = matches(r, s, keys);
      r.hidden = !ok;
      if (ok) shown++;
    });
    sections.forEach(function (sec) {
      sec.hidden = !matches(sec, s, ['workload']);
      Array.prototype.forEach.call(sec.querySelectorAll('tbody tr'), function (r) {
        r.hidden = !matches(r, s, ['provider', 'gpu']);
      });
    });
    count.textContent = count.getAttribute('data-fmt')
      .replace('{n}', String(shown)).replace('{m}', count.getAttribute('data-total'));
    var q = new URLSearchParams(location.search);
    keys.forEach(function (k) { if (s[k]) q.set(k, s[k]); else q.delete(k); });
    var qs = q.toString();
    history.replaceState(null, '', location.pathname + (qs ? '?' + qs : '') + location.hash);
    var sw = document.getElementById('lang-switch');
    if (sw) sw.setAttribute('href', sw.getAttribute('href').split('?')[0] + (qs ? '?' + qs : ''));
  }

  var q = new URLSearchParams(location.search);
  keys.forEach(function (k) {
    var c = control(k), v = q.get(k);
    if (v !== null && Array.prototype.some.call(c.options, function (o) { return o.value === v; })) c.value = v;
    c.addEventListener('change', apply);
  });
  form.addEventListener('reset', function () { setTimeout(apply, 0); });
  form.addEventListener('submit', function (e) { e.preventDefault(); });
  form.hidden = false;
  apply();
  body.closest('table').setAttribute('data-ready', '');
})();
