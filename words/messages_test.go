package words

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/gpuatlas/gpuatlas/templates"
)

// testLanguage is one language's catalog, as the tests read it.
type testLanguage struct {
	Tag      string
	messages map[string]string
}

// loadTestLanguages reads the templates' catalogs, English first.
func loadTestLanguages(t *testing.T) []testLanguage {
	t.Helper()
	tags := []string{"en", "zh"}
	cats, err := Catalogs(templates.FS, tags...)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]testLanguage, len(tags))
	for i, tag := range tags {
		out[i] = testLanguage{Tag: tag, messages: cats[i]}
	}
	return out
}

// A catalog is its main file and its parts; a key defined twice, a key one
// language lacks, or a file that is no JSON object is an error that names the
// file.
func TestCatalogs(t *testing.T) {
	good := fstest.MapFS{
		"i18n/en.json":     {Data: []byte(`{"a": "A"}`)},
		"i18n/en.fit.json": {Data: []byte(`{"b": "B"}`)},
		"i18n/zh.json":     {Data: []byte(`{"a": "甲", "b": "乙"}`)},
	}
	cats, err := Catalogs(good, "en", "zh")
	if err != nil {
		t.Fatal(err)
	}
	if cats[0]["b"] != "B" || cats[1]["a"] != "甲" || len(cats[0]) != 2 {
		t.Errorf("catalogs = %v", cats)
	}
	en, err := Messages(good, "en")
	if err != nil || en["a"] != "A" || en["b"] != "B" {
		t.Errorf("Messages(en) = %v, %v", en, err)
	}
	tests := []struct {
		name string
		fsys fstest.MapFS
		want string
	}{
		{"a key twice", fstest.MapFS{"i18n/en.json": {Data: []byte(`{"a": "A"}`)}, "i18n/en.x.json": {Data: []byte(`{"a": "B"}`)},
			"i18n/zh.json": {Data: []byte(`{"a": "甲"}`)}}, `message catalog i18n/en.x.json: key "a" is already defined in another i18n/en*.json file`},
		{"a key one language lacks", fstest.MapFS{"i18n/en.json": {Data: []byte(`{"a": "A", "b": "B"}`)}, "i18n/zh.json": {Data: []byte(`{"a": "甲"}`)}},
			"message catalog i18n/zh.json lacks 1 keys that i18n/en.json has: b"},
		{"no JSON object", fstest.MapFS{"i18n/en.json": {Data: []byte(`["a"]`)}, "i18n/zh.json": {Data: []byte(`{}`)}}, "message catalog i18n/en.json: "},
		{"no catalog", fstest.MapFS{"i18n/en.json": {Data: []byte(`{}`)}}, "read message catalog: "},
	}
	for _, tt := range tests {
		if _, err := Catalogs(tt.fsys, "en", "zh"); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: err = %v, want %q", tt.name, err, tt.want)
		}
	}
}
