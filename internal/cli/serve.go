package cli

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path"
	"path/filepath"
	"strings"
	"time"
)

func runServe(env Env, args []string) int {
	fs, parse := newFlagSet(env, "serve", "serve [--addr 127.0.0.1:8080] [--dir public] [--base-url /]")
	addr := fs.String("addr", "127.0.0.1:8080", "address to listen on")
	dir := fs.String("dir", "public", "the built site folder (gpuatlas build --out)")
	base := fs.String("base-url", "/", "path prefix the site was built for (gpuatlas build --base-url)")
	if code, ok := parseFlags(env, fs, parse, args, nil); !ok {
		return code
	}
	if _, err := os.Stat(filepath.Join(*dir, "index.html")); err != nil {
		return fail(env, "serve: %s has no index.html: build the site first (make site, or gpuatlas build --out %s)", *dir, *dir)
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return fail(env, "serve: %v", err)
	}
	prefix := "/" + strings.Trim(*base, "/")
	srv := newServeServer(*dir, prefix)
	fmt.Fprintf(env.Stderr, "serving %s at http://%s%s/ (Ctrl-C to stop)\n", *dir, ln.Addr(), strings.TrimSuffix(prefix, "/"))
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	go func() {
		<-ctx.Done()
		shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(shutdown)
	}()
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fail(env, "serve: %v", err)
	}
	return ExitOK
}

// The security headers of every answer. The site loads nothing from another
// host and runs no inline script or style (its charts are SVG files shown with
// <img>), so the policy allows only the site itself; the pages carry the same
// policy in a meta tag, which cannot say frame-ancestors. An SVG document may
// style its own elements inline (the charts do) and run nothing.
const (
	pagePolicy = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
		"object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
	svgPolicy = "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; frame-ancestors 'none'"
)

// newServeServer is serve's HTTP server: the site under prefix ("/" for
// none). Go's own answer to "OPTIONS *" (200, without the security headers)
// is turned off, so that every request, whatever its target, reaches the
// handler, and a path outside prefix gets a 404 with the headers.
func newServeServer(dir, prefix string) *http.Server {
	site := NewServeHandler(dir)
	handler := site
	if prefix != "/" {
		handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			// The headers first: a path outside the prefix gets
			// StripPrefix's 404 with them.
			if allowedMethod(w, r) {
				http.StripPrefix(prefix, site).ServeHTTP(w, r)
			}
		})
	}
	return &http.Server{Handler: handler, ReadHeaderTimeout: 10 * time.Second, DisableGeneralOptionsHandler: true}
}

// allowedMethod sets the security headers and answers 405 to every method but
// GET and HEAD, and 400 to a request target that is no path ("*", an
// authority as CONNECT sends); it reports whether the request may go on.
func allowedMethod(w http.ResponseWriter, r *http.Request) bool {
	h := w.Header()
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Content-Security-Policy", pagePolicy)
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		h.Set("Allow", "GET, HEAD")
		h.Set("Cache-Control", "no-store")
		http.Error(w, "405 method not allowed: the site answers GET and HEAD", http.StatusMethodNotAllowed)
		return false
	}
	if !strings.HasPrefix(r.URL.Path, "/") {
		h.Set("Cache-Control", "no-store")
		http.Error(w, "400 bad request: the site answers paths", http.StatusBadRequest)
		return false
	}
	return true
}

// NewServeHandler serves a built site folder: files as they are, index.html for a
// folder, and 404.html (zh/404.html under zh/) with status 404 for anything missing. Directory listings are
// never shown. It answers GET and HEAD only (405 otherwise, with the same
// headers), reads through an
// os.Root of the folder, opened for each request (a rebuilt site swaps the
// folder), so that no path or symbolic link leads out of it, and sends
// Cache-Control (a year for a versioned asset, /static/…?v=…, else revalidate),
// Content-Security-Policy, Referrer-Policy, X-Frame-Options and
// X-Content-Type-Options.
func NewServeHandler(dir string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !allowedMethod(w, r) {
			return
		}
		h := w.Header()
		root, err := os.OpenRoot(dir)
		if err != nil {
			h.Set("Cache-Control", "no-store")
			http.Error(w, "the site folder cannot be read", http.StatusInternalServerError)
			return
		}
		defer func() { _ = root.Close() }() // read-only: a close error loses nothing
		p := strings.TrimPrefix(path.Clean("/"+r.URL.Path), "/")
		if p == "" {
			p = "."
		}
		st, err := root.Stat(p)
		if err == nil && st.IsDir() {
			st, err = root.Stat(path.Join(p, "index.html"))
		}
		if err != nil || !st.Mode().IsRegular() {
			notFound(w, root, p)
			return
		}
		switch {
		case strings.HasPrefix(p, "static/") && r.URL.Query().Has("v"):
			h.Set("Cache-Control", "public, max-age=31536000, immutable")
		default:
			h.Set("Cache-Control", "no-cache")
		}
		if strings.HasSuffix(p, ".svg") {
			h.Set("Content-Security-Policy", svgPolicy)
		}
		http.FileServerFS(root.FS()).ServeHTTP(w, r)
	})
}

// notFound answers 404 with the site's 404.html, in Chinese (zh/404.html) for
// a path under zh/.
func notFound(w http.ResponseWriter, root *os.Root, p string) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusNotFound)
	page := "404.html"
	if strings.HasPrefix(p, "zh/") {
		if _, err := root.Stat("zh/404.html"); err == nil {
			page = "zh/404.html"
		}
	}
	if b, err := fs.ReadFile(root.FS(), page); err == nil {
		_, _ = w.Write(b)
	} else {
		_, _ = w.Write([]byte("404 page not found\n"))
	}
}
