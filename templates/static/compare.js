// GPU Atlas compare page: shows 2 to 4 offers side by side, named by their keys
// in the URL (compare.html?o=aws/p5.48xlarge/us-east-1//on_demand&o=...). Needs
// static/atlas.js. Without JavaScript the page explains how to choose offers.
(function () {
  'use strict';

  var A = window.GPUAtlas;
  var cfg = A && A.config('compare-config');
  var box = document.getElementById('compare');
  if (!cfg || !box) return;
  A.init(cfg);
  var text = A.text, label = A.label, el = A.el;
  var MAX = 4;
  var status = document.getElementById('compare-status');
  var params = new URLSearchParams(location.search);
  var keys = params.getAll('o').slice(0, MAX);
  // The currency: the reader's choice (?cur=USD|CNY), else the page's default
  // (CNY in Chinese, USD in English); kept in the URL and across the language
  // switch.
  var cur = params.get('cur') || cfg.currency || 'USD';
  var curSel = document.getElementById('compare-currency');
  A.keepQueryOnLanguageSwitch();
  if (!keys.length) return;

  function inCur(fx, r, per, c) {
    var h = A.hourlyIn(fx, r, c);
    return h === null ? null : h * A.HOURS[per];
  }

  // fact is one of the offer's facts (offers.json's, in its currency: gpuHour,
  // gibHour) per hour in currency c; the page only converts it.
  function fact(fx, r, name, c) { return A.inCur(fx, r, r[name], c); }

  // Each row: a label key and a function giving a cell's text or node for an offer.
  function attributes(fx) {
    var money = function (x, cur) { return x === null ? '—' : A.money(x) + ' ' + cur; };
    var other = cur === 'USD' ? 'CNY' : 'USD';
    var both = A.rate(fx, 'CNY') !== null && A.rate(fx, 'USD') !== null;
    var rows = [
      ['col.provider', function (r) { return label('provider', r.p); }],
      ['col.instance_type', function (r) { var a = el('a', '', r.id); a.href = cfg.prefix + r.href; return a; }],
      ['col.family', function (r) { return r.family || '—'; }],
      ['col.gpu_model', function (r) { return r.gpu ? r.gpu + (r.model ? ' (' + r.model + ')' : '') : '—'; }],
      ['col.gpus', function (r) { return A.plain(r.units); }],
      ['col.gpu_mem_each', function (r) { return r.gmemEach ? A.plain(r.gmemEach) + ' GB' : '—'; }],
      ['col.gpu_mem', function (r) { return A.plain(r.gmem) + ' GB'; }],
      ['col.vcpus', function (r) { return String(r.vcpus); }],
      ['col.memory', function (r) { return A.plain(r.mem) + ' GiB'; }],
      ['col.cpu_per_gpu', function (r) { return r.cpuPerGPU === null ? '—' : A.plain(r.cpuPerGPU); }],
      ['col.disk', function (r) { return r.disk ? r.disk + ' GB' + (r.nvme ? ' NVMe' : '') : '—'; }],
      ['col.network', function (r) { return r.net || '—'; }],
      ['col.rdma', function (r) { return r.rdma || '—'; }],
      ['col.interconnect', function (r) { return r.ic || '—'; }],
      ['col.region', function (r) { return A.regionName(r) + ' (' + r.region + ')'; }],
      ['col.zone', function (r) { return r.zone || r.zones || '—'; }],
      ['col.billing', function (r) { return label('billing', r.billing); }],
      ['col.price_published', A.published],
      [['cmp.cur_hour', cur], function (r) { return money(inCur(fx, r, 'hour', cur), cur); }, 'price'],
      [['cmp.cur_month', cur], function (r) { return money(inCur(fx, r, 'month', cur), cur); }],
      [['cmp.cur_gpu_hour', cur], function (r) { return money(fact(fx, r, 'gpuHour', cur), cur); }, 'gpuHour'],
      [['cmp.cur_gib_hour', cur], function (r) { return money(fact(fx, r, 'gibHour', cur), cur); }]
    ];
    if (both) {
      rows.push([['cmp.cur_hour', other], function (r) { return money(inCur(fx, r, 'hour', other), other); }]);
      rows.push([['cmp.cur_month', other], function (r) { return money(inCur(fx, r, 'month', other), other); }]);
    }
    rows.push(['col.includes', function (r) { return r.includes ? label('inc', r.includes) : '—'; }]);
    rows.push(['col.availability', function (r) { return label('avail', r.avail); }]);
    rows.push(['col.fetched_at', function (r) { return A.when(r.fetched); }]);
    rows.push(['col.marks', function (r) { var s = el('span'); A.marks(r, s); return s.childNodes.length ? s : '—'; }]);
    return rows;
  }

  function render(d) {
    var byKey = {};
    d.rows.forEach(function (r) { byKey[r.key] = r; });
    var found = [], missing = [];
    keys.forEach(function (k) { if (byKey[k]) found.push(byKey[k]); else missing.push(k); });
    if (A.rate(d.fx, cur) === null) cur = 'USD';
    if (curSel) curSel.value = cur;
    var msgs = [];
    if (missing.length) msgs.push(A.fill(text('cmp.missing'), { keys: missing.join(', ') }));
    if (found.length < 2) msgs.push(text('cmp.need_two'));
    else msgs.push(A.fill(text('cmp.showing'), { n: found.length, date: d.fx.date || '—' }));
    var usdRate = A.rate(d.fx, 'USD'), cnyRate = A.rate(d.fx, 'CNY');
    if (usdRate !== null && cnyRate !== null) msgs.push(A.fill(text('cmp.fx_rate'), { rate: (cnyRate / usdRate).toFixed(4), date: d.fx.date || '—' }));
    status.textContent = msgs.join(' ');
    if (!found.length) return;

    // A row's label: a message key, or [key, currency] for a money row.
    var rowName = function (a) { return typeof a[0] === 'string' ? text(a[0]) : A.fill(text(a[0][0]), { cur: a[0][1] }); };
    var cheapest = {};
    var attrs = attributes(d.fx);
    attrs.forEach(function (a) {
      if (!a[2]) return;
      var best = null;
      found.forEach(function (r, i) {
        if (r.suspect || r.reported || r.estimated || r.synthetic) return; // a price that may not lead an answer is never the lowest
        var v = a[2] === 'price' ? A.hourlyIn(d.fx, r, cur) : fact(d.fx, r, a[2], cur);
        if (v !== null && (best === null || v < best.v)) best = { v: v, i: i };
      });
      if (best && found.length > 1) cheapest[rowName(a)] = best.i;
    });

    var table = el('table', 'data compare');
    table.id = 'compare-table';
    table.appendChild(el('caption', '', text('cmp.caption')));
    var thead = el('thead'), htr = el('tr');
    var corner = el('th', '', text('cmp.attribute'));
    corner.scope = 'col';
    htr.appendChild(corner);
    found.forEach(function (r) {
      var th = el('th');
      th.scope = 'col';
      th.dataset.key = r.key;
      // A person's heading: the type, where and how it is sold; the offer
      // key stays in the data attribute for scripts.
      var where = A.regionName(r) + (r.zone ? ' (' + r.zone + ')' : '');
      th.append(el('strong', '', r.id), ' · ' + where + ' · ' + label('billing', r.billing), el('br'), el('small', 'sub', label('provider', r.p)));
      htr.appendChild(th);
    });
    thead.appendChild(htr);
    table.appendChild(thead);
    var tbody = el('tbody');
    attrs.forEach(function (a) {
      var tr = el('tr');
      var th = el('th', '', rowName(a));
      th.scope = 'row';
      tr.appendChild(th);
      found.forEach(function (r, i) {
        var v = a[1](r);
        var td = el('td');
        if (typeof v === 'string') td.textContent = v; else td.appendChild(v);
        if (cheapest[rowName(a)] === i) { td.classList.add('best'); td.append(' ', A.badge('best', text('cmp.lowest'))); }
        tr.appendChild(td);
      });
      tbody.appendChild(tr);
    });
    table.appendChild(tbody);
    box.replaceChildren(table);
    box.hidden = false;
    document.getElementById('compare-help').hidden = found.length >= 2;
    box.dataset.ready = '1';
  }

  var loaded = null;
  if (curSel) {
    document.getElementById('compare-currency-box').hidden = false;
    curSel.addEventListener('change', function () {
      cur = curSel.value;
      var q = new URLSearchParams(location.search);
      if (cur === cfg.currency) q.delete('cur'); else q.set('cur', cur);
      history.replaceState(null, '', location.pathname + '?' + q.toString() + location.hash);
      A.keepQueryOnLanguageSwitch();
      if (loaded) render(loaded);
    });
  }
  A.load(cfg.data).then(function (d) { loaded = d; render(d); }).catch(function (err) {
    status.textContent = text('js.load_error') + ' (' + err.message + ')';
  });
})();
