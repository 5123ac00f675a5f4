// GPU Atlas offers explorer: filters, sorts and pages every offer from
// data/offers.json, with the columns the reader chooses, and keeps the whole view
// in the URL query so that it can be shared and reloaded exactly. Without
// JavaScript the server-rendered rows (the cheapest on-demand offers) stay as they
// are. Needs static/atlas.js.
(function () {
  'use strict';

  var A = window.GPUAtlas;
  var cfg = A && A.config('explorer-config');
  var table = document.getElementById('offers');
  if (!cfg || !table) return;
  A.init(cfg);
  var text = A.text, label = A.label, el = A.el;

  var PAGE = cfg.page_size || 100;
  var MAX_COMPARE = 4;
  var panel = document.getElementById('filters');
  var actions = document.getElementById('actions');
  var head = document.getElementById('offers-head');
  var body = document.getElementById('offers-body');
  var count = document.getElementById('row-count');
  var pager = document.getElementById('pager');
  var form = document.getElementById('compare-form');

  var data = null, rows = [];
  var state = null;
  var sortedCache = { key: '', list: null };
  var gpuNames = {}, regionNames = {};

  // Columns. kind: name (multi-select of codes), num (range), text (substring).
  // val is what filters and sorts; show is the cell's text (val when absent).
  function priceOf(r) { return r._price; }
  var COLS = [
    { id: 'provider', lbl: 'col.provider', kind: 'name', val: function (r) { return r.p; }, opt: function (v) { return label('provider', v); } },
    { id: 'type', lbl: 'col.instance_type', kind: 'text', val: function (r) { return r.id; }, cell: typeCell },
    { id: 'family', lbl: 'col.family', kind: 'name', val: function (r) { return r.family; } },
    { id: 'gpu', lbl: 'col.gpu_model', kind: 'name', val: function (r) { return r.unmapped ? 'unmapped:' + r.gpu : r.model; }, opt: function (v) { return gpuNames[v] || v || '—'; }, cell: gpuCell },
    { id: 'gpus', lbl: 'col.gpus', kind: 'num', val: function (r) { return r.units; } },
    { id: 'gpu_memory', lbl: 'col.gpu_mem_each', kind: 'num', val: function (r) { return r.gmemEach; } },
    { id: 'gpu_memory_total', lbl: 'col.gpu_mem', kind: 'num', val: function (r) { return r.gmem; } },
    { id: 'vcpus', lbl: 'col.vcpus', kind: 'num', val: function (r) { return r.vcpus; } },
    { id: 'memory', lbl: 'col.memory', kind: 'num', val: function (r) { return r.mem; } },
    { id: 'cpu_per_gpu', lbl: 'col.cpu_per_gpu', kind: 'num', val: function (r) { return r.cpuPerGPU; }, show: function (r) { return A.plain(r.cpuPerGPU); } },
    { id: 'disk', lbl: 'col.disk', kind: 'num', val: function (r) { return r.disk; }, show: function (r) { return r.disk ? r.disk + ' GB' + (r.nvme ? ' NVMe' : '') : '—'; } },
    { id: 'network', lbl: 'col.network', kind: 'num', val: function (r) { return r.gbps; }, show: function (r) { return r.net || '—'; } },
    { id: 'rdma', lbl: 'col.rdma', kind: 'name', val: function (r) { return r.rdma; } },
    { id: 'interconnect', lbl: 'col.interconnect', kind: 'name', val: function (r) { return r.ic; } },
    { id: 'region', lbl: 'col.region', kind: 'name', val: function (r) { return r.region; }, opt: function (v) { return regionNames[v] ? regionNames[v] + ' · ' + v : v; }, cell: regionCell },
    { id: 'zone', lbl: 'col.zone', kind: 'text', val: function (r) { return r.zone || r.zones; }, cell: zoneCell },
    { id: 'billing', lbl: 'col.billing', kind: 'name', val: function (r) { return r.billing; }, sortv: function (r) { return r.billingRank; }, opt: function (v) { return label('billing', v); } },
    // In the offers' own currencies, prices sort by their USD worth, so that CNY
    // and USD figures still come in order of cost.
    { id: 'price', lbl: 'col.price_x', kind: 'num', price: true, val: priceOf, sortv: function (r) { return r._sp; } },
    { id: 'gpu_price', lbl: 'col.gpu_price_x', kind: 'num', price: true, val: function (r) { return r._gpu; }, sortv: function (r) { return r._sp === null || !(r.units > 0) ? null : r._sp / r.units; } },
    { id: 'gib_price', lbl: 'col.gib_price_x', kind: 'num', price: true, val: function (r) { return r._gib; }, sortv: function (r) { return r._sp === null || !(r.gmem > 0) ? null : r._sp / r.gmem; } },
    { id: 'published', lbl: 'col.price_published', kind: 'num', val: function (r) { return r.amount; }, show: A.published, cls: 'pub' },
    { id: 'availability', lbl: 'col.availability', kind: 'name', val: function (r) { return r.avail; }, opt: function (v) { return label('avail', v); } },
    { id: 'fetched', lbl: 'col.fetched_at', kind: 'text', val: function (r) { return r.fetched; }, show: function (r) { return A.when(r.fetched); } },
    { id: 'marks', lbl: 'col.marks', kind: 'name', val: marksCode, opt: function (v) { return v ? label('badge', v) : text('filter.none'); }, cell: marksCell },
    { id: 'work', lbl: 'col.work', kind: 'num', work: true, val: function (r) { return r._work; }, cell: workCell }
  ];
  var byId = {};
  COLS.forEach(function (c) { byId[c.id] = c; });
  var DEFAULT_COLS = cfg.columns || ['provider', 'type', 'gpu', 'gpus', 'gpu_memory_total', 'vcpus', 'memory', 'price', 'gpu_price', 'billing', 'region', 'availability', 'marks'];
  // Other names the filter expression accepts for a column.
  var ALIASES = {
    instance_type: 'type', instance: 'type', gpu_model: 'gpu', model: 'gpu', gpu_count: 'gpus', count: 'gpus',
    gpu_mem: 'gpu_memory', vram: 'gpu_memory', gpu_memory_each: 'gpu_memory', total_gpu_memory: 'gpu_memory_total',
    cpu: 'vcpus', vcpu: 'vcpus', mem: 'memory', ram: 'memory', local_disk: 'disk', net: 'network', efa: 'rdma',
    nvlink: 'interconnect', zones: 'zone', avail: 'availability', fetched_at: 'fetched', last_seen: 'fetched',
    per_gpu: 'gpu_price', price_per_gpu: 'gpu_price', gpu_hour: 'gpu_price', price_per_gib: 'gib_price', mark: 'marks'
  };
  var NUM_OPS = ['>=', '<=', '!=', '>', '<', '='];

  // marksCode is the mark a row is filtered and sorted by: the gravest it has.
  function marksCode(r) {
    return r.synthetic ? 'synthetic' : r.suspect ? 'suspect' : r.stale || r.old ? 'stale' : r.undated ? 'undated' : r.reported ? 'reported' : '';
  }

  // --- state and URL --------------------------------------------------------

  function defaultState() {
    return {
      cols: DEFAULT_COLS.slice(), sort: 'price', dir: 'asc', page: 1, cur: 'USD', per: 'hour', syn: '1', sus: '0', q: '', x: '', wl: '',
      f: { billing: { in: ['on_demand'] } }, sel: []
    };
  }

  function readURL() {
    var q = new URLSearchParams(location.search);
    var s = defaultState();
    var cols = q.get('cols');
    if (cols !== null) s.cols = cols.split(',').filter(function (c) { return byId[c]; });
    if (!s.cols.length) s.cols = DEFAULT_COLS.slice();
    if (q.get('sort') !== null) s.sort = byId[q.get('sort')] ? q.get('sort') : '';
    if (q.get('dir') === 'desc') s.dir = 'desc';
    s.page = Math.max(1, parseInt(q.get('page'), 10) || 1);
    ['cur', 'per', 'syn', 'sus', 'q', 'x', 'wl'].forEach(function (k) { if (q.get(k) !== null) s[k] = q.get(k); });
    if (s.cur !== 'native' && A.rate(data.fx, s.cur) === null) s.cur = 'native';
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
    var d = defaultState();
    if (state.cols.join(',') !== d.cols.join(',')) q.set('cols', state.cols.join(','));
    COLS.forEach(function (c) {
      var v = filterParam(c, state.f[c.id]);
      var dv = filterParam(c, d.f[c.id]);
      if (v !== dv && !(v === null && dv === '')) {
        if (v !== null) q.set(c.id, v);
        else if (dv !== null) q.set(c.id, '');
      }
    });
    ['q', 'x', 'cur', 'per', 'syn', 'sus', 'wl'].forEach(function (k) { if (state[k] !== d[k]) q.set(k, state[k]); });
    if (state.sort !== d.sort) q.set('sort', state.sort);
    if (state.dir !== d.dir) q.set('dir', state.dir);
    if (state.page > 1) q.set('page', String(state.page));
    state.sel.forEach(function (k) { q.append('o', k); });
    var s = q.toString();
    history.replaceState(null, '', s ? '?' + s : location.pathname);
    A.keepQueryOnLanguageSwitch();
  }

  // --- the filter expression --------------------------------------------------

  function column(name) {
    name = name.toLowerCase();
    return byId[ALIASES[name] || name] || null;
  }

  // nameMatcher matches a name column's value by code or display name.
  function nameTexts(c, r) {
    var v = c.val(r);
    return [String(v).toLowerCase(), String(c.opt ? c.opt(v) : v).toLowerCase()];
  }

  // parse reads a filter expression such as "gpu_memory>=80 gpus>=8
  // provider:aws,alibaba" into tests on rows. Terms are separated by spaces;
  // field:a,b matches any of the values (as part of the code or the name shown),
  // field=a exactly, -field:a excludes; numbers compare with > >= < <= = !=;
  // a bare word searches every name. Terms it cannot read are returned as errors.
  function parse(expr) {
    var tests = [], errors = [], words = [];
    (expr || '').trim().split(/\s+/).forEach(function (tok) {
      if (!tok) return;
      var m = /^(-?)([A-Za-z_]+)(>=|<=|!=|>|<|=|:)(.*)$/.exec(tok);
      if (!m) { words.push(tok.toLowerCase()); return; }
      var neg = m[1] === '-', c = column(m[2]), op = m[3], raw = m[4];
      if (!c || raw === '' || (c.work && !state.wl)) { errors.push(tok); return; }
      var vals = raw.toLowerCase().split(',').filter(function (v) { return v !== ''; });
      var t = null;
      if (c.kind === 'num') {
        var nums = vals.map(parseFloat);
        if (nums.some(isNaN)) { errors.push(tok); return; }
        var x = nums[0];
        switch (op) {
          case '>=': t = function (r) { var v = c.val(r); return v !== null && v >= x; }; break;
          case '<=': t = function (r) { var v = c.val(r); return v !== null && v <= x; }; break;
          case '>': t = function (r) { var v = c.val(r); return v !== null && v > x; }; break;
          case '<': t = function (r) { var v = c.val(r); return v !== null && v < x; }; break;
          case '!=': t = function (r) { return nums.indexOf(c.val(r)) < 0; }; break;
          default: t = function (r) { var v = c.val(r); return nums.some(function (n) { return Math.abs(v - n) < 1e-9; }); };
        }
      } else {
        if (NUM_OPS.indexOf(op) >= 0 && op !== '=' && op !== '!=') { errors.push(tok); return; }
        var exact = op === '=' || op === '!=';
        var hit = function (r) {
          var ts = c.kind === 'name' ? nameTexts(c, r) : [String(c.val(r)).toLowerCase()];
          return vals.some(function (v) {
            return ts.some(function (s) { return exact ? s === v : s.indexOf(v) >= 0; });
          });
        };
        t = op === '!=' ? function (r) { return !hit(r); } : hit;
      }
      tests.push(neg ? function (r) { return !t(r); } : t);
    });
    if (words.length) tests.push(function (r) { return words.every(function (w) { return r.hay.indexOf(w) >= 0; }); });
    return { tests: tests, errors: errors };
  }

  // --- filtering, sorting, rendering -----------------------------------------

  // reprice fills each row's figures in the chosen currency and period.
  var pricedAs = '';
  function reprice() {
    var k = state.cur + '|' + state.per + '|' + state.wl;
    if (k === pricedAs) return;
    pricedAs = k;
    var h = A.HOURS[state.per], wl = state.wl === '' ? -1 : parseInt(state.wl, 10);
    for (var i = 0; i < rows.length; i++) {
      var r = rows[i];
      var p = A.hourlyIn(data.fx, r, state.cur);
      r._price = p === null ? null : p * h;
      r._gpu = p === null || !(r.units > 0) ? null : p * h / r.units;
      r._gib = p === null || !(r.gmem > 0) ? null : p * h / r.gmem;
      r._sp = r._price;
      if (state.cur === 'native') { var u = A.hourlyIn(data.fx, r, 'USD'); r._sp = u === null ? null : u * h; }
      r._work = null;
      if (r.work && wl >= 0) {
        for (var j = 0; j < r.work.length; j++) if (r.work[j][0] === wl) { r._work = r.work[j][1]; r._measured = r.work[j][2] === 1; }
      }
    }
  }

  function predicates() {
    var tests = [];
    COLS.forEach(function (c) {
      var f = state.f[c.id];
      if (!f) return;
      if (c.kind === 'name' && f.in.length) {
        var set = {};
        f.in.forEach(function (v) { set[v] = true; });
        tests.push(function (r) { return set[c.val(r)] === true; });
      } else if (c.kind === 'num') {
        var lo = parseFloat(f.min), hi = parseFloat(f.max);
        if (!isNaN(lo)) tests.push(function (r) { var v = c.val(r); return v !== null && v >= lo; });
        if (!isNaN(hi)) tests.push(function (r) { var v = c.val(r); return v !== null && v <= hi; });
      } else if (c.kind === 'text' && f.has) {
        var s = f.has.toLowerCase();
        tests.push(function (r) { return String(c.val(r)).toLowerCase().indexOf(s) >= 0; });
      }
    });
    if (state.syn === '0') tests.push(function (r) { return !r.synthetic; });
    if (state.sus !== '1') tests.push(function (r) { return !r.suspect; });
    if (state.q) {
      var words = state.q.toLowerCase().split(/\s+/).filter(Boolean);
      tests.push(function (r) { return words.every(function (w) { return r.hay.indexOf(w) >= 0; }); });
    }
    var p = parse(state.x);
    showExprErrors(p.errors);
    return tests.concat(p.tests);
  }

  function sortKey(c) {
    if (c.sortv) return c.sortv;
    if (c.kind === 'num') return c.val;
    if (c.opt) return function (r) { return String(c.opt(c.val(r))).toLowerCase(); };
    return function (r) { return String(c.val(r)).toLowerCase(); };
  }

  // sorted is every row in the view's order; it is cached, so that filtering only
  // walks a sorted list.
  function sorted() {
    var c = byId[state.sort];
    var k = state.sort + '|' + state.dir + '|' + pricedAs;
    if (sortedCache.key === k) return sortedCache.list;
    var list = rows.slice();
    if (c) {
      var f = sortKey(c), desc = state.dir === 'desc';
      var keyed = list.map(function (r) { return { r: r, v: f(r) }; });
      keyed.sort(function (a, b) {
        var x = a.v, y = b.v;
        var ex = x === null || x === undefined || x === '', ey = y === null || y === undefined || y === '';
        if (ex || ey) return ex && ey ? a.r.i - b.r.i : ex ? 1 : -1; // missing figures go last
        var d = x < y ? -1 : x > y ? 1 : 0;
        return (desc ? -d : d) || a.r.i - b.r.i;
      });
      list = keyed.map(function (k) { return k.r; });
    }
    sortedCache = { key: k, list: list };
    return list;
  }

  var view = [];
  // apply filters, sorts and renders the current page; returns the rows that match.
  var timings = {};
  function apply() {
    var t0 = performance.now();
    reprice();
    var tests = predicates(), n = tests.length;
    var all = sorted();
    var out = [];
    outer: for (var i = 0; i < all.length; i++) {
      for (var j = 0; j < n; j++) if (!tests[j](all[i])) continue outer;
      out.push(all[i]);
    }
    view = out;
    var t1 = performance.now();
    var pages = Math.max(1, Math.ceil(out.length / PAGE));
    if (state.page > pages) state.page = pages;
    renderHead();
    renderBody(out.slice((state.page - 1) * PAGE, state.page * PAGE));
    renderCount(out.length, pages);
    timings = { filter: t1 - t0, render: performance.now() - t1 };
    return out;
  }

  function colLabel(c) {
    if (c.price) {
      return A.fill(text(c.lbl), { cur: state.cur === 'native' ? text('filter.native') : state.cur, unit: label('unit', state.per) });
    }
    if (c.work) {
      var w = data.workloads[parseInt(state.wl, 10)];
      return w ? w[1] + ' (' + w[0] + ')' : text(c.lbl);
    }
    return text(c.lbl);
  }

  function visibleCols() {
    return state.cols.map(function (id) { return byId[id]; }).filter(function (c) { return c && (!c.work || state.wl !== ''); });
  }

  var headKey = '';
  function renderHead() {
    var cols = visibleCols();
    var k = cols.map(function (c) { return c.id; }).join() + '|' + state.sort + state.dir + state.cur + state.per + state.wl;
    if (k === headKey) return;
    headKey = k;
    var tr = el('tr');
    var sel = el('th', 'sel');
    sel.scope = 'col';
    sel.append(el('span', 'visually-hidden', text('js.compare_col')), '✓');
    tr.appendChild(sel);
    cols.forEach(function (c) {
      var th = el('th', c.kind === 'num' ? 'num' : '');
      th.scope = 'col';
      th.dataset.sort = c.id;
      var b = el('button', 'sort', colLabel(c));
      b.type = 'button';
      b.addEventListener('click', function () {
        if (state.sort === c.id) state.dir = state.dir === 'asc' ? 'desc' : 'asc';
        else { state.sort = c.id; state.dir = 'asc'; }
        state.page = 1;
        update();
        var again = head.querySelector('th[data-sort="' + c.id + '"] button');
        if (again) again.focus();
      });
      th.appendChild(b);
      if (state.sort === c.id) th.setAttribute('aria-sort', state.dir === 'desc' ? 'descending' : 'ascending');
      tr.appendChild(th);
    });
    head.replaceChildren(tr);
  }

  // Cells are written as HTML text: building the page of rows with innerHTML is
  // several times faster than node by node. Every value goes through esc.
  var esc = A.esc;

  function typeCell(r) { return '<a href="' + esc(cfg.prefix + r.href) + '">' + esc(r.id) + '</a>'; }

  function gpuCell(r) {
    if (!r.gpu) return '—';
    if (r.unmapped) return esc(r.gpu) + ' ' + A.badgeHTML('warn', text('badge.unmapped'), text('badge.unmapped_title'));
    return esc(r.gpu) + ' <small class="id">' + esc(r.model) + '</small>';
  }

  function regionCell(r) { return esc(A.regionName(r)) + ' <small class="id">' + esc(r.region) + '</small>'; }

  function zoneCell(r) {
    if (r.zone) return esc(r.zone);
    return r.zones ? '<small class="zones">' + esc(r.zones) + '</small>' : '';
  }

  function marksCell(r) { return A.marksHTML(r); }

  function workCell(r) {
    if (r._work === null) return '';
    return esc(A.money(r._work)) + ' ' + A.badgeHTML(r._measured ? 'measured' : 'estimated', text(r._measured ? 'js.measured' : 'js.estimated'));
  }

  function cellText(c, r) {
    if (c.price) {
      var v = c.val(r);
      return v === null ? '' : A.money(v) + ' ' + (state.cur === 'native' ? r.cur : state.cur);
    }
    if (c.show) return c.show(r);
    var x = c.val(r);
    if (c.kind === 'name') return x ? (c.opt ? c.opt(x) : x) : '—';
    return x === null || x === undefined ? '' : String(x);
  }

  var selectLabel = null; // the checkbox label's text before and after the key
  function renderRow(r, cols, selected) {
    var on = !!selected[r.key], key = esc(r.key);
    if (!selectLabel) selectLabel = esc(text('js.select_row')).split('{key}');
    var h = '<tr data-key="' + key + '"><td class="sel"><input type="checkbox" name="o" value="' + key + '"' +
      (on ? ' checked' : '') + (!on && state.sel.length >= MAX_COMPARE ? ' disabled' : '') +
      ' aria-label="' + selectLabel.join(key) + '"></td>';
    for (var i = 0; i < cols.length; i++) {
      var c = cols[i];
      h += '<td class="' + (c.kind === 'num' ? 'num ' : '') + 'c-' + c.id + (c.cls ? ' ' + c.cls : '') + '">' +
        (c.cell ? c.cell(r) : esc(cellText(c, r))) + '</td>';
    }
    return h + '</tr>';
  }

  function renderBody(page) {
    var cols = visibleCols();
    var selected = {};
    state.sel.forEach(function (k) { selected[k] = true; });
    var h = '';
    for (var i = 0; i < page.length; i++) h += renderRow(page[i], cols, selected);
    body.innerHTML = h;
  }

  function renderCount(n, pages) {
    count.textContent = A.fill(count.dataset.fmt, { n: n, m: rows.length });
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
  }

  var exprError = null;
  function showExprErrors(errs) {
    if (!exprError) return;
    exprError.textContent = errs.length ? A.fill(text('js.expr_error'), { terms: errs.join(' ') }) : '';
  }

  function update() { writeURL(); apply(); syncControls(); }

  // --- exports ----------------------------------------------------------------

  function exportTable() {
    var cols = visibleCols();
    var header = cols.map(colLabel);
    var native = state.cur === 'native' && cols.some(function (c) { return c.price; });
    if (native) header.push(text('col.currency'));
    var lines = view.map(function (r) {
      var cells = cols.map(function (c) {
        if (c.price || c.work) { var v = c.val(r); return v === null ? '' : A.money(v); }
        if (c.id === 'gpu') return r.gpu || '';
        if (c.id === 'region') return r.region;
        if (c.id === 'marks') {
          return [r.synthetic ? 'synthetic' : '', r.reported ? 'reported' : '', r.suspect ? 'suspect' : '', r.stale || r.old ? 'stale' : '',
            r.undated ? 'undated' : ''].filter(Boolean).join(' ');
        }
        if (c.id === 'zone') return r.zone || r.zones;
        return cellText(c, r);
      });
      if (native) cells.push(r.cur);
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

  // --- controls ---------------------------------------------------------------

  var controls = []; // {sync: function}
  function syncControls() { controls.forEach(function (c) { c.sync(); }); }

  function field(lbl, input) {
    var l = el('label', 'field');
    l.append(el('span', '', lbl), input);
    return l;
  }

  function debounced(fn) {
    var timer = 0;
    return function () { clearTimeout(timer); timer = setTimeout(fn, 150); };
  }

  function textInput(id, lbl, get, set, type) {
    var i = el('input');
    i.id = id;
    i.type = type || 'search';
    i.autocomplete = 'off';
    if (type === 'number') { i.step = 'any'; i.inputMode = 'decimal'; }
    i.addEventListener('input', debounced(function () { set(i.value.trim()); state.page = 1; update(); }));
    controls.push({ sync: function () { if (document.activeElement !== i) i.value = get(); } });
    return field(lbl, i);
  }

  function select(id, lbl, options, get, set) {
    var s = el('select');
    s.id = id;
    options.forEach(function (o) { var op = el('option', '', o[1]); op.value = o[0]; s.appendChild(op); });
    s.addEventListener('change', function () { set(s.value); state.page = 1; update(); });
    controls.push({ sync: function () { s.value = get(); } });
    return field(lbl, s);
  }

  // multi is a drop-down list of checkboxes for a name column.
  function multi(c, values) {
    var d = el('details', 'ms');
    d.id = 'f-' + c.id;
    var sum = el('summary');
    var box = el('div', 'ms-box');
    box.setAttribute('role', 'group');
    box.setAttribute('aria-label', text(c.lbl));
    var inputs = [];
    values.forEach(function (v) {
      var l = el('label');
      var i = el('input');
      i.type = 'checkbox';
      i.value = v;
      i.addEventListener('change', function () {
        state.f[c.id] = { in: inputs.filter(function (x) { return x.checked; }).map(function (x) { return x.value; }) };
        state.page = 1;
        update();
      });
      inputs.push(i);
      l.append(i, ' ' + (v === '' ? text('filter.none') : c.opt ? c.opt(v) : v));
      box.appendChild(l);
    });
    d.append(sum, box);
    controls.push({
      sync: function () {
        var f = state.f[c.id], set = {};
        (f ? f.in : []).forEach(function (v) { set[v] = true; });
        inputs.forEach(function (i) { i.checked = !!set[i.value]; });
        var n = f ? f.in.length : 0;
        var what = n === 0 ? text('filter.any') : n === 1 ? (f.in[0] === '' ? text('filter.none') : c.opt ? c.opt(f.in[0]) : f.in[0]) : A.fill(text('js.n_selected'), { n: n });
        sum.textContent = text(c.lbl) + ': ' + what;
      }
    });
    return d;
  }

  function range(c) {
    var fs = el('fieldset', 'range');
    fs.id = 'f-' + c.id;
    fs.appendChild(el('legend', '', c.price ? text(c.lbl.replace('_x', '')) : text(c.lbl)));
    ['min', 'max'].forEach(function (k) {
      var i = el('input');
      i.type = 'number';
      i.step = 'any';
      i.inputMode = 'decimal';
      i.id = 'f-' + c.id + '-' + k;
      i.setAttribute('aria-label', text(c.price ? c.lbl.replace('_x', '') : c.lbl) + ' ' + text('filter.' + k));
      i.placeholder = text('filter.' + k);
      i.addEventListener('input', debounced(function () {
        var f = state.f[c.id] || { min: '', max: '' };
        f[k] = i.value.trim();
        state.f[c.id] = f;
        state.page = 1;
        update();
      }));
      controls.push({ sync: function () { if (document.activeElement !== i) i.value = state.f[c.id] ? state.f[c.id][k] || '' : ''; } });
      fs.appendChild(i);
    });
    return fs;
  }

  function distinct(c) {
    var seen = {}, out = [];
    rows.forEach(function (r) { var v = c.val(r); if (!seen[v]) { seen[v] = true; out.push(v); } });
    return out.sort(function (a, b) {
      var x = String(c.opt ? c.opt(a) : a).toLowerCase(), y = String(c.opt ? c.opt(b) : b).toLowerCase();
      return x < y ? -1 : x > y ? 1 : 0;
    });
  }

  // insertAt is where a column the reader adds goes: after the nearest column
  // before it in COLS that is shown, so the reader's order is kept.
  function insertAt(id) {
    for (var k = COLS.indexOf(byId[id]) - 1; k >= 0; k--) {
      var at = state.cols.indexOf(COLS[k].id);
      if (at >= 0) return at + 1;
    }
    return 0;
  }

  function buildPanel() {
    var top = el('div', 'filter-row');
    var expr = textInput('filter-x', text('filter.expression'), function () { return state.x; }, function (v) { state.x = v; });
    expr.classList.add('wide');
    var hint = el('small', 'hint', text('filter.expression_hint'));
    hint.id = 'filter-x-hint';
    expr.querySelector('input').setAttribute('aria-describedby', 'filter-x-hint filter-x-error');
    expr.querySelector('input').placeholder = 'gpu_memory>=80 gpus>=8 provider:aws,alibaba';
    expr.appendChild(hint);
    exprError = el('small', 'error');
    exprError.id = 'filter-x-error';
    exprError.setAttribute('role', 'status');
    expr.appendChild(exprError);
    top.append(expr, textInput('filter-q', text('filter.search'), function () { return state.q; }, function (v) { state.q = v; }));

    var second = el('div', 'filter-row');
    ['provider', 'gpu', 'region', 'billing'].forEach(function (id) { second.appendChild(multi(byId[id], distinct(byId[id]))); });
    // The currencies offers are published in, and USD (the FX table may hold many more).
    var published = { USD: true };
    rows.forEach(function (r) { published[r.cur] = true; });
    var curs = Object.keys(published).sort().filter(function (c) { return A.rate(data.fx, c) !== null; }).map(function (c) { return [c, c]; });
    curs.push(['native', text('filter.native')]);
    second.appendChild(select('filter-currency', text('filter.currency'), curs, function () { return state.cur; }, function (v) { state.cur = v; }));
    second.appendChild(select('filter-per', text('filter.per'), ['hour', 'month', 'year'].map(function (u) { return [u, text('per.' + u)]; }),
      function () { return state.per; }, function (v) { state.per = v; }));
    if (data.workloads.length) {
      var wls = [['', text('filter.no_workload')]].concat(data.workloads.map(function (w, i) { return [String(i), w[0]]; }));
      second.appendChild(select('filter-workload', text('filter.workload'), wls, function () { return state.wl; }, function (v) {
        state.wl = v;
        if (v !== '' && state.cols.indexOf('work') < 0) state.cols.push('work');
      }));
    }
    var syn = el('input');
    syn.type = 'checkbox';
    syn.id = 'filter-synthetic';
    syn.addEventListener('change', function () { state.syn = syn.checked ? '1' : '0'; state.page = 1; update(); });
    controls.push({ sync: function () { syn.checked = state.syn !== '0'; } });
    var synLabel = el('label', 'check');
    synLabel.append(syn, ' ', text('filter.synthetic'));
    second.appendChild(synLabel);
    var sus = el('input');
    sus.type = 'checkbox';
    sus.id = 'filter-suspect';
    sus.addEventListener('change', function () { state.sus = sus.checked ? '1' : '0'; state.page = 1; update(); });
    controls.push({ sync: function () { sus.checked = state.sus === '1'; } });
    var susLabel = el('label', 'check');
    susLabel.append(sus, ' ', text('filter.suspect'));
    second.appendChild(susLabel);

    var colsBox = el('details', 'ms cols');
    colsBox.id = 'choose-columns';
    colsBox.appendChild(el('summary', '', text('filter.columns')));
    var cb = el('div', 'ms-box');
    cb.setAttribute('role', 'group');
    cb.setAttribute('aria-label', text('filter.columns'));
    COLS.forEach(function (c) {
      if (c.work && !data.workloads.length) return;
      var l = el('label');
      var i = el('input');
      i.type = 'checkbox';
      i.value = c.id;
      i.addEventListener('change', function () {
        var at = state.cols.indexOf(c.id);
        if (!i.checked && at >= 0) state.cols.splice(at, 1);
        if (i.checked && at < 0) state.cols.splice(insertAt(c.id), 0, c.id);
        if (!state.cols.length) state.cols = DEFAULT_COLS.slice();
        update();
      });
      controls.push({ sync: function () { i.checked = state.cols.indexOf(c.id) >= 0; } });
      l.append(i, ' ' + (c.price ? text(c.lbl.replace('_x', '')) : text(c.lbl)));
      cb.appendChild(l);
    });
    colsBox.appendChild(cb);
    second.appendChild(colsBox);
    var reset = el('a', 'reset', text('filter.reset'));
    reset.id = 'filter-reset';
    reset.href = location.pathname;
    second.appendChild(reset);

    var more = el('details', 'more');
    more.id = 'more-filters';
    more.appendChild(el('summary', '', text('filter.more')));
    var grid = el('div', 'more-grid');
    COLS.forEach(function (c) {
      if (['provider', 'gpu', 'region', 'billing'].indexOf(c.id) >= 0 || (c.work && !data.workloads.length)) return;
      if (c.kind === 'name') grid.appendChild(multi(c, distinct(c)));
      else if (c.kind === 'num') grid.appendChild(range(c));
      else {
        var f = textInput('f-' + c.id, text(c.lbl), function () { return state.f[c.id] ? state.f[c.id].has : ''; },
          function (v) { state.f[c.id] = { has: v }; });
        grid.appendChild(f);
      }
    });
    more.appendChild(grid);
    panel.replaceChildren(top, second, more);

    // A drop-down closes on Escape or a click elsewhere.
    document.addEventListener('click', function (e) {
      document.querySelectorAll('details.ms[open]').forEach(function (d) { if (!d.contains(e.target)) d.open = false; });
    });
    document.addEventListener('keydown', function (e) {
      if (e.key !== 'Escape') return;
      document.querySelectorAll('details.ms[open]').forEach(function (d) { d.open = false; d.querySelector('summary').focus(); });
    });
  }

  function status(msg) { document.getElementById('action-status').textContent = msg; }

  function wireActions() {
    document.getElementById('download-csv').addEventListener('click', function () {
      A.download('gpuatlas-offers.csv', 'text/csv;charset=utf-8', toCSV());
      status(A.fill(text('js.downloaded'), { n: view.length }));
    });
    document.getElementById('download-md').addEventListener('click', function () {
      A.download('gpuatlas-offers.md', 'text/markdown;charset=utf-8', toMarkdown());
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

  function prepare() {
    rows.forEach(function (r) {
      if (r.model && !r.unmapped) gpuNames[r.model] = r.gpu;
      if (r.unmapped) gpuNames['unmapped:' + r.gpu] = r.gpu + ' (' + text('badge.unmapped') + ')';
      regionNames[r.region] = regionNames[r.region] || A.regionName(r);
      r.hay = [r.p, label('provider', r.p), r.id, r.family, r.gpu, r.model, r.region, A.regionName(r), r.zone, r.zones, r.city, r.country].join(' ').toLowerCase();
    });
  }

  A.load(cfg.data).then(function (d) {
    data = d;
    rows = d.rows;
    prepare();
    state = readURL();
    buildPanel();
    wireActions();
    panel.hidden = false;
    actions.hidden = false;
    update();
    table.dataset.ready = '1';
  }).catch(function (err) {
    count.textContent = text('js.load_error') + ' (' + err.message + ')';
    throw err;
  });

  // For tests and the curious: the view's state and its functions.
  window.GPUAtlasExplorer = {
    state: function () { return state; },
    set: function (s) { Object.keys(s).forEach(function (k) { state[k] = s[k]; }); },
    apply: apply,
    timings: function () { return timings; },
    update: update,
    parse: parse,
    csv: toCSV,
    markdown: toMarkdown,
    rows: function () { return rows; }
  };
})();
