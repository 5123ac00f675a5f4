package cli

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/vbauerster/mpb/v8"
	"github.com/vbauerster/mpb/v8/decor"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/internal/ghactions"
)

// The crawl's log formats (--log-format).
const (
	logText = "text" // plain lines; on a terminal, one bar per provider
	logJSON = "json" // one log/slog JSON object per event
)

// reporter tells what a crawl does, on stderr, in one of three forms:
//   - plain lines (text), warnings as GitHub Actions annotations when running
//     there: what the nightly's log and the tests read;
//   - on a terminal, outside Actions (text): one bar per provider, regions
//     done of regions listed, with warnings and the SDKs' log lines printed
//     above the bars and everything else as plain lines once they are done;
//   - one slog JSON object per event (json), for a workflow to read.
//
// A string from outside (a region id, an error text, an SDK's log line) is
// made one safe line (catalog.SafeLine) in every form: in a line by
// ghactions.Line, in a JSON value by safeAttr.
type reporter struct {
	env   Env
	gha   bool
	start time.Time
	json  *slog.Logger // set in json form
	bars  *crawlBars   // set while the bars are drawn (begin to end)

	mu   sync.Mutex
	last map[catalog.Provider]time.Time // when a provider's last region was told
}

// newReporter reports in env's form: JSON events when env.Stderr is a
// crawl's JSON log (--log-format json), plain lines otherwise.
func newReporter(env Env) *reporter {
	r := &reporter{env: env, gha: env.Getenv("GITHUB_ACTIONS") == "true", start: env.now(), last: map[catalog.Provider]time.Time{}}
	if l, ok := env.Stderr.(*jsonLog); ok {
		r.json = l.log
	}
	return r
}

// info prints msg as one line (ghactions.Line): it may hold a provider's
// strings, and in Actions a line of its own would be read as a command.
func (r *reporter) info(msg string) {
	if r.json != nil {
		r.json.Info("message", "text", msg)
		return
	}
	r.print(ghactions.Line(msg))
}

func (r *reporter) summary(msg string) { r.info(msg) }

func (r *reporter) warn(msg string) {
	if r.json != nil {
		r.json.Warn("message", "text", msg)
		return
	}
	if r.gha {
		r.print(ghactions.Annotation("warning", "gpuatlas crawl", "", 0, msg))
		return
	}
	r.print("warning: " + ghactions.Lines(msg))
}

// print writes a line of text: above the bars while they are drawn.
func (r *reporter) print(line string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.bars != nil && r.bars.write(line) {
		return
	}
	fmt.Fprintln(r.env.Stderr, line)
}

// elapsed is the time since the crawl started, in milliseconds.
func (r *reporter) elapsed() slog.Attr {
	return slog.Int64("elapsed_ms", r.env.now().Sub(r.start).Milliseconds())
}

// sdk tells a line of a provider's SDK log (providers.Config.Log).
func (r *reporter) sdk(p catalog.Provider, msg string) {
	if r.json != nil {
		r.json.Info("sdk", "provider", string(p), "text", msg)
		return
	}
	r.info(msg)
}

// prepareFailed tells that a provider could not be set up (no credentials, a
// bad endpoint): it is not crawled.
func (r *reporter) prepareFailed(p catalog.Provider, err error) {
	if r.json != nil {
		r.json.Warn("prepare", "provider", string(p), "outcome", "failed", "error", err)
		return
	}
	r.warn(fmt.Sprintf("%s: %v", p, err))
}

// listed tells how many regions a provider will crawl (providers.Options.Listed).
func (r *reporter) listed(p catalog.Provider, regions int) {
	if r.json != nil {
		r.json.Info("regions", "provider", string(p), "regions", regions, r.elapsed())
		return
	}
	if bars := r.drawing(); bars != nil {
		bars.listed(p, regions)
	}
}

// region tells that a region finished (providers.Options.Progress): ok, or
// failed once the sweep has had its go.
func (r *reporter) region(p catalog.Provider, region string, err error) {
	r.mu.Lock()
	r.last[p] = r.env.now()
	bars := r.bars
	r.mu.Unlock()
	if r.json != nil {
		if err != nil {
			r.json.Warn("region", "provider", string(p), "region", region, "outcome", "failed", "error", err, r.elapsed())
		} else {
			r.json.Info("region", "provider", string(p), "region", region, "outcome", "ok", r.elapsed())
		}
		return
	}
	if bars != nil {
		bars.region(p, err != nil)
	}
	switch {
	case err != nil:
		r.warn(fmt.Sprintf("%s %s: %v", p, region, err))
	case bars == nil:
		r.info(fmt.Sprintf("%s %s: ok", p, region))
	}
}

