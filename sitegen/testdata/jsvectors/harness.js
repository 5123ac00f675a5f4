// Runs one of the site's scripts without a page, for sitegen's JS vector tests
// (jsvectors_test.go): node harness.js SCRIPT GLOBAL loads SCRIPT (which sets
// globalThis[GLOBAL] when there is no document), reads a JSON array of calls
// {"fn": name, "args": [...]} on stdin and writes a JSON array of answers, one
// per call: {"ok": value} or {"error": message, "kind": the error's name}. A
// value many calls share is given once, by {"fn": "$set", "args": [name,
// value]}; an argument {"$var": name} then stands for it.
'use strict';
const path = require('path');
const [script, global] = process.argv.slice(2);
require(path.resolve(script));
const api = globalThis[global];
if (!api) {
  process.stderr.write(script + ' did not set globalThis.' + global + '\n');
  process.exit(2);
}
let input = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (c) => { input += c; });
process.stdin.on('end', () => {
  const vars = {};
  const arg = (a) => (a && typeof a === 'object' && typeof a.$var === 'string' ? vars[a.$var] : a);
  const out = JSON.parse(input).map((c) => {
    if (c.fn === '$set') {
      vars[c.args[0]] = c.args[1];
      return { ok: true };
    }
    if (typeof api[c.fn] !== 'function') return { error: 'no function ' + c.fn, kind: 'harness' };
    try {
      return { ok: api[c.fn](...c.args.map(arg)) };
    } catch (e) {
      return { error: String(e && e.message), kind: (e && e.name) || 'throw' };
    }
  });
  process.stdout.write(JSON.stringify(out));
});
