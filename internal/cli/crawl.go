package cli

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"time"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/data"
	"github.com/gpuatlas/gpuatlas/providers"
	"github.com/gpuatlas/gpuatlas/providers/fx"
	"github.com/gpuatlas/gpuatlas/providers/registry"
)

func runCrawl(env Env, args []string) int {
	fs, parse := newFlagSet(env, "crawl", "crawl [--providers aws,alibaba] [--endpoint NAME=URL]... [--out FILE] [--history FILE] [--accept-drop] [--accept-price-change] [--log-format text|json]")
	list := fs.String("providers", "", "comma-separated providers to crawl (default: all): aws, alibaba, tencent, huawei, volcengine, azure, gcp")
	var endpoints listFlag
	fs.Var(&endpoints, "endpoint", "override a service endpoint, PROVIDER.SERVICE=URL (repeatable), e.g. aws.ec2=http://127.0.0.1:8080; fx.ecb=URL for the FX rates")
	out := fs.String("out", "data/catalog.json", "where to write the snapshot (atomically); - for stdout")
	previous := fs.String("previous", "", "previous snapshot whose data is kept for failed or uncrawled providers (default: the --out file if it exists)")
	regions := fs.String("regions", "", "comma-separated region ids to crawl (default: every region the APIs list)")
	fxFile := fs.String("fx-file", "", "read the FX rates from this ECB daily XML file instead of fetching them")
	timeout := fs.Duration("timeout", 30*time.Minute, "deadline for the whole crawl")
	reqTimeout := fs.Duration("request-timeout", 30*time.Second, "deadline for one HTTP request")
	attempts := fs.Int("max-attempts", 5, "attempts per API call against server errors, resets and timeouts (throttled answers are retried with their own, longer patience); 1 turns retries off")
	guard := addGuardFlags(fs)
	historyPath := fs.String("history", "", "history file to record the crawl in, only changes stored (default: history.jsonl beside --out)")
	noHistory := fs.Bool("no-history", false, "do not record the crawl in the history")
	rejected := fs.String("rejected", "", "when the guard stops the update, write the snapshot it stopped here, for review (the nightly keeps it as an artifact)")
	unlimited := fs.Bool("no-rate-limit", false, "send requests as fast as the server answers: only for local replays and mirrors you run, never the real APIs")
	logFormat := fs.String("log-format", logText, "progress and messages on stderr: text (lines; on a terminal, a bar per provider) or json (one JSON object per event)")
	if code, ok := parse(args); !ok {
		return code
	}
	switch *logFormat {
	case logText:
	case logJSON:
		jl := newJSONLog(env.Stderr, env.now)
		defer jl.flush()
		env.Stderr = jl
	default:
		return usageError(env, "crawl: --log-format %q: want text or json", *logFormat)
	}
	if fs.NArg() > 0 {
		return usageError(env, "crawl: unexpected argument %q", fs.Arg(0))
	}
	guardOpts, err := guard.options()
	if err != nil {
		return usageError(env, "crawl: %v", err)
	}
	factories, err := registry.Select(*list)
	if err != nil {
		return usageError(env, "crawl: --providers: %v", err)
	}
	overrides, fxURL, err := parseEndpoints(endpoints)
	if err != nil {
		return usageError(env, "crawl: %v", err)
	}
	ref, err := catalog.LoadGPUReference(data.FS)
	if err != nil {
		return fail(env, "%v", err)
	}
	regionTable, err := catalog.LoadRegionTable(data.FS)
	if err != nil {
		return fail(env, "%v", err)
	}
	prevPath := *previous
	if prevPath == "" && *out != "-" {
		if _, err := os.Stat(*out); err == nil {
			prevPath = *out
		}
	}
	if *out != "-" {
		// A device (/dev/null), a FIFO or a link is refused before the crawl.
		if err := catalog.CheckOutputFile(*out); err != nil {
			return fail(env, "crawl: --out %v", err)
		}
	}
	var prev *catalog.Snapshot
	var prevInfo os.FileInfo
	if prevPath != "" {
		prevInfo, _ = os.Stat(prevPath)
		prev, err = catalog.ReadSnapshot(prevPath)
		if err != nil {
			return fail(env, "crawl: previous snapshot: %v (fix or move the file; nothing was crawled or written)", err)
		}
	}

	ctx, cancel := context.WithTimeout(context.Background(), *timeout)
	defer cancel()
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt)
	defer stop()

	log := newReporter(env)
	var targets []providers.Target
	var crawled, barred []catalog.Provider
	for _, f := range factories {
		cfg := providers.Config{
			Endpoints:   overrides[f.ID],
			Getenv:      env.Getenv,
			Clock:       env.now,
			Timeout:     *reqTimeout,
			MaxAttempts: *attempts,
			Unlimited:   *unlimited,
			Log:         func(msg string) { log.sdk(f.ID, msg) }, // the SDKs' own log lines, made safe (providers.Config.SDKLog)
		}
		t := providers.Prepare(f, cfg)
		if t.Err != nil {
			log.prepareFailed(f.ID, t.Err)
		} else {
			barred = append(barred, f.ID)
		}
		targets = append(targets, t)
		crawled = append(crawled, f.ID)
	}
	var only []string
	if *regions != "" {
		only = strings.Split(*regions, ",")
	}
	log.begin(ctx, barred)
	snap, err := providers.Crawl(ctx, targets, providers.Options{
		Reference: ref, Regions: regionTable, Clock: env.now, OnlyRegions: only,
		Listed: log.listed, Progress: log.region,
	})
	log.end()
	if err != nil {
		return fail(env, "%v; the previous snapshot was left untouched", err)
	}

	switch {
	case *fxFile != "":
		b, err := catalog.ReadFileLimit(*fxFile, catalog.MaxDataFileBytes)
		if err != nil {
			return fail(env, "crawl: --fx-file: %v", err)
		}
		table, err := fx.ParseECB(*fxFile, fx.ECBDailyURL, b)
		if err != nil {
			return fail(env, "crawl: %v", err)
		}
		snap.FX = table
	default:
		client := &http.Client{Timeout: *reqTimeout, Transport: providers.DefaultBaseTransport()}
		table, err := fx.Fetch(ctx, client, fxURL)
		if err != nil {
			log.fxFailed(err)
		} else {
			snap.FX = table
		}
	}

	if *historyPath == "" && *out != "-" {
		*historyPath = filepath.Join(filepath.Dir(*out), "history.jsonl")
	}
	// The snapshot and the history are read, merged and written under their
	// locks (the snapshot's first): a crawl or an import that wrote either
	// during this crawl is read again, not overwritten.
	for _, target := range []string{*out, *historyPath} {
		if target == "-" || target == "" || (target == *historyPath && *noHistory) {
			continue
		}
		lock, err := lockTarget(env, "crawl", target)
		if err != nil {
			return fail(env, "crawl: %v; the previous snapshot was left untouched", err)
		}
		defer unlock(env, lock)
	}
	if *previous == "" && *out != "-" {
		now, err := os.Stat(*out)
		if err == nil && (prevInfo == nil || !os.SameFile(now, prevInfo) || !now.ModTime().Equal(prevInfo.ModTime()) || now.Size() != prevInfo.Size()) {
			if prev, err = catalog.ReadSnapshot(*out); err != nil {
				return fail(env, "crawl: previous snapshot, written again during the crawl: %v (nothing was written)", err)
			}
		}
	}

	merged := catalog.MergeCrawl(prev, snap, crawled)
	if len(merged.FX.Rates) == 0 && needsFX(merged) {
		log.warn("fx: no FX rates available: prices in other currencies will have no USD equivalent")
	}
	if !checkGuard(env, prev, merged, guardOpts) {
		if *rejected != "" {
			if err := catalog.WriteSnapshot(*rejected, merged); err != nil {
				fmt.Fprintf(env.Stderr, "crawl: --rejected: %v\n", err)
			}
		}
		return ExitError
	}
	var hist *catalog.History
	if !*noHistory && *historyPath != "" {
		h, changed, err := appendHistory(*historyPath, prev, merged)
		if err != nil {
			return fail(env, "crawl: history: %v", err)
		}
		hist = h
		if !changed {
			log.info("history: the catalog is the same as at the last crawl")
		}
	}
	if *out == "-" {
		b, err := merged.MarshalCanonical()
		if err != nil {
			return fail(env, "crawl: %v", err)
		}
		if _, err := env.Stdout.Write(b); err != nil {
			return fail(env, "crawl: write: %v", err)
		}
	} else if err := catalog.WriteSnapshot(*out, merged); err != nil {
		return fail(env, "crawl: %v", err)
	}
	if hist != nil {
		if err := catalog.WriteHistory(*historyPath, hist); err != nil {
			return fail(env, "crawl: %v (%s was written but the history misses this crawl; restore both from git and crawl again)", err, *out)
		}
	}

	code := ExitOK
	for _, c := range snap.Coverage {
		var mc catalog.Coverage
		for _, m := range merged.Coverage {
			if m.Provider == c.Provider {
				mc = m
			}
		}
		n, o := countFor(merged, c.Provider)
		if mc.Status != catalog.CoverageOK {
			code = ExitPartial
		}
		log.provider(c, mc, n, o)
		for _, w := range c.Warnings {
			log.coverageWarning(c.Provider, w)
		}
	}
	for _, u := range merged.Unmapped {
		log.unmapped(u)
	}
	recorded := ""
	if hist != nil {
		recorded = *historyPath
	}
	log.finished(*out, recorded, code)
	return code
}

