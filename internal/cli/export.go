package cli

import (
	"bufio"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/data"
)

func runExport(env Env, args []string) int {
	fs, parse := newFlagSet(env, "export", "export --format csv|json [--catalog FILE]")
	format := fs.String("format", "csv", "output format: csv (one row per offer) or json (the same rows as objects)")
	path := fs.String("catalog", "", "snapshot to export (default: the catalog embedded in this build)")
	if code, ok := parseFlags(env, fs, parse, args, format, "csv", "json"); !ok {
		return code
	}
	snap, _, err := loadSnapshot(*path)
	if err != nil {
		return fail(env, "export: %v", err)
	}
	write := env.Site.WriteOffersCSV
	if *format == "json" {
		write = env.Site.WriteOffersJSON
	}
	if write == nil {
		return fail(env, "export: %v", errNoSite)
	}
	w := bufio.NewWriter(env.Stdout)
	if err = write(w, snap); err == nil {
		err = w.Flush()
	}
	if err != nil {
		return fail(env, "export: %v", err)
	}
	return ExitOK
}

// loadCatalog is loadSnapshot with the GPU reference embedded in this build.
func loadCatalog(path string) (*catalog.Snapshot, []byte, *catalog.GPUReference, error) {
	s, b, err := loadSnapshot(path)
	if err != nil {
		return nil, nil, nil, err
	}
	ref, err := catalog.LoadGPUReference(data.FS)
	return s, b, ref, err
}

// loadSnapshot reads the snapshot at path, or the embedded catalog when path is
// empty. It also returns the snapshot's canonical bytes.
func loadSnapshot(path string) (*catalog.Snapshot, []byte, error) {
	if path != "" {
		s, err := catalog.ReadSnapshot(path)
		if err != nil {
			return nil, nil, err
		}
		b, err := s.MarshalCanonical()
		return s, b, err
	}
	b, err := data.FS.ReadFile("catalog.json")
	if err != nil {
		return nil, nil, err
	}
	s, err := catalog.DecodeSnapshot("data/catalog.json (embedded)", b)
	return s, b, err
}
