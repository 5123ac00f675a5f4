package cli

import (
	"context"
	"errors"
	"fmt"
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
	if code, ok := parse(args); !ok {
		return code
	}
	if fs.NArg() > 0 {
		return usageError(env, "serve: unexpected argument %q", fs.Arg(0))
	}
	if _, err := os.Stat(filepath.Join(*dir, "index.html")); err != nil {
		return fail(env, "serve: %s has no index.html: build the site first (make site, or gpuatlas build --out %s)", *dir, *dir)
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return fail(env, "serve: %v", err)
	}
	prefix := "/" + strings.Trim(*base, "/")
	handler := NewServeHandler(*dir)
	if prefix != "/" {
		handler = http.StripPrefix(prefix, handler)
	}
	srv := &http.Server{Handler: handler, ReadHeaderTimeout: 10 * time.Second}
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

// NewServeHandler serves a built site folder: files as they are, index.html for a
// folder, and 404.html with status 404 for anything missing. Directory listings are
// never shown.
func NewServeHandler(root string) http.Handler {
	files := http.FileServer(http.Dir(root))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p := path.Clean("/" + r.URL.Path)
		full := filepath.Join(root, filepath.FromSlash(p))
		st, err := os.Stat(full)
		if err == nil && st.IsDir() {
			_, err = os.Stat(filepath.Join(full, "index.html"))
		}
		if err != nil {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.WriteHeader(http.StatusNotFound)
			if b, err := os.ReadFile(filepath.Join(root, "404.html")); err == nil {
				_, _ = w.Write(b)
			} else {
				_, _ = w.Write([]byte("404 page not found\n"))
			}
			return
		}
		w.Header().Set("X-Content-Type-Options", "nosniff")
		files.ServeHTTP(w, r)
	})
}
