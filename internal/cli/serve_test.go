package cli

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// serveFixture is a small built site, a secret beside it, and links from the
// site to the secret and to a folder outside.
func serveFixture(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	site := filepath.Join(dir, "public")
	for name, body := range map[string]string{
		"index.html":       "<!doctype html><title>home</title>",
		"404.html":         "<!doctype html><title>not here</title>",
		"static/atlas.js":  "console.log(1)",
		"gpus/index.html":  "<!doctype html><title>gpus</title>",
		"gpus/chart.svg":   `<svg xmlns="http://www.w3.org/2000/svg"><rect style="fill:red"/></svg>`,
		"empty/.gitignore": "",
		"../secret.txt":    "s3cr3t outside the site",
		"../other/key.txt": "s3cr3t in another folder",
	} {
		writeFile(t, filepath.Join(site, name), body)
	}
	for link, target := range map[string]string{
		"leak.txt":       "../secret.txt",
		"etc-passwd":     "/etc/passwd",
		"other":          "../other",
		"inside.html":    "index.html", // stays inside: served
		"gpus/home.html": "../index.html",
	} {
		if err := os.Symlink(target, filepath.Join(site, link)); err != nil {
			t.Fatal(err)
		}
	}
	return site
}

// gpuatlas serve answers GET and HEAD with the security headers, serves
// nothing outside --dir (through .. or a symbolic link), and 404.html for what
// it does not serve.
func TestServe_Handler(t *testing.T) {
	srv := httptest.NewServer(NewServeHandler(serveFixture(t)))
	defer srv.Close()
	tests := []struct {
		method, path string
		status       int
		body         string // a part of it
		cache        string
		csp          string // a part of it
	}{
		{"GET", "/", 200, "<title>home</title>", "no-cache", "frame-ancestors 'none'"},
		{"HEAD", "/", 200, "", "no-cache", "script-src 'self'"},
		{"GET", "/gpus/", 200, "<title>gpus</title>", "no-cache", "style-src 'self'"},
		{"GET", "/static/atlas.js?v=e37eb406", 200, "console.log", "public, max-age=31536000, immutable", "default-src 'self'"},
		{"GET", "/static/atlas.js", 200, "console.log", "no-cache", "default-src 'self'"},
		{"GET", "/gpus/chart.svg", 200, "<svg", "no-cache", "default-src 'none'; style-src 'unsafe-inline'"},
		{"GET", "/inside.html", 200, "<title>home</title>", "no-cache", ""},
		{"GET", "/gpus/home.html", 200, "<title>home</title>", "no-cache", ""},
		{"GET", "/leak.txt", 404, "<title>not here</title>", "no-cache", ""},
		{"GET", "/etc-passwd", 404, "<title>not here</title>", "no-cache", ""},
		{"GET", "/other/key.txt", 404, "<title>not here</title>", "no-cache", ""},
		{"GET", "/../secret.txt", 404, "<title>not here</title>", "no-cache", ""},
		{"GET", "/%2e%2e/secret.txt", 404, "<title>not here</title>", "no-cache", ""},
		{"GET", "/empty/", 404, "<title>not here</title>", "no-cache", ""},
		{"GET", "/nope.html", 404, "<title>not here</title>", "no-cache", ""},
		{"POST", "/", 405, "GET and HEAD", "no-store", ""},
		{"PUT", "/index.html", 405, "GET and HEAD", "no-store", ""},
		{"DELETE", "/index.html", 405, "GET and HEAD", "no-store", ""},
		{"OPTIONS", "/", 405, "GET and HEAD", "no-store", ""},
	}
	for _, tt := range tests {
		t.Run(tt.method+" "+tt.path, func(t *testing.T) {
			req, err := http.NewRequest(tt.method, srv.URL+tt.path, nil)
			if err != nil {
				t.Fatal(err)
			}
			req.URL.Opaque = tt.path // as sent, not cleaned by the client
			resp, err := http.DefaultTransport.RoundTrip(req)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(resp.Body)
			_ = resp.Body.Close()
			h := resp.Header
			if resp.StatusCode != tt.status || !strings.Contains(string(b), tt.body) || strings.Contains(string(b), "s3cr3t") {
				t.Errorf("status %d, body %q; want %d and %q", resp.StatusCode, b, tt.status, tt.body)
			}
			if h.Get("Cache-Control") != tt.cache || !strings.Contains(h.Get("Content-Security-Policy"), tt.csp) {
				t.Errorf("Cache-Control %q, Content-Security-Policy %q; want %q and %q", h.Get("Cache-Control"), h.Get("Content-Security-Policy"), tt.cache, tt.csp)
			}
			for k, v := range map[string]string{"X-Frame-Options": "DENY", "Referrer-Policy": "no-referrer", "X-Content-Type-Options": "nosniff"} {
				if h.Get(k) != v {
					t.Errorf("%s = %q, want %q", k, h.Get(k), v)
				}
			}
			if tt.status == 405 && h.Get("Allow") != "GET, HEAD" {
				t.Errorf("Allow = %q", h.Get("Allow"))
			}
		})
	}
}

