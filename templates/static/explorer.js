// GPU Atlas offers explorer: filters, sorts and re-renders the offers table from
// data/offers.json, keeping the whole view in the URL query so it can be shared.
// Vanilla JavaScript, no dependencies, nothing loaded from other hosts. Without
// JavaScript the server-rendered rows (on-demand, regional) stay as they are.
(function () {
  'use strict';

  var cfgEl = document.getElementById('explorer-config');
  var table = document.getElementById('offers');
  if (!cfgEl || !table) return;
  var cfg = JSON.parse(cfgEl.textContent);
  var L = cfg.labels || {};
  var form = document.getElementById('filters');
  var body = document.getElementById('offers-body');
  var count = document.getElementById('row-count');
  var more = document.getElementById('more');
  var showAllButton = document.getElementById('show-all');
  var colHour = document.getElementById('col-hour');
  var colGPUHour = document.getElementById('col-gpu-hour');
  var LIMIT = 1000;

  // Offer tuple positions in offers.json (see sitegen/offersdata.go).
  var O = { type: 0, region: 1, zone: 2, billing: 3, amount: 4, cur: 5, unit: 6, upfront: 7,
    usdH: 8, usdGH: 9, natH: 10, natGH: 11, avail: 12, flags: 13, suspect: 14 };
  // Instance type tuple positions.
  var T = { provider: 0, id: 1, href: 2, gpu: 3, model: 4, units: 5, gmem: 6, vcpus: 7, mem: 8, unmapped: 9 };
  var FLAG_SYNTHETIC = 1, FLAG_SUSPECT = 2;

  var controls = {
    provider: document.getElementById('filter-provider'),
    gpu: document.getElementById('filter-gpu'),
    min: document.getElementById('filter-min-gpus'),
    region: document.getElementById('filter-region'),
    billing: document.getElementById('filter-billing'),
    max: document.getElementById('filter-max-price'),
    q: document.getElementById('filter-q'),
    cur: document.getElementById('filter-currency')
  };
  var defaults = { provider: '', gpu: '', min: '', region: '', billing: 'on_demand', max: '', q: '', cur: 'usd', sort: '', dir: 'asc' };
  var state = {};
  var data = null;
  var rows = [];
  var showAll = false;

  function label(prefix, v) { var s = L[prefix + '.' + v]; return s === undefined ? v : s; }
  function text(key) { return L[key] === undefined ? key : L[key]; }

  // money formats a figure as the server does: 4 decimals below 10, 2 from 10 up.
  function money(x) { return x === null ? '' : x.toFixed(x < 10 ? 4 : 2); }

  function readURL() {
    var q = new URLSearchParams(location.search);
    Object.keys(defaults).forEach(function (k) {
      var v = q.get(k);
      state[k] = v === null ? defaults[k] : v;
    });
  }

  function writeURL() {
    var q = new URLSearchParams();
    Object.keys(defaults).forEach(function (k) {
      if (state[k] !== defaults[k] && state[k] !== '') q.set(k, state[k]);
    });
    var s = q.toString();
    history.replaceState(null, '', s ? '?' + s : location.pathname);
  }

  function syncControls() {
    Object.keys(controls).forEach(function (k) {
      var c = controls[k];
      if (!c) return;
      if (c.tagName === 'SELECT' && !Array.prototype.some.call(c.options, function (o) { return o.value === state[k]; })) {
        state[k] = defaults[k]; // an unknown value in a shared link falls back to the default
      }
      c.value = state[k];
    });
  }

  function num(s) { var x = parseFloat(s); return isNaN(x) ? null : x; }

  function regionName(p, id) {
    var r = data.regions[p + '/' + id];
    if (!r) return id;
    return (cfg.lang === 'zh' ? r[1] : r[0]) || id;
  }

  // Rows are joined once: each keeps its offer tuple, its type tuple and a
  // lower-case haystack for the text search.
  function prepare() {
    var order = {};
    (cfg.billing_order || []).forEach(function (b, i) { order[b] = i; });
    var stale = {};
    (data.stale || []).forEach(function (p) { stale[p] = true; });
    rows = data.offers.map(function (o, i) {
      var t = data.types[o[O.type]];
      var p = t[T.provider];
      return {
        i: i, o: o, t: t, stale: !!stale[p], billingRank: order[o[O.billing]],
        key: [p, t[T.id], o[O.region], o[O.zone], o[O.billing]].join('/'),
        hay: [p, label('provider', p), t[T.id], t[T.gpu], t[T.model], o[O.region], regionName(p, o[O.region]), o[O.zone]].join(' ').toLowerCase()
      };
    });
  }

  function matches(r) {
    var o = r.o, t = r.t;
    if (state.provider && t[T.provider] !== state.provider) return false;
    if (state.gpu) {
      if (state.gpu === 'unmapped') { if (!t[T.unmapped]) return false; }
      else if (t[T.model] !== state.gpu) return false;
    }
    var min = num(state.min);
    if (min !== null && !(t[T.units] >= min)) return false;
    if (state.region && o[O.region] !== state.region) return false;
    if (state.billing !== 'all' && o[O.billing] !== state.billing) return false;
    var max = num(state.max);
    if (max !== null && (o[O.usdH] === null || o[O.usdH] > max)) return false;
    if (state.q) {
      var words = state.q.toLowerCase().split(/\s+/);
      for (var i = 0; i < words.length; i++) if (words[i] && r.hay.indexOf(words[i]) < 0) return false;
    }
    return true;
  }

  var native = function () { return state.cur === 'native'; };
  var sortKeys = {
    provider: function (r) { return label('provider', r.t[T.provider]); },
    type: function (r) { return r.t[T.id]; },
    gpu: function (r) { return r.t[T.gpu]; },
    gpus: function (r) { return r.t[T.units]; },
    gmem: function (r) { return r.t[T.gmem]; },
    vcpus: function (r) { return r.t[T.vcpus]; },
    mem: function (r) { return r.t[T.mem]; },
    region: function (r) { return r.o[O.region]; },
    zone: function (r) { return r.o[O.zone]; },
    billing: function (r) { return r.billingRank; },
    price: function (r) { return num(r.o[O.amount]); },
    usd: function (r) { return native() ? r.o[O.natH] : r.o[O.usdH]; },
    usdgpu: function (r) { return native() ? r.o[O.natGH] : r.o[O.usdGH]; },
    avail: function (r) { return label('avail', r.o[O.avail]); },
    marks: function (r) { return r.o[O.flags] + (r.stale ? 4 : 0); }
  };

  function compare(a, b) {
    var f = sortKeys[state.sort];
    var x = f(a), y = f(b);
    var empty = function (v) { return v === null || v === undefined || v === ''; };
    if (empty(x) || empty(y)) {
      if (empty(x) && empty(y)) return a.i - b.i;
      return empty(x) ? 1 : -1; // missing figures go last in both directions
    }
    var c = typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y));
    if (state.dir === 'desc') c = -c;
    return c || a.i - b.i;
  }

  function el(tag, cls, txt) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (txt !== undefined) e.textContent = txt;
    return e;
  }

  function badge(cls, txt, title) {
    var b = el('span', 'badge ' + cls, txt);
    if (title) b.title = title;
    return b;
  }

  function published(o) {
    var up = o[O.upfront] ? ' + ' + o[O.upfront] + ' ' + o[O.cur] + ' ' + text('price.upfront') : '';
    if (o[O.unit] === 'upfront') return o[O.amount] + ' ' + o[O.cur] + ' ' + text('price.upfront');
    return o[O.amount] + ' ' + o[O.cur] + '/' + label('unit', o[O.unit]) + up;
  }

  function perHour(x, cur) { return x === null ? '' : money(x) + ' ' + cur; }

  function renderRow(r) {
    var o = r.o, t = r.t, p = t[T.provider];
    var tr = document.createElement('tr');
    tr.dataset.key = r.key;
    var td = function (cls, txt) { var c = el('td', cls, txt); tr.appendChild(c); return c; };
    td('', label('provider', p));
    var a = el('a', '', t[T.id]);
    a.href = cfg.prefix + t[T.href];
    td('').appendChild(a);
    var g = td('');
    if (!t[T.gpu]) g.textContent = '—';
    else if (t[T.unmapped]) { g.append(t[T.gpu] + ' ', badge('warn', text('badge.unmapped'), text('badge.unmapped_title'))); }
    else { g.append(t[T.gpu] + ' ', el('small', 'id', t[T.model])); }
    td('num', String(t[T.units]));
    td('num', String(t[T.gmem]));
    if (native()) {
      td('num usd-hour', perHour(o[O.natH], o[O.cur]));
      td('num usd-gpu-hour', perHour(o[O.natGH], o[O.cur]));
    } else {
      td('num usd-hour', perHour(o[O.usdH], 'USD'));
      td('num usd-gpu-hour', perHour(o[O.usdGH], 'USD'));
    }
    td('', label('billing', o[O.billing]));
    td('num pub', published(o));
    td('').append(regionName(p, o[O.region]) + ' ', el('small', 'id', o[O.region]));
    td('', o[O.zone]);
    td('num', String(t[T.vcpus]));
    td('num', String(t[T.mem]));
    td('', label('avail', o[O.avail]));
    var m = td('');
    if (o[O.flags] & FLAG_SYNTHETIC) m.append(badge('synthetic', text('badge.synthetic'), text('badge.synthetic_title')), ' ');
    if (o[O.flags] & FLAG_SUSPECT) m.append(badge('suspect', text('badge.suspect'), o[O.suspect]), ' ');
    if (r.stale) m.append(badge('stale', text('badge.stale'), text('badge.stale_title')));
    return tr;
  }

  function render() {
    var list = rows.filter(matches);
    if (state.sort && sortKeys[state.sort]) list.sort(compare);
    var shown = showAll ? list : list.slice(0, LIMIT);
    var frag = document.createDocumentFragment();
    shown.forEach(function (r) { frag.appendChild(renderRow(r)); });
    body.replaceChildren(frag);
    count.textContent = count.dataset.fmt.replace('{n}', list.length).replace('{m}', rows.length);
    count.dataset.shown = String(list.length);
    more.hidden = shown.length === list.length;
    showAllButton.textContent = text('js.show_all').replace('{n}', list.length);
    colHour.querySelector('button').textContent = text(native() ? 'col.native_hour' : 'col.usd_hour');
    colGPUHour.querySelector('button').textContent = text(native() ? 'col.native_gpu_hour' : 'col.usd_gpu_hour');
    table.querySelectorAll('th[data-sort]').forEach(function (th) {
      if (th.dataset.sort === state.sort) th.setAttribute('aria-sort', state.dir === 'desc' ? 'descending' : 'ascending');
      else th.removeAttribute('aria-sort');
    });
  }

  function update() { writeURL(); render(); }

  function wire() {
    Object.keys(controls).forEach(function (k) {
      var c = controls[k];
      if (!c) return;
      var timer = 0;
      var handler = function () {
        state[k] = c.value.trim();
        showAll = false;
        if (c.tagName === 'SELECT') { update(); return; }
        clearTimeout(timer);
        timer = setTimeout(update, 120);
      };
      c.addEventListener(c.tagName === 'SELECT' ? 'change' : 'input', handler);
    });
    form.addEventListener('submit', function (e) { e.preventDefault(); });
    table.querySelectorAll('th[data-sort]').forEach(function (th) {
      var b = el('button', 'sort', th.textContent);
      b.type = 'button';
      th.textContent = '';
      th.appendChild(b);
      b.addEventListener('click', function () {
        var k = th.dataset.sort;
        if (state.sort === k) state.dir = state.dir === 'asc' ? 'desc' : 'asc';
        else { state.sort = k; state.dir = 'asc'; }
        update();
      });
    });
    showAllButton.addEventListener('click', function () { showAll = true; render(); });
  }

  readURL();
  fetch(cfg.data, { credentials: 'same-origin' })
    .then(function (r) {
      if (!r.ok) throw new Error(r.status + ' ' + r.statusText);
      return r.json();
    })
    .then(function (d) {
      data = d;
      prepare();
      syncControls();
      wire();
      form.hidden = false;
      render();
      table.dataset.ready = '1';
    })
    .catch(function (err) {
      count.textContent = text('js.load_error') + ' (' + err.message + ')';
    });
})();
