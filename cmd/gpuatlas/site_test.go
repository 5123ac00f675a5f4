package main

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/data"
	"github.com/gpuatlas/gpuatlas/internal/cli"
	"github.com/gpuatlas/gpuatlas/internal/datatest"
	"github.com/gpuatlas/gpuatlas/sitegen"
)

// runMain runs gpuatlas as main does (the site generator wired in) with an
// empty environment and returns its exit status, stdout and stderr.
func runMain(args ...string) (int, string, string) {
	var stdout, stderr bytes.Buffer
	env := cli.Env{Stdout: &stdout, Stderr: &stderr, Getenv: func(string) string { return "" }, Site: site()}
	code := cli.Main(env, args)
	return code, stdout.String(), stderr.String()
}

// Every input `gpuatlas build` gathers reaches sitegen: each field of
// cli.SiteInput, set, is the field of sitegen.Options of the same name.
func TestSite_OptionsCarryEveryInput(t *testing.T) {
	var in cli.SiteInput
	v := reflect.ValueOf(&in).Elem()
	for i := 0; i < v.NumField(); i++ {
		f := v.Field(i)
		switch f.Kind() {
		case reflect.Pointer:
			f.Set(reflect.New(f.Type().Elem()))
		case reflect.Slice:
			f.Set(reflect.MakeSlice(f.Type(), 1, 1))
		case reflect.String:
			f.SetString("x" + v.Type().Field(i).Name)
		case reflect.Interface:
			f.Set(reflect.ValueOf(data.FS))
		default:
			t.Fatalf("set a %s field %s in this test", f.Kind(), v.Type().Field(i).Name)
		}
	}
	opts := reflect.ValueOf(siteOptions(in))
	for i := 0; i < v.NumField(); i++ {
		name := v.Type().Field(i).Name
		got := opts.FieldByName(name)
		if !got.IsValid() {
			t.Errorf("sitegen.Options has no field %s", name)
			continue
		}
		if !reflect.DeepEqual(got.Interface(), v.Field(i).Interface()) {
			t.Errorf("siteOptions does not carry %s", name)
		}
	}
}

// `gpuatlas export` writes sitegen's rows of the catalog, byte for byte; the
// embedded catalog's have every accelerated type that has a price.
func TestSite_ExportIsSitegens(t *testing.T) {
	snap := datatest.Snapshot(t)
	for format, write := range map[string]func(*bytes.Buffer) error{
		"csv":  func(w *bytes.Buffer) error { return sitegen.WriteOffersCSV(w, snap) },
		"json": func(w *bytes.Buffer) error { return sitegen.WriteOffersJSON(w, snap) },
	} {
		var want bytes.Buffer
		if err := write(&want); err != nil {
			t.Fatal(err)
		}
		code, stdout, stderr := runMain("export", "--format", format)
		if code != cli.ExitOK {
			t.Fatalf("export %s: exit %d: %s", format, code, stderr)
		}
		if stdout != want.String() {
			t.Errorf("export --format %s is not sitegen's %s (%d bytes, want %d)", format, format, len(stdout), want.Len())
		}
		if format != "json" {
			continue
		}
		for _, typ := range []string{`"p5.48xlarge"`, `"g6f.large"`, `"inf2.xlarge"`, `"trn1.32xlarge"`, `"dl2q.24xlarge"`, `"ecs.gn7i-c8g1.2xlarge"`, `"GN7.2XLARGE32"`} {
			if !strings.Contains(stdout, typ) {
				t.Errorf("embedded export lacks %s", typ)
			}
		}
	}
}

// `gpuatlas history export` writes sitegen's Parquet files of the history,
// byte for byte, where their names say.
func TestSite_HistoryExportIsSitegens(t *testing.T) {
	snap, err := catalog.ReadSnapshot(filepath.Join(testdata, "snapshot.json"))
	if err != nil {
		t.Fatal(err)
	}
	h := catalog.NewHistory()
	if _, err := h.Append(snap); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	hist := filepath.Join(dir, "history.jsonl")
	if err := catalog.WriteHistory(hist, h); err != nil {
		t.Fatal(err)
	}
	want, err := sitegen.HistoryParquet(h)
	if err != nil || len(want) == 0 {
		t.Fatalf("sitegen wrote %d files: %v", len(want), err)
	}
	out := filepath.Join(dir, "export")
	if code, _, stderr := runMain("history", "export", "--history", hist, "--out", out); code != cli.ExitOK {
		t.Fatalf("history export: exit %d: %s", code, stderr)
	}
	for _, f := range want {
		got, err := os.ReadFile(filepath.Join(out, filepath.FromSlash(f.Name)))
		if err != nil || !bytes.Equal(got, f.Data) {
			t.Errorf("%s is not sitegen's (%d bytes, want %d): %v", f.Name, len(got), len(f.Data), err)
		}
	}
}

// `gpuatlas build` renders the site with sitegen and reports what it wrote.
func TestSite_BuildIsSitegens(t *testing.T) {
	dir := t.TempDir()
	out, bench := filepath.Join(dir, "site"), filepath.Join(dir, "bench")
	if err := os.Mkdir(bench, 0o755); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := runMain("build", "--catalog", filepath.Join(testdata, "snapshot.json"), "--out", out, "--benchmarks", bench)
	if code != cli.ExitOK {
		t.Fatalf("build: exit %d: %s", code, stderr)
	}
	if !strings.Contains(stderr, "built "+out+": ") || strings.Contains(stderr, ": 0 pages") {
		t.Errorf("the build's stats are not reported:\n%s", stderr)
	}
	for _, page := range []string{"index.html", "zh/index.html", "data/catalog.json"} {
		if _, err := os.Stat(filepath.Join(out, page)); err != nil {
			t.Errorf("the site lacks %s: %v", page, err)
		}
	}
}
