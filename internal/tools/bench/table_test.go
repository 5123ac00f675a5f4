package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpuatlas/gpuatlas/internal/benchrow"
)

func TestTable_FiguresBesideTargetsInStageOrder(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "b.jsonl")
	if err := benchrow.Append(a,
		benchrow.Row{Stage: "page", Name: "explorer", Measure: "first load", Value: "102.2 KB", Target: "< 250 KB", Met: benchrow.Check(true)},
		benchrow.Row{Stage: "build", Name: "100000 offers", Measure: "build / cp -r", Value: "31.9×", Target: "≤ 3×", Met: benchrow.Check(false), Note: "why | it is missed"},
	); err != nil {
		t.Fatal(err)
	}
	if err := benchrow.Append(b, benchrow.Row{Stage: "crawl", Name: "aws", Measure: "wall / lower bound", Value: "1.01×", Target: "≤ 1.25×", Met: benchrow.Check(true)},
		benchrow.Row{Stage: "snapshot", Name: "100k", Measure: "load", Value: "139 MB/s"}); err != nil {
		t.Fatal(err)
	}
	rows, err := benchrow.Read(a)
	if err != nil || len(rows) != 2 || rows[1].Note != "why | it is missed" || *rows[1].Met {
		t.Fatalf("rows read back as %+v, %v", rows, err)
	}

	var out strings.Builder
	if err := runTable(&out, []string{"-require", "crawl,build", a, b}); err != nil {
		t.Fatal(err)
	}
	text := out.String()
	order := []string{"crawl ", "build ", "snapshot ", "page "}
	last := -1
	for _, s := range order {
		i := strings.Index(text, "\n"+s)
		if i < 0 || i < last {
			t.Fatalf("stage %q out of order or missing in:\n%s", s, text)
		}
		last = i
	}
	for _, want := range []string{"31.9×  ", "≤ 3×", "MISSED", "met", "[2] why | it is missed", "2 of 3 targets met. Missed: build 100000 offers: 31.9× (target ≤ 3×)."} {
		if !strings.Contains(text, want) {
			t.Errorf("the table lacks %q:\n%s", want, text)
		}
	}

	out.Reset()
	if err := runTable(&out, []string{"-markdown", a}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), `| build | 100000 offers | build / cp -r | 31.9× | ≤ 3× | MISSED | why \| it is missed |`) {
		t.Errorf("the Markdown table does not escape or align as expected:\n%s", out.String())
	}

	if err := runTable(&out, []string{"-require", "crawl,diff", a, b}); err == nil || !strings.Contains(err.Error(), "diff stage") {
		t.Errorf("a missing stage was not reported: %v", err)
	}
	if err := runTable(&out, []string{filepath.Join(dir, "missing.jsonl")}); err == nil {
		t.Error("a missing rows file was not reported")
	}
}