func needsFX(s *catalog.Snapshot) bool {
	for _, o := range s.Offers {
		if o.Price.Currency != catalog.USD {
			return true
		}
	}
	return false
}

func countFor(s *catalog.Snapshot, p catalog.Provider) (instances, offers int) {
	for _, t := range s.Instances {
		if t.Provider == p {
			instances++
		}
	}
	for _, o := range s.Offers {
		if o.Provider == p {
			offers++
		}
	}
	return instances, offers
}

// parseEndpoints reads --endpoint PROVIDER.SERVICE=URL values, checking the
// provider and service exist. fx.ecb sets the FX source.
func parseEndpoints(values []string) (map[catalog.Provider]map[string]string, string, error) {
	out := map[catalog.Provider]map[string]string{}
	fxURL := fx.ECBDailyURL
	for _, v := range values {
		name, url, ok := strings.Cut(v, "=")
		prov, service, ok2 := strings.Cut(name, ".")
		if !ok || !ok2 || url == "" || service == "" {
			return nil, "", fmt.Errorf("--endpoint %q: want PROVIDER.SERVICE=URL, e.g. aws.ec2=http://127.0.0.1:8080", v)
		}
		if prov == "fx" && service == "ecb" {
			fxURL = url
			continue
		}
		p, err := catalog.ParseProvider(prov)
		if err != nil {
			return nil, "", fmt.Errorf("--endpoint %q: %w", v, err)
		}
		f, found := registry.Lookup(p)
		if !found {
			return nil, "", fmt.Errorf("--endpoint %q: provider %s has no adapter in this build", v, p)
		}
		known := false
		for _, s := range f.Services {
			known = known || s == service
		}
		if !known {
			return nil, "", fmt.Errorf("--endpoint %q: %s has no service %q (services: %s)", v, p, service, strings.Join(f.Services, ", "))
		}
		if out[p] == nil {
			out[p] = map[string]string{}
		}
		out[p][service] = url
	}
	return out, fxURL, nil
}
