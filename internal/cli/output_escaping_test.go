package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/compare"
	"github.com/gpuatlas/gpuatlas/internal/datatest"
	"github.com/gpuatlas/gpuatlas/internal/ghactions"
	"github.com/gpuatlas/gpuatlas/templates"
	"github.com/gpuatlas/gpuatlas/words"
)

// hostile is what a provider, an upload or a hand-made file could hold: an
// escape sequence, C1 and DEL controls, a line break followed by a workflow
// command, a bidirectional override, a tab and Markdown syntax.
const hostile = "x\x1b[31m\u009b\x7f\r\n::error file=a.go,line=1::forged\u202e\t|*_`[x](y)<b>#"

// checkOutput fails when out holds a control byte other than the line break,
// a format character, or a line that a GitHub Actions runner would read as a
// workflow command.
func checkOutput(t *testing.T, what, out string) {
	t.Helper()
	for _, r := range out {
		if r != '\n' && (unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || r == '\u2028' || r == '\u2029') {
			t.Errorf("%s: raw %U in the output:\n%s", what, r, out)
			break
		}
	}
	if cmds := ghactions.ReadCommands(out); len(cmds) > 0 {
		t.Errorf("%s: the output makes the runner read %d workflow commands (%+v):\n%s", what, len(cmds), cmds, out)
	}
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(strings.TrimLeft(line, " \t"), "::") {
			t.Errorf("%s: a line starts with \"::\": %q", what, line)
		}
	}
}

// hostileSnapshot is scenarioFixture's catalog with a hostile instance type,
// region, accelerator name, offer source and FX source (as a provider's
// answer or a hand-edited catalog could hold them).
func hostileSnapshot(t *testing.T) *catalog.Snapshot {
	t.Helper()
	snap, err := catalog.ReadSnapshot(scenarioFixture(t))
	if err != nil {
		t.Fatal(err)
	}
	snap.FX.Source = "fx " + hostile
	for i := range snap.Instances {
		if snap.Instances[i].ID == "p4d.24xlarge" {
			snap.Instances[i].ID = "p4d" + hostile
			snap.Instances[i].Accelerators[0].Name = "A100 " + hostile
		}
	}
	for i := range snap.Offers {
		o := &snap.Offers[i]
		if o.InstanceType == "p4d.24xlarge" {
			o.InstanceType = "p4d" + hostile
		}
		if o.Provider == catalog.AWS {
			o.Region = "us-east-1" + hostile
		}
		o.Source = "src " + hostile
	}
	for i := range snap.Regions {
		if snap.Regions[i].Provider == catalog.AWS {
			snap.Regions[i].ID = "us-east-1" + hostile
		}
	}
	// An unmapped accelerator for check's report.
	snap.Unmapped = append(snap.Unmapped, catalog.UnmappedAccelerator{Provider: catalog.Alibaba, Name: "G99" + hostile, InstanceTypes: []string{"ecs.gx" + hostile}})
	return snap
}

