// GPU Atlas TCO calculator: any offer of the catalog. Reads the explorer's
// data (data/offers.json), finds on-demand offers by instance type or GPU
// (words as the explorer's search: every word in the type id, the GPU name
// or model id, the provider or the region), and shows the cost over time of
// up to four side by side in the calculator (static/tco.js), one instance-hour
// of work per hour each. ?offers=provider/type@region,… (or provider/type:
// its cheapest on-demand region; the explorer's provider/type/region too)
// chooses them from a link: the instance pages and the explorer link here.
// It runs before tco.js (which rewrites the query) and reads the query first.
(function () {
  'use strict';

  var wanted = new URLSearchParams(location.search).get('offers');
  var T = null, cfgEl = document.getElementById('tco-config');
  var find = document.getElementById('calc-find'), found = document.getElementById('calc-found'), chosenEl = document.getElementById('calc-chosen');
  if (!cfgEl || !find || !window.fetch) return;
  var cfg = JSON.parse(cfgEl.textContent), L = cfg.labels || {};
  var MAX = 4, SHOW = 12;
  function text(k) { return L[k] === undefined ? k : L[k]; }
  function fill(s, v) { return s.replace(/\{(\w+)\}/g, function (m, k) { return v[k] === undefined ? m : String(v[k]); }); }
  function el(tag, cls, txt) { var e = document.createElement(tag); if (cls) e.className = cls; if (txt !== undefined) e.textContent = txt; return e; }

  var offers = [], byKey = {}, chosen = [];
  // USD per hour of an offer, exactly: its hourly price in its currency,
  // divided by the calculator's rate for CNY (to 8 places, half away from
  // zero, as tco.js rounds); other currencies are left out.
  function usd(hourly, cur) {
    if (cur === 'USD') return String(hourly);
    if (!cfg.fx || cur !== cfg.fx.currency) return null;
    return T.divide(String(hourly), cfg.fx.rate, 8);
  }

  var source = null;
  function load(d) {
    source = { catalog_taken_at: d.taken_at, fx_date: cfg.fx ? cfg.fx.date : undefined, fx_source: cfg.fx ? cfg.fx.source : undefined,
      note: 'on-demand offers of data/offers.json; CNY at the calculator\'s rate' };
    var o = d.offers, od = d.billing.indexOf('on_demand');
    for (var i = 0; i < o.type.length; i++) {
      if (o.billing[i] !== od || o.hourly[i] === null || o.flags[i] & 2 || (o.suspect && o.suspect[i])) continue;
      var t = d.types[o.type[i]], r = d.regions[o.region[i]];
      if (t[19]) continue; // a slice of a device
      var price = usd(o.hourly[i], d.currency[o.currency[i]]);
      if (price === null) continue;
      var key = t[0] + '/' + t[1] + '@' + r[1];
      if (byKey[key] && Number(byKey[key].usd) <= Number(price)) continue;
      var gpus = t[5], hw = (gpus ? gpus + 'x ' : '') + (t[3] || '');
      var of = { key: key, instance: t[0] + '/' + t[1], type: t[1], region: r[1], provider: (d.providers[t[0]] || [t[0]])[cfg.lang === 'zh' ? 1 : 0],
        hardware: hw, usd: price, href: t[2] || 'instances/' + t[0] + '/' + t[1] + '.html',
        hay: [t[0], t[1], t[3], t[4], r[1], r[2], r[3]].concat(d.providers[t[0]] || []).join(' ').toLowerCase() };
      if (byKey[key]) offers[offers.indexOf(byKey[key])] = of;
      else offers.push(of);
      byKey[key] = of;
    }
    offers.sort(function (a, b) { return Number(a.usd) - Number(b.usd) || (a.key < b.key ? -1 : 1); });
  }

  // resolve reads a key of a link: provider/type@region, provider/type/region
  // (the explorer's) or provider/type (its cheapest region).
  function resolve(k) {
    k = k.replace(/^([^/]+\/[^/@]+)\/([^/@]+)$/, '$1@$2');
    if (byKey[k]) return byKey[k];
    for (var i = 0; i < offers.length; i++) if (offers[i].instance === k) return offers[i];
    return null;
  }

  function scenario() {
    return {
      id: 'offers', name: text('tcojs.offers_scenario'), work_unit: 'instance_hour', work_unit_label: text('tcojs.instance_hour'),
      base: chosen[0].instance, base_speed: '1', source: source, keys: chosen.map(function (o) { return o.key; }),
      offers: chosen.map(function (o) {
        var id = o.instance + '/' + o.region + '/on_demand';
        return { key: o.key, instance: o.instance, type: o.type, region: o.region, provider: o.provider, hardware: o.hardware, href: o.href, preset: true,
          speed: { work_per_hour: '1', basis: 'reference', from: 'reference', reason: { code: 'speed_reference' } },
          options: [{ group: 'on_demand', option: { id: id, label: o.hardware + ' (' + o.instance + '), on_demand', instance: o.instance, hardware: o.hardware,
            speed: { work_per_hour: '1', basis: 'reference', from: 'reference', reason: { code: 'speed_reference' } },
            pay_as_you_go: { billing: 'on_demand', offer: o.key, usd_per_hour: o.usd, interruption_overhead: '0' } } }] };
      })
    };
  }

  function show() {
    chosenEl.replaceChildren();
    chosen.forEach(function (o, i) {
      var li = el('li', null, o.type + ' · ' + o.region + ' · ' + o.hardware + ' · ' + o.usd + ' USD/h ');
      var b = el('button', 'link', text('tcojs.remove'));
      b.type = 'button';
      b.addEventListener('click', function () { chosen.splice(i, 1); changed(); });
      li.appendChild(b);
      chosenEl.appendChild(li);
    });
    search();
  }
  function changed() {
    show();
    if (chosen.length) { T.useScenario(scenario()); return; }
    // None left: back to the first scenario.
    var sel = document.getElementById('calc-scenario');
    if (sel.value === 'offers') { sel.value = sel.options[0].value; sel.dispatchEvent(new Event('change')); }
  }

  function search() {
    var words = find.value.toLowerCase().split(/\s+/).filter(Boolean);
    found.replaceChildren();
    if (!words.length) return;
    var n = 0;
    for (var i = 0; i < offers.length && n < SHOW; i++) {
      var o = offers[i];
      if (!words.every(function (w) { return o.hay.indexOf(w) >= 0; })) continue;
      n++;
      var li = el('li'), b = el('button', 'link', o.type + ' · ' + o.region + ' · ' + o.hardware + ' · ' + o.usd + ' USD/h');
      b.type = 'button';
      b.dataset.key = o.key;
      b.disabled = chosen.length >= MAX || chosen.indexOf(o) >= 0;
      b.addEventListener('click', (function (of) { return function () { if (chosen.length < MAX && chosen.indexOf(of) < 0) { chosen.push(of); changed(); } }; })(o));
      li.appendChild(b);
      found.appendChild(li);
    }
    if (!n) found.appendChild(el('li', 'note', fill(text('tcojs.find_none'), { q: find.value.trim() })));
  }

  find.addEventListener('input', search);
  fetch(cfg.data).then(function (r) { return r.json(); }).then(function (d) {
    T = window.GPUAtlasTCO;
    if (!T || !T.useScenario) return;
    load(d);
    (wanted ? wanted.split(',') : []).forEach(function (k) { var o = resolve(k.trim()); if (o && chosen.length < MAX && chosen.indexOf(o) < 0) chosen.push(o); });
    find.disabled = false;
    document.getElementById('calc-pick').dataset.ready = '1';
    changed();
  });
})();
