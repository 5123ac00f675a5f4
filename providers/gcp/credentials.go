package gcp

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/providers"
)

// maxCredentialsFile bounds the credentials file the adapter reads (a service
// account key is about 2.4 KB).
const maxCredentialsFile = 64 << 10

// credentialsFile is a read credentials file: its bytes for the auth library
// and the secrets in it, which no error text may carry.
type credentialsFile struct {
	json    []byte
	typ     string // one of fileTypes
	secrets []string
}

// fileTypes are the credentials files the adapter accepts: a service
// account's key, gcloud's application default user credentials, and a
// workload identity federation configuration (GitHub Actions' OIDC token
// exchanged for a short-lived token).
var fileTypes = []string{"service_account", "authorized_user", "external_account"}

// readCredentials reads the file GOOGLE_APPLICATION_CREDENTIALS names. Its
// errors name the file and the problem, never its contents.
func readCredentials(path string) (credentialsFile, error) {
	f, err := os.Open(path)
	if err != nil {
		return credentialsFile{}, fmt.Errorf("gcp: %w: %s: %w", providers.ErrNoCredentials, envCredentials, err)
	}
	defer func() { _ = f.Close() }()
	b, err := io.ReadAll(io.LimitReader(f, maxCredentialsFile+1))
	if err != nil {
		return credentialsFile{}, fmt.Errorf("gcp: read %s (%s): %w", envCredentials, catalog.Excerpt(path), err)
	}
	if len(b) > maxCredentialsFile {
		return credentialsFile{}, fmt.Errorf("gcp: %s (%s) is larger than %d KiB: not a credentials file", envCredentials, catalog.Excerpt(path), maxCredentialsFile>>10)
	}
	var fields map[string]any
	if err := json.Unmarshal(b, &fields); err != nil {
		return credentialsFile{}, fmt.Errorf("gcp: %s (%s) is not a JSON credentials file", envCredentials, catalog.Excerpt(path))
	}
	typ, _ := fields["type"].(string)
	ok := false
	for _, t := range fileTypes {
		ok = ok || typ == t
	}
	if !ok {
		return credentialsFile{}, fmt.Errorf("gcp: %s (%s): credentials of type %s; want %s", envCredentials, catalog.Excerpt(path),
			catalog.Excerpt(typ), strings.Join(fileTypes, ", "))
	}
	return credentialsFile{json: b, typ: typ, secrets: fileSecrets(fields)}, nil
}

// fileSecrets are the values of a credentials file that are secret.
func fileSecrets(fields map[string]any) []string {
	var out []string
	for _, k := range []string{"private_key", "private_key_id", "client_secret", "refresh_token"} {
		if v, ok := fields[k].(string); ok && v != "" {
			out = append(out, v)
		}
	}
	return out
}