// Every text, table and Markdown output of find, scenarios, fit, tco --input
// and check prints a hostile string from the catalog, an upload or an input
// file as one escaped field: no raw control byte, no line a CI runner reads as
// a workflow command, no Markdown row of its own.
func TestOutput_HostileStringsAreEscaped(t *testing.T) {
	snap := hostileSnapshot(t)
	ref := datatest.Load(t, catalog.LoadGPUReference)
	for _, lang := range []string{"en", "zh"} {
		msgs, err := words.Messages(templates.FS, lang)
		if err != nil {
			t.Fatal(err)
		}
		rw, err := reasonWords(lang)
		if err != nil {
			t.Fatal(err)
		}

		// find: table (narrow and wide) and Markdown.
		in := compare.FindInput{Reference: ref, Scenarios: []string{}}
		if in.ProviderNames, err = providerNames(); err != nil {
			t.Fatal(err)
		}
		q := compare.FindQuery{Currency: "native", Sort: "price", Expr: compare.ParseFilter("", nil)}
		res, err := compare.Find(snap, in, q)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Rows) < 2 {
			t.Fatalf("find: %d rows", len(res.Rows))
		}
		for _, width := range []int{0, 60} {
			out := findOutput{snap: snap, res: res, query: q, total: len(res.Rows), msgs: msgs, lang: lang, width: width}
			var b bytes.Buffer
			if err := out.writeTable(&b); err != nil {
				t.Fatal(err)
			}
			checkOutput(t, "find table "+lang, b.String())
			if width == 0 && !strings.Contains(b.String(), `p4dx\x1b[31m\u009b\x7f\r\n::error`) {
				t.Errorf("find table: the hostile type is not shown escaped:\n%s", b.String())
			}
		}
		var md bytes.Buffer
		out := findOutput{snap: snap, res: res, query: q, total: len(res.Rows), msgs: msgs, lang: lang}
		if err := out.writeMarkdown(&md); err != nil {
			t.Fatal(err)
		}
		checkOutput(t, "find markdown "+lang, md.String())
		checkMarkdownTable(t, "find markdown "+lang, md.String())

		// scenarios, with a hostile scenario name, id and description.
		set := datatest.Load(t, compare.LoadScenarios)
		scs := set.Scenarios[:3]
		scs[0].ID, scs[0].Name, scs[0].NameZH = "sc"+hostile, "name "+hostile, "名 "+hostile
		scs[0].Description, scs[0].DescriptionZH = "desc "+hostile, "述 "+hostile
		m := compare.BuildMatrix(scs, snap, ref, compare.MatrixOptions{Billing: catalog.OnDemand, PerCell: 3})
		// A cost per work from an upload's published result, with its strings.
		if len(m.Scenarios[0].Ranked) == 0 {
			t.Fatal("scenarios: nothing ranked")
		}
		m.Scenarios[0].Ranked[0].WorkCost = &compare.WorkCost{Workload: "wl" + hostile, Scenario: "sc" + hostile, Basis: compare.Measured,
			CostPerUnit: catalog.Dec("0.5"), Published: &compare.PublishedBasis{Round: "v5" + hostile, GPUModel: "H100" + hostile, GPUCount: 8}}
		var sb bytes.Buffer
		if err := writeScenariosText(&sb, rw, snap, m, 0); err != nil {
			t.Fatal(err)
		}
		checkOutput(t, "scenarios "+lang, sb.String())
		m = compare.BuildMatrix(scs, snap, ref, compare.MatrixOptions{Billing: catalog.OnDemand, PerCell: 3, Region: "us-east-1" + hostile})
		sb.Reset()
		if err := writeScenariosText(&sb, rw, snap, m, 0); err != nil {
			t.Fatal(err)
		}
		checkOutput(t, "scenarios --region "+lang, sb.String())

		// fit, with a hostile model name and source (a --models file).
		models := datatest.Load(t, compare.LoadModels)
		est, err := compare.EstimateMemory(compare.MemoryInput{Model: "llama-3.1-8b", Task: compare.TaskInference, Precision: "bf16"}, models)
		if err != nil {
			t.Fatal(err)
		}
		spec := *est.Model
		spec.Name, spec.Source, spec.SourceDate = "model "+hostile, "source "+hostile, "2026"+hostile
		est.Model = &spec
		cs, err := compare.MemoryCandidates(snap, ref, compare.CandidateOptions{Billing: catalog.OnDemand, Currency: catalog.USD})
		if err != nil {
			t.Fatal(err)
		}
		cs.FXSource = "fx " + hostile
		ans := compare.MemoryAnswer{Schema: compare.MemorySchema, Estimate: est, Offers: compare.FitMemory(est, cs, compare.FitOptions{})}
		var fb bytes.Buffer
		if err := writeFitText(&fb, words.NewFitWords(msgs), ans); err != nil {
			t.Fatal(err)
		}
		checkOutput(t, "fit "+lang, fb.String())

		// check: text and Markdown.
		r := fieldReport(catalog.CheckQuality(snap, time.Time{}))
		r.AddError(catalog.Finding{Code: "x" + hostile, Subject: "subject " + hostile, Message: "message " + hostile})
		if len(r.Unmapped) == 0 {
			t.Fatalf("check: the hostile accelerator is not unmapped")
		}
		checkOutput(t, "check text", fieldReport(r).Text(0))
		checkOutput(t, "check markdown", fieldReport(r).Markdown(0))
		checkMarkdownTable(t, "check markdown", fieldReport(r).Markdown(0))
	}
}