// fxFailed tells that the FX rates could not be fetched.
func (r *reporter) fxFailed(err error) {
	if r.json != nil {
		r.json.Warn("fx", "outcome", "failed", "error", err, "text", "keeping the previous snapshot's rates")
		return
	}
	r.warn(fmt.Sprintf("fx: %v; keeping the previous snapshot's rates", err))
}

// provider tells how a provider's crawl ended: crawled is its coverage from
// this crawl, merged its coverage in the written catalog, which holds
// instances instance types and offers offers of it.
func (r *reporter) provider(crawled, merged catalog.Coverage, instances, offers int) {
	if r.json != nil {
		r.providerJSON(crawled, merged, instances, offers)
		return
	}
	line := fmt.Sprintf("%s: %s, %d regions, %d instance types, %d offers, %d requests", crawled.Provider, merged.Status, merged.Regions, instances, offers, crawled.Requests)
	if crawled.Faults > 0 || crawled.Swept > 0 {
		line += fmt.Sprintf(" (%d faults, %d of them throttled; %d retries; %d swept)", crawled.Faults, crawled.Throttled, crawled.Retries, crawled.Swept)
	}
	if merged.Status == catalog.CoverageOK {
		r.summary(line)
		return
	}
	for _, f := range crawled.FailedRegions {
		line += fmt.Sprintf("\n  failed region %s: %s", f.Region, f.Reason)
	}
	for _, f := range merged.FailedTypes {
		line += fmt.Sprintf("\n  failed instance type %s in %s: %s", f.InstanceType, f.Region, f.Reason)
		if !f.LastConfirmed.IsZero() {
			line += fmt.Sprintf(" (keeping its offers last confirmed %s)", f.LastConfirmed.UTC().Format("2006-01-02 15:04 UTC"))
		}
	}
	if merged.Message != "" {
		line += "\n  " + merged.Message
	}
	r.warn(line)
}

// providerJSON is provider's JSON form: one "provider" event with the counts,
// then one event per failed region and per failed instance type.
func (r *reporter) providerJSON(crawled, merged catalog.Coverage, instances, offers int) {
	p := string(crawled.Provider)
	level := slog.LevelInfo
	if merged.Status != catalog.CoverageOK {
		level = slog.LevelWarn
	}
	attrs := []slog.Attr{
		slog.String("provider", p), slog.String("outcome", string(merged.Status)),
		slog.Int("regions", merged.Regions), slog.Int("instance_types", instances), slog.Int("offers", offers),
		slog.Int("requests", crawled.Requests), slog.Int("faults", crawled.Faults), slog.Int("throttled", crawled.Throttled),
		slog.Int("retries", crawled.Retries), slog.Int("swept", crawled.Swept),
		slog.Int("failed_regions", len(crawled.FailedRegions)), slog.Int("failed_types", len(merged.FailedTypes)),
	}
	r.mu.Lock()
	last, told := r.last[crawled.Provider]
	r.mu.Unlock()
	if told {
		attrs = append(attrs, slog.Int64("duration_ms", last.Sub(r.start).Milliseconds()))
	}
	if merged.Message != "" {
		attrs = append(attrs, slog.String("message", merged.Message))
	}
	ctx := context.Background()
	r.json.LogAttrs(ctx, level, "provider", attrs...)
	for _, f := range crawled.FailedRegions {
		r.json.Warn("failed_region", "provider", p, "region", f.Region, "reason", f.Reason)
	}
	for _, f := range merged.FailedTypes {
		attrs := []slog.Attr{slog.String("provider", p), slog.String("region", f.Region), slog.String("instance_type", f.InstanceType), slog.String("reason", f.Reason)}
		if !f.LastConfirmed.IsZero() {
			attrs = append(attrs, slog.Time("last_confirmed", f.LastConfirmed.UTC()))
		}
		r.json.LogAttrs(ctx, slog.LevelWarn, "failed_type", attrs...)
	}
}

