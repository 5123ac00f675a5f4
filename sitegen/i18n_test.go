package sitegen

import (
	"io/fs"
	"regexp"
	"sort"
	"testing"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/templates"
)

func loadTestLanguages(t *testing.T) []*language {
	t.Helper()
	langs := newLanguages()
	if err := loadMessages(templates.FS, langs); err != nil {
		t.Fatal(err)
	}
	return langs
}

// TestMessages_EveryKeyInBothLanguages checks every message the templates, the
// script and the code ask for exists in every language: literal keys in the
// templates and explorer.js, the labels of every code the catalog defines, and
// the description of every CSV column.
func TestMessages_EveryKeyInBothLanguages(t *testing.T) {
	langs := loadTestLanguages(t)
	want := map[string]bool{}
	literal := []*regexp.Regexp{
		regexp.MustCompile(`\bt "([^"]+)"`),     // {{t "key"}} in templates
		regexp.MustCompile(`text\('([^']+)'\)`), // text('key') in explorer.js
		regexp.MustCompile(`text\(native\(\) \? '([^']+)' : '([^']+)'\)`),
		regexp.MustCompile(`lbl: '([^']+)'`),               // column labels in explorer.js
		regexp.MustCompile(`\['((?:col|cmp)\.[a-z_]+)', `), // attribute rows in compare.js
		regexp.MustCompile(`A\.text\('([^']+)'\)`),         // atlas.js
		regexp.MustCompile(`l\.msg\("([^"]+)"\)`),          // text the Go code builds
	}
	err := fs.WalkDir(templates.FS, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(templates.FS, p)
		if err != nil {
			return err
		}
		for _, re := range literal {
			for _, m := range re.FindAllStringSubmatch(string(b), -1) {
				for _, k := range m[1:] {
					want[k] = true
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(want) < 50 {
		t.Fatalf("found only %d message keys in the templates; is the pattern out of date?", len(want))
	}
	add := func(group string, codes ...string) {
		for _, c := range codes {
			want[group+"."+c] = true
		}
	}
	for _, p := range catalog.Providers {
		add("provider", string(p))
	}
	for _, b := range catalog.BillingKinds {
		add("billing", string(b))
	}
	add("avail", string(catalog.Available), string(catalog.SoldOut), string(catalog.Unknown))
	add("status", string(catalog.CoverageOK), string(catalog.CoveragePartial), string(catalog.CoverageStale),
		string(catalog.CoverageSkipped), string(catalog.CoverageFailed), "unknown")
	add("unit", string(catalog.PerHour), string(catalog.PerMonth), string(catalog.PerYear), string(catalog.Upfront))
	add("kind", string(catalog.KindGPU), string(catalog.KindNPU), string(catalog.KindInference), string(catalog.KindFPGA), string(catalog.KindMedia))
	add("confidence", "certain", "likely", "uncertain")
	add("generation", "current", "previous")
	add("csv", OfferColumns...)
	add("downloads", "catalog_json", "offers_csv", "offers_json")
	add("col", "native_hour", "native_gpu_hour", "price", "gpu_price", "gib_price") // range legends: col.price_x without _x
	add("per", "hour", "month", "year")
	add("filter", "min", "max")
	add("icol", InstanceColumns...)
	add("downloads", "offers_full_json", "instances_csv", "instances_json")
	add("regions", "unknown_country")
	for _, c := range contentPages {
		want[c.Title] = true
	}

	keys := make([]string, 0, len(want))
	for k := range want {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, l := range langs {
		for _, k := range keys {
			if _, ok := l.messages[k]; !ok {
				t.Errorf("i18n/%s.json lacks %q", l.Tag, k)
			}
		}
	}
}

// TestContent_EveryPageInEveryLanguage checks each Markdown page exists in every
// language.
func TestContent_EveryPageInEveryLanguage(t *testing.T) {
	for _, l := range loadTestLanguages(t) {
		for _, c := range contentPages {
			name := "content/" + c.Name + "." + l.Tag + ".md"
			if b, err := fs.ReadFile(templates.FS, name); err != nil || len(b) == 0 {
				t.Errorf("%s is missing or empty: %v", name, err)
			}
		}
	}
}

func TestMessages_Placeholders(t *testing.T) {
	l := loadTestLanguages(t)[1]
	got, err := l.t("offers.count", "n", 3, "m", 12)
	if err != nil {
		t.Fatal(err)
	}
	if want := "12 条报价中的 3 条"; got != want {
		t.Errorf("t(offers.count) = %q, want %q", got, want)
	}
	if _, err := l.t("no.such.key"); err == nil {
		t.Error("a missing key gave no error")
	}
	if got := l.label("billing", "lease_forever"); got != "lease_forever" {
		t.Errorf("label of an unknown code = %q, want the code", got)
	}
}
