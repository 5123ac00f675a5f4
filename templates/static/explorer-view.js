// GPU Atlas explorer, its data side (no page access): the columns, the filter
// expression bound to rows, and the two views: one row per offer, and one row
// per instance type (per region, or in its cheapest region) with each billing
// kind's price in a column of its own. Needs static/atlas.js and static/filter.js;
// static/explorer.js draws what this computes.
(function () {
  'use strict';

  var A = window.GPUAtlas, F = window.GPUAtlasFilter;
  var text = A.text, label = A.label;

  // The instance view's price columns, and the column of each billing kind.
  var BILLING_COLS = ['on_demand', 'spot', 'reserved_1y', 'reserved_3y', 'subscription_month', 'subscription_year'];
  var NCOL = BILLING_COLS.length;
  var KINDS = ['on_demand', 'spot', 'reserved_1y_no_upfront', 'reserved_1y_all_upfront', 'reserved_3y_no_upfront',
    'reserved_3y_all_upfront', 'subscription_month', 'subscription_year'];
  var KIND_COL = { on_demand: 0, spot: 1, reserved_1y_no_upfront: 2, reserved_1y_all_upfront: 2, reserved_3y_no_upfront: 3,
    reserved_3y_all_upfront: 3, subscription_month: 4, subscription_year: 5 };
  var AVAIL_RANK = { available: 2, sold_out: 1, unknown: 0 };

  // --- the data, prepared once ----------------------------------------------

  // prepare adds to the decoded offers.json what the views need: each offer's
  // type object, billing column, group (its type in its region), names in both
  // languages for matching, and a text to search.
  function prepare(d) {
    var V = { data: d, rows: d.rows, types: d.types, groups: [], typeGroups: [], present: [], scenarios: d.scenarios };
    var gidx = {};
    V.types.forEach(function (t, ti) {
      t.ti = ti;
      V.typeGroups.push([]);
      var pn = d.providerNames[t.p] || [t.p, t.p];
      t.nm = {
        provider: lower([t.p, pn[0], pn[1]]),
        gpu: lower([t.model, t.gpu]),
        rdma: lower([t.rdma]),
        // NVSwitch is NVLink through switches: interconnect:nvlink finds it
        // too (catalog.LinkNames; pinned by compare/testdata/find_vectors.json).
        interconnect: lower(t.ic === 'nvswitch' ? [t.ic, 'nvlink'] : [t.ic])
      };
      t.cpuPerGPU = t.units > 0 ? t.vcpus / t.units : null;
    });
    var present = [false, false, false, false, false, false];
    d.rows.forEach(function (r) {
      var t = V.types[r.ti];
      r.t = t;
      r.col = KIND_COL[r.billing] === undefined ? -1 : KIND_COL[r.billing];
      if (r.col >= 0) present[r.col] = true;
      var k = r.ti + '/' + r.ri;
      var g = gidx[k];
      if (g === undefined) {
        g = gidx[k] = V.groups.length;
        V.groups.push({ g: g, ti: r.ti, ri: r.ri, first: r, zoneSet: {}, zones: 0, avail: 'unknown' });
        V.typeGroups[r.ti].push(g);
      }
      r.g = g;
      var grp = V.groups[g];
      (r.zone ? [r.zone] : []).concat(r.zones ? r.zones.split(' ') : []).forEach(function (z) {
        if (!grp.zoneSet[z]) { grp.zoneSet[z] = true; grp.zones++; }
      });
      if (AVAIL_RANK[r.avail] > AVAIL_RANK[grp.avail]) grp.avail = r.avail;
      var pn = d.providerNames[r.p] || [r.p, r.p];
      r.nmRegion = lower([r.region, r.regionEN, r.regionZH]);
      r.marks = marksOf(r);
      r.hay = [r.p, pn[0], pn[1], r.id, t.family, t.gpu, t.model, r.region, r.regionEN, r.regionZH, r.zone, r.zones, r.city, r.country]
        .join(' ').toLowerCase();
    });
    V.present = BILLING_COLS.filter(function (c, i) { return present[i]; });
    V.pass = new Uint8Array(d.rows.length);
    V.best = new Int32Array(V.groups.length * NCOL);
    return V;
  }

  function lower(xs) { return xs.map(function (x) { return String(x === null || x === undefined ? '' : x).toLowerCase(); }); }

  function marksOf(r) {
    var m = [];
    if (r.synthetic) m.push('synthetic');
    if (r.suspect) m.push('suspect');
    if (r.reported) m.push('reported');
    if (r.estimated) m.push('estimated');
    if (r.stale || r.old) m.push('stale');
    if (r.undated) m.push('undated');
    if (!m.length) m.push('none');
    return m;
  }

  // --- columns ----------------------------------------------------------------

  // Columns. kind: name (a code with a display name: multi-select), num (range),
  // text (substring). level: what the value describes, which is where a filter
  // on it applies: type (the instance type, t), offer (r), price (a view row:
  // an offer in the offer view, an instance row in the instance view). views:
  // the views that have the column (both when absent). names: the texts a
  // grammar name term matches (code, English and Chinese names).
  function priceCol(id, c) {
    return { id: id, kind: 'num', level: 'price', price: true, billing: c, views: 'instances', val: function (v) { return v.cells ? v.v[c] : v.col === c ? v.price : null; } };
  }
  var COLS = [
    { id: 'type', lbl: 'col.instance_type', kind: 'text', level: 'type', val: function (t) { return t.id; } },
    { id: 'provider', lbl: 'col.provider', kind: 'name', level: 'type', val: function (t) { return t.p; }, names: function (t) { return t.nm.provider; }, opt: function (v) { return label('provider', v); } },
    { id: 'family', lbl: 'col.family', kind: 'text', level: 'type', val: function (t) { return t.family; }, opt: null },
    { id: 'gpu', lbl: 'col.gpu_model', kind: 'name', level: 'type', val: function (t) { return t.unmapped ? 'unmapped:' + t.gpu : t.model; }, names: function (t) { return t.nm.gpu; } },
    { id: 'kind', lbl: 'col.kind', kind: 'name', level: 'type', val: function (t) { return t.kind; }, opt: function (v) { return v ? label('kind', v) : '—'; } },
    { id: 'gpus', lbl: 'col.gpus', kind: 'num', level: 'type', val: function (t) { return t.units; } },
    { id: 'gpu_memory', lbl: 'ex.head.gpu_memory', kind: 'num', level: 'type', val: function (t) { return t.gmemEach; } },
    { id: 'gpu_memory_total', lbl: 'col.gpu_mem', kind: 'num', level: 'type', val: function (t) { return t.gmem; } },
    { id: 'vcpus', lbl: 'col.vcpus', kind: 'num', level: 'type', val: function (t) { return t.vcpus; } },
    { id: 'memory', lbl: 'col.memory', kind: 'num', level: 'type', val: function (t) { return t.mem; } },
    { id: 'cpu_per_gpu', lbl: 'col.cpu_per_gpu', kind: 'num', level: 'type', val: function (t) { return t.cpuPerGPU; }, show: function (t) { return A.plain(t.cpuPerGPU); } },
    { id: 'disk', lbl: 'col.disk', kind: 'num', level: 'type', val: function (t) { return t.disk; }, show: function (t) { return t.disk ? t.disk + ' GB' + (t.nvme ? ' NVMe' : '') : '—'; } },
    { id: 'network', lbl: 'col.network', kind: 'num', level: 'type', val: function (t) { return t.gbps; }, show: function (t) { return t.net || '—'; } },
    { id: 'rdma', lbl: 'col.rdma', kind: 'name', level: 'type', val: function (t) { return t.rdma; }, names: function (t) { return t.nm.rdma; } },
    { id: 'interconnect', lbl: 'col.interconnect', kind: 'name', level: 'type', val: function (t) { return t.ic; }, names: function (t) { return t.nm.interconnect; } },
    priceCol('on_demand', 0),
    { id: 'gpu_price', lbl: 'col.gpu_price_x', kind: 'num', level: 'price', price: true, val: function (v) { return v.gpuPrice; } },
    priceCol('spot', 1), priceCol('reserved_1y', 2), priceCol('reserved_3y', 3), priceCol('subscription_month', 4), priceCol('subscription_year', 5),
    { id: 'saving', lbl: 'ex.head.saving', kind: 'num', level: 'price', val: function (v) { return v.saving; } },
    // The region control's values are provider/id (providers share ids such as
    // us-east-1); a bare id (an older link) matches that id at any provider.
    { id: 'region', lbl: 'col.region', kind: 'name', level: 'offer', val: function (r) { return r.region; }, names: function (r) { return r.nmRegion; },
      ctl: function (r) { return [r.p + '/' + r.region, r.region]; } },
    { id: 'country', lbl: 'ex.head.country', kind: 'name', level: 'offer', val: function (r) { return r.country; }, opt: function (v) { return countryName(v); } },
    { id: 'zone', lbl: 'col.zone', kind: 'text', level: 'offer', views: 'offers', val: function (r) { return r.zone || r.zones; } },
    { id: 'billing', lbl: 'col.billing', kind: 'name', level: 'offer', views: 'offers', val: function (r) { return r.billing; }, opt: function (v) { return label('billing', v); }, sortv: function (r) { return r.billingRank; } },
    { id: 'price', lbl: 'col.price_x', kind: 'num', level: 'price', price: true, views: 'offers', val: function (v) { return v.price; } },
    { id: 'gib_price', lbl: 'col.gib_price_x', kind: 'num', level: 'price', price: true, val: function (v) { return v.gibPrice; } },
    { id: 'published', lbl: 'col.price_published', kind: 'num', level: 'offer', views: 'offers', val: function (r) { return r.amount; }, show: A.published, cls: 'pub' },
    { id: 'availability', lbl: 'col.availability', kind: 'name', level: 'offer', val: function (r) { return r.avail; }, opt: function (v) { return label('avail', v); } },
    { id: 'fetched', lbl: 'col.fetched_at', kind: 'text', level: 'offer', views: 'offers', val: function (r) { return r.fetched; }, show: function (r) { return A.when(r.fetched); } },
    { id: 'marks', lbl: 'col.marks', kind: 'name', level: 'offer', views: 'offers', val: function (r) { return r.marks[0] === 'none' ? '' : r.marks[0]; }, opt: function (v) { return v ? label('badge', v) : text('filter.none'); } },
    { id: 'work', lbl: 'col.work', kind: 'num', level: 'price', work: true, views: 'offers', val: function (v) { return v._work; } },
    // A spot offer's Spot Instance Advisor band, compared by its upper bound in
    // percent (interruption<=10% is <5% and 5-10%); an offer without a band
    // has no figure and matches no comparison.
    { id: 'interruption', lbl: 'ex.head.interruption', kind: 'num', level: 'offer', views: 'offers',
      val: function (r) { return r.band === null ? null : BAND_UPPER[r.band]; },
      show: function (r) {
        if (r.band !== null) return BAND_LABEL[r.band];
        if (r.billing !== 'spot') return '';
        return text(r.p === 'aws' ? 'ex.band_no_data' : 'ex.band_not_published');
      } },
    // A subscription or reservation per month in the chosen currency, shown
    // with its hourly equivalent (catalog.Offer.Subscription: the effective
    // hourly price times 730); none for pay-as-you-go offers.
    { id: 'per_month', lbl: 'col.per_month', kind: 'num', level: 'offer', views: 'offers', val: function (r) { return r._pm; } }
  ];
  var BAND_UPPER = [5, 10, 15, 20, 100], BAND_LABEL = ['<5%', '5-10%', '10-15%', '15-20%', '>20%'];
  var byId = {};
  COLS.forEach(function (c) { byId[c.id] = c; });

  function countryName(code) {
    if (!code) return '—';
    return label('country', code);
  }

  // inView reports whether the column belongs to the view ('instances' or 'offers').
  function inView(c, view) { return !c.views || c.views === view; }

  // --- the filter expression bound to rows ------------------------------------

  var EPS = 1e-9;

  // numTest is a number term's test of a value (null: no figure, which fails
  // every operator; the "-" prefix negates the whole term).
  function numTest(op, nums) {
    var x = nums[0];
    switch (op) {
      case '>=': return function (v) { return v !== null && v !== undefined && v >= x - EPS; };
      case '<=': return function (v) { return v !== null && v !== undefined && v <= x + EPS; };
      case '>': return function (v) { return v !== null && v !== undefined && v > x + EPS; };
      case '<': return function (v) { return v !== null && v !== undefined && v < x - EPS; };
      case '!=': return function (v) { return v !== null && v !== undefined && !nums.some(function (n) { return Math.abs(v - n) < EPS; }); };
      default: return function (v) { return v !== null && v !== undefined && nums.some(function (n) { return Math.abs(v - n) < EPS; }); };
    }
  }

  // nameMatch is a name term's ":" test (compare's nameMatch, the same rule):
  // v occurs in s as whole words, not inside a run of ASCII letters and
  // digits (gpu:h20 is the H20, not the H200); a value ending in "*" may go
  // on after it (gpu:h20* is both). Other characters match anywhere.
  var WORD = /[a-z0-9]/i;
  function nameMatch(s, v) {
    var prefix = v.charAt(v.length - 1) === '*';
    if (prefix) v = v.slice(0, -1);
    if (v === '') return true;
    for (var i = s.indexOf(v); i >= 0; i = s.indexOf(v, i + 1)) {
      var end = i + v.length;
      var before = i === 0 || !WORD.test(s.charAt(i - 1)) || !WORD.test(v.charAt(0));
      var after = prefix || end === s.length || !WORD.test(s.charAt(end)) || !WORD.test(v.charAt(v.length - 1));
      if (before && after) return true;
    }
    return false;
  }

  // strTest is a text or name term's test of a list of lower-case strings:
  // ":" any contains a value (a name term: as whole words), "=" any is a
  // value, "!=" none is.
  function strTest(op, vals, name) {
    var has = name ? nameMatch : function (s, v) { return s.indexOf(v) >= 0; };
    if (op === ':') return function (ss) { return vals.some(function (v) { return ss.some(function (s) { return has(s, v); }); }); };
    var eq = function (ss) { return vals.some(function (v) { return ss.indexOf(v) >= 0; }); };
    return op === '!=' ? function (ss) { return !eq(ss); } : eq;
  }

  // keyTest is a keyword term's test of a list of codes: ":" any is one of the
  // values, "!=" none is.
  function keyTest(op, vals) {
    var set = {};
    vals.forEach(function (v) { set[v] = true; });
    var any = function (ks) { for (var i = 0; i < ks.length; i++) if (set[ks[i]]) return true; return false; };
    return op === '!=' ? function (ks) { return !any(ks); } : any;
  }

  // compile binds a parsed expression (GPUAtlasFilter.parse) to the rows: a
  // test per level, the billing test (a test of a billing kind) and the words.
  function compile(V, parsed) {
    var out = { type: [], offer: [], price: [], billing: [] };
    parsed.terms.forEach(function (term) {
      var f = term.field, def = F.FIELDS[f], vals = term.values.map(function (v) { return v.text; });
      var test, get;
      if (def.type === 'number') {
        var c = byId[f], nt = numTest(term.op, term.values.map(function (v) { return v.n; }));
        get = c.val;
        test = function (x) { return nt(get(x)); };
      } else if (def.type === 'keyword') {
        var kinds = vals;
        if (f === 'billing') {
          kinds = [];
          vals.forEach(function (v) { kinds = kinds.concat(F.billingKinds(v)); });
        }
        var kt = keyTest(term.op, kinds);
        get = {
          kind: function (t) { return [t.kind]; },
          scenario: function (t) { return t.fits; },
          country: function (r) { return [r.country.toLowerCase()]; },
          billing: function (r) { return [r.billing]; },
          availability: function (r) { return [r.avail]; },
          marks: function (r) { return r.marks; }
        }[f];
        test = function (x) { return kt(get(x)); };
      } else {
        var st = strTest(term.op, vals, def.type === 'name'), col = byId[f];
        get = col.names || function (x) { return [String(col.val(x) || '').toLowerCase()]; };
        test = function (x) { return st(get(x)); };
      }
      if (term.neg) { var pos = test; test = function (x) { return !pos(x); }; }
      (f === 'billing' ? out.billing : out[def.level]).push(test);
    });
    var words = parsed.words;
    if (words.length) {
      out.offer.push(function (r) {
        for (var i = 0; i < words.length; i++) if ((r.hay.indexOf(words[i].text) >= 0) === words[i].neg) return false;
        return true;
      });
    }
    return out;
  }

  // controlTests are the tests of the panel's controls (state.f), by level.
  function controlTests(V, f, view, into) {
    COLS.forEach(function (c) {
      var s = f[c.id];
      if (!s || !inView(c, view) && c.id !== 'billing') return;
      var t = null;
      if (c.kind === 'name' && s.in && s.in.length) {
        var set = {};
        if (c.id === 'billing') {
          s.in.forEach(function (v) { F.billingKinds(v).forEach(function (k) { set[k] = true; }); });
          into.billing.push(function (r) { return set[r.billing] === true; });
          return;
        }
        s.in.forEach(function (v) { set[v] = true; });
        t = c.ctl ? function (x) { var ks = c.ctl(x); for (var i = 0; i < ks.length; i++) if (set[ks[i]]) return true; return false; }
          : function (x) { return set[c.val(x)] === true; };
      } else if (c.kind === 'num') {
        var lo = parseFloat(s.min), hi = parseFloat(s.max);
        if (!isNaN(lo) || !isNaN(hi)) {
          t = function (x) {
            var v = c.val(x);
            return v !== null && v !== undefined && (isNaN(lo) || v >= lo - EPS) && (isNaN(hi) || v <= hi + EPS);
          };
        }
      } else if (c.kind === 'text' && s.has) {
        var q = s.has.toLowerCase();
        t = function (x) { return String(c.val(x) || '').toLowerCase().indexOf(q) >= 0; };
      }
      if (t) into[c.level].push(t);
    });
  }

  // --- prices -------------------------------------------------------------------

  // reprice fills each offer's price in the chosen currency and period (_v),
  // and its USD worth in that period (_sp), by which offers are compared so
  // that prices in different currencies still come in order of cost.
  function reprice(V, cur, per, wl) {
    var h = A.HOURS[per], fx = V.data.fx;
    for (var i = 0; i < V.rows.length; i++) {
      var r = V.rows[i];
      var p = A.hourlyIn(fx, r, cur), u = A.hourlyIn(fx, r, 'USD');
      r._v = p === null ? null : p * h;
      r._sp = u === null ? null : u * h;
      // The offer view's prices: the offer's own and its facts per GPU and
      // per GiB (offers.json's, converted; the saving is a fact too).
      r.price = r._v;
      r.gpuPrice = perIn(fx, r, r.gpuHour, cur, h);
      r.gibPrice = perIn(fx, r, r.gibHour, cur, h);
      // A commitment (the price columns after spot) per month, and per hour.
      r._pm = p === null || !(KIND_COL[r.billing] >= 2) ? null : p * A.HOURS.month;
      r._ph = r._pm === null ? null : p;
      r._work = null;
      if (r.work && wl >= 0) {
        for (var j = 0; j < r.work.length; j++) if (r.work[j][0] === wl) { r._work = r.work[j][1]; r._measured = r.work[j][2] === 1; }
      }
    }
  }

  // cheaper says whether offer a comes before offer b as a price: one with a
  // figure before one without, a price that leads before one that does not
  // (leads), then by USD worth; among equals the first in the data wins, which
  // the caller gets by walking the data in order.
  function cheaper(a, b) {
    if (a._sp === null) return false;
    if (b._sp === null) return true;
    if (leads(a) !== leads(b)) return leads(a);
    return a._sp < b._sp;
  }

  // leads says whether an offer's price may lead a buyer's answer (the first
  // row of a price sort, a type's cheapest price): not suspect, reported,
  // estimated or made up. Such a price is still shown, marked, after every price that leads
  // (compare's leads, in Go).
  function leads(r) { return !r.suspect && !r.reported && !r.estimated && !r.synthetic; }

  // perIn is a fact of offer r (an hourly figure in its currency) in cur over
  // h hours, or null.
  function perIn(fx, r, x, cur, h) {
    var v = A.inCur(fx, r, x, cur);
    return v === null ? null : v * h;
  }

  // --- filtering and grouping ---------------------------------------------------

  // run filters the offers and builds the view's rows, unsorted. q: {view, by
  // ('cheapest' or 'region'), tests (compile and controlTests merged), typeOK
  // (toggles), offerOK (toggles)}. The instance view's rows are objects
  // {t, g (group), cells (the offer of each price column or null), v (their
  // prices), save (their savings), price, gpuPrice, gibPrice, saving, regions,
  // key}; the offer view's rows are the offers themselves with price fields set.
  function run(V, q) {
    var tests = q.tests, rows = V.rows, n = rows.length, i, j;
    var typeOK = new Uint8Array(V.types.length);
    for (i = 0; i < V.types.length; i++) {
      var t = V.types[i], ok = q.typeOK(t);
      for (j = 0; ok && j < tests.type.length; j++) ok = tests.type[j](t);
      typeOK[i] = ok ? 1 : 0;
    }
    // The billing kinds a billing term or control keeps.
    var kindOK = {};
    KINDS.forEach(function (k) {
      var ok = true, fake = { billing: k };
      for (j = 0; ok && j < tests.billing.length; j++) ok = tests.billing[j](fake);
      kindOK[k] = ok;
    });
    var pass = V.pass;
    pass.fill(0);
    for (i = 0; i < n; i++) {
      var r = rows[i];
      if (!typeOK[r.ti] || !q.offerOK(r)) continue;
      var ok2 = true;
      for (j = 0; ok2 && j < tests.offer.length; j++) ok2 = tests.offer[j](r);
      if (!ok2) continue;
      pass[i] = kindOK[r.billing] ? 2 : 1;
    }
    var shown = BILLING_COLS.map(function (c) { return V.present.indexOf(c) >= 0 && KINDS.some(function (k) { return kindOK[k] && KIND_COL[k] === BILLING_COLS.indexOf(c); }); });
    var out = q.view === 'offers' ? offerRows(V, q) : instanceRows(V, q, shown);
    var pt = tests.price;
    if (pt.length) out = out.filter(function (v) { for (var k = 0; k < pt.length; k++) if (!pt[k](v)) return false; return true; });
    return { rows: out, shown: shown };
  }

  function offerRows(V, q) {
    var out = [], rows = V.rows, pass = V.pass;
    for (var i = 0; i < rows.length; i++) {
      if (pass[i] !== 2) continue;
      var r = rows[i];
      out.push(r);
    }
    return out;
  }

  function instanceRows(V, q, shown) {
    var rows = V.rows, pass = V.pass, best = V.best, G = V.groups.length, i, c;
    best.fill(-1);
    for (i = 0; i < rows.length; i++) {
      if (pass[i] !== 2) continue;
      var r = rows[i], k = r.g * NCOL + r.col;
      if (r.col >= 0 && (best[k] < 0 || cheaper(r, rows[best[k]]))) best[k] = i;
    }
    var out = [];
    var make = function (t, cellIdx, g, regions) {
      var v = { t: t, g: V.groups[g], cells: [], v: [], save: [], regions: regions, price: null, gpuPrice: null, gibPrice: null, saving: null, primary: -1 };
      for (c = 0; c < NCOL; c++) {
        var o = shown[c] && cellIdx[c] >= 0 ? rows[cellIdx[c]] : null;
        v.cells.push(o);
        v.v.push(o ? o._v : null);
        var s = o && c > 0 ? o.saving : null; // the offer's fact
        v.save.push(s);
        if (s !== null && (v.saving === null || s > v.saving)) v.saving = s;
        if (o && v.primary < 0) v.primary = c;
      }
      if (v.primary >= 0) {
        v.offer = v.cells[v.primary];
        v.price = v.v[v.primary];
        v.gpuPrice = v.offer.gpuPrice; // its facts, as reprice converted them
        v.gibPrice = v.offer.gibPrice;
      }
      v.key = t.p + '/' + t.id + (q.by === 'region' ? '/' + v.g.first.region : '');
      return v;
    };
    var idx = new Array(NCOL);
    if (q.by === 'region') {
      for (var g = 0; g < G; g++) {
        var any = false;
        for (c = 0; c < NCOL; c++) { idx[c] = best[g * NCOL + c]; if (shown[c] && idx[c] >= 0) any = true; }
        if (any) out.push(make(V.types[V.groups[g].ti], idx, g, 1));
      }
      return out;
    }
    for (var ti = 0; ti < V.types.length; ti++) {
      var gs = V.typeGroups[ti], regions = 0;
      for (c = 0; c < NCOL; c++) idx[c] = -1;
      for (var m = 0; m < gs.length; m++) {
        var has = false;
        for (c = 0; c < NCOL; c++) {
          var b = best[gs[m] * NCOL + c];
          if (b < 0 || !shown[c]) continue;
          has = true;
          if (idx[c] < 0 || cheaper(rows[b], rows[idx[c]]) || (!cheaper(rows[idx[c]], rows[b]) && b < idx[c])) idx[c] = b;
        }
        if (has) regions++;
      }
      if (!regions) continue;
      // The row's region is that of its first price (on-demand unless hidden).
      var home = -1;
      for (c = 0; c < NCOL && home < 0; c++) if (shown[c] && idx[c] >= 0) home = rows[idx[c]].g;
      out.push(make(V.types[ti], idx, home, regions));
    }
    return out;
  }

  // sortRows orders view rows by a column, missing figures last, prices that
  // do not lead after those that do (price columns), then by the
  // data's order (type, region, offer).
  function sortRows(V, list, col, desc, view) {
    var c = byId[col];
    if (!c) return list;
    var f = sortKey(c, view), of = priceOffer(c, view);
    var keyed = list.map(function (v, i) { var o = of(v); return { v: v, k: f(v), i: i, l: !o || leads(o) }; });
    keyed.sort(function (a, b) {
      var x = a.k, y = b.k;
      var ex = x === null || x === undefined || x === '', ey = y === null || y === undefined || y === '';
      if (ex || ey) return ex && ey ? a.i - b.i : ex ? 1 : -1;
      if (a.l !== b.l) return a.l ? -1 : 1; // either way round, a price that leads comes first
      var d = x < y ? -1 : x > y ? 1 : 0;
      return (desc ? -d : d) || a.i - b.i;
    });
    return keyed.map(function (k) { return k.v; });
  }

  // priceOffer is, for a price column, the offer behind a view row's figure
  // (null for other columns): the cell's in the instance view (the first
  // price's for price per GPU and per GiB), the row itself in the offer view.
  function priceOffer(c, view) {
    if (!c.price) return function () { return null; };
    if (view !== 'instances') return function (v) { return v; };
    if (c.billing !== undefined) return function (v) { return v.cells[c.billing]; };
    return function (v) { return v.offer || null; };
  }

  // at is a column's value for a view row: type columns read the row's type,
  // offer columns its offer (in the instance view: the first price's).
  function at(c, view) {
    if (c.level === 'type') return function (v) { return c.val(v.t); };
    if (c.level === 'offer' && view === 'instances') return function (v) { return v.offer ? c.val(v.offer) : null; };
    return c.val;
  }

  function sortKey(c, view) {
    var get = at(c, view);
    if (c.sortv) return c.level === 'offer' && view === 'instances' ? function (v) { return v.offer ? c.sortv(v.offer) : null; } : c.sortv;
    if (c.id === 'availability' && view === 'instances') return function (v) { return -AVAIL_RANK[v.g.avail]; };
    if (c.id === 'region') return function (v) { var r = view === 'instances' ? v.g.first : v; return A.regionName(r).toLowerCase(); };
    if (c.kind === 'num') return get;
    if (c.opt) return function (v) { return String(c.opt(get(v))).toLowerCase(); };
    if (c.id === 'gpu') return function (v) { return String(v.t.gpu || '').toLowerCase(); };
    return function (v) { return String(get(v) || '').toLowerCase(); };
  }

  window.GPUAtlasView = {
    BILLING_COLS: BILLING_COLS, KINDS: KINDS, COLS: COLS, byId: byId, prepare: prepare, compile: compile,
    controlTests: controlTests, reprice: reprice, run: run, sortRows: sortRows, at: at, inView: inView,
    countryName: countryName
  };
})();
