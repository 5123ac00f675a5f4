package providers

import (
	"fmt"
	"net"
	"strings"

	"github.com/gpuatlas/gpuatlas/catalog"
)

// HostEndpoint reads an endpoint override for SDKs that take a host and a scheme
// separately (Alibaba, Tencent): "HOST[:PORT]" or "http(s)://HOST[:PORT]". The
// scheme is HTTPS unless the value says http:// or names a loopback host without
// a scheme (a local replay). An empty value keeps the SDK's own endpoint (host
// empty, HTTPS).
func HostEndpoint(raw string) (host, scheme string, err error) {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return "", "HTTPS", nil
	}
	switch {
	case strings.HasPrefix(raw, "http://"):
		scheme, raw = "HTTP", strings.TrimPrefix(raw, "http://")
	case strings.HasPrefix(raw, "https://"):
		scheme, raw = "HTTPS", strings.TrimPrefix(raw, "https://")
	}
	raw = strings.TrimSuffix(raw, "/")
	if raw == "" || strings.ContainsAny(raw, "/?#") {
		return "", "", fmt.Errorf("endpoint %q: want HOST[:PORT] or http(s)://HOST[:PORT]", raw)
	}
	if scheme == "" {
		scheme = "HTTPS"
		h := raw
		if hh, _, err := net.SplitHostPort(raw); err == nil {
			h = hh
		}
		if ip := net.ParseIP(h); h == "localhost" || (ip != nil && ip.IsLoopback()) {
			scheme = "HTTP"
		}
	}
	return raw, scheme, nil
}

// HostEndpoint reads the override of service (see the function HostEndpoint);
// an error names the provider.
func (c Config) HostEndpoint(p catalog.Provider, service string) (host, scheme string, err error) {
	host, scheme, err = HostEndpoint(c.Endpoints[service])
	if err != nil {
		return "", "", fmt.Errorf("%s: %w", p, err)
	}
	return host, scheme, nil
}