// coverageWarning tells a provider's coverage warning (a missing enrichment).
func (r *reporter) coverageWarning(p catalog.Provider, w string) {
	if r.json != nil {
		r.json.Warn("coverage_warning", "provider", string(p), "text", w)
		return
	}
	r.warn(fmt.Sprintf("%s: %s", p, w))
}

// unmapped tells an accelerator name without a GPU model.
func (r *reporter) unmapped(u catalog.UnmappedAccelerator) {
	if r.json != nil {
		r.json.Warn("unmapped_accelerator", "provider", string(u.Provider), "name", u.Name, "instance_types", u.InstanceTypes,
			"text", "no GPU model in data/gpu_aliases.csv")
		return
	}
	r.warn(fmt.Sprintf("%s: accelerator name %q has no GPU model in data/gpu_aliases.csv (instance types: %s)", u.Provider, u.Name, strings.Join(u.InstanceTypes, ", ")))
}

// finished tells that the crawl wrote out (- for stdout) and history (empty
// when not recorded), and exits with code.
func (r *reporter) finished(out, history string, code int) {
	took := r.env.now().Sub(r.start)
	if r.json != nil {
		attrs := []slog.Attr{slog.Int64("duration_ms", took.Milliseconds()), slog.String("out", out), slog.Int("exit_code", code)}
		if history != "" {
			attrs = append(attrs, slog.String("history", history))
		}
		r.json.LogAttrs(context.Background(), slog.LevelInfo, "finished", attrs...)
		return
	}
	wrote := out
	if history != "" {
		wrote += " and " + history
	}
	r.summary(fmt.Sprintf("crawl finished in %s; wrote %s", took.Round(time.Millisecond), wrote))
}

// begin marks the start of the crawl of provs, and draws one bar per
// provider when stderr is a terminal (env.Terminal), the form is text, and
// neither GitHub Actions nor a dumb terminal reads it. end must follow before
// anything else is written.
func (r *reporter) begin(ctx context.Context, provs []catalog.Provider) {
	r.start = r.env.now()
	if r.json != nil || r.gha || len(provs) == 0 || r.env.Terminal == nil || !r.env.Terminal(r.env.Stderr) || r.env.Getenv("TERM") == "dumb" {
		return
	}
	// ForceTTY: env.Terminal judged stderr a terminal, also where it is no
	// *os.File mpb could ask. WithAutoRefresh: in mpb v8.16.2 ForceTTY alone
	// does not refresh such a writer (its comment says it does), and the
	// bars would be drawn once, at the end.
	bars := &crawlBars{
		p:    mpb.NewWithContext(ctx, mpb.WithOutput(r.env.Stderr), mpb.ForceTTY(), mpb.WithAutoRefresh()),
		bars: map[catalog.Provider]*providerBar{},
	}
	for _, p := range provs {
		pb := &providerBar{}
		pb.bar = bars.p.AddBar(0,
			mpb.PrependDecorators(decor.Name(string(p), decor.WCSyncSpaceR), decor.Any(pb.counts, decor.WCSyncSpaceR)),
			mpb.AppendDecorators(decor.Any(pb.failures, decor.WCSyncSpace), decor.Elapsed(decor.ET_STYLE_GO, decor.WCSyncSpace)))
		bars.bars[p] = pb
	}
	r.mu.Lock()
	r.bars = bars
	r.mu.Unlock()
}

// drawing is the bars being drawn, or nil.
func (r *reporter) drawing() *crawlBars {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.bars
}

// end ends the bars (a provider whose regions were not all told is
// drawn as it stands) and waits until they are drawn.
func (r *reporter) end() {
	r.mu.Lock()
	bars := r.bars
	r.bars = nil
	r.mu.Unlock()
	if bars != nil {
		bars.stop()
	}
}

// crawlBars are the bars of a crawl on a terminal.
type crawlBars struct {
	p    *mpb.Progress
	bars map[catalog.Provider]*providerBar // written before the crawl, read only during it
}

// providerBar is one provider's bar. Its decorators read only atomics: they
// run while a line is being printed above the bars.
type providerBar struct {
	bar                 *mpb.Bar
	listed, ended       atomic.Bool
	failed, told, total atomic.Int64
}

