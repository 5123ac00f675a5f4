// GPU Atlas TCO calculator, the page: reads tco.html's form and URL, computes
// with static/tco.js (globalThis.GPUAtlasTCO, loaded first) and draws the
// tables and charts in the page's language. Vanilla JavaScript, nothing loaded
// from other hosts.
(function () {
  'use strict';
  var api = globalThis.GPUAtlasTCO;
  if (typeof document === 'undefined' || !api) return;
  var lib = api.lib;
  var COST_PLACES = lib.COST_PLACES, HUNDRED = lib.HUNDRED, MAX_MINUTES = lib.MAX_MINUTES, MONEY_PLACES = lib.MONEY_PLACES, ModelError = lib.ModelError,
    ONE = lib.ONE, RATE_PLACES = lib.RATE_PLACES, cmp = lib.cmp, conv = lib.conv, dec = lib.dec,
    divRound = lib.divRound, fmtMoney = lib.fmtMoney, fmtPct = lib.fmtPct, fmtQty = lib.fmtQty, fmtRate = lib.fmtRate,
    inputOf = lib.inputOf, lossHours = lib.lossHours, mul = lib.mul, sign = lib.sign, str = lib.str,
    tco = lib.tco;

  // ---- the page --------------------------------------------------------------
  var cfgEl = document.getElementById('tco-config');
  if (!cfgEl) return;
  var cfg = JSON.parse(cfgEl.textContent);
  var L = cfg.labels || {};
  function text(k) { return L[k] === undefined ? k : L[k]; }
  function fill(s, vals) { return s.replace(/\{(\w+)\}/g, function (m, k) { return vals[k] === undefined ? m : String(vals[k]); }); }
  function el(tag, cls, txt) { var e = document.createElement(tag); if (cls) e.className = cls; if (txt !== undefined && txt !== null) e.textContent = txt; return e; }

  var form = document.getElementById('calc-form');
  var out = document.getElementById('calc-out');
  var errEl = document.getElementById('calc-error');
  var sel = document.getElementById('calc-scenario');
  var groupsBox = document.getElementById('calc-groups');
  var offersBox = document.getElementById('calc-offers');
  var jsonBox = document.getElementById('calc-json');
  var curSel = document.getElementById('calc-currency');
  var chartsBox = document.getElementById('calc-charts');
  var jsonPre = document.getElementById('calc-input');
  var spotLeftEl = document.getElementById('calc-spot-left');
  var byID = {};
  cfg.scenarios.forEach(function (s) { byID[s.id] = s; });

  // Billing groups: one checkbox each, the preset's ticked.
  var presetGroups = {};
  cfg.preset_groups.forEach(function (g) { presetGroups[g] = true; });
  cfg.groups.forEach(function (g) {
    var lab = el('label', 'check');
    var box = el('input');
    box.type = 'checkbox'; box.value = g; box.id = 'calc-group-' + g; box.checked = !!presetGroups[g];
    lab.htmlFor = box.id;
    lab.appendChild(box);
    lab.appendChild(document.createTextNode(' ' + text('tco.group.' + g)));
    groupsBox.appendChild(lab);
  });

  function scenario() { return byID[sel.value]; }

  function buildOffers() {
    var s = scenario();
    [].slice.call(offersBox.querySelectorAll('label')).forEach(function (n) { n.remove(); });
    s.offers.forEach(function (o, i) {
      var lab = el('label', 'check');
      var box = el('input');
      box.type = 'checkbox'; box.value = o.key; box.id = 'calc-offer-' + i; box.checked = o.preset;
      lab.htmlFor = box.id;
      lab.appendChild(box);
      lab.appendChild(document.createTextNode(' ' + o.instance + ' · ' + o.region + ' · ' + o.hardware));
      offersBox.appendChild(lab);
    });
    document.getElementById('calc-hours-label').textContent = fill(text('tcojs.base_hours'), { base: s.base });
  }

  function num(id, pctInput) {
    var v = document.getElementById(id).value.trim().replace(/%$/, '').trim();
    var d;
    try { d = dec(v); } catch (e) { throw new Error(fill(text('tcojs.err_number'), { field: document.querySelector('label[for="' + id + '"]').textContent })); }
    if (sign(d) < 0) throw new Error(fill(text('tcojs.err_number'), { field: document.querySelector('label[for="' + id + '"]').textContent }));
    return pctInput ? divRound(d, HUNDRED, d.e + 2) : d;
  }

  function checked(box) {
    var on = {};
    [].slice.call(box.querySelectorAll('input:checked')).forEach(function (b) { on[b.value] = true; });
    return on;
  }

  // input is the TCO input of the controls, built as sitegen's calcInput builds
  // the preset: the job is the hours on the base × the base's speed.
  function input() {
    var s = scenario();
    var hours = num('calc-hours'), util = num('calc-util', true), idle = num('calc-idle');
    var ckpt = num('calc-ckpt'), restart = num('calc-restart');
    var rateV = document.getElementById('calc-rate').value.trim(), rate = rateV === '' ? null : num('calc-rate');
    if (sign(ckpt) <= 0 || cmp(ckpt, MAX_MINUTES) > 0 || cmp(restart, MAX_MINUTES) > 0 || (rate !== null && cmp(rate, HUNDRED) > 0)) throw new Error(text('tcojs.err_spot'));
    var mv = document.getElementById('calc-months').value.trim();
    if (!/^\d+$/.test(mv) || +mv < 1 || +mv > 600) throw new Error(text('tcojs.err_months'));
    if (sign(hours) <= 0) throw new Error(text('tcojs.err_hours'));
    if (sign(util) <= 0 || cmp(util, ONE) > 0) throw new Error(text('tcojs.err_util'));
    var built = inputOf(s, { hours: hours, utilisation: util, idle: idle, checkpoint_minutes: ckpt, restart_minutes: restart,
      spot_rate: rate, months: +mv, offers: checked(offersBox), groups: checked(groupsBox) });
    spotLeft = built.spot_left;
    if (built.input.options.length === 0) throw new Error(text('tcojs.err_none'));
    return built.input;
  }

  var spotLeft = [];

  function optLabel(o) {
    var parts = [];
    if (o.commitment) parts.push(text('billing.' + o.commitment.billing));
    if (o.pay_as_you_go) parts.push(text('billing.' + o.pay_as_you_go.billing));
    var id = o.instance.indexOf('/') >= 0 ? o.instance.slice(o.instance.indexOf('/') + 1) : o.instance;
    return id + ' · ' + parts.join(' + ');
  }

  function table(id, caption, heads, rows) {
    var wrap = el('div', 'scroll');
    wrap.tabIndex = 0;
    wrap.setAttribute('role', 'region');
    wrap.setAttribute('aria-label', caption);
    var t = el('table', 'data');
    t.id = id;
    t.appendChild(el('caption', null, caption));
    var th = el('thead'), tr = el('tr');
    heads.forEach(function (h, i) { var c = el('th', i && !h.left ? 'num' : null, h.text); c.scope = 'col'; if (h.option) c.dataset.option = h.option; tr.appendChild(c); });
    th.appendChild(tr); t.appendChild(th);
    var tb = el('tbody');
    rows.forEach(function (r) {
      var row = el('tr');
      if (r.option) row.dataset.option = r.option;
      r.cells.forEach(function (v, i) {
        var c = el(i ? 'td' : 'th', i && !heads[i].left ? 'num' : null, v);
        if (!i) c.scope = 'row';
        row.appendChild(c);
      });
      tb.appendChild(row);
    });
    t.appendChild(tb);
    wrap.appendChild(t);
    return wrap;
  }

  function render() {
    var s = scenario();
    var inp, res;
    errEl.textContent = '';
    try {
      inp = input();
      res = tco(inp);
    } catch (e) {
      errEl.textContent = e instanceof ModelError ? fill(text('tcojs.err_model'), { msg: e.message }) : e.message;
      out.replaceChildren();
      jsonBox.hidden = true;
      form.dataset.state = 'error';
      return;
    }
    var labels = {};
    inp.options.forEach(function (o) { labels[o.id] = optLabel(o); });
    // Money in the chosen currency: compare's TCOResult.InCurrency, each USD
    // figure times the snapshot's rate, rounded as the USD figure is.
    var cur = curSel && cfg.fx && curSel.value === cfg.fx.currency ? cfg.fx.currency : 'USD';
    var rate = cur === 'USD' ? null : dec(cfg.fx.rate);
    function money(x, places) { return rate === null ? x : conv(x, rate, places); }
    var nodes = [];
    nodes.push(table('calc-res', fill(text('tcojs.results_caption'), { months: inp.workload.horizon_months, unit: s.work_unit_label || s.work_unit }),
      [{ text: text('tco.col_option') }, { text: text('tco.col_speed') }, { text: fill(text('tcojs.col_per_hour'), { cur: cur }) }, { text: text('tco.col_needed') },
        { text: text('tco.col_committed') }, { text: text('tco.col_hours_job') }, { text: fill(text('tcojs.col_total'), { cur: cur }) }, { text: fill(text('tcojs.col_per_unit'), { cur: cur }) }],
      res.options.map(function (r, i) {
        return { option: r.id, cells: [labels[r.id], fmtQty(dec(inp.options[i].speed.work_per_hour)), fmtRate(money(r.usd_per_hour, RATE_PLACES)), fmtQty(r.needed_hours_per_month),
          inp.options[i].commitment ? String(r.committed_instances) : '—', fmtQty(r.hours_per_job), fmtMoney(money(r.total_usd, MONEY_PLACES)), fmtRate(money(r.cost_per_unit_usd, COST_PLACES))] };
      })));
    var heads = [{ text: text('tco.col_month') }].concat(res.options.map(function (r) { return { text: labels[r.id], option: r.id }; }));
    var rows = [], cum = res.options.map(function (r) { return r.cumulative_usd.map(function (x) { return money(x, MONEY_PLACES); }); });
    for (var m = 0; m < inp.workload.horizon_months; m++) {
      rows.push({ cells: [String(m + 1)].concat(cum.map(function (c) { return fmtMoney(c[m]); })) });
    }
    nodes.push(table('calc-cum', fill(text('tcojs.cum_caption_cur'), { cur: cur }), heads, rows));
    drawCharts(s, cur, res.options.map(function (r) { return labels[r.id]; }), cum,
      res.options.map(function (r) { return money(r.cost_per_unit_usd, COST_PLACES); }));
    var spotRows = [];
    res.options.forEach(function (r, i) {
      var rk = inp.options[i].pay_as_you_go && inp.options[i].pay_as_you_go.risk;
      if (!rk || !r.spot_lost_hours_per_month) return;
      spotRows.push({ option: r.id, cells: [labels[r.id], rk.band ? rk.band + ' (' + rk.band_observed_at + ')' : text('tcojs.band_entered'),
        fmtQty(dec(rk.interruptions_per_month)), fmtQty(lossHours(rk)), fmtQty(r.spot_interruptions_per_month), fmtQty(r.spot_lost_hours_per_month),
        fmtQty(r.pay_as_you_go_hours_per_month)] });
    });
    if (spotRows.length) {
      nodes.push(table('calc-spot', text('tcojs.spot_caption'),
        [{ text: text('tco.col_option') }, { text: text('tcojs.col_band'), left: true }, { text: text('tcojs.col_rate') }, { text: text('tcojs.col_loss') },
          { text: text('tcojs.col_interruptions') }, { text: text('tcojs.col_lost') }, { text: text('tcojs.col_spot_hours') }], spotRows));
    }
    if (res.break_evens.length) {
      nodes.push(table('calc-be', text('tcojs.be_caption'),
        [{ text: text('tco.col_commitment') }, { text: text('tco.col_against'), left: true }, { text: text('tco.col_be_hours') }, { text: text('tco.col_be_util') }],
        res.break_evens.map(function (b) {
          return { option: b.commitment, cells: [labels[b.commitment], labels[b.on_demand], fmtQty(b.hours_per_month), fmtPct(mul(b.utilisation, HUNDRED)) + ' %'] };
        })));
    }
    if (res.comparisons.length) {
      nodes.push(table('calc-cmp', text('tcojs.cmp_caption'),
        [{ text: text('tco.col_a') }, { text: text('tco.col_b'), left: true }, { text: text('tco.col_hourly_more') }, { text: text('tco.col_sooner') }, { text: text('tco.col_total_more') }],
        res.comparisons.map(function (c) {
          return { cells: [labels[c.a], labels[c.b], fmtPct(c.hourly_more_pct) + ' %', fmtPct(c.sooner_pct) + ' %', fmtPct(c.total_more_pct) + ' %'] };
        })));
    }
    out.replaceChildren.apply(out, nodes);
    spotLeftEl.hidden = spotLeft.length === 0;
    spotLeftEl.textContent = spotLeft.length ? fill(text('tcojs.spot_left_out'), { list: spotLeft.join(', ') }) : '';
    jsonPre.textContent = JSON.stringify(inp, null, 2);
    jsonBox.hidden = false;
    form.dataset.state = 'ok';
    writeURL();
  }

  // ---- charts: inline SVG, drawn from the tables' figures -------------------
  // The SVG namespace, as the HTML parser gives it (no address in the script).
  var SVG = (function () { var d = document.createElement('div'); d.innerHTML = '<svg></svg>'; return d.firstChild.namespaceURI; })();
  function svgEl(tag, attrs, txt) {
    var e = document.createElementNS(SVG, tag);
    Object.keys(attrs).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    if (txt !== undefined) e.textContent = txt;
    return e;
  }
  // tick is an axis label: three significant digits, thousands separated.
  function tick(v) {
    if (v === 0) return '0';
    var places = Math.max(0, 2 - Math.floor(Math.log10(Math.abs(v))));
    var r = Math.round(v * Math.pow(10, places)) / Math.pow(10, places);
    var parts = String(r).split('.');
    parts[0] = parts[0].replace(/\B(?=(\d{3})+(?!\d))/g, ',');
    return parts.join('.');
  }
  // niceStep is a round step that divides max into about n parts.
  function niceStep(max, n) {
    var raw = max / n, p = Math.pow(10, Math.floor(Math.log10(raw))), f = raw / p;
    return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 2.5 ? 2.5 : f <= 5 ? 5 : 10) * p;
  }
  function legend(names) {
    var ul = el('ul', 'chart-legend');
    names.forEach(function (n, i) { var li = el('li', 's' + (i % 8)); li.appendChild(el('span', 'swatch')); li.appendChild(document.createTextNode(n)); ul.appendChild(li); });
    return ul;
  }
  function figure(id, title, alt, svg, names) {
    var f = el('figure', 'chart calc-chart');
    f.id = id;
    svg.setAttribute('role', 'img');
    svg.setAttribute('aria-label', alt);
    f.appendChild(el('figcaption', null, title));
    f.appendChild(svg);
    if (names) f.appendChild(legend(names));
    return f;
  }
  function drawCharts(s, cur, names, cum, unit) {
    if (!chartsBox) return;
    // The drawing is as wide as its box (640 pixels at most): on a phone a
    // layout of its own, with 12-pixel labels, not a desktop one scaled down.
    var W = Math.max(280, Math.min(640, Math.floor(chartsBox.clientWidth || 640))), H = 300, L = 64, R = 16, T = 12, B = 40;
    var months = cum.length ? cum[0].length : 0;
    var max = 0;
    cum.forEach(function (c) { c.forEach(function (v) { max = Math.max(max, Number(str(v))); }); });
    var step = niceStep(max || 1, 5), top = Math.ceil((max || 1) / step) * step;
    var x = function (m) { return L + (months <= 1 ? 0 : m * (W - L - R) / (months - 1)); };
    var y = function (v) { return T + (H - T - B) * (1 - v / top); };
    var line = svgEl('svg', { viewBox: '0 0 ' + W + ' ' + H, width: W, height: H, class: 'chart-svg' });
    for (var v = 0; v <= top + step / 2; v += step) {
      line.appendChild(svgEl('line', { x1: L, x2: W - R, y1: y(v), y2: y(v), class: 'grid' }));
      line.appendChild(svgEl('text', { x: L - 6, y: y(v) + 4, 'text-anchor': 'end', class: 'tick' }, tick(v)));
    }
    var every = Math.max(1, Math.ceil(months / Math.min(12, Math.floor((W - L - R) / 40))));
    for (var m = 0; m < months; m += every) line.appendChild(svgEl('text', { x: x(m), y: H - B + 16, 'text-anchor': 'middle', class: 'tick' }, String(m + 1)));
    line.appendChild(svgEl('text', { x: (L + W - R) / 2, y: H - 6, 'text-anchor': 'middle', class: 'axis-title' }, text('tcojs.month')));
    cum.forEach(function (c, i) {
      var d = c.map(function (v, m) { return (m ? 'L' : 'M') + x(m).toFixed(1) + ' ' + y(Number(str(v))).toFixed(1); }).join(' ');
      line.appendChild(svgEl('path', { d: d, class: 'series s' + (i % 8) }));
    });
    var umax = 0;
    unit.forEach(function (v) { umax = Math.max(umax, Number(str(v))); });
    var rowH = 38, BH = unit.length * rowH + 36;
    var ustep = niceStep(umax || 1, 4), utop = Math.ceil((umax || 1) / ustep) * ustep;
    var ux = function (v) { return 8 + (W - 8 - 90) * v / utop; };
    var bars = svgEl('svg', { viewBox: '0 0 ' + W + ' ' + BH, width: W, height: BH, class: 'chart-svg' });
    unit.forEach(function (v, i) {
      var yy = 8 + i * rowH;
      bars.appendChild(svgEl('text', { x: 8, y: yy + 10, class: 'bar-label' }, names[i]));
      bars.appendChild(svgEl('rect', { x: 8, y: yy + 18, width: Math.max(1, ux(Number(str(v))) - 8).toFixed(1), height: 12, class: 'bar s' + (i % 8) }));
      bars.appendChild(svgEl('text', { x: (ux(Number(str(v))) + 4).toFixed(1), y: yy + 29, class: 'tick' }, fmtRate(v)));
    });
    for (var t = 0; t <= utop + ustep / 2; t += ustep) bars.appendChild(svgEl('text', { x: ux(t), y: BH - 6, 'text-anchor': 'middle', class: 'tick' }, tick(t)));
    chartsBox.replaceChildren(
      figure('calc-chart-cum', fill(text('tcojs.chart_cum_title'), { cur: cur }), fill(text('tcojs.chart_cum_alt'), { cur: cur }), line, names),
      figure('calc-chart-unit', fill(text('tcojs.chart_unit_title'), { cur: cur, unit: s.work_unit_label || s.work_unit }), fill(text('tcojs.chart_unit_alt'), { cur: cur, unit: s.work_unit_label || s.work_unit }), bars));
  }

  // ---- every input in the URL ------------------------------------------------
  var FIELDS = { h: 'calc-hours', m: 'calc-months', u: 'calc-util', i: 'calc-idle', c: 'calc-ckpt', r: 'calc-restart', x: 'calc-rate' };
  // The page's own currency (CNY in Chinese, USD in English) is the selected
  // option as served; the URL names a currency only when the reader chose
  // another, and the link to the other language carries the whole query.
  var curDefault = curSel ? curSel.value : 'USD';
  var langSwitch = document.getElementById('lang-switch');
  if (langSwitch && !langSwitch.dataset.base) langSwitch.dataset.base = langSwitch.getAttribute('href');
  function writeURL() {
    var q = new URLSearchParams();
    q.set('scenario', sel.value);
    Object.keys(FIELDS).forEach(function (k) { q.set(k, document.getElementById(FIELDS[k]).value.trim()); });
    if (curSel && curSel.value !== curDefault) q.set('cur', curSel.value);
    q.set('g', Object.keys(checked(groupsBox)).join(','));
    q.set('o', Object.keys(checked(offersBox)).join(','));
    if (scenario().keys) q.set('offers', scenario().keys.join(','));
    history.replaceState(null, '', '?' + q.toString() + location.hash);
    if (langSwitch) langSwitch.setAttribute('href', langSwitch.dataset.base + '?' + q.toString() + '#calculator');
  }
  function readURL(params) {
    Object.keys(FIELDS).forEach(function (k) { if (params.get(k) !== null) document.getElementById(FIELDS[k]).value = params.get(k); });
    if (curSel && params.get('cur') !== null && [].some.call(curSel.options, function (o) { return o.value === params.get('cur'); })) curSel.value = params.get('cur');
    var tick2 = function (box, v) {
      if (v === null) return;
      var on = {};
      v.split(',').forEach(function (x) { if (x) on[x] = true; });
      [].forEach.call(box.querySelectorAll('input'), function (b) { b.checked = !!on[b.value]; });
    };
    tick2(groupsBox, params.get('g'));
    tick2(offersBox, params.get('o'));
  }

  var params = new URLSearchParams(location.search);
  if (params.get('scenario') && byID[params.get('scenario')]) sel.value = params.get('scenario');
  buildOffers();
  readURL(params);
  sel.addEventListener('change', function () { buildOffers(); render(); });
  form.addEventListener('input', render);
  form.addEventListener('change', render);
  form.addEventListener('submit', function (e) { e.preventDefault(); });
  form.hidden = false;
  render();

  // The page's own: the input of its controls.
  api.input = input;
  // divide is a / b to places, half away from zero (for tco-offers.js).
  api.divide = function (a, b, places) { return str(divRound(dec(a), dec(b), places)); };
  // useScenario shows the calculator on a scenario made in the page (the
  // offers a reader picks, static/tco-offers.js): added to the list,
  // chosen, its offers ticked.
  api.useScenario = function (sc) {
    if (!byID[sc.id]) { var op = el('option', null, sc.name); op.value = sc.id; sel.appendChild(op); }
    byID[sc.id] = sc;
    sel.value = sc.id;
    buildOffers();
    render();
  };
})();
