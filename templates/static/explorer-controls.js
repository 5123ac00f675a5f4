// GPU Atlas explorer, its controls: the filter expression, the view switch,
// drop-down lists of checkboxes (grouped, with a search box when long),
// currency, period, sort, toggles, columns and the further filters. Every
// control has a label and works from the keyboard; each writes the explorer's
// state and asks it to update. Used by static/explorer.js.
(function () {
  'use strict';

  var A = window.GPUAtlas, W = window.GPUAtlasView;
  var text = A.text, label = A.label, el = A.el;
  // A drop-down with more options than this gets a search box.
  var SEARCH_FROM = 10;

  function build(E) {
    var state = E.state(), V = E.view();
    var panel = document.getElementById('filters');
    var actions = document.getElementById('actions');
    var controls = [];
    E.sync = function () { state = E.state(); controls.forEach(function (c) { c.sync(); }); };
    var changed = function () { state.page = 1; E.update(); };

    function field(lbl, input) {
      var l = el('label', 'field');
      l.append(el('span', '', lbl), input);
      return l;
    }

    function debounced(fn) {
      var timer = 0;
      return function () { clearTimeout(timer); timer = setTimeout(fn, 150); };
    }

    function textInput(id, lbl, get, set) {
      var i = el('input');
      i.id = id;
      i.type = 'search';
      i.autocomplete = 'off';
      i.spellcheck = false;
      // Until its pause is over, what the reader typed wins over the state.
      var pending = false;
      var apply = debounced(function () { pending = false; set(i.value.trim()); changed(); });
      i.addEventListener('input', function () { pending = true; apply(); });
      controls.push({ sync: function () { if (document.activeElement !== i && !pending) i.value = get(); } });
      return field(lbl, i);
    }

    function select(id, lbl, options, get, set) {
      var s = el('select');
      s.id = id;
      var fill = function (opts) {
        s.replaceChildren();
        opts.forEach(function (o) { var op = el('option', '', o[1]); op.value = o[0]; s.appendChild(op); });
      };
      fill(typeof options === 'function' ? options() : options);
      s.addEventListener('change', function () { set(s.value); changed(); });
      controls.push({
        sync: function () {
          if (typeof options === 'function') fill(options());
          s.value = get();
        }
      });
      return field(lbl, s);
    }

    function check(id, lbl, get, set) {
      var i = el('input');
      i.type = 'checkbox';
      i.id = id;
      i.addEventListener('change', function () { set(i.checked); changed(); });
      controls.push({ sync: function () { i.checked = get(); } });
      var l = el('label', 'check');
      l.append(i, ' ', lbl);
      return l;
    }

    // multi is a drop-down list of checkboxes for a name column. items:
    // [{v (value), t (text), g (group path, optional)}] in display order;
    // groups become headed sub-lists. A long list gets a search box that hides
    // the options and groups it does not match.
    function multi(c, items, opts) {
      opts = opts || {};
      var d = el('details', 'ms');
      d.id = 'f-' + c.id;
      var sum = el('summary');
      var box = el('div', 'ms-box');
      box.setAttribute('role', 'group');
      box.setAttribute('aria-label', opts.lbl || text(c.lbl));
      var inputs = [], labels = [], groups = [];
      var find = null;
      if (items.length >= SEARCH_FROM) {
        find = el('input', 'ms-find');
        find.type = 'search';
        find.id = 'f-' + c.id + '-find';
        find.autocomplete = 'off';
        find.placeholder = text('ex.find');
        find.setAttribute('aria-label', A.fill(text('ex.search_in'), { name: opts.lbl || text(c.lbl) }));
        find.addEventListener('input', function () {
          var q = find.value.trim().toLowerCase();
          labels.forEach(function (l) { l.hidden = q !== '' && l.dataset.find.indexOf(q) < 0; });
          groups.forEach(function (g) { g.hidden = !g.querySelector('label:not([hidden])'); });
        });
        box.appendChild(find);
      }
      var open = {}; // group path -> container
      items.forEach(function (it) {
        var into = box;
        (it.g || []).forEach(function (name, depth) {
          var path = (it.g.slice(0, depth + 1)).join('\u0000');
          if (!open[path]) {
            var grp = el('div', 'ms-group depth-' + depth);
            grp.setAttribute('role', 'group');
            grp.setAttribute('aria-label', it.g.slice(0, depth + 1).join(' · '));
            grp.appendChild(el('p', 'ms-head', name));
            into.appendChild(grp);
            groups.push(grp);
            open[path] = grp;
          }
          into = open[path];
        });
        var l = el('label');
        var i = el('input');
        i.type = 'checkbox';
        i.value = it.v;
        i.addEventListener('change', function () {
          state.f[c.id] = { in: inputs.filter(function (x) { return x.checked; }).map(function (x) { return x.value; }) };
          changed();
        });
        inputs.push(i);
        l.append(i, ' ' + it.t);
        l.dataset.find = (it.t + ' ' + it.v + ' ' + (it.g || []).join(' ')).toLowerCase();
        labels.push(l);
        into.appendChild(l);
      });
      d.append(sum, box);
      var names = {};
      items.forEach(function (it) { names[it.v] = it.short || it.t; });
      controls.push({
        sync: function () {
          var f = state.f[c.id], set = {};
          (f ? f.in : []).forEach(function (v) { set[v] = true; });
          inputs.forEach(function (i) { i.checked = !!set[i.value]; });
          var n = f ? f.in.length : 0;
          var what = n === 0 ? text('filter.any') : n === 1 ? names[f.in[0]] || f.in[0] || text('filter.none') : A.fill(text('js.n_selected'), { n: n });
          sum.textContent = (opts.lbl || text(c.lbl)) + ': ' + what;
        }
      });
      return d;
    }

    function range(c) {
      var fs = el('fieldset', 'range');
      fs.id = 'f-' + c.id;
      var name = c.price || c.billing !== undefined ? E.colLabel(c) : text(c.lbl);
      var legend = el('legend', '', name);
      fs.appendChild(legend);
      ['min', 'max'].forEach(function (k) {
        var i = el('input');
        i.type = 'number';
        i.step = 'any';
        i.inputMode = 'decimal';
        i.id = 'f-' + c.id + '-' + k;
        i.placeholder = text('filter.' + k);
        i.addEventListener('input', debounced(function () {
          var f = state.f[c.id] || { min: '', max: '' };
          f[k] = i.value.trim();
          state.f[c.id] = f;
          changed();
        }));
        controls.push({
          sync: function () {
            if (document.activeElement !== i) i.value = state.f[c.id] ? state.f[c.id][k] || '' : '';
            var n = c.price || c.billing !== undefined ? E.colLabel(c) : text(c.lbl);
            legend.textContent = n;
            i.setAttribute('aria-label', n + ' ' + text('filter.' + k));
          }
        });
        fs.appendChild(i);
      });
      return fs;
    }

    // The options of a name column, sorted by their text.
    function items(c, values) {
      return values.map(function (v) { return { v: v, t: v === '' ? text('filter.none') : c.opt ? c.opt(v) : v }; })
        .sort(function (a, b) { var x = a.t.toLowerCase(), y = b.t.toLowerCase(); return x < y ? -1 : x > y ? 1 : 0; });
    }

    function distinct(c) {
      var seen = {}, out = [];
      var src = c.level === 'type' ? V.types : V.rows;
      src.forEach(function (x) { var v = c.val(x); if (v === null || v === undefined) v = ''; if (!seen[v]) { seen[v] = true; out.push(v); } });
      return out;
    }

    // gpuItems: GPU models by name, with the provider's name for an unmapped one.
    function gpuItems(c) {
      var names = {};
      V.types.forEach(function (t) {
        var v = c.val(t);
        if (v && !names[v]) names[v] = t.unmapped ? t.gpu + ' (' + text('badge.unmapped') + ')' : t.gpu || t.model;
      });
      return items({ opt: function (v) { return names[v] || v || '—'; } }, distinct(c));
    }

    // regionItems: regions grouped by provider, then country, in the page's language.
    function regionItems() {
      var seen = {}, list = [];
      var order = {};
      ['aws', 'alibaba', 'tencent', 'huawei', 'volcengine'].forEach(function (p, i) { order[p] = i; });
      V.rows.forEach(function (r) {
        var k = r.p + '/' + r.region;
        if (seen[k]) return;
        seen[k] = true;
        var name = A.regionName(r);
        list.push({ v: k, t: name + ' · ' + r.region, short: name, p: r.p, c: W.countryName(r.country), g: [label('provider', r.p), W.countryName(r.country)] });
      });
      list.sort(function (a, b) {
        var pa = order[a.p] === undefined ? 99 : order[a.p], pb = order[b.p] === undefined ? 99 : order[b.p];
        if (pa !== pb) return pa - pb;
        if (a.p !== b.p) return a.p < b.p ? -1 : 1;
        if (a.c !== b.c) return a.c < b.c ? -1 : 1;
        return a.t < b.t ? -1 : a.t > b.t ? 1 : 0;
      });
      return list;
    }

    function billingItems() {
      if (state.view === 'instances') {
        return W.BILLING_COLS.filter(function (b) { return V.present.indexOf(b) >= 0; }).map(function (b) { return { v: b, t: label('ex.col', b) }; });
      }
      var have = {};
      V.rows.forEach(function (r) { have[r.billing] = true; });
      return W.KINDS.filter(function (k) { return have[k]; }).map(function (k) { return { v: k, t: label('billing', k) }; });
    }

    // --- the panel ---------------------------------------------------------------

    var top = el('div', 'filter-row');
    var expr = textInput('filter-x', text('filter.expression'), function () { return state.x; }, function (v) { state.x = v; });
    expr.classList.add('wide');
    var xi = expr.querySelector('input');
    xi.setAttribute('aria-describedby', 'filter-x-hint filter-x-error');
    xi.placeholder = 'gpu:h100 gpus>=8 country:cn billing:on_demand,spot';
    var hint = el('small', 'hint');
    hint.id = 'filter-x-hint';
    hint.append(text('filter.expression_hint') + ' ');
    var helpLink = el('a', '', text('ex.fields_link'));
    helpLink.href = '#filter-help';
    helpLink.addEventListener('click', function () { var h = document.getElementById('filter-help'); if (h) h.open = true; });
    hint.appendChild(helpLink);
    expr.appendChild(hint);
    var err = el('small', 'error');
    err.id = 'filter-x-error';
    err.setAttribute('role', 'status');
    expr.appendChild(err);
    E.setExprError(err);
    top.append(expr, textInput('filter-q', text('filter.search'), function () { return state.q; }, function (v) { state.q = v; }));

    var second = el('div', 'filter-row');
    second.appendChild(select('filter-view', text('ex.view'), [['instances', text('ex.view_instances')], ['offers', text('ex.view_offers')]],
      function () { return state.view; }, function (v) { E.setView(v); rebuildBilling(); }));
    var by = select('filter-by', text('ex.by'), [['cheapest', text('ex.by_cheapest')], ['region', text('ex.by_region')]],
      function () { return state.by; }, function (v) { state.by = v; });
    controls.push({ sync: function () { by.hidden = state.view !== 'instances'; } });
    second.appendChild(by);
    second.appendChild(multi(W.byId.provider, items(W.byId.provider, distinct(W.byId.provider))));
    second.appendChild(multi(W.byId.gpu, gpuItems(W.byId.gpu)));
    second.appendChild(multi(W.byId.region, regionItems()));
    second.appendChild(multi(W.byId.country, items(W.byId.country, distinct(W.byId.country))));
    var billingSlot = el('span', 'slot');
    var billingFor = '';
    function rebuildBilling() {
      if (billingFor === state.view) return;
      billingFor = state.view;
      var c = W.byId.billing;
      var m = multi(c, billingItems(), { lbl: text(state.view === 'instances' ? 'ex.price_columns' : 'col.billing') });
      billingSlot.replaceChildren(m);
    }
    rebuildBilling();
    controls.push({ sync: rebuildBilling });
    second.appendChild(billingSlot);
    if (V.scenarios.length) {
      var scs = [['', text('ex.scenario_any')]].concat(V.scenarios.map(function (s) { return [s.id, A.lang === 'zh' && s.zh ? s.zh : s.en]; }));
      second.appendChild(select('filter-scenario', text('ex.scenario'), scs, function () { return state.sc; }, function (v) { state.sc = v; }));
    }

    var third = el('div', 'filter-row');
    // The currencies offers are published in, and USD (the FX table may hold many more).
    var published = { USD: true };
    V.rows.forEach(function (r) { published[r.cur] = true; });
    var curs = Object.keys(published).sort().filter(function (c) { return A.rate(V.data.fx, c) !== null; }).map(function (c) { return [c, c]; });
    curs.push(['native', text('filter.native')]);
    third.appendChild(select('filter-currency', text('filter.currency'), curs, function () { return state.cur; }, function (v) { state.cur = v; }));
    third.appendChild(select('filter-per', text('filter.per'), ['hour', 'month', 'year'].map(function (u) { return [u, text('per.' + u)]; }),
      function () { return state.per; }, function (v) { state.per = v; }));
    third.appendChild(select('filter-sort', text('ex.sort'), function () {
      return E.cols().filter(function (c) { return state.cols.indexOf(c.id) >= 0; }).map(function (c) { return [c.id, E.colLabel(c)]; });
    }, function () { return state.sort; }, function (v) { state.sort = v; }));
    third.appendChild(select('filter-dir', text('ex.dir'), [['asc', text('ex.dir_asc')], ['desc', text('ex.dir_desc')]],
      function () { return state.dir; }, function (v) { state.dir = v; }));
    if (V.data.workloads.length) {
      var wls = [['', text('filter.no_workload')]].concat(V.data.workloads.map(function (w, i) { return [String(i), w[0]]; }));
      var wl = select('filter-workload', text('filter.workload'), wls, function () { return state.wl; }, function (v) {
        state.wl = v;
        if (v !== '' && state.cols.indexOf('work') < 0) state.cols.push('work');
      });
      controls.push({ sync: function () { wl.hidden = state.view !== 'offers'; } });
      third.appendChild(wl);
    }
    third.appendChild(check('filter-partial', text('ex.partial'), function () { return state.part === '1'; }, function (on) { state.part = on ? '1' : '0'; }));
    third.appendChild(check('filter-synthetic', text('filter.synthetic'), function () { return state.syn !== '0'; }, function (on) { state.syn = on ? '1' : '0'; }));
    third.appendChild(check('filter-suspect', text('filter.suspect'), function () { return state.sus === '1'; }, function (on) { state.sus = on ? '1' : '0'; }));

    // Columns: rebuilt when the view changes (each view has its own).
    var colsBox = el('details', 'ms cols');
    colsBox.id = 'choose-columns';
    colsBox.appendChild(el('summary', '', text('filter.columns')));
    var cb = el('div', 'ms-box');
    cb.setAttribute('role', 'group');
    cb.setAttribute('aria-label', text('filter.columns'));
    colsBox.appendChild(cb);
    var colsFor = '';
    controls.push({
      sync: function () {
        if (colsFor !== state.view) {
          colsFor = state.view;
          cb.replaceChildren();
          E.cols().forEach(function (c) {
            if (c.work && !V.data.workloads.length) return;
            if (c.billing !== undefined && V.present.indexOf(c.id) < 0) return;
            var l = el('label');
            var i = el('input');
            i.type = 'checkbox';
            i.value = c.id;
            i.addEventListener('change', function () {
              var at = state.cols.indexOf(c.id);
              if (!i.checked && at >= 0) state.cols.splice(at, 1);
              if (i.checked && at < 0) state.cols.splice(insertAt(c.id), 0, c.id);
              if (!state.cols.length) state.cols = E.defaults[state.view].slice();
              E.update();
            });
            l.append(i, ' ' + (c.billing !== undefined ? label('ex.col', c.id) : c.price ? text(c.lbl.replace('_x', '')) : text(c.lbl)));
            cb.appendChild(l);
          });
        }
        cb.querySelectorAll('input').forEach(function (i) { i.checked = state.cols.indexOf(i.value) >= 0; });
      }
    });
    third.appendChild(colsBox);
    var reset = el('a', 'reset', text('filter.reset'));
    reset.id = 'filter-reset';
    reset.href = location.pathname;
    third.appendChild(reset);

    // insertAt is where a column the reader adds goes: after the nearest column
    // before it in the column list that is shown, so the reader's order is kept.
    function insertAt(id) {
      var all = W.COLS;
      for (var k = all.indexOf(W.byId[id]) - 1; k >= 0; k--) {
        var at = state.cols.indexOf(all[k].id);
        if (at >= 0) return at + 1;
      }
      return 0;
    }

    var more = el('details', 'more');
    more.id = 'more-filters';
    more.appendChild(el('summary', '', text('filter.more')));
    var grid = el('div', 'more-grid');
    W.COLS.forEach(function (c) {
      if (['provider', 'gpu', 'region', 'country', 'billing'].indexOf(c.id) >= 0 || c.work) return;
      if (c.billing !== undefined && V.present.indexOf(c.id) < 0) return;
      var node;
      if (c.kind === 'name') node = multi(c, items(c, distinct(c)));
      else if (c.kind === 'num') node = range(c);
      else {
        node = textInput('f-' + c.id, text(c.lbl), function () { return state.f[c.id] ? state.f[c.id].has : ''; },
          function (v) { state.f[c.id] = { has: v }; });
      }
      controls.push({ sync: function () { node.hidden = !W.inView(c, state.view); } });
      grid.appendChild(node);
    });
    more.appendChild(grid);
    panel.replaceChildren(top, second, third, more);
    panel.hidden = false;
    actions.hidden = false;

    // A drop-down closes on Escape or a click elsewhere.
    document.addEventListener('click', function (e) {
      document.querySelectorAll('details.ms[open]').forEach(function (d) { if (!d.contains(e.target)) d.open = false; });
    });
    document.addEventListener('keydown', function (e) {
      if (e.key !== 'Escape') return;
      document.querySelectorAll('details.ms[open]').forEach(function (d) { d.open = false; d.querySelector('summary').focus(); });
    });
    // Opening a long list puts the cursor in its search box.
    panel.addEventListener('toggle', function (e) {
      var d = e.target;
      if (d.open && d.classList && d.classList.contains('ms')) { var f = d.querySelector('.ms-find'); if (f) f.focus(); }
    }, true);
  }

  window.GPUAtlasControls = { build: build };
})();
