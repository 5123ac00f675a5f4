#!/bin/sh
# Counts the repeated code of the tree, as issue 29 measures it (docs/architecture.md,
# "Repeated code"). Needs the `duplicates` command of the tool library and python3.
#
#   scripts/duplicates.sh            the counts
#   scripts/duplicates.sh -v         and every row, by class
#
# 1. The tracked files, without testdata and data files (JSON, CSV, Parquet, SVG,
#    PNG, goldens, XML, Markdown, YAML, text), are copied to a scratch folder,
#    with each Go import block blanked (line numbers kept): import lists are
#    boilerplate.
# 2. `duplicates --most 200 --seconds 120` lists the pairs there.
# 3. A row is counted unless the tool marks it boilerplate, or both its sides
#    are declarations (at least 80% of their code lines are struct fields,
#    flag definitions, table rows, const or var values, one-call-per-field
#    lists or help text: data, not logic).
set -eu
root=$(git rev-parse --show-toplevel)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/dupsrc-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
cd "$root"
git ls-files -z | tr '\0' '\n' |
	grep -vE '(^|/)testdata/' |
	grep -vE '\.(json|jsonl|csv|tsv|parquet|svg|png|golden|xml|atom|md|txt|yaml|yml|sum)$' |
	while IFS= read -r f; do
		mkdir -p "$tmp/src/$(dirname "$f")"
		cp "$f" "$tmp/src/$f"
	done
find "$tmp/src" -name '*.go' -exec perl -i -ne '
	$in = 1 if /^import \($/;
	print(($in || /^import "/) ? "\n" : $_);
	$in = 0 if $in && /^\)$/;' {} +
(cd "$tmp/src" && duplicates --most 200 --seconds 120) >"$tmp/report"
head -n 1 "$tmp/report"
python3 - "$tmp/src" "$tmp/report" "${1:-}" <<'PY'
import re, sys
root, report, verbose = sys.argv[1], sys.argv[2], sys.argv[3] == "-v"
DECL = [re.compile(p) for p in (
    r'^\w+(, \w+)* :?= \w+\.(String|Int|Int64|Bool|Duration|Float64|Var|Func)\(',  # flag definitions
    r'^\w+\.(String|Int|Bool|Duration|Var|Float64)\(&?\w+, "',                     # fs.Var(&x, "name", ...)
    r'^[A-Z]?\w*(, \w+)*\s+[\*\[\]\w\.]+(\s+`[^`]*`)?(\s*//.*)?$',                  # struct fields
    r'^\w+\s+[\[\]\*]*struct \{$', r'^\}\s*`[^`]*`$',                                  # nested struct fields
    r'^\{.*\},?$', r'^".*",?$', r'^\w+:\s+.*,$',                                  # table rows, keyed fields
    r'^\w+(\s+[\w\.\*\[\]]+)?\s*=\s*[^=].*$',                                      # const or var values
    r'^(\w+ :?= )?"([^"\\]|\\.)*"( \+)?,?\)?$',                                    # help text
    r'^fmt\.Fprint(ln|f)?\(\w+, "([^"\\]|\\.)*"\)$', r'^fmt\.Fprintln\(\w+\)$',
    r'^c\.\w+\(".*\)$',                                                            # record limit checks
    r'^[\}\)\]],?$', r'^\w+ := \[\]?\w*\{$', r'^(type|var|const) .*[\{\(]$',
)]
files = {}
def declarations(f, a, b):
    if f not in files:
        files[f] = open(root + "/" + f, encoding="utf-8", errors="replace").read().split("\n")
    code = [l.strip() for l in files[f][a - 1:b]]
    code = [l for l in code if l and not l.startswith("//")]
    return not code or sum(any(p.search(l) for p in DECL) for l in code) >= 0.8 * len(code)
rows = [l.rstrip("\n") for l in open(report) if l.startswith("D")]
classes = {"boilerplate": [], "declarations": [], "counted": []}
for l in rows:
    m = re.match(r"D\d+ (\S+):(\d+)-(\d+) ~ (\S+):(\d+)-(\d+)(.*)", l)
    if "boilerplate" in m.group(7):
        classes["boilerplate"].append(l)
    elif declarations(m.group(1), int(m.group(2)), int(m.group(3))) and declarations(m.group(4), int(m.group(5)), int(m.group(6))):
        classes["declarations"].append(l)
    else:
        classes["counted"].append(l)
print("rows listed %d: boilerplate %d, declarations %d, repeated code %d" % (
    len(rows), len(classes["boilerplate"]), len(classes["declarations"]), len(classes["counted"])))
if len(classes["counted"]) + len(classes["declarations"]) >= 200:
    print("the list was cut at 200 rows: the count is a floor")
if verbose:
    for k, v in classes.items():
        print("--- " + k)
        print("\n".join(v))
PY