// checkMarkdownTable fails when a table row of md has another number of
// unescaped cell separators than the table's header.
func checkMarkdownTable(t *testing.T, what, md string) {
	t.Helper()
	want := -1
	for _, line := range strings.Split(md, "\n") {
		if !strings.HasPrefix(line, "|") {
			want = -1
			continue
		}
		n := strings.Count(line, "|") - strings.Count(line, `\|`)
		if want < 0 {
			want = n
		} else if n != want {
			t.Errorf("%s: a row has %d cell separators, the header %d: %q", what, n, want, line)
		}
	}
}

// tco --input with a hostile option id, work unit, label and note: the text
// shows each escaped, and the command's own error for a bad file echoes none
// of them raw.
func TestTCO_InputHostileStrings(t *testing.T) {
	in := compare.TCOInput{Schema: compare.TCOSchema,
		Workload: compare.TCOWorkload{WorkUnit: "tokens" + hostile, JobSize: catalog.Dec("100"), JobsPerMonth: catalog.Dec("1"),
			Utilisation: catalog.Dec("1"), HorizonMonths: 2},
		Source: &compare.TCOSource{Note: "note " + hostile, FXSource: "fx " + hostile, FXDate: "2026" + hostile},
		Options: []compare.TCOOption{
			{ID: "::error::a" + hostile, Label: "label " + hostile, Hardware: "hw " + hostile, Instance: "i " + hostile,
				Speed:      compare.Speed{WorkPerHour: catalog.Dec("1"), Basis: compare.Reference},
				PayAsYouGo: &compare.TCOPayAsYouGo{Billing: catalog.OnDemand, USDPerHour: catalog.Dec("2")}},
			{ID: "b" + hostile, Speed: compare.Speed{WorkPerHour: catalog.Dec("2"), Basis: compare.Reference},
				Commitment: &compare.TCOCommitment{Billing: catalog.Reserved1yAllUpfront, UpfrontUSD: catalog.Dec("100"), TermMonths: 12}},
		}}
	raw, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "input.json")
	if err := os.WriteFile(path, raw, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, lang := range []string{"en", "zh"} {
		for _, cur := range []string{"USD", "CNY"} {
			out := runExit(t, ExitOK, runTCO, nil, "--input", path, "--lang", lang, "--currency", cur)
			checkOutput(t, "tco --input "+lang+" "+cur, out)
			if !strings.Contains(out, `\x3a:error::ax\x1b[31m`) {
				t.Errorf("tco: the option id is not shown escaped:\n%s", out)
			}
		}
	}
}

// An error or a "no match" line of find repeats at most 40 characters of a
// term, a value or a flag (docs/security.md), however long the input.
func TestFind_EchoesAtMost40Characters(t *testing.T) {
	long := strings.Repeat("a", 4000)
	cases := [][]string{
		{"gpu:" + long},         // an unknown value
		{long + ">=3"},          // an unknown field
		{"gpus>=" + long},       // not a number
		{`"` + long},            // an unterminated quote
		{"zz" + long},           // a search word that matches nothing
		{"", "--format", long},  // a bad flag value
		{"", "--sort", long},    // …
		{"", "--billing", long}, // …
		{"", "--currency", "X" + long},
	}
	for _, args := range cases {
		code, _, errs := runCmd(runFind, args...)
		if code == ExitOK || errs == "" {
			t.Errorf("find %.20q…: exit %d, stderr %q", args, code, errs)
			continue
		}
		if strings.Contains(errs, strings.Repeat("a", 41)) || len(errs) > 1000 {
			t.Errorf("find %.20q…: exit %d, the message repeats more than 40 characters (%d bytes): %.300q", args, code, len(errs), errs)
		}
	}
}
