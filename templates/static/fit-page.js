// GPU Atlas memory estimator, the page: reads fit.html's form and URL, asks
// static/fit.js (globalThis.GPUAtlasFit, loaded first) for the answer and writes
// it in the page's language with the words sitegen.FitWords gives. Vanilla
// JavaScript, nothing loaded from other hosts.
(function () {
  'use strict';
  var api = globalThis.GPUAtlasFit;
  if (typeof document === 'undefined' || !api) return;
  var lib = api.lib;
  var InputError = lib.InputError, rangeError = lib.rangeError, isLora = lib.isLora, answer = lib.answer,
    answerJSON = lib.answerJSON, toJSON = lib.toJSON, byID = lib.byID, dec = lib.dec, cmp = lib.cmp, round = lib.round,
    divRound = lib.divRound, fixed = lib.fixed, str = lib.str, pow10 = lib.pow10;

  // ---- words: sitegen.FitWords ------------------------------------------------
  var cfgEl = document.getElementById('fit-config');
  if (!cfgEl) return;
  var cfg = JSON.parse(cfgEl.textContent);
  var L = cfg.labels || {};
  var models = byID(cfg.models);
  function text(k) { return L[k] === undefined ? k : L[k]; }
  function fill(s, vals) { return s.replace(/\{(\w+)\}/g, function (m, k) { return vals[k] === undefined ? m : String(vals[k]); }); }
  function T(k, vals) { return fill(text(k), vals || {}); }
  function group(s) {
    s = String(s);
    var neg = s.charAt(0) === '-';
    if (neg) s = s.slice(1);
    var parts = s.split('.'), w = parts[0];
    if (w.length > 3) {
      var out = '';
      for (var i = 0; i < w.length; i++) { if (i > 0 && (w.length - i) % 3 === 0) out += ','; out += w.charAt(i); }
      w = out;
    }
    return (neg ? '-' : '') + w + (parts.length > 1 ? '.' + parts[1] : '');
  }
  function gbText(d) { return group(fixed(dec(d), 2)); }
  function termsText(key, terms, extra) {
    var vals = {};
    (terms || []).forEach(function (t) { vals[t.name] = group(str(t.value)); });
    Object.keys(extra || {}).forEach(function (k) { vals[k] = extra[k]; });
    return T(key, vals);
  }
  function modelName(e) { return e.model ? e.model.name : T('fit.custom_model', { params: group(String(e.params)) }); }
  function componentText(c) {
    if (c.status !== 'estimated') return T('fit.status.' + c.status);
    return termsText('fit.formula.' + c.formula, c.terms) + ' = ' + group(str(c.bytes)) + ' B';
  }
  function gpuName(r) { return r.mapping_confidence ? T('fit.mapping_uncertain', { gpu: r.gpu_name }) : r.gpu_name; }
  function hardware(r) {
    if (r.memory_each_reported_gib !== undefined) return T('fit.hardware_reported', { devices: r.devices, gpu: gpuName(r), gib: gbText(r.memory_each_reported_gib) });
    return T('fit.hardware', { devices: r.devices, gpu: gpuName(r), each: r.memory_each_gb === null ? '?' : gbText(r.memory_each_gb) });
  }
  function placement(r) {
    var s = T('fit.reason.' + r.reason, { devices: r.devices });
    return r.verdict === 'may_fit' ? T('fit.may_fit') + T('fit.sep') + s : s;
  }
  function missReason(r) {
    var key = r.reason !== 'short' ? 'fit.reason.' + r.reason : r.devices === 1 ? 'fit.reason.short_one' : 'fit.reason.short';
    var s = T(key, { need: gbText(r.need_gb), devices: r.devices, gpu: gpuName(r), have: gbText(r.have_gb) });
    if (r.other_types) s += T('fit.sep') + T('fit.miss_more', { n: r.other_types });
    if (r.fits_from) s += T('fit.sep') + T('fit.miss_fits_from', { n: r.fits_from });
    return s;
  }

  // ---- the page ---------------------------------------------------------------
  var form = document.getElementById('fit-form');
  var out = document.getElementById('fit-out');
  var errEl = document.getElementById('fit-error');
  function $(id) { return document.getElementById(id); }
  function el(tag, cls, txt) { var e = document.createElement(tag); if (cls) e.className = cls; if (txt !== undefined && txt !== null) e.textContent = txt; return e; }
  var data = null;
  var hrefs = {}, gpuHrefs = {};
  // The URL parameters and their controls.
  var PARAMS = [['model', 'fit-model'], ['params', 'fit-params'], ['layers', 'fit-layers'], ['hidden', 'fit-hidden'], ['heads', 'fit-heads'],
    ['kvheads', 'fit-kvheads'], ['headdim', 'fit-headdim'], ['task', 'fit-task'], ['precision', 'fit-precision'], ['kv', 'fit-kv'],
    ['context', 'fit-context'], ['batch', 'fit-batch'], ['seqs', 'fit-seqs'], ['ckpt', 'fit-ckpt'], ['rank', 'fit-rank'],
    ['share', 'fit-share'], ['overhead', 'fit-overhead'], ['billing', 'fit-billing'], ['currency', 'fit-currency'], ['gpu', 'fit-gpu']];
  var FIELDS = { model: 'fit-model', params: 'fit-params', architecture: 'fit-layers', layers: 'fit-layers', hidden_size: 'fit-hidden',
    attention_heads: 'fit-heads', kv_heads: 'fit-kvheads', head_dim: 'fit-headdim', task: 'fit-task', precision: 'fit-precision',
    kv_precision: 'fit-kv', context: 'fit-context', batch: 'fit-batch', sequences: 'fit-seqs', checkpointing: 'fit-ckpt',
    lora_rank: 'fit-rank', trainable_share: 'fit-share', overhead_share: 'fit-overhead' };

  function fieldLabel(field) {
    var id = FIELDS[field], lab = id && document.querySelector('label[for="' + id + '"]');
    if (!lab) return field;
    var t = lab.firstChild && lab.firstChild.nodeType === 3 ? lab.firstChild.textContent : lab.textContent;
    return t.trim();
  }
  function UIError(msg) { this.message = msg; }

  function intField(field, id) {
    var v = $(id).value.trim();
    if (v === '') return 0;
    if (!/^-?\d+$/.test(v)) throw new UIError(T('fit.err.number', { field: fieldLabel(field) }));
    var n = parseInt(v, 10);
    if (n < 1) throw new InputError(rangeError(field, n));
    return n;
  }
  function shareField(field, id) {
    var v = $(id).value.trim().replace(/%$/, '').trim();
    if (v === '') return null;
    var d;
    try { d = dec(v); } catch (e) { throw new UIError(T('fit.err.share', { field: fieldLabel(field) })); }
    return divRound(d, dec(100), d.e + 2);
  }
  // paramsField reads 70e9, 70B, 7.24b or 70000000000 as a whole number.
  function paramsField() {
    var v = $('fit-params').value.trim(), mult = 0;
    var suf = { k: 3, m: 6, b: 9, t: 12 }[v.slice(-1).toLowerCase()];
    if (suf) { mult = suf; v = v.slice(0, -1); }
    var m = /^(\d*\.?\d*)(?:[eE]([+-]?\d+))?$/.exec(v);
    if (!v || !m || m[1] === '' || m[1] === '.') throw new UIError(T('fit.err.number', { field: fieldLabel('params') }));
    var d = dec(m[1]), ex = (m[2] ? parseInt(m[2], 10) : 0) + mult;
    if (ex >= 0) d = { m: d.m * pow10(ex), e: d.e }; else d = { m: d.m, e: d.e - ex };
    var r = round(d, 0);
    if (cmp(r, d) !== 0) throw new UIError(T('fit.err.number', { field: fieldLabel('params') }));
    var n = Number(r.m);
    if (n < 1e6 || n > 1e13) throw new InputError(rangeError('params', n));
    return n;
  }

  // input is the MemoryInput of the controls; zero and empty fields take the
  // defaults, as in compare.
  function input() {
    var inp = {}, model = $('fit-model').value;
    if (model) inp.model = model;
    else {
      inp.params = paramsField();
      var arch = { layers: intField('layers', 'fit-layers'), hidden_size: intField('hidden_size', 'fit-hidden'),
        attention_heads: intField('attention_heads', 'fit-heads'), kv_heads: intField('kv_heads', 'fit-kvheads'), head_dim: intField('head_dim', 'fit-headdim') };
      if (arch.layers || arch.hidden_size || arch.attention_heads || arch.kv_heads || arch.head_dim) inp.architecture = arch;
    }
    var task = $('fit-task').value;
    inp.task = task;
    inp.precision = $('fit-precision').value;
    inp.context = intField('context', 'fit-context');
    inp.batch = intField('batch', 'fit-batch');
    if (task === 'inference') {
      if ($('fit-kv').value) inp.kv_precision = $('fit-kv').value;
      inp.sequences = intField('sequences', 'fit-seqs');
    } else {
      if ($('fit-ckpt').value) inp.checkpointing = $('fit-ckpt').value;
      if (isLora(task)) {
        var share = shareField('trainable_share', 'fit-share');
        if (share) inp.trainable_share = share;
        else inp.lora_rank = intField('lora_rank', 'fit-rank');
      }
    }
    var over = shareField('overhead_share', 'fit-overhead');
    if (over) inp.overhead_share = over;
    return inp;
  }

  function errorText(ie) {
    if (ie.code === 'missing' && ie.with === 'lora_rank_needs_architecture') return T('fit.err.lora_needs_share');
    var vals = { field: fieldLabel(ie.field), value: ie.value || '', min: ie.min || '', max: ie.max || '',
      allowed: (ie.allowed || []).join(', '), with: ie.with ? fieldLabel(ie.with) : '' };
    return T('fit.err.' + ie.code, vals);
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
    heads.forEach(function (h) { var c = el('th', h.num ? 'num' : null, h.text); c.scope = 'col'; tr.appendChild(c); });
    th.appendChild(tr);
    t.appendChild(th);
    var tb = el('tbody');
    rows.forEach(function (r) { tb.appendChild(r); });
    t.appendChild(tb);
    wrap.appendChild(t);
    return wrap;
  }
  function cell(tr, tag, cls, content, href) {
    var c = el(tag, cls);
    if (href) { var a = el('a', null, content); a.href = href; c.appendChild(a); } else c.textContent = content;
    tr.appendChild(c);
    return c;
  }
  function page(rel) { return rel ? cfg.base + cfg.prefix + rel : ''; }

  function render(ans) {
    var e = ans.estimate, o = ans.offers, nodes = [];
    var cap = T(e.lower_bound ? 'fit.estimate_caption_lower' : 'fit.estimate_caption', { model: modelName(e), task: T('fit.task.' + e.input.task), gb: gbText(e.total.gb), gib: gbText(e.total.gib) });
    var rows = e.components.map(function (c) {
      var tr = el('tr');
      tr.dataset.component = c.component;
      tr.dataset.status = c.status;
      var th = cell(tr, 'th', null, T('fit.comp.' + c.component));
      th.scope = 'row';
      var est = c.status === 'estimated';
      cell(tr, 'td', 'num', est ? gbText(c.gb) : '—');
      cell(tr, 'td', 'num', est ? gbText(c.gib) : '—');
      cell(tr, 'td', 'formula', componentText(c));
      return tr;
    });
    var t = table('fit-estimate', cap, [{ text: T('fit.col.component') }, { text: T('fit.col.gb'), num: true }, { text: T('fit.col.gib'), num: true }, { text: T('fit.col.formula') }], rows);
    var tf = el('tfoot'), tr = el('tr');
    tr.dataset.component = 'total';
    var th = cell(tr, 'th', null, T('fit.total'));
    th.scope = 'row';
    var td = el('td', 'num');
    td.appendChild(el('strong', null, gbText(e.total.gb)));
    tr.appendChild(td);
    cell(tr, 'td', 'num', gbText(e.total.gib));
    cell(tr, 'td', null, e.lower_bound ? T('fit.lower_bound') : '');
    tf.appendChild(tr);
    t.querySelector('table').appendChild(tf);
    t.setAttribute('aria-labelledby', 'fit-estimate-caption');
    t.removeAttribute('aria-label');
    t.querySelector('caption').id = 'fit-estimate-caption';
    nodes.push(t);
    var ul = el('ul', 'plain note');
    ul.id = 'fit-notes';
    e.figures.forEach(function (f) { ul.appendChild(el('li', null, termsText('fit.figure.' + f.formula, f.terms, { value: group(str(f.value)) }))); });
    e.notes.forEach(function (n) { ul.appendChild(el('li', null, termsText('fit.note.' + n.code, n.terms))); });
    if (e.model) {
      var li = el('li', null, T('fit.source_label') + ' ');
      var a = el('a', null, e.model.source);
      a.href = e.model.source;
      a.rel = 'noopener';
      li.appendChild(a);
      li.appendChild(document.createTextNode(' (' + T('fit.source_read', { date: e.model.source_date }) + ')'));
      ul.appendChild(li);
    }
    nodes.push(ul);

    var h2 = el('h2', null, T('fit.fits_title'));
    h2.id = 'fit-fits-title';
    nodes.push(h2);
    var billing = text('billing.' + o.billing), priceHead = T('fit.col.price', { currency: o.currency });
    if (o.fits.length) {
      // A subscription or reservation also per month, with its hourly equivalent.
      var perMonth = o.fits[0].price_per_month !== undefined;
      var heads = [{ text: T('fit.col.rank'), num: true }, { text: T('fit.col.instance') }, { text: T('fit.col.hardware') }, { text: T('fit.col.have'), num: true },
        { text: T('fit.col.per_gpu'), num: true }, { text: T('fit.col.placement') }, { text: T('fit.col.region') }, { text: priceHead, num: true }];
      if (perMonth) heads.push({ text: T('fit.col.per_month', { currency: o.currency }), num: true });
      nodes.push(table('fit-fits', T('fit.fits_caption', { count: o.fits_total, billing: billing, currency: o.currency }),
        heads,
        o.fits.map(function (r, i) {
          var tr = el('tr');
          tr.dataset.instance = r.instance;
          tr.dataset.reason = r.reason;
          cell(tr, 'td', 'num', String(i + 1));
          cell(tr, 'td', null, r.instance, page(hrefs[r.instance]));
          cell(tr, 'td', null, hardware(r), page(gpuHrefs[r.instance]));
          cell(tr, 'td', 'num', gbText(r.have_gb));
          cell(tr, 'td', 'num', gbText(r.need_per_gpu_gb));
          cell(tr, 'td', null, placement(r));
          cell(tr, 'td', null, r.region);
          cell(tr, 'td', 'num', group(fixed(dec(r.price), 4)));
          if (perMonth) cell(tr, 'td', 'num per-month', T('fit.per_month', { month: group(fixed(dec(r.price_per_month), 2)), hour: group(fixed(dec(r.price), 4)) }));
          return tr;
        })));
    } else {
      var none = el('p', null, T('fit.none'));
      none.id = 'fit-none';
      nodes.push(none);
    }
    if (o.misses.length) {
      var h = el('h2', null, T('fit.misses_title'));
      h.id = 'fit-misses-title';
      nodes.push(h);
      nodes.push(table('fit-misses', T('fit.misses_caption'),
        [{ text: T('fit.col.hardware') }, { text: T('fit.col.instance') }, { text: priceHead, num: true }, { text: T('fit.col.reason') }],
        o.misses.map(function (r) {
          var tr = el('tr');
          tr.dataset.instance = r.instance;
          tr.dataset.gpu = r.gpu_model || '';
          cell(tr, 'td', null, hardware(r), page(gpuHrefs[r.instance]));
          cell(tr, 'td', null, r.instance, page(hrefs[r.instance]));
          cell(tr, 'td', 'num', group(fixed(dec(r.price), 4)));
          cell(tr, 'td', null, missReason(r));
          return tr;
        })));
    }
    var lo = el('p', 'note', T('fit.left_out', { unknown: o.unknown_memory, no_offer: o.left_out.no_offer, excluded: o.left_out.suspect_or_synthetic, billing: billing }) +
      ' ' + T('fit.split_note') + ' ');
    // The FX table's source is shown as written, marked English (as the page
    // the server renders has it).
    var fx = T('fit.fx', { source: '\u0000', date: o.fx_date }).split('\u0000');
    var src = el('span', null, o.fx_source);
    src.lang = 'en';
    lo.append(fx[0], src, fx.slice(1).join(''));
    lo.id = 'fit-leftout';
    nodes.push(lo);
    var det = el('details');
    det.id = 'fit-json';
    det.appendChild(el('summary', null, T('fit.json')));
    var pre = el('pre', null, toJSON(ans, 2));
    pre.id = 'fit-json-text';
    det.appendChild(pre);
    nodes.push(det);
    out.replaceChildren.apply(out, nodes);
  }

  // showFields hides the controls the task does not take.
  function showFields() {
    var task = $('fit-task').value, custom = $('fit-model').value === '';
    $('fit-custom').hidden = !custom;
    [].slice.call(form.querySelectorAll('[data-task]')).forEach(function (l) { l.hidden = l.dataset.task.split(' ').indexOf(task) < 0; });
  }

  function syncURL() {
    var q = new URLSearchParams();
    PARAMS.forEach(function (p) {
      var c = $(p[1]);
      // The model is always written: empty is another model, given by its parameters.
      if (p[0] !== 'model' && (c.value === '' || (c.closest('[hidden]') && c.closest('[hidden]') !== form))) return;
      q.set(p[0], c.value);
    });
    var s = q.toString();
    history.replaceState(null, '', location.pathname + (s ? '?' + s : '') + location.hash);
  }

  function update() {
    showFields();
    syncURL();
    errEl.textContent = '';
    var ans;
    try {
      ans = answer(input(), models, data, { billing: $('fit-billing').value, currency: $('fit-currency').value, gpu: $('fit-gpu').value });
    } catch (e) {
      if (e instanceof InputError) errEl.textContent = errorText(e.ie);
      else if (e instanceof UIError) errEl.textContent = e.message;
      else throw e;
      out.replaceChildren();
      out.dataset.state = 'error';
      form.dataset.state = 'error';
      return;
    }
    render(ans);
    out.dataset.state = 'ok';
    form.dataset.state = 'ok';
  }

  // The task sets what precision makes sense: QLoRA is 4-bit, full training 16
  // or 32-bit.
  function taskChanged() {
    var task = $('fit-task').value, p = $('fit-precision');
    if (task === 'qlora') p.value = 'int4';
    else if (task === 'full' && ['fp32', 'bf16', 'fp16'].indexOf(p.value) < 0) p.value = 'bf16';
    else if (task === 'lora' && p.value === 'int4') p.value = 'bf16';
  }

  // loadURL sets the controls from the URL; a task without a precision gets
  // the task's.
  function loadURL() {
    var q = new URLSearchParams(location.search);
    $('fit-model').value = cfg.default.model || '';
    PARAMS.forEach(function (p) {
      if (!q.has(p[0])) return;
      var c = $(p[1]), v = q.get(p[0]);
      if (c.tagName === 'SELECT' && ![].some.call(c.options, function (o) { return o.value === v; })) return;
      c.value = v;
    });
    if (!q.has('precision')) taskChanged();
  }

  function start(d) {
    data = d;
    data.instances.forEach(function (h) { hrefs[h.instance] = h.href || ''; gpuHrefs[h.instance] = h.gpu_href || ''; });
    loadURL();
    form.addEventListener('input', update);
    form.addEventListener('change', function (ev) { if (ev.target.id === 'fit-task') taskChanged(); update(); });
    form.addEventListener('submit', function (ev) { ev.preventDefault(); });
    form.hidden = false;
    var def = $('fit-default');
    if (def) def.remove();
    update();
  }

  // The page's own: the answer to any input on its models and data, as JSON
  // text, and the input of its controls.
  api.compute = function (inp, opts) { return answerJSON(inp, models, data, opts); };
  api.input = input;

  fetch(cfg.base + cfg.data).then(function (r) {
    if (!r.ok) throw new Error(cfg.data + ': HTTP ' + r.status);
    return r.json();
  }).then(start).catch(function (e) {
    errEl.textContent = String(e.message || e);
    form.hidden = false;
    form.dataset.state = 'error';
  });
})();
