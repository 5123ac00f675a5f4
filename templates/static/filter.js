// GPU Atlas filter expressions: the grammar of the explorer's filter box, parsed
// here without touching the page, so that the same expressions and their errors
// can be checked against another implementation (README "Filter expressions" is
// the written grammar; this file follows it clause by clause).
//
//   expression = { space } [ term { space { space } term } ] { space }
//   term       = [ "-" ] field operator values   (a field term)
//              | [ "-" ] word                    (a search word)
//   field      = letter { letter | digit | "_" }  case-insensitive, or an alias
//   operator   = ">=" | "<=" | "!=" | ":" | "=" | ">" | "<"
//   values     = value { "," value }
//   value      = { plain | quoted }                 at least one character
//   word       = { plain | quoted | "," }           at least one character
//   plain      = any character but space, "," and '"'
//   quoted     = '"' { any character but '"' and "\" | "\" any character } '"'
//
// Positions are columns: Unicode code points counted from 1 at the start of the
// expression. A term with an error is left out and reported; the others apply.
(function () {
  'use strict';

  // Field types: number (compared as numbers), text (substring of one value),
  // name (substring of a code or of its English or Chinese name), keyword (one
  // of a fixed set of codes). Levels say what a field describes: the instance
  // type, the offer (where and how it is sold) or its price.
  var BILLING = ['on_demand', 'spot', 'reserved', 'reserved_1y', 'reserved_3y', 'reserved_1y_no_upfront',
    'reserved_1y_all_upfront', 'reserved_3y_no_upfront', 'reserved_3y_all_upfront', 'subscription',
    'subscription_month', 'subscription_year'];
  var FIELDS = {
    provider: { type: 'name', level: 'type', aliases: ['cloud'] },
    type: { type: 'text', level: 'type', aliases: ['instance', 'instance_type'] },
    family: { type: 'text', level: 'type' },
    gpu: { type: 'name', level: 'type', aliases: ['gpu_model', 'model', 'accelerator'] },
    kind: { type: 'keyword', level: 'type', values: ['gpu', 'npu', 'fpga', 'inference', 'media'] },
    gpus: { type: 'number', level: 'type', aliases: ['gpu_count', 'count'] },
    gpu_memory: { type: 'number', level: 'type', aliases: ['gpu_mem', 'vram'] },
    gpu_memory_total: { type: 'number', level: 'type', aliases: ['total_gpu_memory'] },
    vcpus: { type: 'number', level: 'type', aliases: ['vcpu', 'cpu'] },
    memory: { type: 'number', level: 'type', aliases: ['mem', 'ram'] },
    cpu_per_gpu: { type: 'number', level: 'type' },
    disk: { type: 'number', level: 'type', aliases: ['local_disk'] },
    network: { type: 'number', level: 'type', aliases: ['net'] },
    rdma: { type: 'name', level: 'type', aliases: ['efa'] },
    interconnect: { type: 'name', level: 'type', aliases: ['nvlink'] },
    scenario: { type: 'keyword', level: 'type', values: null, aliases: ['fits'] }, // the scenario ids of the data
    region: { type: 'name', level: 'offer' },
    country: { type: 'keyword', level: 'offer', values: null }, // any ISO 3166-1 alpha-2 code
    zone: { type: 'text', level: 'offer', aliases: ['zones'] },
    billing: { type: 'keyword', level: 'offer', values: BILLING },
    availability: { type: 'keyword', level: 'offer', values: ['available', 'sold_out', 'unknown'], aliases: ['avail', 'stock'] },
    marks: { type: 'keyword', level: 'offer', values: ['synthetic', 'suspect', 'reported', 'estimated', 'stale', 'undated', 'none'], aliases: ['mark'] },
    fetched: { type: 'text', level: 'offer', aliases: ['fetched_at', 'last_seen'] },
    price: { type: 'number', level: 'price' },
    gpu_price: { type: 'number', level: 'price', aliases: ['per_gpu', 'price_per_gpu', 'gpu_hour'] },
    gib_price: { type: 'number', level: 'price', aliases: ['price_per_gib'] },
    saving: { type: 'number', level: 'price', aliases: ['savings'] },
    on_demand: { type: 'number', level: 'price' },
    spot: { type: 'number', level: 'price' },
    reserved_1y: { type: 'number', level: 'price' },
    reserved_3y: { type: 'number', level: 'price' },
    subscription_month: { type: 'number', level: 'price' },
    subscription_year: { type: 'number', level: 'price' },
    interruption: { type: 'number', level: 'offer' }
  };
  var ALIASES = {};
  Object.keys(FIELDS).forEach(function (f) {
    ALIASES[f] = f;
    (FIELDS[f].aliases || []).forEach(function (a) { ALIASES[a] = f; });
  });
  // Operators, longest first so that ">=" is not read as ">".
  var OPERATORS = ['>=', '<=', '!=', ':', '=', '>', '<'];
  var ORDER_OPS = { '>=': true, '<=': true, '>': true, '<': true };
  // A number may end in "%", which reads as the same number (interruption<=10%).
  var NUMBER = /^-?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)%?$/;
  var COUNTRY = /^[a-z]{2}$/;
  var SPACE = /^[ \t\n\r\f\v\u00a0\u2028\u2029\u3000]$/;

  // billingKinds is the exact billing kinds a billing value selects.
  var EXACT = ['on_demand', 'spot', 'reserved_1y_no_upfront', 'reserved_1y_all_upfront', 'reserved_3y_no_upfront',
    'reserved_3y_all_upfront', 'subscription_month', 'subscription_year'];
  function billingKinds(v) {
    if (v === 'reserved') return EXACT.slice(2, 6);
    if (v === 'reserved_1y') return EXACT.slice(2, 4);
    if (v === 'reserved_3y') return EXACT.slice(4, 6);
    if (v === 'subscription') return EXACT.slice(6, 8);
    return EXACT.indexOf(v) >= 0 ? [v] : [];
  }

  // split cuts the expression into terms at white space outside quotes. Each
  // term is its code points and the column of its first one.
  function split(cps, errors) {
    var terms = [], i = 0;
    while (i < cps.length) {
      if (SPACE.test(cps[i])) { i++; continue; }
      var start = i, quote = -1;
      for (; i < cps.length; i++) {
        var c = cps[i];
        if (quote >= 0) {
          if (c === '\\') i++;
          else if (c === '"') quote = -1;
        } else if (c === '"') {
          quote = i;
        } else if (SPACE.test(c)) {
          break;
        }
      }
      var src = cps.slice(start, i).join('');
      if (quote >= 0) {
        errors.push({ code: 'unterminated_quote', col: quote + 1, term: src });
        continue;
      }
      terms.push({ cps: cps.slice(start, i), col: start + 1, src: src });
    }
    return terms;
  }

  // pieces cuts code points into parts at commas outside quotes (all of them
  // when commas is false), unquoting each; a part is {v, col}.
  function pieces(cps, col, commas) {
    var out = [], cur = '', at = col, i = 0;
    for (; i < cps.length; i++) {
      var c = cps[i];
      if (c === '"') {
        for (i++; i < cps.length && cps[i] !== '"'; i++) {
          if (cps[i] === '\\') i++;
          cur += cps[i];
        }
      } else if (c === ',' && commas) {
        out.push({ v: cur, col: at });
        cur = '';
        at = col + i + 1;
      } else {
        cur += c;
      }
    }
    out.push({ v: cur, col: at });
    return out;
  }

  // head reads "-field op" at the start of a term: {neg, name, nameCol, op,
  // opCol, rest (index of the values)} or null when the term is a word.
  function head(cps) {
    var i = 0, neg = false;
    if (cps[0] === '-') { neg = true; i = 1; }
    if (!/^[A-Za-z]$/.test(cps[i] || '')) return null;
    var j = i + 1;
    while (j < cps.length && /^[A-Za-z0-9_]$/.test(cps[j])) j++;
    var two = (cps[j] || '') + (cps[j + 1] || '');
    for (var k = 0; k < OPERATORS.length; k++) {
      var op = OPERATORS[k];
      if ((op.length === 2 ? two : cps[j]) === op) {
        return { neg: neg, name: cps.slice(i, j).join(''), nameCol: i, op: op, opCol: j, rest: j + op.length };
      }
    }
    return null;
  }

  // parse reads an expression. ctx.scenarios, when given, lists the scenario
  // ids a scenario term may name. The answer: terms (field terms, in order),
  // words (search words) and errors, each error {code, col, term, args}.
  function parse(expr, ctx) {
    ctx = ctx || {};
    var out = { terms: [], words: [], errors: [] };
    var cps = Array.from(String(expr || ''));
    split(cps, out.errors).forEach(function (t) {
      var h = head(t.cps);
      if (!h) {
        var neg = t.cps[0] === '-' && t.cps.length > 1;
        var w = pieces(t.cps.slice(neg ? 1 : 0), t.col + (neg ? 1 : 0), false)[0];
        out.words.push({ text: w.v.toLowerCase(), neg: neg, col: t.col });
        return;
      }
      var fail = function (code, col, args) { out.errors.push({ code: code, col: col, term: t.src, args: args || {} }); };
      var field = ALIASES[h.name.toLowerCase()];
      if (!field) { fail('unknown_field', t.col + h.nameCol, { field: h.name }); return; }
      var def = FIELDS[field];
      if (def.type !== 'number' && ORDER_OPS[h.op]) {
        fail('bad_operator', t.col + h.opCol, { op: h.op, field: field });
        return;
      }
      var vals = pieces(t.cps.slice(h.rest), t.col + h.rest, true);
      // "=" and ":" are one operator for number and keyword fields (equals one
      // of the values); for text and name fields ":" is "contains" and "=" "is".
      var op = h.op === '=' && (def.type === 'number' || def.type === 'keyword') ? ':' : h.op;
      var term = { field: field, neg: h.neg, op: op, values: [], col: t.col, src: t.src };
      for (var k = 0; k < vals.length; k++) {
        var v = vals[k];
        if (v.v === '') { fail('expected_value', v.col); return; }
        if (k > 0 && ORDER_OPS[h.op]) { fail('one_value', v.col, { op: h.op }); return; }
        var val = { text: v.v.toLowerCase(), col: v.col };
        if (def.type === 'number') {
          if (!NUMBER.test(v.v)) { fail('expected_number', v.col, { value: v.v }); return; }
          val.n = parseFloat(v.v);
        } else if (field === 'country') {
          if (!COUNTRY.test(val.text)) { fail('expected_country', v.col, { value: v.v }); return; }
        } else if (field === 'scenario') {
          if (ctx.scenarios && ctx.scenarios.indexOf(val.text) < 0) {
            fail('unknown_value', v.col, { value: v.v, field: field, values: ctx.scenarios.join(', ') });
            return;
          }
        } else if (def.values && def.values.indexOf(val.text) < 0) {
          fail('unknown_value', v.col, { value: v.v, field: field, values: def.values.join(', ') });
          return;
        }
        term.values.push(val);
      }
      out.terms.push(term);
    });
    return out;
  }

  // message is an error in words: "gpus>=x: at column 7: expected a number",
  // with the catalog's templates (text(key) returns one; English by default).
  var ENGLISH = {
    'expr.at': '{term}: at column {col}: {message}',
    'expr.unterminated_quote': 'a quote is not closed',
    'expr.unknown_field': 'unknown field {field}',
    'expr.bad_operator': '{op} does not apply to {field}',
    'expr.expected_value': 'expected a value',
    'expr.one_value': 'expected one value after {op}',
    'expr.expected_number': 'expected a number',
    'expr.expected_country': 'expected a two-letter country code',
    'expr.unknown_value': 'unknown {field} {value}; one of: {values}'
  };
  function fill(s, vals) {
    return s.replace(/\{(\w+)\}/g, function (m, k) { return vals[k] === undefined ? m : String(vals[k]); });
  }
  function message(err, text) {
    var t = function (k) { var s = text ? text(k) : k; return s === k ? ENGLISH[k] : s; };
    var vals = { term: err.term, col: err.col };
    Object.keys(err.args || {}).forEach(function (k) { vals[k] = err.args[k]; });
    vals.message = fill(t('expr.' + err.code), vals);
    return fill(t('expr.at'), vals);
  }

  window.GPUAtlasFilter = {
    FIELDS: FIELDS, ALIASES: ALIASES, BILLING: BILLING, parse: parse, message: message, billingKinds: billingKinds,
    field: function (name) { return ALIASES[String(name).toLowerCase()] || null; }
  };
})();
