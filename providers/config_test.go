package providers

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpuatlas/gpuatlas/catalog"
)

// A whole key pair wins (with its session token when set); without one, a
// whole role; without either, the error names every variable.
func TestConfig_KeyOrRole(t *testing.T) {
	vars := KeyOrRoleVars{ID: "K_ID", Secret: "K_SECRET", Token: "K_TOKEN", TokenUse: "an STS token",
		Role: "R_ARN", Provider: "R_PROVIDER", TokenFile: "R_FILE"}
	role := map[string]string{"R_ARN": "arn", "R_PROVIDER": "idp", "R_FILE": "/token"}
	for _, tc := range []struct {
		name string
		env  map[string]string
		want KeyOrRole
	}{
		{"pair", map[string]string{"K_ID": "id", "K_SECRET": "s", "R_ARN": "arn"}, KeyOrRole{ID: "id", Secret: "s"}},
		{"temporary pair", map[string]string{"K_ID": "id", "K_SECRET": "s", "K_TOKEN": "tok"}, KeyOrRole{ID: "id", Secret: "s", Token: "tok"}},
		{"role", role, KeyOrRole{Role: "arn", Provider: "idp", TokenFile: "/token"}},
		{"half a pair and a role", map[string]string{"K_ID": "id", "R_ARN": "arn", "R_PROVIDER": "idp", "R_FILE": "/token"},
			KeyOrRole{Role: "arn", Provider: "idp", TokenFile: "/token"}},
	} {
		cfg := Config{Getenv: func(k string) string { return tc.env[k] }}
		if got, err := cfg.KeyOrRole(catalog.Alibaba, vars); err != nil || got != tc.want {
			t.Errorf("%s: %+v, %v; want %+v", tc.name, got, err, tc.want)
		}
	}
	cfg := Config{Getenv: func(k string) string { return map[string]string{"K_ID": "id", "R_ARN": "arn"}[k] }}
	_, err := cfg.KeyOrRole(catalog.Alibaba, vars)
	want := "alibaba: no credentials configured: set K_ID and K_SECRET (and K_TOKEN for an STS token), or R_ARN, R_PROVIDER and R_FILE"
	if !errors.Is(err, ErrNoCredentials) || err.Error() != want {
		t.Errorf("err = %v, want %q", err, want)
	}
}

// The token file is read trimmed; a missing, empty, oversized or irregular
// one is an error naming the variable.
func TestReadTokenFile(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	if got, err := ReadTokenFile("TOKEN_FILE", write("ok", " eyJ.token \n")); err != nil || got != "eyJ.token" {
		t.Errorf("ReadTokenFile = %q, %v", got, err)
	}
	for path, want := range map[string]string{
		filepath.Join(dir, "missing"):             "TOKEN_FILE: stat ",
		write("empty", "\n"):                      " is empty",
		write("big", strings.Repeat("x", 65<<10)): " is not a regular file of at most 64 KiB",
		dir: " is not a regular file of at most 64 KiB",
	} {
		if _, err := ReadTokenFile("TOKEN_FILE", path); err == nil || !strings.HasPrefix(err.Error(), "TOKEN_FILE: ") || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: err = %v, want %q", filepath.Base(path), err, want)
		}
	}
}
