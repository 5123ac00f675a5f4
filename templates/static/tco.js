// GPU Atlas TCO calculator: recomputes package compare's TCO model (compare/tco.go)
// in the browser from the TCO input JSON embedded in tco.html. Money is never a
// float: every figure is an exact decimal (a BigInt scaled by a power of ten), and
// the rounding is compare's, half away from zero at the same steps: hours to 6
// places, derived USD rates to 8, each month's cost to cents, cost per unit of
// work to 6, utilisation to 4, whole percent in comparisons. The page that reads
// the form and draws the tables and charts is static/tco-page.js, loaded after
// this file. Vanilla JavaScript, nothing loaded from other hosts.
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
  globalThis.GPUAtlasTCO = {
    // compute is compare.TCO: options, break_evens and comparisons.
    compute: function (inp) { return plain(tco(inp)); },
    // format: the tables' number rules (money, rate, qty, pct) on a figure.
    format: function (kind, v) { return { money: fmtMoney, rate: fmtRate, qty: fmtQty, pct: fmtPct }[kind](dec(v)); },
    // inCurrency converts compute's answer at rate.
    inCurrency: function (inp, rate) { return plain(inCurrency(tco(inp), dec(rate))); },
    // inputOf builds the input of a choice on a scenario of the page's configuration.
    inputOf: function (s, ch) { return plain(inputOf(s, ch).input); },
    // check is a TCOBounds row's check of a figure, by field: '' or why not.
    check: function (field, v) { return checkBound(boundOf(field), v); },
    // For the page (static/tco-page.js): the model, its exact decimals and
    // number rules, which the page reads its inputs and writes its tables with.
    lib: {
      COST_PLACES: COST_PLACES, HUNDRED: HUNDRED, MAX_MINUTES: MAX_MINUTES, MONEY_PLACES: MONEY_PLACES, ModelError:
      ModelError, ONE: ONE, RATE_PLACES: RATE_PLACES, cmp: cmp, conv: conv, dec: dec, divRound: divRound, fmtMoney:
      fmtMoney, fmtPct: fmtPct, fmtQty: fmtQty, fmtRate: fmtRate, inputOf: inputOf, lossHours: lossHours, mul: mul,
      sign: sign, str: str, tco: tco
    }
  };
})();

