package sitegen

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpuatlas/gpuatlas/internal/pagetext"
)

// CheckLanguages holds every HTML page under out to the site's language rules:
// a zh/ page has no run of four or more English words outside an element
// marked lang="en" (text from outside shown as written), and an English page
// has no Chinese outside an element marked lang="zh" (the language switch, a
// provider's Chinese name). It returns how many pages of each language it read.
func checkLanguages(t *testing.T, out string) (zh, en int) {
	t.Helper()
	err := filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".html") {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(out, p)
		rel = filepath.ToSlash(rel)
		if strings.HasPrefix(rel, "zh/") {
			zh++
			for _, r := range pagetext.EnglishRuns(pagetext.Visible(string(b), "en")) {
				t.Errorf("%s: English on a Chinese page: %q", rel, r)
			}
			return nil
		}
		en++
		for _, r := range pagetext.ChineseRuns(pagetext.Visible(string(b), "zh")) {
			t.Errorf("%s: Chinese on an English page: %q", rel, r)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return zh, en
}

// Every page of the test site, with every kind of page built (benchmarks,
// published results, changes, scenarios, TCO, the fit estimator), keeps to the
// language rules.
func TestSite_EveryPageInItsLanguage(t *testing.T) {
	out := buildSite(t, withExtras, withPublished, withScenarios, withModels)
	zh, en := checkLanguages(t, out)
	if zh < 40 || en < 40 {
		t.Fatalf("%d Chinese and %d English pages: the walk checks nothing", zh, en)
	}
	t.Logf("%d Chinese and %d English pages", zh, en)
}
