// GPU Atlas TCO calculator: recomputes package compare's TCO model (compare/tco.go)
// in the browser from the TCO input JSON embedded in tco.html. Money is never a
// float: every figure is an exact decimal (a BigInt scaled by a power of ten), and
// the rounding is compare's, half away from zero at the same steps: hours to 6
// places, derived USD rates to 8, each month's cost to cents, cost per unit of
// work to 6, utilisation to 4, whole percent in comparisons. Vanilla JavaScript,
// nothing loaded from other hosts.
(function () {
  'use strict';

  var HOUR_PLACES = 6, RATE_PLACES = 8, MONEY_PLACES = 2, SHARE_PLACES = 4, COST_PLACES = 6;

  // ---- exact decimals ------------------------------------------------------
  // A decimal is {m: BigInt, e: Number}: the value m × 10^-e, e ≥ 0.
  var TEN = BigInt(10);
  function pow10(n) { var r = BigInt(1); for (var i = 0; i < n; i++) r *= TEN; return r; }

  // goNum reads a number as shopspring/decimal's NewFromString reads the TCO
  // input JSON (signs, a point, an exponent): {c: coefficient BigInt, x:
  // exponent}, the value c × 10^x, the form TCOBounds' checks look at.
  var NUM_RE = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;
  function goNum(s) {
    if (s === undefined || s === null) return { c: BigInt(0), x: 0 };
    // A JSON number is read from its shortest form (1e+50, 0.9), as written.
    var t = String(s).trim().replace(/\u2212/g, '-');
    var m = NUM_RE.exec(t);
    if (!m || (m[2] === '' && (m[3] === undefined || m[3] === ''))) throw new Error('not a number: ' + s);
    var frac = m[3] || '', v = BigInt((m[2] || '0') + frac), x = (m[4] ? parseInt(m[4], 10) : 0) - frac.length;
    if (Math.abs(x) > 10000) throw new Error('not a number: ' + s);
    return { c: m[1] === '-' ? -v : v, x: x };
  }
  // dec is a decimal of a string, a Number or a decimal; an absent
  // figure is zero, as Go decodes it.
  function dec(s) {
    if (typeof s === 'object' && s !== null && typeof s.m === 'bigint') return s;
    var g = goNum(s);
    return g.x >= 0 ? { m: g.c * pow10(g.x), e: 0 } : { m: g.c, e: -g.x };
  }
  var ZERO = dec('0'), ONE = dec('1'), HUNDRED = dec('100'), MONTH_HOURS = dec('730'), HALF = dec('0.5'), SIXTY = dec('60');

  function align(a, b) {
    if (a.e === b.e) return [a.m, b.m, a.e];
    if (a.e < b.e) return [a.m * pow10(b.e - a.e), b.m, b.e];
    return [a.m, b.m * pow10(a.e - b.e), a.e];
  }
  function add(a, b) { var x = align(a, b); return { m: x[0] + x[1], e: x[2] }; }
  function sub(a, b) { var x = align(a, b); return { m: x[0] - x[1], e: x[2] }; }
  function mul(a, b) { return { m: a.m * b.m, e: a.e + b.e }; }
  function cmp(a, b) { var x = align(a, b); return x[0] < x[1] ? -1 : x[0] > x[1] ? 1 : 0; }
  function sign(a) { return a.m < BigInt(0) ? -1 : a.m > BigInt(0) ? 1 : 0; }
  function isZero(a) { return a.m === BigInt(0); }
  function max(a, b) { return cmp(a, b) >= 0 ? a : b; }
  function min(a, b) { return cmp(a, b) <= 0 ? a : b; }
  function abs(x) { return x < BigInt(0) ? -x : x; }

  // quotient num/den of BigInts rounded half away from zero.
  function roundQuo(num, den) {
    var q = num / den, r = num % den; // truncated toward zero
    if (abs(r) * BigInt(2) >= abs(den)) q += ((num < BigInt(0)) !== (den < BigInt(0))) ? BigInt(-1) : BigInt(1);
    return q;
  }
  // divRound is a/b to places, half away from zero (decimal.DivRound).
  function divRound(a, b, places) {
    if (isZero(b)) throw new Error('division by zero');
    // a/b = (a.m / 10^a.e) / (b.m / 10^b.e); × 10^places.
    var num = a.m * pow10(places + b.e), den = b.m * pow10(a.e);
    return { m: roundQuo(num, den), e: places };
  }
  // round is a to places, half away from zero (decimal.Round).
  function round(a, places) {
    if (a.e <= places) return a;
    return { m: roundQuo(a.m, pow10(a.e - places)), e: places };
  }
  // floorDiv and ceilDiv of non-negative a/b as a Number, of the quotient
  // as compare takes it: decimal.Div, to 16 places, then Floor or Ceil.
  var DIV_PLACES = 16;
  function floorDiv(a, b) { var q = divRound(a, b, DIV_PLACES); return Number(q.m / pow10(q.e)); }
  function ceilDiv(a, b) { var q = divRound(a, b, DIV_PLACES), n = q.m / pow10(q.e); if (q.m % pow10(q.e) !== BigInt(0)) n += BigInt(1); return Number(n); }

  // str is the shortest exact form, as decimal.String.
  function str(a) {
    var neg = a.m < BigInt(0), digits = abs(a.m).toString(), e = a.e;
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
  // fixed is a rounded to places and written with exactly that many, as StringFixed.
  function fixed(a, places) {
    var r = round(a, places);
    var m = r.m * pow10(places - r.e);
    var neg = m < BigInt(0), digits = abs(m).toString();
    if (places === 0) return (neg ? '-' : '') + digits;
    while (digits.length <= places) digits = '0' + digits;
    return (neg ? '-' : '') + digits.slice(0, digits.length - places) + '.' + digits.slice(digits.length - places);
  }

  // ---- numbers for people: words/number_format.go -----------------------------
  // The calculator's tables write numbers as the server-rendered tables do:
  // grouped by thousands, money to the cent, rates to the cent from 1 up and to
  // four significant digits below, other figures whole or to one decimal,
  // percentages whole. TestTCOJS_Vectors holds these to the Go functions.
  var TENTH = dec('0.1'), TEN_D = dec('10');
  function group(s) {
    var neg = s.charAt(0) === '-';
    if (neg) s = s.slice(1);
    var dot = s.indexOf('.'), w = dot < 0 ? s : s.slice(0, dot), out = '';
    for (var i = 0; i < w.length; i++) {
      if (i > 0 && (w.length - i) % 3 === 0) out += ',';
      out += w.charAt(i);
    }
    return (neg ? '-' : '') + out + (dot < 0 ? '' : s.slice(dot));
  }
  function absd(a) { return { m: abs(a.m), e: a.e }; }
  function isInt(a) { return a.m % pow10(a.e) === BigInt(0); }
  function trimZeros(s) { return s.indexOf('.') < 0 ? s : s.replace(/0+$/, '').replace(/\.$/, ''); }
  // sigPlaces: decimal places that show n significant digits of |a| < 1.
  function sigPlaces(a, n) {
    var y = absd(a), places = n;
    if (isZero(y)) return n;
    while (cmp(y, TENTH) < 0) { y = mul(y, TEN_D); places++; }
    return places;
  }
  function fmtMoney(a) { return group(fixed(a, 2)); }
  function fmtRate(a) { return isZero(a) || cmp(absd(a), ONE) >= 0 ? fmtMoney(a) : fixed(a, sigPlaces(a, 4)); }
  function fmtQty(a) {
    if (isInt(a)) return group(str(a));
    if (cmp(absd(a), ONE) < 0) return trimZeros(fixed(a, sigPlaces(a, 4)));
    return group(fixed(a, 1));
  }
  function fmtPct(a) { return group(fixed(a, 0)); }

  // ---- the input's checks: compare.TCOInput.Validate, TCOBounds ----------------
  // A ModelError is the model's refusal of an input, in compare's words (its
  // error without the leading "tco: ").
  function ModelError(msg) { this.message = msg; }
  ModelError.prototype = Object.create(Error.prototype);
  ModelError.prototype.name = 'ModelError';
  function refuse(msg) { throw new ModelError(msg); }

  var MAX_PLACES = 18, MAX_DIGITS = 40;
  // bound is a row of compare.TCOBounds: [flag, field, min, max, minOpen, share, integer].
  function bound(flag, field, lo, hi, minOpen, share, integer) {
    return { flag: flag, field: field, min: dec(lo), max: dec(hi), minOpen: !!minOpen, share: !!share, integer: !!integer };
  }
  var BOUNDS = [
    bound('hours-per-month', 'workload.job_size (hours on the base instance)', '0', '7440000', true),
    bound('job-gpu-hours', 'workload.job_size (reference GPU-hours)', '0', '1000000', true),
    bound('', 'workload.job_size', '0', '1000000000000', true),
    bound('jobs-per-month', 'workload.jobs_per_month', '0', '1000000'),
    bound('utilisation', 'workload.utilisation', '0', '1', true, true),
    bound('idle-hours', 'workload.idle_hours_per_month', '0', '744'),
    bound('months', 'workload.horizon_months', '1', '600', false, false, true),
    bound('storage-gb', 'storage.gb', '0', '1000000000'),
    bound('storage-usd-per-gb-month', 'storage.usd_per_gb_month', '0', '1000'),
    bound('egress-gb-per-month', 'egress.gb_per_month', '0', '1000000000'),
    bound('egress-usd-per-gb', 'egress.usd_per_gb', '0', '1000'),
    bound('spot-overhead', 'pay_as_you_go.interruption_overhead', '0', '1', false, true),
    bound('checkpoint-minutes', 'pay_as_you_go.risk.checkpoint_minutes', '0', '10080', true),
    bound('restart-minutes', 'pay_as_you_go.risk.restart_minutes', '0', '10080'),
    bound('interruptions-per-month', 'pay_as_you_go.risk.interruptions_per_month', '0', '100'),
    bound('reserved-instances', 'commitment.instances', '0', '10000', false, false, true),
    bound('', 'speed.work_per_hour', '0', '1000000000000', true),
    bound('', 'pay_as_you_go.usd_per_hour', '0', '1000000'),
    bound('', 'commitment.usd_per_month', '0', '1000000000'),
    bound('', 'commitment.upfront_usd', '0', '100000000000'),
    bound('', 'commitment.term_months', '1', '120', false, false, true)
  ];
  function boundOf(field) { for (var i = 0; i < BOUNDS.length; i++) if (BOUNDS[i].field === field) return BOUNDS[i]; throw new Error('no bound ' + field); }
  function jobSizeBound(unit) {
    unit = unit || '';
    if (unit.indexOf('hour:') === 0) return BOUNDS[0];
    if (unit.indexOf('gpu_hour:') === 0) return BOUNDS[1];
    return BOUNDS[2];
  }
  // thousands writes a whole number with commas (boundThousands).
  function thousands(s) { return /[.-]/.test(s) ? s : s.replace(/\B(?=(\d{3})+(?!\d))/g, ','); }
  // boundText is Bound.String: a share's range in percent, then as a share.
  function boundText(b) {
    var span = function (lo, hi) { return b.minOpen ? 'more than ' + lo + ' and at most ' + hi : lo + ' to ' + hi; };
    var s = span(thousands(str(b.min)), thousands(str(b.max)));
    if (b.share) s = span(str(mul(b.min, HUNDRED)) + ' %', str(mul(b.max, HUNDRED)) + ' %') + ' (as a share: ' + s + ')';
    return s;
  }
  function numDigits(g) { return abs(g.c).toString().length; }
  // checkBound is Bound.Check of a figure as written: '' when in range, else
  // why not. The size is looked at before the value, so that 1e500000000 is
  // refused without writing out its digits.
  function checkBound(b, raw) {
    var g = goNum(raw);
    if (g.c !== BigInt(0)) {
      if (numDigits(g) > MAX_DIGITS) return 'more than ' + MAX_DIGITS + ' digits';
      if (g.x > MAX_DIGITS) return 'out of range: want ' + boundText(b);
      if (g.x < -(MAX_PLACES + MAX_DIGITS)) return 'more than ' + MAX_PLACES + ' digits after the point';
    }
    var d = dec(raw);
    if (cmp(d, b.min) < 0 || (b.minOpen && cmp(d, b.min) === 0) || cmp(d, b.max) > 0) return 'out of range: want ' + boundText(b);
    if (b.integer && !isInt(d)) return 'not a whole number: want ' + boundText(b);
    if (g.x < -MAX_PLACES && cmp(round(d, MAX_PLACES), d) !== 0) return 'more than ' + MAX_PLACES + ' digits after the point';
    return '';
  }
  // boundValue quotes a refused figure as compare does.
  function boundValue(raw) {
    var g = goNum(raw);
    if (numDigits(g) > MAX_DIGITS) return '(a number of more than ' + MAX_DIGITS + ' digits)';
    if (g.x > MAX_DIGITS || g.x < -(MAX_PLACES + MAX_DIGITS)) return excerpt(g.c.toString() + 'e' + (g.x < 0 ? '-' : '+') + Math.abs(g.x));
    return excerpt(str(dec(raw)));
  }
  function checkField(b, where, raw) {
    var why = checkBound(b, raw);
    if (why) refuse(where + ' ' + boundValue(raw) + ': ' + why + (b.flag ? ' (as --' + b.flag + ')' : ''));
  }
  // quote is Go's strconv.Quote; excerpt is catalog.Excerpt: the first 40
  // characters, quoted, with … when cut.
  function quote(s) {
    var out = '"';
    Array.from(s).forEach(function (ch) {
      var r = ch.codePointAt(0), esc = { 7: '\\a', 8: '\\b', 12: '\\f', 10: '\\n', 13: '\\r', 9: '\\t', 11: '\\v', 34: '\\"', 92: '\\\\' }[r];
      if (esc) out += esc;
      else if (r === 32 || !/[\p{C}\p{Z}]/u.test(ch)) out += ch;
      else if (r < 128) out += '\\x' + ('0' + r.toString(16)).slice(-2);
      else if (r < 0x10000) out += '\\u' + ('000' + r.toString(16)).slice(-4);
      else out += '\\U' + ('0000000' + r.toString(16)).slice(-8);
    });
    return out + '"';
  }
  function excerpt(s) {
    var cs = Array.from(String(s));
    return quote(cs.slice(0, 40).join('')) + (cs.length > 40 ? '\u2026' : '');
  }
  var BANDS = ['<5%', '5-10%', '10-15%', '15-20%', '>20%'];

  // validate is TCOInput.Validate: the same checks in the same order, the
  // same words.
  function validate(inp) {
    if ((inp.schema || 0) !== 1) refuse('schema ' + (inp.schema || 0) + ': this build reads TCO schema 1');
    var w = inp.workload || {};
    checkField(jobSizeBound(w.work_unit), 'workload.job_size', w.job_size);
    ['jobs_per_month', 'utilisation', 'idle_hours_per_month', 'horizon_months'].forEach(function (f) { checkField(boundOf('workload.' + f), 'workload.' + f, w[f]); });
    if (inp.storage) ['gb', 'usd_per_gb_month'].forEach(function (f) { checkField(boundOf('storage.' + f), 'storage.' + f, inp.storage[f]); });
    if (inp.egress) ['gb_per_month', 'usd_per_gb'].forEach(function (f) { checkField(boundOf('egress.' + f), 'egress.' + f, inp.egress[f]); });
    if (!inp.options || inp.options.length === 0) refuse('no billing options');
    var seen = {};
    inp.options.forEach(function (o, i) {
      if (!o.id) refuse('options[' + i + ']: id is empty');
      var id = excerpt(o.id);
      if (Object.prototype.hasOwnProperty.call(seen, o.id)) refuse('options[' + i + ']: duplicate id ' + id);
      seen[o.id] = true;
      var field = function (f, v) { checkField(boundOf(f), 'option ' + id + ': ' + f, v); };
      field('speed.work_per_hour', (o.speed || {}).work_per_hour);
      var p = o.pay_as_you_go, c = o.commitment;
      if (p) {
        field('pay_as_you_go.usd_per_hour', p.usd_per_hour);
        field('pay_as_you_go.interruption_overhead', p.interruption_overhead);
        if (p.risk) {
          field('pay_as_you_go.risk.checkpoint_minutes', p.risk.checkpoint_minutes);
          field('pay_as_you_go.risk.restart_minutes', p.risk.restart_minutes);
          if (p.risk.interruptions_per_month !== undefined && p.risk.interruptions_per_month !== null) field('pay_as_you_go.risk.interruptions_per_month', p.risk.interruptions_per_month);
        }
      }
      if (c) ['usd_per_month', 'upfront_usd', 'term_months', 'instances'].forEach(function (f) { field('commitment.' + f, c[f]); });
      if (!c && !p) refuse('option ' + id + ': needs a commitment, a pay_as_you_go part, or both');
      var rk = p && p.risk;
      if (rk) {
        if (p.billing !== 'spot' || sign(dec(p.interruption_overhead)) !== 0) refuse('option ' + id + ': pay_as_you_go.risk is for spot, without an interruption_overhead');
        var none = rk.interruptions_per_month === undefined || rk.interruptions_per_month === null;
        if (none && !rk.band) refuse('option ' + id + ': spot has no published interruption band: give pay_as_you_go.risk.interruptions_per_month (gpuatlas tco --interruptions-per-month)');
        if (none) refuse('option ' + id + ': pay_as_you_go.risk.interruptions_per_month is missing');
        if (rk.band && BANDS.indexOf(rk.band) < 0) refuse('option ' + id + ': pay_as_you_go.risk.band: interruption band ' + quote(excerpt(rk.band)) + ': want one of <5%, 5-10%, 10-15%, 15-20%, >20%');
      }
    });
  }
  var MAX_MINUTES = dec('10080');

  // The spot interruption model (compare/tco_spot.go): hours lost per
  // interruption = (checkpoint / 2 + restart) / 60; over some hours,
  // interruptions = hours × rate / 730 and lost = interruptions × loss, each to 6 places.
  function lossHours(rk) { return divRound(add(mul(dec(rk.checkpoint_minutes), HALF), dec(rk.restart_minutes)), SIXTY, HOUR_PLACES); }
  function expected(rk, h) {
    var n = divRound(mul(h, dec(rk.interruptions_per_month)), MONTH_HOURS, HOUR_PLACES);
    return [n, round(mul(n, lossHours(rk)), HOUR_PLACES)];
  }

  function commitmentHourly(c) {
    var term = dec(c.term_months);
    return divRound(add(mul(dec(c.usd_per_month), term), dec(c.upfront_usd)), mul(term, MONTH_HOURS), RATE_PLACES);
  }

  function optionTCO(inp, o) {
    var w = inp.workload, months = dec(w.horizon_months);
    var jobSize = dec(w.job_size), jobs = dec(w.jobs_per_month), util = dec(w.utilisation), idle = dec(w.idle_hours_per_month);
    var sp = dec(o.speed.work_per_hour);
    var r = { id: o.id, committed_instances: 0, committed_hours_per_month: ZERO, commitment_use: ZERO,
      pay_as_you_go_hours_per_month: ZERO, usd_per_hour: ZERO, committed_after_horizon_usd: ZERO,
      cost_per_unit_usd: ZERO, cost_per_job_usd: ZERO };
    r.work_per_month = mul(jobSize, jobs);
    r.busy_hours_per_month = divRound(r.work_per_month, sp, HOUR_PLACES);
    r.needed_hours_per_month = add(divRound(r.work_per_month, mul(sp, util), HOUR_PLACES), idle);
    var overhead = o.pay_as_you_go ? dec(o.pay_as_you_go.interruption_overhead || '0') : ZERO;
    var risk = o.pay_as_you_go ? o.pay_as_you_go.risk : null;
    r.hours_per_job = divRound(jobSize, mul(sp, util), HOUR_PLACES);
    if (!o.commitment && risk) r.hours_per_job = add(r.hours_per_job, expected(risk, r.hours_per_job)[1]);
    else if (!o.commitment && sign(overhead) > 0) r.hours_per_job = round(mul(r.hours_per_job, add(ONE, overhead)), HOUR_PLACES);

    var payg = r.needed_hours_per_month;
    var c = o.commitment, p = o.pay_as_you_go;
    if (c) {
      var n = c.instances;
      if (!n) {
        n = p ? floorDiv(r.needed_hours_per_month, MONTH_HOURS) : Math.max(1, ceilDiv(r.needed_hours_per_month, MONTH_HOURS));
      }
      r.committed_instances = n;
      r.committed_hours_per_month = mul(dec(n), MONTH_HOURS);
      if (n > 0) r.commitment_use = divRound(min(r.needed_hours_per_month, r.committed_hours_per_month), r.committed_hours_per_month, SHARE_PLACES);
      payg = max(ZERO, sub(r.needed_hours_per_month, r.committed_hours_per_month));
      if (sign(payg) > 0 && !p) {
        refuse('option ' + excerpt(o.id) + ': ' + str(r.needed_hours_per_month) + ' needed hours a month exceed the ' + str(r.committed_hours_per_month) +
          ' committed (' + n + ' instances × 730); add a pay_as_you_go part or commit more instances');
      }
      r.usd_per_hour = commitmentHourly(c);
    }
    if (p) {
      if (risk) {
        var ex = expected(risk, payg);
        r.pay_as_you_go_hours_per_month = add(payg, ex[1]);
        r.spot_interruptions_per_month = ex[0];
        r.spot_lost_hours_per_month = ex[1];
      } else r.pay_as_you_go_hours_per_month = round(mul(payg, add(ONE, overhead)), HOUR_PLACES);
      if (!c) r.usd_per_hour = dec(p.usd_per_hour);
    }
    var extras = ZERO;
    if (inp.storage) extras = add(extras, mul(dec(inp.storage.gb), dec(inp.storage.usd_per_gb_month)));
    if (inp.egress) extras = add(extras, mul(dec(inp.egress.gb_per_month), dec(inp.egress.usd_per_gb)));
    var cum = ZERO;
    r.monthly_usd = []; r.cumulative_usd = [];
    for (var m = 0; m < w.horizon_months; m++) {
      var cost = extras;
      if (c) {
        var ni = dec(r.committed_instances);
        cost = add(cost, mul(ni, dec(c.usd_per_month)));
        if (m % c.term_months === 0) cost = add(cost, mul(ni, dec(c.upfront_usd)));
      }
      if (p) cost = add(cost, mul(r.pay_as_you_go_hours_per_month, dec(p.usd_per_hour)));
      cost = round(cost, MONEY_PLACES);
      cum = add(cum, cost);
      r.monthly_usd.push(cost);
      r.cumulative_usd.push(cum);
    }
    r.paid_in_horizon_usd = cum;
    if (c) {
      var left = (c.term_months - w.horizon_months % c.term_months) % c.term_months;
      if (left > 0) r.committed_after_horizon_usd = round(mul(mul(dec(r.committed_instances), dec(c.usd_per_month)), dec(left)), MONEY_PLACES);
    }
    r.total_usd = add(r.paid_in_horizon_usd, r.committed_after_horizon_usd);
    var work = mul(r.work_per_month, months);
    if (sign(work) > 0) {
      r.cost_per_unit_usd = divRound(r.total_usd, work, COST_PLACES);
      r.cost_per_job_usd = divRound(r.total_usd, mul(jobs, months), COST_PLACES);
    }
    return r;
  }

  function breakEvens(opts) {
    var out = [];
    opts.forEach(function (c) {
      if (!c.commitment || c.pay_as_you_go) return;
      for (var i = 0; i < opts.length; i++) {
        var od = opts[i];
        if (od.instance !== c.instance || od.commitment || !od.pay_as_you_go || od.pay_as_you_go.billing !== 'on_demand' || sign(dec(od.pay_as_you_go.usd_per_hour)) <= 0) continue;
        var term = dec(c.commitment.term_months);
        var perTerm = add(mul(dec(c.commitment.usd_per_month), term), dec(c.commitment.upfront_usd));
        var rate = dec(od.pay_as_you_go.usd_per_hour);
        out.push({ commitment: c.id, on_demand: od.id,
          hours_per_month: divRound(perTerm, mul(term, rate), MONEY_PLACES),
          utilisation: divRound(perTerm, mul(mul(term, rate), MONTH_HOURS), SHARE_PLACES) });
        break;
      }
    });
    return out;
  }

  function pct(x, y) { return divRound(mul(sub(x, y), HUNDRED), y, 0); }

  function comparisons(inp, rs) {
    var reps = [], idx = {};
    function isOD(o) { return !o.commitment && o.pay_as_you_go && o.pay_as_you_go.billing === 'on_demand'; }
    inp.options.forEach(function (o, i) {
      var j = idx[o.instance];
      if (j === undefined) { idx[o.instance] = reps.length; reps.push({ o: o, r: rs[i] }); }
      else if (isOD(o) && !isOD(reps[j].o)) reps[j] = { o: o, r: rs[i] };
    });
    var out = [];
    for (var i = 0; i < reps.length; i++) {
      for (var j = i + 1; j < reps.length; j++) {
        var a = reps[i], b = reps[j];
        if (sign(a.r.usd_per_hour) <= 0 || sign(b.r.usd_per_hour) <= 0 || sign(a.r.hours_per_job) <= 0 || sign(b.r.hours_per_job) <= 0) continue;
        var c = cmp(a.r.usd_per_hour, b.r.usd_per_hour);
        if (c < 0 || (c === 0 && cmp(b.r.hours_per_job, a.r.hours_per_job) < 0)) { var t = a; a = b; b = t; }
        var x = { a: a.o.id, b: b.o.id, hourly_more_pct: pct(a.r.usd_per_hour, b.r.usd_per_hour),
          sooner_pct: divRound(mul(sub(b.r.hours_per_job, a.r.hours_per_job), HUNDRED), b.r.hours_per_job, 0), total_more_pct: ZERO };
        if (sign(b.r.total_usd) > 0) x.total_more_pct = pct(a.r.total_usd, b.r.total_usd);
        out.push(x);
      }
    }
    return out;
  }

  // tco is compare.TCO: figures as exact decimals.
  function tco(inp) {
    validate(inp);
    var rs = inp.options.map(function (o) { return optionTCO(inp, o); });
    return { options: rs, break_evens: breakEvens(inp.options), comparisons: comparisons(inp, rs) };
  }

  // inputOf is compare's ScenarioTCO.Input: the TCO input of a choice (the
  // calculator's controls) on a scenario of the page's configuration. The job
  // is the hours on the base × the base's speed; the options are those of the
  // chosen offers and billing groups in offer order; spot options take the
  // checkpoint and restart minutes, and those without a band the entered rate
  // (null: left out, and named in spot_left).
  function inputOf(s, ch) {
    var inp = { schema: 1, workload: { work_unit: s.work_unit, job_size: str(mul(dec(ch.hours), dec(s.base_speed))), jobs_per_month: '1',
      utilisation: str(dec(ch.utilisation)), idle_hours_per_month: str(dec(ch.idle)), horizon_months: ch.months }, options: [], source: s.source };
    var left = [];
    s.offers.forEach(function (o) {
      if (!ch.offers[o.key]) return;
      o.options.forEach(function (g) {
        if (!ch.groups[g.group]) return;
        var opt = JSON.parse(JSON.stringify(g.option));
        if (o.speed) opt.speed = JSON.parse(JSON.stringify(o.speed));
        var rk = opt.pay_as_you_go && opt.pay_as_you_go.risk;
        if (rk) {
          rk.checkpoint_minutes = str(dec(ch.checkpoint_minutes));
          rk.restart_minutes = str(dec(ch.restart_minutes));
          if (!rk.band) {
            if (ch.spot_rate === null || ch.spot_rate === undefined) { var who = o.instance + ' · ' + o.region; if (left.indexOf(who) < 0) left.push(who); return; }
            rk.interruptions_per_month = str(dec(ch.spot_rate));
          }
        }
        inp.options.push(opt);
      });
    });
    return { input: inp, spot_left: left };
  }

  // inCurrency is compare's TCOResult.InCurrency: each USD figure of a result
  // times rate (units of the currency per USD), rounded as the USD figure is.
  function conv(x, rate, places) { return round(mul(x, rate), places); }
  function inCurrency(res, rate) {
    return res.options.map(function (r) {
      return { id: r.id, per_hour: conv(r.usd_per_hour, rate, RATE_PLACES),
        monthly: r.monthly_usd.map(function (x) { return conv(x, rate, MONEY_PLACES); }),
        cumulative: r.cumulative_usd.map(function (x) { return conv(x, rate, MONEY_PLACES); }),
        total: conv(r.total_usd, rate, MONEY_PLACES), cost_per_unit: conv(r.cost_per_unit_usd, rate, COST_PLACES), cost_per_job: conv(r.cost_per_job_usd, rate, COST_PLACES) };
    });
  }

  // plain writes exact decimals as strings (decimal.String), for JSON.
  function plain(v) { return JSON.parse(JSON.stringify(v, function (k, x) { return x && typeof x === 'object' && typeof x.m === 'bigint' ? str(x) : x; })); }

  // For tests and the curious: the model and its rules without a page, on
  // figures given as strings (node loads this file to hold them to compare's;
  // sitegen's TestTCOJS_Vectors). A refused input throws the model's words.
  var api = globalThis.GPUAtlasTCO = {
    // compute is compare.TCO: options, break_evens and comparisons.
    compute: function (inp) { return plain(tco(inp)); },
    // format: the tables' number rules (money, rate, qty, pct) on a figure.
    format: function (kind, v) { return { money: fmtMoney, rate: fmtRate, qty: fmtQty, pct: fmtPct }[kind](dec(v)); },
    // inCurrency converts compute's answer at rate.
    inCurrency: function (inp, rate) { return plain(inCurrency(tco(inp), dec(rate))); },
    // inputOf builds the input of a choice on a scenario of the page's configuration.
    inputOf: function (s, ch) { return plain(inputOf(s, ch).input); },
    // check is a TCOBounds row's check of a figure, by field: '' or why not.
    check: function (field, v) { return checkBound(boundOf(field), v); }
  };

  // ---- the page --------------------------------------------------------------
  if (typeof document === 'undefined') return;
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
