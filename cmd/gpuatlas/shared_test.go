package main

import (
	"os"
	"testing"

	"github.com/gpuatlas/gpuatlas/internal/browsertest"
	"github.com/gpuatlas/gpuatlas/internal/testlane"
	"github.com/gpuatlas/gpuatlas/sitegen"
	"github.com/gpuatlas/gpuatlas/templates"
)

// TestMain runs the package's tests, then closes the browser they share
// (internal/browsertest) and removes the sites they share.
func TestMain(m *testing.M) {
	code := m.Run()
	browsertest.Shutdown()
	sites.Remove()
	os.Exit(code)
}

// sites are the built sites the package's tests share (a shared site is never
// changed).
var sites testlane.Sites

// renderSite builds the site opts describes into out, with the embedded
// templates (unless opts has others) and base URL / (unless set): every site
// of the package's tests is built here. In -short mode the test is skipped.
func renderSite(t testing.TB, out string, opts sitegen.Options) {
	t.Helper()
	testlane.Long(t, "builds a whole site")
	testlane.Count("site-build", t.Name())
	opts.OutDir = out
	if opts.Templates == nil {
		opts.Templates = templates.FS
	}
	if opts.BaseURL == "" {
		opts.BaseURL = "/"
	}
	if _, err := sitegen.Build(opts); err != nil {
		t.Fatal(err)
	}
}
