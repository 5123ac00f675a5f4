package testlane

import (
	"os"
	"path/filepath"
	"sync"
	"testing"
)

// Sites are the built sites a package's tests share, by name: each is built
// once, by the first test that asks, into a folder that lives until Remove
// (TestMain calls it after m.Run). A whole-site build is the costliest step of
// most tests that read a site; tests that only read one need not each build it.
type Sites struct {
	mu    sync.Mutex
	root  string
	built map[string]*site
}

type site struct {
	once sync.Once
	dir  string // "" until built, and when the build stopped its test
}

// Get returns the folder of the site called name, which build writes into out
// the first time a test asks for it; later tests get the same folder, so a test
// must never change a shared site (one that needs a site of its own builds it
// under t.TempDir()). In -short mode the test is skipped: it builds a whole site.
func (s *Sites) Get(t *testing.T, name string, build func(t *testing.T, out string)) string {
	t.Helper()
	Long(t, "builds a whole site")
	s.mu.Lock()
	if s.root == "" {
		root, err := os.MkdirTemp("", "gpuatlas-sites-")
		if err != nil {
			s.mu.Unlock()
			t.Fatal(err)
		}
		s.root, s.built = root, map[string]*site{}
	}
	b := s.built[name]
	if b == nil {
		b = &site{}
		s.built[name] = b
	}
	out := filepath.Join(s.root, name)
	s.mu.Unlock()
	b.once.Do(func() {
		build(t, out) // a t.Fatal here ends this test and leaves dir ""
		b.dir = out
	})
	if b.dir == "" {
		t.Fatalf("the shared site %s did not build: see the first test that asked for it", name)
	}
	return b.dir
}

// Remove removes every shared site.
func (s *Sites) Remove() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.root != "" {
		_ = os.RemoveAll(s.root) // temporary folders: a leftover harms no test
	}
	s.root, s.built = "", nil
}