// Every request serve's own server receives, whatever its method and request
// target ("OPTIONS *", CONNECT's authority, a path outside --base-url),
// carries the security headers; every method but GET and HEAD is answered
// 405. Sent over raw TCP, since an HTTP client would not send "*".
func TestServe_RawRequestsGetSecurityHeaders(t *testing.T) {
	site := serveFixture(t)
	for _, prefix := range []string{"/", "/atlas"} {
		srv := newServeServer(site, prefix)
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		go func() { _ = srv.Serve(ln) }()
		tests := []struct {
			request string
			status  int
		}{
			{"OPTIONS * HTTP/1.1", 405},
			{"OPTIONS / HTTP/1.1", 405},
			{"CONNECT 127.0.0.1:443 HTTP/1.1", 405},
			{"CONNECT example.com:443 HTTP/1.1", 405},
			{"TRACE / HTTP/1.1", 405},
			{"PATCH /index.html HTTP/1.1", 405},
			{"PROPFIND / HTTP/1.1", 405},
			{"GET * HTTP/1.1", 400},
			{"GET /outside-the-prefix HTTP/1.1", 404},
		}
		if prefix == "/" {
			tests = append(tests, struct {
				request string
				status  int
			}{"GET / HTTP/1.1", 200})
		} else {
			tests = append(tests, struct {
				request string
				status  int
			}{"GET /atlas/ HTTP/1.1", 200})
		}
		for _, tt := range tests {
			t.Run(prefix+" "+tt.request, func(t *testing.T) {
				c, err := net.Dial("tcp", ln.Addr().String())
				if err != nil {
					t.Fatal(err)
				}
				defer func() { _ = c.Close() }()
				_ = c.SetDeadline(time.Now().Add(5 * time.Second))
				if _, err := io.WriteString(c, tt.request+"\r\nHost: localhost\r\nConnection: close\r\n\r\n"); err != nil {
					t.Fatal(err)
				}
				method, _, _ := strings.Cut(tt.request, " ")
				resp, err := http.ReadResponse(bufio.NewReader(c), &http.Request{Method: method})
				if err != nil {
					t.Fatal(err)
				}
				_ = resp.Body.Close()
				if resp.StatusCode != tt.status {
					t.Errorf("status %d, want %d", resp.StatusCode, tt.status)
				}
				h := resp.Header
				for k, v := range map[string]string{"X-Frame-Options": "DENY", "Referrer-Policy": "no-referrer",
					"X-Content-Type-Options": "nosniff", "Content-Security-Policy": pagePolicy} {
					if h.Get(k) != v {
						t.Errorf("%s = %q, want %q", k, h.Get(k), v)
					}
				}
				if tt.status == 405 && h.Get("Allow") != "GET, HEAD" {
					t.Errorf("Allow = %q, want GET, HEAD", h.Get("Allow"))
				}
			})
		}
		_ = srv.Close()
	}
}
