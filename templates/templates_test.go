package templates

import (
	"encoding/json"
	"io/fs"
	"sort"
	"testing"
)

func TestFS_HoldsPagesAssetsAndCatalogs(t *testing.T) {
	for _, name := range []string{"_layout.html", "_partials.html", "index.html", "offers.html", "instance.html",
		"downloads.html", "404.html", "compare.html", "gpus.html", "gpu.html", "regions.html", "markdown.html",
		"static/style.css", "static/atlas.js", "static/explorer.js", "static/compare.js", "i18n/en.json", "i18n/zh.json",
		"content/methodology.en.md", "content/methodology.zh.md", "content/about.en.md", "content/about.zh.md"} {
		if _, err := fs.Stat(FS, name); err != nil {
			t.Errorf("%s is not embedded: %v", name, err)
		}
	}
}

func TestCatalogs_SameKeysInEveryLanguage(t *testing.T) {
	load := func(name string) map[string]string {
		b, err := fs.ReadFile(FS, name)
		if err != nil {
			t.Fatal(err)
		}
		m := map[string]string{}
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return m
	}
	en, zh := load("i18n/en.json"), load("i18n/zh.json")
	missing := func(have, want map[string]string) []string {
		var out []string
		for k := range have {
			if _, ok := want[k]; !ok {
				out = append(out, k)
			}
		}
		sort.Strings(out)
		return out
	}
	if m := missing(en, zh); len(m) > 0 {
		t.Errorf("zh.json lacks %v", m)
	}
	if m := missing(zh, en); len(m) > 0 {
		t.Errorf("en.json lacks %v", m)
	}
	for k, v := range zh {
		if v == "" {
			t.Errorf("zh.json: %s is empty", k)
		}
	}
}
