package sitegen

import (
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
	zh, en, problems, err := pagetext.CheckSite(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Error(p)
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
