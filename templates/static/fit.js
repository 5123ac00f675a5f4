// GPU Atlas memory estimator: recomputes package compare's memory estimate
// (compare/memory_input.go, memory_estimate.go) and its fit against offers
// (memory_fit.go) in the browser, from the known models in fit.html and the
// instance types in data/fit.json. Every figure is an exact decimal (a BigInt
// scaled by a power of ten), rounded as compare rounds: GB and GiB to 2 places
// half away from zero from the exact bytes. The answer is the same JSON as
// `gpuatlas fit --format json`, key for key (a browser test compares the two to
// the byte). The page that reads the form and writes the answer is
// static/fit-page.js, loaded after this file. Vanilla JavaScript, nothing
// loaded from other hosts.
(function () {
  'use strict';

  // ---- exact decimals: {m: BigInt, e: Number} is m × 10^-e, e ≥ 0 -------------
  var TEN = BigInt(10), ZB = BigInt(0), ONEB = BigInt(1), TWOB = BigInt(2);
  function pow10(n) { var r = ONEB; for (var i = 0; i < n; i++) r *= TEN; return r; }
  // dec reads a number as shopspring/decimal's NewFromString reads the
  // input JSON (a sign, a point, an exponent), or takes a whole Number, a
  // BigInt or a decimal.
  var NUM_RE = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;
  function dec(s) {
    if (typeof s === 'object' && s !== null && typeof s.m === 'bigint') return s;
    if (typeof s === 'number') {
      if (!Number.isInteger(s)) throw new Error('not an integer: ' + s);
      return { m: BigInt(s), e: 0 };
    }
    if (typeof s === 'bigint') return { m: s, e: 0 };
    var t = String(s).trim().replace(/\u2212/g, '-');
    var m = NUM_RE.exec(t);
    if (!m || (m[2] === '' && (m[3] === undefined || m[3] === ''))) throw new Error('not a number: ' + s);
    var frac = m[3] || '', v = BigInt((m[2] || '0') + frac), x = (m[4] ? parseInt(m[4], 10) : 0) - frac.length;
    if (Math.abs(x) > 10000) throw new Error('not a number: ' + s);
    if (m[1] === '-') v = -v;
    return x >= 0 ? { m: v * pow10(x), e: 0 } : { m: v, e: -x };
  }
  function align(a, b) {
    if (a.e === b.e) return [a.m, b.m, a.e];
    if (a.e < b.e) return [a.m * pow10(b.e - a.e), b.m, b.e];
    return [a.m, b.m * pow10(a.e - b.e), a.e];
  }
  function add(a, b) { var x = align(a, b); return { m: x[0] + x[1], e: x[2] }; }
  function mul(a, b) { return { m: a.m * b.m, e: a.e + b.e }; }
  function cmp(a, b) { var x = align(a, b); return x[0] < x[1] ? -1 : x[0] > x[1] ? 1 : 0; }
  function sign(a) { return a.m < ZB ? -1 : a.m > ZB ? 1 : 0; }
  function babs(x) { return x < ZB ? -x : x; }
  function roundQuo(num, den) {
    var q = num / den, r = num % den;
    if (babs(r) * TWOB >= babs(den)) q += ((num < ZB) !== (den < ZB)) ? -ONEB : ONEB;
    return q;
  }
  // divRound is a/b to places, half away from zero (decimal.DivRound).
  function divRound(a, b, places) {
    if (b.m === ZB) throw new Error('division by zero');
    return { m: roundQuo(a.m * pow10(places + b.e), b.m * pow10(a.e)), e: places };
  }
  // round is a to places, half away from zero (decimal.Round).
  function round(a, places) {
    if (a.e <= places) return a;
    return { m: roundQuo(a.m, pow10(a.e - places)), e: places };
  }
  // shift is a × 10^n for n ≤ 0 (decimal.Shift).
  function shift(a, n) { return { m: a.m, e: a.e - n }; }
  // ceilDiv is ceil(a/b) of positive decimals, exact.
  function ceilDiv(a, b) {
    var x = align(a, b), q = x[0] / x[1];
    if (x[0] % x[1] !== ZB) q += ONEB;
    return q;
  }
  // str is the shortest exact form, as decimal.String.
  function str(a) {
    var neg = a.m < ZB, digits = babs(a.m).toString(), e = a.e;
    while (e > 0 && digits.length > 1 && digits.charAt(digits.length - 1) === '0') { digits = digits.slice(0, -1); e--; }
    if (e > 0 && digits === '0') e = 0;
    var out;
    if (e === 0) out = digits;
    else {
      while (digits.length <= e) digits = '0' + digits;
      out = digits.slice(0, digits.length - e) + '.' + digits.slice(digits.length - e);
    }
    return (neg && out !== '0' ? '-' : '') + out;
  }
  // fixed is a rounded to places, written with exactly that many (StringFixed).
  function fixed(a, places) {
    var r = round(a, places);
    var m = r.m * pow10(places - r.e);
    var neg = m < ZB, digits = babs(m).toString();
    if (places === 0) return (neg ? '-' : '') + digits;
    while (digits.length <= places) digits = '0' + digits;
    return (neg ? '-' : '') + digits.slice(0, digits.length - places) + '.' + digits.slice(digits.length - places);
  }
  var ZERO = dec(0), ONE = dec(1);
  // The billing kinds with a term (catalog.BillingKind.TermHours), and a month.
  var COMMITMENTS = ['reserved_1y_no_upfront', 'reserved_1y_all_upfront', 'reserved_3y_no_upfront', 'reserved_3y_all_upfront',
    'subscription_month', 'subscription_year'];
  var HOURS_PER_MONTH = dec(730);
  var GB_BYTES = dec('1000000000'), GIB_BYTES = dec('1073741824');

  // ---- the input: compare.MemoryInput.Resolve ---------------------------------
  var SCHEMA = 1;
  var PRECISIONS = ['fp32', 'bf16', 'fp16', 'fp8', 'int8', 'int4'];
  var BYTES = { fp32: dec(4), bf16: dec(2), fp16: dec(2), fp8: dec(1), int8: dec(1), int4: dec('0.5') };
  var TASKS = ['inference', 'full', 'lora', 'qlora'];
  var CKPT = ['none', 'selective', 'full'];
  var RANGES = { params: [1e6, 1e13], context: [1, 10000000], batch: [1, 100000], sequences: [1, 1000000],
    lora_rank: [1, 65536], layers: [1, 10000], hidden_size: [1, 1000000], attention_heads: [1, 100000], head_dim: [1, 1000000] };
  var DEFAULT_OVERHEAD = dec('0.2');

  function InputError(o) { this.ie = o; this.message = o.field + ': ' + o.code; }
  function fail(o) { throw new InputError(o); }
  function rangeError(field, v) {
    var r = RANGES[field];
    return { field: field, code: 'out_of_range', value: String(v), min: String(r[0]), max: String(r[1]) };
  }
  function isLora(t) { return t === 'lora' || t === 'qlora'; }
  function isTraining(t) { return t === 'full' || isLora(t); }
  function latent(a) { return a.kv_lora_rank > 0; }
  function kvKnown(a) {
    if (!(a.layers > 0)) return false;
    if (latent(a)) return a.qk_rope_head_dim > 0;
    return a.kv_heads > 0 && a.head_dim > 0;
  }
  function actKnown(a) { return a.layers > 0 && a.hidden_size > 0 && a.attention_heads > 0; }
  function loraCountable(m) {
    var a = m.architecture;
    return m.kind === 'transformer' && !latent(a) && a.layers > 0 && a.hidden_size > 0 && a.attention_heads > 0 &&
      a.kv_heads > 0 && a.head_dim > 0 && a.intermediate_size > 0;
  }
  function emptyArch() {
    return { layers: 0, hidden_size: 0, attention_heads: 0, kv_heads: 0, head_dim: 0 };
  }
  function customArch(a) {
    var out = { layers: a.layers || 0, hidden_size: a.hidden_size || 0, attention_heads: a.attention_heads || 0,
      kv_heads: a.kv_heads || 0, head_dim: a.head_dim || 0 };
    var checks = [['layers', out.layers, 10000, true], ['hidden_size', out.hidden_size, 1000000, true],
      ['attention_heads', out.attention_heads, 100000, true], ['kv_heads', out.kv_heads, out.attention_heads, true],
      ['head_dim', out.head_dim, 1000000, false]];
    checks.forEach(function (c) {
      if (c[1] === 0 && c[3]) fail({ field: c[0], code: 'missing', with: 'architecture' });
      if (c[1] !== 0 && (c[1] < 1 || c[1] > c[2])) fail({ field: c[0], code: 'out_of_range', value: String(c[1]), min: '1', max: String(c[2]) });
    });
    // Grouped-query attention: the KV heads divide the attention heads (compare.customArch).
    if (out.attention_heads % out.kv_heads !== 0) fail({ field: 'kv_heads', code: 'not_divisor', value: String(out.kv_heads), with: 'attention_heads' });
    if (out.head_dim === 0) {
      if (out.hidden_size % out.attention_heads !== 0) fail({ field: 'head_dim', code: 'missing', with: 'hidden_size_not_divisible' });
      out.head_dim = out.hidden_size / out.attention_heads;
    }
    return out;
  }

  // resolve is compare's resolve: the checked input (defaults filled, in the
  // JSON order of compare.MemoryInput) and its model.
  function resolve(src, models) {
    var x = {};
    Object.keys(src).forEach(function (k) { x[k] = src[k]; });
    if (x.schema && x.schema !== SCHEMA) fail({ field: 'schema', code: 'not_one_of', value: String(x.schema), allowed: [String(SCHEMA)] });
    var m, arch = null;
    if (x.model && (x.params || x.architecture)) fail({ field: 'model', code: 'conflict', with: x.params ? 'params' : 'architecture' });
    if (x.model) {
      m = models[x.model];
      if (!m) fail({ field: 'model', code: 'unknown_model', value: x.model, allowed: Object.keys(models) });
    } else {
      if (!x.params) fail({ field: 'params', code: 'missing', with: 'model' });
      if (x.params < RANGES.params[0] || x.params > RANGES.params[1]) fail(rangeError('params', x.params));
      m = { id: '', kind: 'transformer', params: x.params, frozen_params: 0, active_params: x.params, architecture: emptyArch() };
      if (x.architecture) {
        arch = customArch(x.architecture);
        m.architecture = arch;
      }
    }
    var task = x.task || 'inference';
    if (TASKS.indexOf(task) < 0) fail({ field: 'task', code: 'not_one_of', value: task, allowed: TASKS.slice() });
    var prec = x.precision || (task === 'qlora' ? 'int4' : 'bf16');
    if (PRECISIONS.indexOf(prec) < 0) fail({ field: 'precision', code: 'not_one_of', value: prec, allowed: PRECISIONS.slice() });
    if (task === 'full' && ['fp32', 'bf16', 'fp16'].indexOf(prec) < 0) fail({ field: 'precision', code: 'not_one_of', value: prec, allowed: ['fp32', 'bf16', 'fp16'], with: task });
    if (task === 'qlora' && prec !== 'int4') fail({ field: 'precision', code: 'not_one_of', value: prec, allowed: ['int4'], with: task });
    var kv = x.kv_precision || '';
    if (task !== 'inference') {
      if (kv) fail({ field: 'kv_precision', code: 'not_applicable', with: task });
    } else {
      if (!kv) kv = prec === 'fp32' ? 'fp32' : 'bf16';
      if (PRECISIONS.indexOf(kv) < 0) fail({ field: 'kv_precision', code: 'not_one_of', value: kv, allowed: PRECISIONS.slice() });
    }
    var context = x.context || 0, batch = x.batch || 0;
    if (context === 0 && m.kind === 'transformer') context = 8192;
    if (batch === 0) batch = 1;
    if (context < 0 || context > RANGES.context[1] || (context === 0 && m.kind === 'transformer')) fail(rangeError('context', context));
    if (batch < 1 || batch > RANGES.batch[1]) fail(rangeError('batch', batch));
    var seqs = x.sequences || 0, ckpt = x.checkpointing || '', rank = x.lora_rank || 0;
    var share = x.trainable_share === undefined || x.trainable_share === null ? null : dec(x.trainable_share);
    if (task === 'inference') {
      if (seqs === 0) seqs = batch;
      if (seqs < 1 || seqs > RANGES.sequences[1]) fail(rangeError('sequences', seqs));
    } else if (seqs !== 0) fail({ field: 'sequences', code: 'not_applicable', with: task });
    if (isTraining(task)) {
      if (!ckpt) ckpt = isLora(task) ? 'full' : 'selective';
      if (CKPT.indexOf(ckpt) < 0) fail({ field: 'checkpointing', code: 'not_one_of', value: ckpt, allowed: CKPT.slice() });
    } else if (ckpt) fail({ field: 'checkpointing', code: 'not_applicable', with: task });
    if (!isLora(task)) {
      if (rank !== 0) fail({ field: 'lora_rank', code: 'not_applicable', with: task });
      if (share) fail({ field: 'trainable_share', code: 'not_applicable', with: task });
    } else if (share) {
      if (sign(share) <= 0 || cmp(share, ONE) > 0) fail({ field: 'trainable_share', code: 'out_of_range', value: str(share), min: '0 (exclusive)', max: '1' });
      if (rank !== 0) fail({ field: 'lora_rank', code: 'conflict', with: 'trainable_share' });
    } else {
      if (rank === 0) rank = 16;
      if (rank < 1 || rank > RANGES.lora_rank[1]) fail(rangeError('lora_rank', rank));
    }
    var over = x.overhead_share === undefined || x.overhead_share === null ? DEFAULT_OVERHEAD : dec(x.overhead_share);
    if (sign(over) < 0 || cmp(over, ONE) > 0) fail({ field: 'overhead_share', code: 'out_of_range', value: str(over), min: '0', max: '1' });
    if (isLora(task) && !share && !loraCountable(m)) fail({ field: 'trainable_share', code: 'missing', with: 'lora_rank_needs_architecture' });

    var in_ = { schema: SCHEMA };
    if (x.model) in_.model = x.model;
    if (!x.model) in_.params = x.params;
    if (arch) in_.architecture = arch;
    in_.task = task;
    in_.precision = prec;
    if (kv) in_.kv_precision = kv;
    in_.context = context;
    in_.batch = batch;
    if (seqs) in_.sequences = seqs;
    if (ckpt) in_.checkpointing = ckpt;
    if (rank) in_.lora_rank = rank;
    if (share) in_.trainable_share = share;
    in_.overhead_share = over;
    return { in: in_, model: m };
  }

  // ---- the estimate: compare.EstimateMemory -------------------------------------
  function size(bytes) { return { bytes: bytes, gb: divRound(bytes, GB_BYTES, 2), gib: divRound(bytes, GIB_BYTES, 2) }; }
  function term(name, v) { return { name: name, value: dec(v) }; }
  function comp(name, formula, bytes, terms) {
    var s = size(bytes);
    return { component: name, status: 'estimated', formula: formula, terms: terms, bytes: s.bytes, gb: s.gb, gib: s.gib };
  }
  function absent(name, status) { return { component: name, status: status, bytes: ZERO, gb: ZERO, gib: ZERO }; }
  var ADAPTER = dec(2), ADAM = dec(12), ADAM32 = dec(8);

  function estimate(src, models) {
    var r = resolve(src, models), inp = r.in, m = r.model, a = m.architecture;
    var e = { schema: SCHEMA, input: inp };
    if (m.id) e.model = { id: m.id, name: m.name, weights_dtype: m.weights_dtype, source: m.source, source_date: m.source_date };
    e.kind = m.kind;
    e.params = m.params;
    e.frozen_params = m.frozen_params;
    e.active_params = m.active_params;
    e.trainable_params = 0;
    e.figures = [];
    var t = ZERO;
    if (isLora(inp.task)) {
      if (inp.trainable_share) {
        t = round(mul(dec(m.params), inp.trainable_share), 0);
        e.figures.push({ name: 'trainable_params', formula: 'lora_share', terms: [term('params', m.params), term('trainable_share', inp.trainable_share)], value: t });
      } else {
        var B = BigInt, h = B(a.hidden_size), q = B(a.attention_heads) * B(a.head_dim), kvd = B(a.kv_heads) * B(a.head_dim);
        var f = B(a.intermediate_size), mlps = B(Math.max(a.experts || 0, 1) + (a.shared_experts || 0));
        var per = (h + q) + TWOB * (h + kvd) + (q + h) + mlps * B(3) * (h + f);
        var v = B(inp.lora_rank) * B(a.layers) * per;
        t = { m: v, e: 0 };
        e.figures.push({ name: 'trainable_params', formula: 'lora_rank', terms: [term('lora_rank', inp.lora_rank), term('layers', a.layers),
          term('hidden', h), term('q_dim', q), term('kv_dim', kvd), term('mlps', mlps), term('intermediate', f)], value: t });
      }
      e.trainable_params = Number(t.m);
    }
    var wb = BYTES[inp.precision], p = dec(m.params), fz = dec(m.frozen_params);
    var base = mul(add(p, fz), wb), weights;
    if (isLora(inp.task) && m.frozen_params > 0) {
      weights = comp('weights', 'weights_lora_frozen', add(base, mul(t, ADAPTER)), [term('params', p), term('frozen_params', fz), term('bytes_per_param', wb), term('trainable_params', t), term('adapter_bytes', ADAPTER)]);
    } else if (isLora(inp.task)) {
      weights = comp('weights', 'weights_lora', add(base, mul(t, ADAPTER)), [term('params', p), term('bytes_per_param', wb), term('trainable_params', t), term('adapter_bytes', ADAPTER)]);
    } else if (m.frozen_params > 0) {
      weights = comp('weights', 'weights_frozen', base, [term('params', p), term('frozen_params', fz), term('bytes_per_param', wb)]);
    } else {
      weights = comp('weights', 'weights', base, [term('params', p), term('bytes_per_param', wb)]);
    }
    var grads, opt;
    if (inp.task === 'full') {
      grads = comp('gradients', 'gradients', mul(p, wb), [term('params', p), term('bytes_per_param', wb)]);
      opt = inp.precision === 'fp32' ? comp('optimizer', 'adamw_fp32', mul(p, ADAM32), [term('params', p), term('bytes_per_param', ADAM32)])
        : comp('optimizer', 'adamw_mixed', mul(p, ADAM), [term('params', p), term('bytes_per_param', ADAM)]);
    } else if (isLora(inp.task)) {
      grads = comp('gradients', 'gradients_lora', mul(t, ADAPTER), [term('trainable_params', t), term('bytes_per_param', ADAPTER)]);
      opt = comp('optimizer', 'adamw_lora', mul(t, ADAM), [term('trainable_params', t), term('bytes_per_param', ADAM)]);
    } else {
      grads = absent('gradients', 'not_applicable');
      opt = absent('optimizer', 'not_applicable');
    }
    e.components = [weights, grads, opt, activations(inp, m), kvCache(e, inp, m)];
    e.components.push(comp('overhead', 'overhead', mul(weights.bytes, inp.overhead_share), [term('overhead_share', inp.overhead_share), term('weights_bytes', weights.bytes)]));
    var total = ZERO, lower = false;
    e.components.forEach(function (c) {
      total = add(total, c.bytes);
      if (c.status === 'needs_architecture' || c.status === 'not_estimated') lower = true;
    });
    e.total = size(total);
    e.lower_bound = lower;
    e.notes = notes(inp, m, a);
    return e;
  }

  function activations(inp, m) {
    var a = m.architecture;
    if (!isTraining(inp.task)) return absent('activations', 'in_overhead');
    if (m.kind === 'diffusion') return absent('activations', 'not_estimated');
    if (!actKnown(a)) return absent('activations', 'needs_architecture');
    var s = dec(inp.context), b = dec(inp.batch), h = dec(a.hidden_size), l = dec(a.layers);
    var sbh = mul(mul(s, b), h), bytes, formula, terms = [term('tokens', s), term('batch', b), term('hidden', h), term('layers', l)];
    if (inp.checkpointing === 'none') {
      var heads = dec(a.attention_heads);
      bytes = add(mul(mul(sbh, l), dec(34)), mul(mul(mul(mul(mul(dec(5), heads), s), s), b), l));
      formula = 'act_none';
      terms.push(term('heads', heads));
    } else if (inp.checkpointing === 'selective') {
      bytes = mul(mul(sbh, l), dec(34));
      formula = 'act_selective';
    } else {
      bytes = add(mul(mul(sbh, l), dec(2)), mul(sbh, dec(34)));
      formula = 'act_full';
    }
    if (inp.precision === 'fp32') { bytes = mul(bytes, dec(2)); formula += '_fp32'; }
    return comp('activations', formula, bytes, terms);
  }

  function kvCache(e, inp, m) {
    var a = m.architecture;
    if (inp.task !== 'inference' || m.kind === 'diffusion') return absent('kv_cache', 'not_applicable');
    if (!kvKnown(a)) return absent('kv_cache', 'needs_architecture');
    var tokens = inp.context;
    if (a.sliding_window > 0 && a.sliding_window < tokens) {
      tokens = a.sliding_window;
      e.figures.push({ name: 'kv_tokens', formula: 'window', terms: [term('context', inp.context), term('sliding_window', a.sliding_window)], value: dec(tokens) });
    }
    var kb = BYTES[inp.kv_precision], l = dec(a.layers), t = dec(tokens), n = dec(inp.sequences);
    if (latent(a)) {
      var r = dec(a.kv_lora_rank), rope = dec(a.qk_rope_head_dim);
      return comp('kv_cache', 'kv_mla', mul(mul(mul(mul(l, add(r, rope)), t), n), kb),
        [term('layers', l), term('kv_lora_rank', r), term('qk_rope_head_dim', rope), term('tokens', t), term('sequences', n), term('bytes_per_value', kb)]);
    }
    var kvh = dec(a.kv_heads), hd = dec(a.head_dim);
    return comp('kv_cache', 'kv', mul(mul(mul(mul(mul(mul(dec(2), l), kvh), hd), t), n), kb),
      [term('layers', l), term('kv_heads', kvh), term('head_dim', hd), term('tokens', t), term('sequences', n), term('bytes_per_value', kb)]);
  }

  function notes(inp, m, a) {
    var out = [];
    function note(code, terms) { var n = { code: code }; if (terms && terms.length) n.terms = terms; out.push(n); }
    if (a.experts > 0) note('moe', [term('experts', a.experts), term('active_experts', a.active_experts), term('params', m.params), term('active_params', m.active_params)]);
    if (latent(a) && inp.task === 'inference') note('mla');
    if (['fp8', 'int8', 'int4'].indexOf(inp.precision) >= 0) note('quantised', [term('bytes_per_param', BYTES[inp.precision])]);
    if (m.kind === 'diffusion') note('diffusion');
    if (m.kind === 'transformer' && !actKnown(a)) note('no_architecture');
    if (isTraining(inp.task) && m.kind === 'transformer' && actKnown(a)) note('activations_approximate');
    return out;
  }

  // ---- the offers: compare.FitMemory ------------------------------------------
  // candidates is compare.MemoryCandidates's set rebuilt from data/fit.json.
  function candidates(data, billing, currency) {
    var cells = (data.prices || {})[billing] || {};
    var left = (data.left_out || {})[billing] || { no_offer: data.instances.length, suspect_or_synthetic: 0 };
    var out = [];
    data.instances.forEach(function (h) {
      var cell = cells[h.instance];
      if (!cell || cell.prices[currency] === undefined) return;
      var o = (cell.other && cell.other[currency]) || cell;
      var c = { instance: h.instance, provider: h.provider, type: h.type };
      if (h.gpu_model) c.gpu_model = h.gpu_model;
      c.gpu_name = h.gpu_name;
      if (h.mapping_confidence) c.mapping_confidence = h.mapping_confidence;
      c.devices = h.devices;
      if (h.partial) c.partial = true;
      c.memory_each_gb = h.memory_each_gb;
      if (h.memory_source) c.memory_source = h.memory_source;
      if (h.memory_each_reported_gib !== undefined) c.memory_each_reported_gib = h.memory_each_reported_gib;
      c.link = h.link;
      if (h.training) c.training = h.training;
      if (h.native_bf16) c.native_bf16 = h.native_bf16;
      if (h.native_fp8) c.native_fp8 = h.native_fp8;
      c.offer = o.offer;
      c.region = o.region;
      c.availability = o.availability;
      c.price = cell.prices[currency];
      c.native_price = o.native_price;
      c.native_currency = o.native_currency;
      // A subscription or reservation over a month (catalog.MonthlyFromHourly).
      if (COMMITMENTS.indexOf(billing) >= 0) c.price_per_month = str(round(mul(dec(c.price), HOURS_PER_MONTH), 2));
      out.push(c);
    });
    return { billing: billing, currency: currency, fx_date: data.fx_date, fx_source: data.fx_source, candidates: out,
      left_out: { no_offer: left.no_offer, suspect_or_synthetic: left.suspect_or_synthetic } };
  }

  function gpuKey(c) { return c.gpu_model ? c.gpu_model : 'name:' + c.gpu_name; }
  function priceLess(a, b) { var c = cmp(dec(a.price), dec(b.price)); return c !== 0 ? c : (a.instance < b.instance ? -1 : a.instance > b.instance ? 1 : 0); }
  function missLess(a, b) {
    var c = cmp(dec(b.have_gb), dec(a.have_gb));
    if (c !== 0) return c;
    return priceLess(a, b);
  }

  function fitRow(c, need, lower) {
    var each = dec(c.memory_each_gb), n = dec(c.devices), r = {};
    Object.keys(c).forEach(function (k) { r[k] = c[k]; });
    r.have_gb = mul(each, n);
    r.need_gb = need;
    r.need_per_gpu_gb = divRound(need, n, 2);
    r.gpus_needed = sign(each) > 0 ? Number(ceilDiv(need, each)) : 0;
    if (cmp(need, r.have_gb) > 0) { r.verdict = 'does_not_fit'; r.reason = 'short'; return r; }
    r.verdict = lower ? 'may_fit' : 'fits';
    r.reason = c.devices === 1 ? 'single' : c.link === 'nvlink' ? 'split_nvlink' : c.link === 'pcie' ? 'split_pcie' : 'split_link_unknown';
    return r;
  }

  // compare.NativePrecision and compare.CapabilityMiss: the number format the
  // task needs in hardware, and why a candidate cannot run it ('' when it can).
  function nativePrecision(inp) {
    if (inp.task === 'qlora') return 'bf16';
    return inp.precision === 'bf16' || inp.precision === 'fp8' ? inp.precision : '';
  }
  function capabilityMiss(c, training, p) {
    if (!c.gpu_model) return 'model_not_identified';
    if (training) {
      if (c.training === 'no') return 'inference_only';
      if (c.training !== 'yes') return 'training_unknown';
    }
    var have;
    if (p === 'bf16') have = c.native_bf16; else if (p === 'fp8') have = c.native_fp8; else return '';
    if (have === 'yes') return '';
    if (have === 'no') return p === 'bf16' ? 'no_native_bf16' : 'no_native_fp8';
    return 'native_precision_unknown';
  }

  function fit(e, cs, fo) {
    var need = shift(e.total.bytes, -9);
    var res = { billing: cs.billing, currency: cs.currency, fx_date: cs.fx_date, fx_source: cs.fx_source };
    if (fo.gpu) res.gpu = fo.gpu;
    res.need_gb = need;
    res.lower_bound = e.lower_bound;
    var fits = [], misses = [], smallest = {}, unknown = 0;
    cs.candidates.forEach(function (c) {
      if (fo.gpu && c.gpu_model !== fo.gpu) return;
      if (c.memory_each_gb === null || c.memory_each_gb === undefined || c.devices < 1) { unknown++; return; }
      var r = fitRow(c, need, e.lower_bound);
      var why = capabilityMiss(c, isTraining(e.input.task), nativePrecision(e.input));
      if (why) { r.verdict = 'does_not_fit'; r.reason = why; }
      if (r.verdict === 'does_not_fit') { misses.push(r); return; }
      fits.push(r);
      var k = gpuKey(c);
      if (!smallest[k] || c.devices < smallest[k]) smallest[k] = c.devices;
    });
    fits.sort(priceLess);
    res.fits = fo.limit > 0 ? fits.slice(0, fo.limit) : fits;
    res.fits_total = fits.length;
    var groups = {}, order = [];
    misses.forEach(function (r) { var k = gpuKey(r); if (!groups[k]) { groups[k] = []; order.push(k); } groups[k].push(r); });
    var nearest = order.map(function (k) {
      var g = groups[k].slice().sort(missLess), r = g[0];
      if (g.length > 1) r.other_types = g.length - 1;
      if (smallest[k]) r.fits_from = smallest[k];
      return r;
    });
    res.misses = nearest.sort(missLess);
    res.misses_total = misses.length;
    res.unknown_memory = unknown;
    res.left_out = { no_offer: cs.left_out.no_offer, suspect_or_synthetic: cs.left_out.suspect_or_synthetic };
    return res;
  }

  function answer(input, models, data, opts) {
    var e = estimate(input, models);
    return { schema: SCHEMA, estimate: e, offers: fit(e, candidates(data, opts.billing, opts.currency), { gpu: opts.gpu || '', limit: opts.limit || 0 }) };
  }

  // toJSON writes an answer as Go's encoding/json does: decimals as strings.
  function toJSON(v, indent) {
    return JSON.stringify(v, function (k, x) { return x && typeof x === 'object' && typeof x.m === 'bigint' ? str(x) : x; }, indent);
  }

  // For tests and the curious: the answer without a page (node loads this
  // file to hold it to compare's; sitegen's TestFitJS_Vectors). answer takes
  // the known models as the page's configuration lists them (compare.ModelSpec
  // JSON) and data/fit.json, and gives the JSON text of `gpuatlas fit
  // --format json`, or {"error": …} for a bad input.
  function byID(list) { var out = {}; list.forEach(function (m) { out[m.id] = m; }); return out; }
  function answerJSON(inp, models, data, opts) {
    try {
      return toJSON(answer(inp, models, data, opts || { billing: 'on_demand', currency: 'USD' }));
    } catch (e) {
      if (e instanceof InputError) return toJSON({ error: e.ie });
      throw e;
    }
  }
  globalThis.GPUAtlasFit = {
    answer: function (modelList, data, inp, opts) { return answerJSON(inp, byID(modelList), data, opts); },
    // For the page (static/fit-page.js): the rules and exact decimals it
    // reads its input and writes its figures with.
    lib: { InputError: InputError, rangeError: rangeError, isLora: isLora, answer: answer, answerJSON: answerJSON,
      toJSON: toJSON, byID: byID, dec: dec, cmp: cmp, round: round, divRound: divRound, fixed: fixed, str: str, pow10: pow10 }
  };
})();
