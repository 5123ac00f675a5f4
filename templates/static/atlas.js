// GPU Atlas shared script: loads data/offers.json (see sitegen/offersdata.go for
// its columnar layout) into one object per offer, and formats labels, names and
// prices the way the server-rendered pages do. Used by the explorer and the
// compare page. Vanilla JavaScript, nothing loaded from other hosts.
(function () {
  'use strict';

  var A = window.GPUAtlas = {};
  var L = {};
  var cfg = {};

  // Hours in a price period; the site normalizes with 730 h a month and 8760 h a
  // year, as catalog.HoursPerMonth and HoursPerYear do.
  A.HOURS = { hour: 1, month: 730, year: 8760 };
  var FLAG_SYNTHETIC = 1, FLAG_SUSPECT = 2, FLAG_OLD = 4, FLAG_UNDATED = 8, FLAG_REPORTED = 16, FLAG_STALE = 32, FLAG_ESTIMATED = 64;

  A.init = function (c) { cfg = c || {}; L = cfg.labels || {}; A.cfg = cfg; A.lang = cfg.lang || 'en'; };

  A.config = function (id) {
    var el = document.getElementById(id);
    return el ? JSON.parse(el.textContent) : null;
  };

  A.text = function (key) { return L[key] === undefined ? key : L[key]; };

  // fill replaces {name} placeholders of a message.
  A.fill = function (s, vals) {
    return s.replace(/\{(\w+)\}/g, function (m, k) { return vals[k] === undefined ? m : String(vals[k]); });
  };

  A.label = function (group, code) {
    var s = L[group + '.' + code];
    return s === undefined ? code : s;
  };

  // money formats a figure as the server does: 4 decimals below 10, 2 from 10 up.
  A.money = function (x) { return x === null || x === undefined || isNaN(x) ? '' : x.toFixed(Math.abs(x) < 10 ? 4 : 2); };

  // plain formats a spec figure without trailing zeros (2 places at most).
  A.plain = function (x) { return x === null || x === undefined ? '' : String(Math.round(x * 100) / 100); };

  A.el = function (tag, cls, txt) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (txt !== undefined && txt !== null) e.textContent = txt;
    return e;
  };

  var ESC = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
  // esc makes any value safe as HTML text or a quoted attribute value.
  A.esc = function (s) { return String(s === null || s === undefined ? '' : s).replace(/[&<>"']/g, function (c) { return ESC[c]; }); };

  A.badgeHTML = function (cls, txt, title) {
    return '<span class="badge ' + cls + '"' + (title ? ' title="' + A.esc(title) + '"' : '') + '>' + A.esc(txt) + '</span>';
  };

  // oldTitle says when an old price was observed.
  function oldTitle(r) {
    return A.text('badge.old_title').replace('{date}', r.observed).replace('{days}', r.ageDays);
  }

  // marksHTML writes a row's marks as the server does (sitegen/rows.go writeMarks).
  A.marksHTML = function (r) {
    var h = '';
    if (r.synthetic) h += A.badgeHTML('synthetic', A.text('badge.synthetic'), A.text('badge.synthetic_title')) + ' ';
    if (r.reported) h += A.badgeHTML('reported', A.text('badge.reported'), A.text('badge.reported_title')) + ' ';
    if (r.estimated) h += A.badgeHTML('estimated', A.text('badge.estimated'), A.text('badge.estimated_title')) + ' ';
    if (r.suspect) h += A.badgeHTML('suspect', A.text('badge.suspect'), r.suspect) + ' ';
    if (r.stale) h += A.badgeHTML('stale', A.text('badge.stale'), A.text('badge.stale_title')) + ' ';
    else if (r.old) h += A.badgeHTML('stale', A.text('badge.stale'), oldTitle(r)) + ' ';
    if (r.undated) h += A.badgeHTML('undated', A.text('badge.undated'), A.text('badge.undated_title'));
    return h;
  };

  A.badge = function (cls, txt, title) {
    var b = A.el('span', 'badge ' + cls, txt);
    if (title) b.title = title;
    return b;
  };

  // rate is units of currency c per one unit of the FX table's base, or null.
  A.rate = function (fx, c) {
    if (c === fx.base) return 1;
    var r = parseFloat(fx.rates[c]);
    return r > 0 ? r : null;
  };

  // inCur is an amount x of a row (in its own currency) in currency cur
  // ('native': the row's own), or null when it cannot be converted. The
  // page's one conversion: every figure of a row (its price and the facts
  // offers.json gives with it: per GPU, per GiB, risk-adjusted) goes through it.
  A.inCur = function (fx, row, x, cur) {
    if (x === null || x === undefined) return null;
    if (cur === 'native' || cur === row.cur) return x;
    var from = A.rate(fx, row.cur), to = A.rate(fx, cur);
    if (from === null || to === null) return null;
    return x * to / from;
  };

  // hourlyIn is a row's effective hourly price in currency cur ('native': the
  // offer's own currency), or null when it cannot be computed.
  A.hourlyIn = function (fx, row, cur) { return A.inCur(fx, row, row.hourly, cur); };

  A.published = function (r) {
    var up = r.upfront !== null ? ' + ' + r.upfront + ' ' + r.cur + ' ' + A.text('price.upfront') : '';
    if (r.unit === 'upfront') return r.amount + ' ' + r.cur + ' ' + A.text('price.upfront');
    return r.amount + ' ' + r.cur + '/' + A.label('unit', r.unit) + up;
  };

  A.when = function (s) { return s ? s.slice(0, 10) + ' ' + s.slice(11, 16) + ' UTC' : ''; };

  A.regionName = function (row) {
    return (A.lang === 'zh' ? row.regionZH || row.regionEN : row.regionEN) || row.region;
  };

  A.marks = function (r, into) {
    if (r.synthetic) into.append(A.badge('synthetic', A.text('badge.synthetic'), A.text('badge.synthetic_title')), ' ');
    if (r.reported) into.append(A.badge('reported', A.text('badge.reported'), A.text('badge.reported_title')), ' ');
    if (r.estimated) into.append(A.badge('estimated', A.text('badge.estimated'), A.text('badge.estimated_title')), ' ');
    if (r.suspect) into.append(A.badge('suspect', A.text('badge.suspect'), r.suspect), ' ');
    if (r.stale) into.append(A.badge('stale', A.text('badge.stale'), A.text('badge.stale_title')), ' ');
    else if (r.old) into.append(A.badge('stale', A.text('badge.stale'), oldTitle(r)), ' ');
    if (r.undated) into.append(A.badge('undated', A.text('badge.undated'), A.text('badge.undated_title')));
  };

  // decode turns offers.json into {rows (one per offer), types (one per
  // instance type), fx, takenAt, workloads, scenarios, providerNames}.
  A.decode = function (d) {
    var stale = {};
    d.stale.forEach(function (p) { stale[p] = true; });
    var billingRank = {};
    d.billing.forEach(function (b, i) { billingRank[b] = i; });
    var types = d.types.map(function (t) {
      return {
        p: t[0], id: t[1], href: t[2] || 'instances/' + t[0] + '/' + t[1] + '.html', gpu: t[3], model: t[4],
        units: t[5], gmem: t[6], gmemEach: t[7], vcpus: t[8], mem: t[9], family: t[10], disk: t[11], nvme: !!t[12],
        net: t[13], gbps: t[14], rdma: t[15], ic: t[16], unmapped: !!t[17], kind: t[18] || '', partial: !!t[19],
        fits: [], mayFit: []
      };
    });
    // Scenario verdicts: scenarios[i] = [id, English name, Chinese name, types that fit, types that may fit].
    var scenarios = (d.scenarios || []).map(function (s) {
      s[3].forEach(function (ti) { types[ti].fits.push(s[0]); });
      s[4].forEach(function (ti) { types[ti].mayFit.push(s[0]); });
      return { id: s[0], en: s[1], zh: s[2] };
    });
    var o = d.offers, rows = new Array(o.type.length);
    var work = d.work || null;
    for (var i = 0; i < rows.length; i++) {
      var t = types[o.type[i]];
      var reg = d.regions[o.region[i]];
      var billing = d.billing[o.billing[i]];
      var flags = o.flags[i];
      rows[i] = {
        i: i, ti: o.type[i], ri: o.region[i], p: t.p, id: t.id, href: t.href, gpu: t.gpu, model: t.model, unmapped: t.unmapped,
        units: t.units, gmem: t.gmem, gmemEach: t.gmemEach, vcpus: t.vcpus, mem: t.mem,
        cpuPerGPU: t.units > 0 ? t.vcpus / t.units : null, family: t.family, disk: t.disk, nvme: t.nvme,
        net: t.net, gbps: t.gbps, rdma: t.rdma, ic: t.ic,
        region: reg[1], regionEN: reg[2], regionZH: reg[3], country: reg[4], city: reg[5],
        zone: o.zone[i], zones: o.zones[i], billing: billing, billingRank: billingRank[billing],
        amount: o.amount[i], cur: d.currency[o.currency[i]], unit: d.units[o.unit[i]],
        upfront: o.upfront[i] === undefined ? null : o.upfront[i], hourly: o.hourly[i],
        avail: d.avail[o.avail[i]], synthetic: !!(flags & FLAG_SYNTHETIC),
        suspect: flags & FLAG_SUSPECT ? o.suspect[i] : '', stale: !!stale[t.p] || !!(flags & FLAG_STALE),
        old: !!(flags & FLAG_OLD), undated: !!(flags & FLAG_UNDATED), reported: !!(flags & FLAG_REPORTED),
        estimated: !!(flags & FLAG_ESTIMATED),
        observed: d.observed[o.observed[i]][0], ageDays: d.observed[o.observed[i]][1],
        fetched: d.fetched[o.fetched[i]], includes: o.includes[i] || '',
        band: o.interruption && o.interruption[i] !== undefined ? o.interruption[i] : null,
        // The offer's facts (compare.OfferFacts), in its own currency: shown
        // through inCur, never derived here.
        gpuHour: o.gpu_hour[i], gibHour: o.gib_hour[i], saving: o.saving[i],
        work: work && work.costs[i] ? work.costs[i] : null
      };
      rows[i].key = [t.p, t.id, reg[1], rows[i].zone, billing].join('/');
    }
    return {
      rows: rows, types: types, fx: d.fx, takenAt: d.taken_at, workloads: work ? work.workloads : [], currencies: d.currency,
      scenarios: scenarios, providerNames: d.providers || {}
    };
  };

  A.load = function (url) {
    return fetch(url, { credentials: 'same-origin' }).then(function (r) {
      if (!r.ok) throw new Error(r.status + ' ' + r.statusText);
      return r.json();
    }).then(A.decode);
  };

  // keepQueryOnLanguageSwitch makes the link to the other language carry the
  // current query (the explorer's view, the compared offers).
  A.keepQueryOnLanguageSwitch = function () {
    var a = document.getElementById('lang-switch');
    if (!a) return;
    if (!a.dataset.base) a.dataset.base = a.getAttribute('href');
    a.setAttribute('href', a.dataset.base + location.search);
  };

  // download offers text as a file through a Blob URL.
  A.download = function (name, type, body) {
    var blob = new Blob([body], { type: type });
    var url = URL.createObjectURL(blob);
    var a = document.createElement('a');
    a.href = url;
    a.download = name;
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(function () { URL.revokeObjectURL(url); }, 1000);
  };

  // copy puts text on the clipboard; the promise rejects when the browser refuses.
  A.copy = function (body) {
    if (navigator.clipboard && navigator.clipboard.writeText) return navigator.clipboard.writeText(body);
    return new Promise(function (resolve, reject) {
      var ta = document.createElement('textarea');
      ta.value = body;
      document.body.appendChild(ta);
      ta.select();
      var ok = document.execCommand && document.execCommand('copy');
      ta.remove();
      if (ok) resolve(); else reject(new Error('copy refused'));
    });
  };

  // csvCell quotes a CSV cell and defuses one a spreadsheet would run as a
  // formula, as sitegen.SafeCSVCell does.
  A.csvCell = function (s) {
    s = String(s);
    if (s && '=+-@\t\r'.indexOf(s[0]) >= 0) s = "'" + s;
    return /[",\n\r]/.test(s) ? '"' + s.replace(/"/g, '""') + '"' : s;
  };

  A.mdCell = function (s) { return String(s).replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\n/g, ' '); };
})();