func (b *crawlBars) write(line string) bool {
	_, err := b.p.Write([]byte(line + "\n"))
	return err == nil
}

func (b *crawlBars) listed(p catalog.Provider, regions int) {
	if pb := b.bars[p]; pb != nil {
		pb.total.Store(int64(regions))
		pb.listed.Store(true)
		pb.bar.SetTotal(int64(regions), false)
	}
}

func (b *crawlBars) region(p catalog.Provider, failed bool) {
	if pb := b.bars[p]; pb != nil {
		if failed {
			pb.failed.Add(1)
		}
		pb.told.Add(1)
		pb.bar.Increment()
	}
}

// stop completes the bars of the providers whose regions were all told and
// aborts the others (drawn as they stand), then waits for the last drawing.
// Only here does a bar end: a line printed above the bars is drawn with the
// next refresh, and the last refresh is the one after the last bar ended.
func (b *crawlBars) stop() {
	for _, pb := range b.bars {
		pb.ended.Store(true)
		if pb.listed.Load() && pb.told.Load() == pb.total.Load() {
			pb.bar.SetTotal(-1, true)
		} else {
			pb.bar.Abort(false)
		}
	}
	b.p.Wait()
}

func (pb *providerBar) counts(s decor.Statistics) string {
	switch {
	case pb.listed.Load():
		return fmt.Sprintf("%d/%d regions", s.Current, pb.total.Load())
	case pb.ended.Load():
		return "no regions listed"
	}
	return "listing regions"
}

func (pb *providerBar) failures(decor.Statistics) string {
	if n := pb.failed.Load(); n > 0 {
		return fmt.Sprintf("%d failed", n)
	}
	return ""
}

// jsonLog is stderr under --log-format json: the slog JSON logger a
// reporter made on it writes its events to, and a writer that makes every
// other line written to it (an error of fail, a lock's wait, the guard's
// verdict) one event, "message", so that every line on stderr is one JSON
// object. Lines that start "gpuatlas: " are errors, "warning: " warnings.
type jsonLog struct {
	log *slog.Logger
	mu  sync.Mutex
	buf []byte
}

func newJSONLog(w io.Writer, now func() time.Time) *jsonLog {
	return &jsonLog{log: slog.New(slog.NewJSONHandler(w, &slog.HandlerOptions{ReplaceAttr: safeAttr(now)}))}
}

func (l *jsonLog) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.buf = append(l.buf, b...)
	for {
		i := bytes.IndexByte(l.buf, '\n')
		if i < 0 {
			return len(b), nil
		}
		l.line(string(l.buf[:i]))
		l.buf = l.buf[i+1:]
	}
}

// flush logs what was written after the last line break.
func (l *jsonLog) flush() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.buf) > 0 {
		l.line(string(l.buf))
		l.buf = nil
	}
}

func (l *jsonLog) line(s string) {
	level := slog.LevelInfo
	switch {
	case strings.HasPrefix(s, "gpuatlas: "):
		level = slog.LevelError
	case strings.HasPrefix(s, "warning: "):
		level = slog.LevelWarn
	}
	l.log.Log(context.Background(), level, "message", "text", s)
}

// safeAttr makes every string of an event one safe line (catalog.SafeLine):
// keys, strings, lists of strings and errors, as the text form's lines are;
// and stamps each event with the command's clock, in UTC.
func safeAttr(now func() time.Time) func([]string, slog.Attr) slog.Attr {
	return func(groups []string, a slog.Attr) slog.Attr {
		if len(groups) == 0 && a.Key == slog.TimeKey {
			return slog.Time(slog.TimeKey, now().UTC())
		}
		a.Key = catalog.SafeLine(a.Key)
		switch a.Value.Kind() {
		case slog.KindString:
			a.Value = slog.StringValue(catalog.SafeLine(a.Value.String()))
		case slog.KindAny:
			switch v := a.Value.Any().(type) {
			case error:
				a.Value = slog.StringValue(catalog.SafeLine(v.Error()))
			case []string:
				safe := make([]string, len(v))
				for i, s := range v {
					safe[i] = catalog.SafeLine(s)
				}
				a.Value = slog.AnyValue(safe)
			}
		}
		return a
	}
}
