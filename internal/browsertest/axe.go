package browsertest

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// axeScript is where `make axe` installs axe-core (pinned in
// internal/browsertest/axe/package-lock.json), relative to the repository root.
var axeScript = filepath.Join(".cache", "axe", "node_modules", "axe-core", "axe.min.js")

// AxeViolation is one rule axe-core found broken on a page, with the first
// few elements that break it.
type AxeViolation struct {
	ID      string   `json:"id"`
	Impact  string   `json:"impact"`
	Help    string   `json:"help"`
	Targets []string `json:"targets"`
}

func (v AxeViolation) String() string {
	return fmt.Sprintf("%s (%s): %s: %s", v.ID, v.Impact, v.Help, strings.Join(v.Targets, ", "))
}

// LoadAxe reads axe-core's script from the repository at root. Without it the
// test is skipped, except in CI (CI=true), where it fails: there `make test`
// installs it first with `make axe`.
func LoadAxe(t testing.TB, root string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, axeScript))
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("axe-core is not installed (%v); CI=true needs the accessibility test: make test installs it with make axe", err)
		}
		t.Skipf("axe-core is not installed (%v): run make axe", err)
	}
	return string(b)
}

// Axe runs axe-core's WCAG 2 A and AA rules (wcag2a, wcag2aa, wcag21a,
// wcag21aa) on the page open in the tab and returns what they find. script
// is LoadAxe's; it is evaluated through the DevTools protocol, so the page's
// Content-Security-Policy (scripts from the site only) stays as it is.
func Axe(t testing.TB, ctx context.Context, script string) []AxeViolation {
	t.Helper()
	Do(t, ctx, "load axe-core", chromedp.Evaluate[chromedp.Void](script))
	raw := EvalAsync[json.RawMessage](t, ctx, `axe.run(document, {runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']}, resultTypes: ['violations']})
		.then(r => r.violations.map(v => ({id: v.id, impact: v.impact || '', help: v.help,
			targets: v.nodes.slice(0, 5).map(n => n.target.join(' '))})))`)
	var out []AxeViolation
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatalf("axe-core's result: %v: %.300s", err, raw)
	}
	return out
}
