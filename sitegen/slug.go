package sitegen

import (
	"sort"
	"strconv"
	"strings"

	"github.com/gpuatlas/gpuatlas/catalog"
)

// maxSlug bounds a file name part well below the 255-byte limit of common file
// systems, leaving room for a collision suffix and ".html".
const maxSlug = 120

// slugify turns a provider's id into a safe file name: lower case, only
// [a-z0-9._-], no "..", no leading or trailing dot or dash, never empty. Ids are
// data from providers; this is what keeps a hostile one inside the site folder.
func slugify(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(s) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '.' || r == '_' {
			b.WriteRune(r)
			dash = false
		} else if !dash {
			b.WriteByte('-')
			dash = true
		}
	}
	out := b.String()
	for strings.Contains(out, "..") {
		out = strings.ReplaceAll(out, "..", ".")
	}
	out = strings.Trim(out, ".-")
	if len(out) > maxSlug {
		out = strings.Trim(out[:maxSlug], ".-")
	}
	if out == "" {
		out = "x"
	}
	return out
}

// instancePaths gives every instance type its page path relative to the site
// root, "instances/<provider>/<slug>.html". Types are taken in key order and a
// slug already taken gets "-2", "-3" ..., so collisions (ids that differ only in
// case or in characters a slug drops) resolve the same way on every build.
func instancePaths(types []catalog.InstanceType) map[string]string {
	keys := make([]string, 0, len(types))
	byKey := map[string]catalog.InstanceType{}
	for _, t := range types {
		keys = append(keys, t.Key())
		byKey[t.Key()] = t
	}
	sort.Strings(keys)
	taken := map[string]bool{}
	out := make(map[string]string, len(keys))
	for _, k := range keys {
		t := byKey[k]
		dir := "instances/" + slugify(string(t.Provider)) + "/"
		base := slugify(t.ID)
		p := dir + base + ".html"
		for n := 2; taken[p]; n++ {
			p = dir + base + "-" + strconv.Itoa(n) + ".html"
		}
		taken[p] = true
		out[k] = p
	}
	return out
}
