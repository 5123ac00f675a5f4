// GPU Atlas explorer: every offer from data/offers.json, shown one row per
// instance type (its cheapest region, or every region) with each billing kind's
// price side by side, or one row per offer; filtered, sorted and paged, with the
// columns the reader chooses, and the whole view in the URL query so that it can
// be shared and reloaded exactly. Without JavaScript the server-rendered rows
// (the default view's first page) stay as they are. Needs static/atlas.js,
// filter.js, explorer-view.js and explorer-controls.js.
(function () {
  'use strict';

  var A = window.GPUAtlas, F = window.GPUAtlasFilter, W = window.GPUAtlasView;
  var cfg = A && A.config('explorer-config');
  var table = document.getElementById('offers');
  if (!cfg || !table || !F || !W) return;
  A.init(cfg);
  var text = A.text, label = A.label, esc = A.esc;

  var PAGE = cfg.page_size || 50;
  var MAX_COMPARE = 4;
  var head = document.getElementById('offers-head');
  var body = document.getElementById('offers-body');
  var count = document.getElementById('row-count');
  var pager = document.getElementById('pager');
  var form = document.getElementById('compare-form');

  var V = null, state = null, view = [], shown = [], timings = {};
  var byId = W.byId, COLS = W.COLS;
  var DEFAULT_COLS = {
    instances: ['type', 'gpu', 'gpus', 'gpu_memory', 'on_demand', 'gpu_price', 'spot', 'reserved_1y', 'reserved_3y',
      'subscription_month', 'subscription_year', 'region', 'availability', 'vcpus', 'memory'],
    offers: ['type', 'provider', 'gpu', 'gpus', 'gpu_memory', 'vcpus', 'memory', 'price', 'gpu_price', 'billing', 'interruption', 'region',
      'availability', 'marks', 'per_month']
  };
  // The columns a phone's card shows; the others are left out there.
  var CARD = { type: 1, provider: 1, gpu: 1, gpus: 1, gpu_memory: 1, price: 1, gpu_price: 1, billing: 1, region: 1, saving: 1, on_demand: 1, spot: 1, reserved_1y: 1, reserved_3y: 1, subscription_month: 1, subscription_year: 1, per_month: 1 };

  // --- state and URL --------------------------------------------------------

  function defaultState(v) {
    var offers = v === 'offers';
    return {
      view: offers ? 'offers' : 'instances', by: 'cheapest', cols: DEFAULT_COLS[offers ? 'offers' : 'instances'].slice(),
      sort: offers ? 'price' : 'on_demand', dir: 'asc', page: 1, cur: cfg.currency || 'USD', per: 'hour', syn: '1', sus: '0',
      part: '0', q: '', x: '', wl: '', sc: '', f: offers ? { billing: { in: ['on_demand'] } } : {}, sel: []
    };
  }

  function colsOf(s) { return COLS.filter(function (c) { return W.inView(c, s.view) && (!c.work || s.view === 'offers'); }); }

  function readURL() {
    var q = new URLSearchParams(location.search);
    var s = defaultState(q.get('view'));
    var cols = q.get('cols');
    if (cols !== null) s.cols = cols.split(',').filter(function (c) { return byId[c] && W.inView(byId[c], s.view); });
    if (!s.cols.length) s.cols = DEFAULT_COLS[s.view].slice();
    if (q.get('sort') !== null) s.sort = byId[q.get('sort')] ? q.get('sort') : '';
    if (q.get('dir') === 'desc') s.dir = 'desc';
    if (q.get('by') === 'region') s.by = 'region';
    s.page = Math.max(1, parseInt(q.get('page'), 10) || 1);
    ['cur', 'per', 'syn', 'sus', 'part', 'q', 'x', 'wl', 'sc'].forEach(function (k) { if (q.get(k) !== null) s[k] = q.get(k); });
    if (s.cur !== 'native' && A.rate(V.data.fx, s.cur) === null) s.cur = 'native';
    if (!A.HOURS[s.per]) s.per = 'hour';
    COLS.forEach(function (c) {
      var v = q.get(c.id);
      if (v === null) return;
      if (c.kind === 'name') {
        s.f[c.id] = { in: v === '' || v === 'all' ? [] : v.split(',').map(function (x) { return x === '-' ? '' : x; }) };
      } else if (c.kind === 'num') {
        var m = v.split('~');
        s.f[c.id] = { min: m[0] || '', max: m.length > 1 ? m[1] : '' };
      } else {
        s.f[c.id] = { has: v };
      }
    });
    // Links from the first version of the explorer.
    if (q.get('min') !== null) s.f.gpus = { min: q.get('min'), max: '' };
    if (q.get('max') !== null) s.f.price = { min: '', max: q.get('max') };
    s.sel = q.getAll('o').slice(0, MAX_COMPARE);
    return s;
  }

  function filterParam(c, f) {
    if (!f) return null;
    if (c.kind === 'name') return f.in.map(function (x) { return x === '' ? '-' : x; }).join(',');
    if (c.kind === 'num') return f.min || f.max ? (f.min || '') + '~' + (f.max || '') : null;
    return f.has || null;
  }

  function writeURL() {
    var q = new URLSearchParams();
    var d = defaultState(state.view);
    if (state.view !== d.view || state.view === 'offers') q.set('view', state.view);
    if (state.by !== d.by && state.view === 'instances') q.set('by', state.by);
    if (state.cols.join(',') !== d.cols.join(',')) q.set('cols', state.cols.join(','));
    COLS.forEach(function (c) {
      var v = filterParam(c, state.f[c.id]);
      var dv = filterParam(c, d.f[c.id]);
      if (v !== dv && !(v === null && dv === '')) {
        if (v !== null) q.set(c.id, v);
        else if (dv !== null) q.set(c.id, '');
      }
    });
    ['q', 'x', 'sc', 'cur', 'per', 'syn', 'sus', 'part', 'wl'].forEach(function (k) { if (state[k] !== d[k]) q.set(k, state[k]); });
    if (state.sort !== d.sort) q.set('sort', state.sort);
    if (state.dir !== d.dir) q.set('dir', state.dir);
    if (state.page > 1) q.set('page', String(state.page));
    state.sel.forEach(function (k) { q.append('o', k); });
    var s = q.toString();
    history.replaceState(null, '', s ? '?' + s : location.pathname);
    A.keepQueryOnLanguageSwitch();
  }

  // setView switches between the instance and the offer view: the filters
  // stay, the columns, sort and billing choice become the new view's defaults.
  function setView(v) {
    if (v === state.view) return;
    var d = defaultState(v);
    state.view = d.view;
    state.cols = d.cols;
    state.sort = d.sort;
    state.dir = 'asc';
    state.f.billing = d.f.billing;
    state.page = 1;
  }

  // --- filtering, sorting, rendering -----------------------------------------

  var pricedAs = '', exprError = null, lastErrors = [];
  function apply() {
    var t0 = performance.now();
    var k = state.cur + '|' + state.per + '|' + state.wl;
    if (k !== pricedAs) { W.reprice(V, state.cur, state.per, state.wl === '' ? -1 : parseInt(state.wl, 10)); pricedAs = k; }
    var parsed = F.parse(state.x, { scenarios: V.scenarios.map(function (s) { return s.id; }) });
    lastErrors = parsed.errors;
    showExprErrors();
    var res = runWith(parsed);
    if (!res.rows.length) { explainEmpty(parsed); res = runWith(parsed); } else if (why) why.textContent = '';
    shown = res.shown;
    view = sorted(res.rows);
    var t1 = performance.now();
    var pages = Math.max(1, Math.ceil(view.length / PAGE));
    if (state.page > pages) state.page = pages;
    renderHead();
    renderBody(view.slice((state.page - 1) * PAGE, state.page * PAGE));
    renderCount(view.length, pages);
    timings = { filter: t1 - t0, render: performance.now() - t1 };
    return view;
  }

  // sorted orders the view's rows. In the offer view the order of every offer
  // is kept until the sort, currency or period changes, and the filtered
  // offers are picked from it: filtering then walks a sorted list instead of
  // sorting again (but for the saving, which the filters change).
  var order = null, orderKey = '';
  function sorted(rows) {
    var sc = sortCol(), desc = state.dir === 'desc';
    if (state.view !== 'offers' || sc === 'saving' || sc === 'work') return W.sortRows(V, rows, sc, desc, state.view);
    var k = sc + '|' + state.dir + '|' + pricedAs;
    if (k !== orderKey) { order = W.sortRows(V, V.rows, sc, desc, 'offers'); orderKey = k; }
    var keep = new Uint8Array(V.rows.length);
    for (var i = 0; i < rows.length; i++) keep[rows[i].i] = 1;
    var out = [];
    for (var j = 0; j < order.length; j++) if (keep[order[j].i]) out.push(order[j]);
    return out;
  }

  // sortCol is the column the view sorts by: the chosen one, or, when that is
  // a price column the billing choice hides, the first price column shown.
  function sortCol() {
    var c = byId[state.sort];
    if (c && c.billing !== undefined && !shown[c.billing]) {
      var first = W.BILLING_COLS.filter(function (b, i) { return shown[i]; })[0];
      return first || state.sort;
    }
    return state.sort;
  }

  // runWith filters the rows by a parsed expression and the panel's controls.
  function runWith(parsed) {
    var tests = W.compile(V, parsed);
    W.controlTests(V, state.f, state.view, tests);
    if (state.sc) tests.type.push(function (t) { return t.fits.indexOf(state.sc) >= 0; });
    if (state.q) {
      var words = state.q.toLowerCase().split(/\s+/).filter(Boolean);
      tests.offer.push(function (r) { return words.every(function (w) { return r.hay.indexOf(w) >= 0; }); });
    }
    var part = state.part === '1', syn = state.syn !== '0', sus = state.sus === '1';
    return W.run(V, {
      view: state.view, by: state.by, tests: tests,
      typeOK: function (t) { return part || !t.partial; },
      offerOK: function (r) { return (syn || !r.synthetic) && (sus || !r.suspect); }
    });
  }

  // explainEmpty says why nothing matches: a term without which rows come
  // back, and what those rows hold in its field: no data at all (as for
  // interconnect:nvlink among types whose provider states none: such a term
  // is named first), or else the values there are, for the term whose
  // removal brings back the fewest rows (the narrowest question); else that
  // the terms only together exclude every row.
  var why = null;
  function explainEmpty(parsed) {
    if (!why) {
      why = document.createElement('p');
      why.id = 'why-empty';
      why.className = 'count why';
      count.parentNode.insertBefore(why, count.nextSibling);
    }
    var msg = text('ex.empty_all'), fewest = Infinity;
    for (var k = 0; k < parsed.terms.length; k++) {
      var term = parsed.terms[k];
      var rest = runWith({ terms: parsed.terms.filter(function (x, i) { return i !== k; }), words: parsed.words, errors: [] }).rows;
      if (!rest.length) continue;
      var c = byId[term.field], vals = {}, n = 0, num = F.FIELDS[term.field].type === 'number';
      var has = c && c.level !== 'price';
      if (has) {
        rest.forEach(function (v) {
          var xs = c.level === 'type' ? [v.t] : v.cells ? v.cells.filter(Boolean) : [v];
          xs.forEach(function (x) {
            var val = c.val(x);
            if (val === null || val === undefined || val === '') return;
            var sv = c.opt ? c.opt(val) : c.id === 'gpu' ? (x.gpu || val) : num ? A.plain(val) : String(val);
            if (!vals[sv]) { vals[sv] = num ? val : true; n++; }
          });
        });
      }
      var keys = Object.keys(vals).sort(num ? function (a, b) { return vals[a] - vals[b]; } : undefined);
      var fill = { term: term.src, n: rest.length, field: c ? text(c.lbl) : term.field,
        values: keys.slice(0, 8).join(text('ex.values_sep')) + (n > 8 ? ' …' : '') };
      var m = A.fill(text(!has ? 'ex.empty_term_nv' : n ? 'ex.empty_term' : 'ex.empty_no_data'), fill);
      if (has && !n) { msg = m; break; }
      if (rest.length < fewest) { msg = m; fewest = rest.length; }
    }
    why.textContent = msg;
  }

  function showExprErrors() {
    if (!exprError) return;
    exprError.textContent = lastErrors.map(function (e) { return F.message(e, text); }).join(' · ');
  }

  function curName() { return state.cur === 'native' ? text('filter.native') : state.cur; }

  function colLabel(c) {
    var unit = label('unit', state.per);
    if (c.billing !== undefined) return A.fill(text('ex.price_head'), { name: label('ex.col', c.id), cur: curName(), unit: unit });
    if (c.id === 'gpu_price' && state.view === 'instances') {
      var first = W.BILLING_COLS.filter(function (b, i) { return shown[i]; })[0] || 'on_demand';
      return A.fill(text('ex.gpu_price_head'), { name: label('ex.col', first), cur: curName(), unit: unit });
    }
    if (c.price) return A.fill(text(c.lbl), { cur: curName(), unit: unit });
    if (c.work) {
      var w = V.data.workloads[parseInt(state.wl, 10)];
      return w ? w[1] + ' (' + w[0] + ')' : text(c.lbl);
    }
    return text(c.lbl);
  }

  // visibleCols are the chosen columns of the view, without price columns the
  // billing choice hides or that no offer has.
  // The instance type always comes first: its cell holds the compare box.
  function visibleCols() {
    var ids = state.cols.indexOf('type') < 0 ? ['type'].concat(state.cols) : state.cols;
    return ids.map(function (id) { return byId[id]; }).filter(function (c) {
      if (!c || !W.inView(c, state.view)) return false;
      if (c.work && state.wl === '') return false;
      return c.billing === undefined || shown[c.billing];
    });
  }

  var headKey = '', caption = document.getElementById('offers-caption');
  function renderHead() {
    var cap = text(state.view === 'offers' ? 'ex.caption_offers' : 'ex.caption');
    if (caption.textContent !== cap) caption.textContent = cap;
    var cols = visibleCols();
    var k = state.view + cols.map(function (c) { return c.id; }).join() + '|' + sortCol() + state.dir + state.cur + state.per + state.wl + shown.join();
    if (k === headKey) return;
    headKey = k;
    var tr = A.el('tr'), sc = sortCol();
    cols.forEach(function (c) {
      var th = A.el('th', (c.kind === 'num' ? 'num ' : '') + 'c-' + c.id + (c.id === 'type' ? ' sticky' : ''));
      th.scope = 'col';
      th.dataset.sort = c.id;
      var b = A.el('button', 'sort', colLabel(c));
      b.type = 'button';
      b.addEventListener('click', function () {
        if (sortCol() === c.id) state.dir = state.dir === 'asc' ? 'desc' : 'asc';
        else { state.sort = c.id; state.dir = 'asc'; }
        state.page = 1;
        update();
        var again = head.querySelector('th[data-sort="' + c.id + '"] button');
        if (again) again.focus();
      });
      th.appendChild(b);
      if (sc === c.id) th.setAttribute('aria-sort', state.dir === 'desc' ? 'descending' : 'ascending');
      tr.appendChild(th);
    });
    head.replaceChildren(tr);
  }

  // Cells are written as HTML text: building the page of rows with innerHTML is
  // several times faster than node by node. Every value goes through esc.

  function money(v, cur) { return v === null || v === undefined ? '' : A.money(v) + ' ' + cur; }

  // pct is a saving in whole percent, rounded half away from zero (as Go's
  // decimal Round), with the sign a reader expects: −60% is 60% less.
  function pct(s) {
    var n = Math.sign(s) * Math.round(Math.abs(s));
    return (n > 0 ? '−' : n < 0 ? '+' : '±') + Math.abs(n) + '%';
  }

  function savingHTML(s) {
    if (s === null || s === undefined) return '';
    var n = Math.sign(s) * Math.round(Math.abs(s));
    var title = A.fill(text(n >= 0 ? 'ex.saving_title' : 'ex.dearer_title'), { pct: Math.abs(n) });
    return '<small class="save' + (n < 0 ? ' dearer' : '') + '" title="' + esc(title) + '">' + esc(pct(s)) + '</small>';
  }

  // marksHTML: the marks that qualify a price, next to it.
  function marksHTML(r) {
    var h = A.marksHTML(r);
    return h ? ' ' + h : '';
  }

  function typeCell(v, key, on) {
    var t = v.t;
    return '<input type="checkbox" name="o" value="' + key + '"' + (on ? ' checked' : '') +
      (!on && state.sel.length >= MAX_COMPARE ? ' disabled' : '') + ' aria-label="' + selectLabel().join(key) + '"> ' +
      '<a href="' + esc(cfg.prefix + t.href) + '">' + esc(t.id) + '</a>' +
      (state.cols.indexOf('provider') < 0 ? ' <small class="sub">' + esc(label('provider', t.p)) + '</small>' : '');
  }

  var selLabel = null; // the checkbox label's text before and after the key
  function selectLabel() {
    if (!selLabel) selLabel = esc(text('js.select_row')).split('{key}');
    return selLabel;
  }

  function gpuCell(t) {
    if (!t.gpu) return '—';
    if (t.unmapped) return esc(t.gpu) + ' ' + A.badgeHTML('warn', text('badge.unmapped'), text('badge.unmapped_title'));
    return esc(t.gpu);
  }

  function regionCell(v) {
    var inst = state.view === 'instances', r = inst ? v.g.first : v;
    if (!inst) return esc(A.regionName(r)) + ' <small class="id">' + esc(r.region) + '</small>';
    var sub = [r.region];
    if (v.g.zones > 1) sub.push(A.fill(text('ex.zones'), { n: v.g.zones }));
    if (v.regions > 1) sub.push(A.fill(text('ex.regions_more'), { n: v.regions }));
    return esc(A.regionName(r)) + ' <small class="sub">' + esc(sub.join(' · ')) + '</small>';
  }

  function priceCell(v, c) {
    var o = v.cells[c];
    if (!o) return '';
    // The header names the currency; a cell names it only as published.
    var h = '<span class="p">' + esc(state.cur === 'native' ? money(o._v, o.cur) : A.money(o._v)) + '</span>';
    var meta = savingHTML(v.save[c]) + marksHTML(o);
    if (meta) h += '<span class="m">' + meta + '</span>';
    if (state.by !== 'region' && o.g !== v.g.g) h += '<small class="where">' + esc(A.fill(text('ex.in_region'), { region: A.regionName(o) })) + '</small>';
    return h;
  }

  function workCell(r) {
    if (r._work === null) return '';
    return esc(A.money(r._work)) + ' ' + A.badgeHTML(r._measured ? 'measured' : 'estimated', text(r._measured ? 'js.measured' : 'js.estimated'));
  }

  // perMonthCell is a subscription or reservation per month with its hourly
  // equivalent, in the chosen currency (sitegen/subscription.go's words).
  function perMonthCell(r) {
    if (r._pm === null || r._pm === undefined) return '';
    var cur = state.cur === 'native' ? r.cur : state.cur;
    return '<span class="per-month">' + esc(A.fill(text('js.per_month'), { month: A.money(r._pm), hour: A.money(r._ph), cur: cur })) + '</span>';
  }

  function cellText(c, v) {
    var x = W.at(c, state.view)(v);
    if (c.price && state.view === 'instances') return state.cur === 'native' ? money(x, v.offer.cur) : A.money(x);
    if (c.price) return money(x, state.cur === 'native' ? v.cur : state.cur);
    if (c.id === 'saving') return x === null ? '' : pct(x);
    if (c.show) return c.show(c.level === 'type' ? v.t : v);
    if (c.kind === 'name') return x ? (c.opt ? c.opt(x) : x) : '—';
    return x === null || x === undefined ? '' : String(x);
  }

  function cellHTML(c, v, key, on) {
    var inst = state.view === 'instances';
    switch (c.id) {
      case 'type': return typeCell(v, key, on);
      case 'gpu': return gpuCell(v.t);
      case 'region': return regionCell(v);
      case 'availability': return esc(label('avail', inst ? v.g.avail : v.avail));
      case 'marks': return A.marksHTML(v);
      case 'work': return workCell(v);
      case 'zone':
        if (v.zone) return esc(v.zone);
        return v.zones ? '<small class="zones">' + esc(v.zones) + '</small>' : '';
      case 'price': return esc(cellText(c, v)) + savingHTML(v.saving);
      case 'per_month': return perMonthCell(v);
    }
    if (c.billing !== undefined) return priceCell(v, c.billing);
    return esc(cellText(c, v));
  }

  function renderBody(page) {
    var cols = visibleCols();
    var selected = {};
    state.sel.forEach(function (k) { selected[k] = true; });
    var labels = cols.map(function (c) { return esc(colLabel(c)); });
    var h = '';
    for (var i = 0; i < page.length; i++) {
      var v = page[i], offer = state.view === 'instances' ? v.offer : v;
      var key = esc(offer ? offer.key : ''), on = !!(offer && selected[offer.key]);
      h += '<tr data-key="' + esc(v.key) + '">';
      for (var j = 0; j < cols.length; j++) {
        var c = cols[j];
        h += '<td class="' + (c.kind === 'num' ? 'num ' : '') + 'c-' + c.id + (c.id === 'type' ? ' sticky' : '') +
          (CARD[c.id] ? '' : ' opt') + (c.cls ? ' ' + c.cls : '') + '" data-l="' + labels[j] + '">' + cellHTML(c, v, key, on) + '</td>';
      }
      h += '</tr>';
    }
    body.innerHTML = h;
  }

  function renderCount(n, pages) {
    var fmt = state.view === 'offers' ? text('ex.count_offers') : state.by === 'region' ? text('ex.count_regions') : text('ex.count_types');
    count.textContent = A.fill(fmt, { n: n, m: state.view === 'offers' ? V.rows.length : V.types.length });
    count.dataset.shown = String(n);
    pager.hidden = pages < 2;
    pager.querySelector('.page-text').textContent = A.fill(text('js.page'), { p: state.page, n: pages });
    pager.querySelector('.prev').disabled = state.page <= 1;
    pager.querySelector('.next').disabled = state.page >= pages;
    var cmp = document.getElementById('compare-link');
    var q = new URLSearchParams();
    state.sel.forEach(function (k) { q.append('o', k); });
    cmp.href = cfg.compare + (state.sel.length ? '?' + q.toString() : '');
    cmp.textContent = A.fill(text('js.compare_n'), { n: state.sel.length });
    cmp.setAttribute('aria-disabled', state.sel.length < 2 ? 'true' : 'false');
    // The chosen rows' cost over time: the TCO calculator with those offers.
    var tcoLink = document.getElementById('tco-link');
    if (tcoLink && cfg.tco) {
      tcoLink.href = cfg.tco + (state.sel.length ? '?offers=' + encodeURIComponent(state.sel.join(',')) : '') + '#calculator';
      tcoLink.setAttribute('aria-disabled', state.sel.length < 1 ? 'true' : 'false');
    }
  }

  function update() { writeURL(); apply(); E.sync(); }

  // --- exports ----------------------------------------------------------------

  function exportTable() {
    var cols = visibleCols();
    var header = cols.map(colLabel);
    var native = state.cur === 'native' && cols.some(function (c) { return c.price; });
    if (native) header.push(text('col.currency'));
    var lines = view.map(function (v) {
      var cells = cols.map(function (c) {
        if (c.price || c.work) { var x = W.at(c, state.view)(v); return x === null || x === undefined ? '' : A.money(x); }
        if (c.id === 'saving') { var s = v.saving; return s === null ? '' : String(Math.sign(s) * Math.round(Math.abs(s))); }
        if (c.id === 'gpu') return v.t.gpu || '';
        if (c.id === 'region') return state.view === 'instances' ? v.g.first.region : v.region;
        if (c.id === 'availability') return label('avail', state.view === 'instances' ? v.g.avail : v.avail);
        if (c.id === 'marks') return v.marks.filter(function (m) { return m !== 'none'; }).join(' ');
        if (c.id === 'zone') return v.zone || v.zones;
        return cellText(c, v);
      });
      if (native) cells.push((v.offer || v).cur || '');
      return cells;
    });
    return { header: header, lines: lines };
  }

  function toCSV() {
    var t = exportTable();
    return [t.header].concat(t.lines).map(function (cells) { return cells.map(A.csvCell).join(','); }).join('\r\n') + '\r\n';
  }

  function toMarkdown() {
    var t = exportTable();
    var out = ['| ' + t.header.map(A.mdCell).join(' | ') + ' |', '|' + t.header.map(function () { return ' --- '; }).join('|') + '|'];
    t.lines.forEach(function (cells) { out.push('| ' + cells.map(A.mdCell).join(' | ') + ' |'); });
    return out.join('\n') + '\n';
  }

  // --- actions ------------------------------------------------------------------

  function status(msg) { document.getElementById('action-status').textContent = msg; }

  function wireActions() {
    document.getElementById('download-csv').addEventListener('click', function () {
      A.download('gpuatlas-' + state.view + '.csv', 'text/csv;charset=utf-8', toCSV());
      status(A.fill(text('js.downloaded'), { n: view.length }));
    });
    document.getElementById('download-md').addEventListener('click', function () {
      A.download('gpuatlas-' + state.view + '.md', 'text/markdown;charset=utf-8', toMarkdown());
      status(A.fill(text('js.downloaded'), { n: view.length }));
    });
    document.getElementById('copy-csv').addEventListener('click', function () {
      A.copy(toCSV()).then(function () { status(A.fill(text('js.copied'), { n: view.length })); }, function () { status(text('js.copy_failed')); });
    });
    document.getElementById('copy-md').addEventListener('click', function () {
      A.copy(toMarkdown()).then(function () { status(A.fill(text('js.copied'), { n: view.length })); }, function () { status(text('js.copy_failed')); });
    });
    body.addEventListener('change', function (e) {
      var box = e.target;
      if (box.name !== 'o') return;
      var i = state.sel.indexOf(box.value);
      if (box.checked && i < 0 && state.sel.length < MAX_COMPARE) state.sel.push(box.value);
      if (!box.checked && i >= 0) state.sel.splice(i, 1);
      writeURL();
      body.querySelectorAll('input[name="o"]').forEach(function (b) { b.disabled = !b.checked && state.sel.length >= MAX_COMPARE; });
      renderCount(view.length, Math.max(1, Math.ceil(view.length / PAGE)));
    });
    form.addEventListener('submit', function (e) {
      e.preventDefault();
      if (state.sel.length >= 2) location.href = document.getElementById('compare-link').href;
    });
    document.getElementById('compare-link').addEventListener('click', function (e) {
      if (state.sel.length < 2) { e.preventDefault(); status(text('js.compare_need')); }
    });
    pager.querySelector('.prev').addEventListener('click', function () { state.page--; update(); });
    pager.querySelector('.next').addEventListener('click', function () { state.page++; update(); });
  }

  // E is what the controls (static/explorer-controls.js) and tests use.
  var E = {
    state: function () { return state; },
    set: function (s) { Object.keys(s).forEach(function (k) { state[k] = s[k]; }); },
    setView: setView, update: update, apply: apply, sync: function () {}, cols: function () { return colsOf(state); },
    colLabel: colLabel, defaults: DEFAULT_COLS, view: function () { return V; },
    setExprError: function (el) { exprError = el; showExprErrors(); },
    timings: function () { return timings; },
    parse: function (x) { return F.parse(x, { scenarios: V.scenarios.map(function (s) { return s.id; }) }); },
    errors: function () { return lastErrors.map(function (e) { return F.message(e, text); }); },
    csv: toCSV, markdown: toMarkdown,
    rows: function () { return V.rows; },
    shown: function () { return view; }
  };

  A.load(cfg.data).then(function (d) {
    V = W.prepare(d);
    state = readURL();
    window.GPUAtlasControls.build(E);
    wireActions();
    update();
    table.dataset.ready = '1';
  }).catch(function (err) {
    count.textContent = text('js.load_error') + ' (' + err.message + ')';
    throw err;
  });

  // For tests and the curious: the view's state and its functions.
  window.GPUAtlasExplorer = E;
})();
