package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/compare"
	"github.com/gpuatlas/gpuatlas/words"
)

// tcoSynopsis is `gpuatlas tco --help`: the synopsis and what it does.
const tcoSynopsis = "tco --offer PROVIDER/TYPE [--offer …] --region R [--billing on_demand,spot,reserved_1y_all_upfront+spot,…]\n" +
	"           [--hours-per-month N | --reference-gpu ID --job-gpu-hours N --jobs-per-month N] [--months N] [--utilisation P]\n" +
	"           [--checkpoint-minutes N] [--restart-minutes N] [--interruptions-per-month N]\n" +
	"           [--catalog FILE] [--currency USD|CNY] [--format text|json] [--lang en|zh]\n" +
	"       tco --input FILE [--catalog FILE] [--currency USD|CNY] [--format text|json] [--lang en|zh]\n\n" +
	"Total cost of ownership of a workload over a horizon for each billing option: totals, cost per\n" +
	"unit of work, monthly cumulative cost, break-even utilisation of commitments against\n" +
	"on-demand, and how long each option takes. With several --offer flags the work is measured\n" +
	"in hours on the first one and the others are scaled by their speed (benchmarks where both\n" +
	"have one, else specs, labelled estimated). --input evaluates a TCO input JSON (as written\n" +
	"by --format json under \"input\"), which is what the site's calculator is tested against.\n" +
	"The text is in --lang; the JSON carries reasons as codes with their figures.\n" +
	"Exit 0 on success, 1 when the catalog lacks an offer or the input is invalid, 2 for a bad\n" +
	"command line."

func runTCO(env Env, args []string) int {
	fs, parse := newFlagSet(env, "tco", tcoSynopsis)
	var offers listFlag
	fs.Var(&offers, "offer", "instance type as PROVIDER/TYPE (repeatable; the first is the base)")
	region := fs.String("region", "", "region id of the offers")
	billing := fs.String("billing", "", "comma-separated billing plans: a billing kind, or COMMITMENT+on_demand|spot for a committed base with burst (default: every kind the first offer has in the region)")
	hours := fs.String("hours-per-month", "730", "work per month, in busy hours on the first --offer")
	refGPU := fs.String("reference-gpu", "", "measure jobs in GPU-hours on one GPU of this model (data/gpus.csv id) instead")
	jobHours := fs.String("job-gpu-hours", "", "with --reference-gpu: GPU-hours per job")
	jobs := fs.String("jobs-per-month", "1", "with --reference-gpu: jobs per month")
	months := fs.Int("months", 12, "horizon in months")
	util := fs.String("utilisation", "1", "share of billed time doing work, 0.8 or 80%")
	idle := fs.String("idle-hours", "0", "hours per month an instance stays up without work")
	spot := fs.String("spot-overhead", "0", "a flat spot interruption overhead (share of hours run again, 0.1 or 10%) in place of the interruption model; 0: the model")
	checkpoint := fs.String("checkpoint-minutes", compare.DefaultCheckpointMinutes.String(), "spot interruption model: minutes between checkpoints (half is lost per interruption)")
	restart := fs.String("restart-minutes", compare.DefaultRestartMinutes.String(), "spot interruption model: minutes to get a new instance working after an interruption")
	rate := fs.String("interruptions-per-month", "", "spot interruption model: interruptions a month of one instance, for spot offers with no published band (AWS without an advisor row, other clouds); without it such spot offers are left out")
	committed := fs.Int("reserved-instances", 0, "instances a commitment covers (0: worked out from the workload)")
	scenario := fs.String("scenario", "", "scenario whose compute figures give speeds from specs (default: BF16, then FP16)")
	scPath := fs.String("scenarios", "", "scenario definitions YAML (default: the embedded data/scenarios.yaml)")
	bench := fs.String("benchmarks", "", "benchmark uploads for measured speeds (default: the embedded data/benchmarks; none: no benchmarks)")
	storageGB := fs.String("storage-gb", "0", "storage kept over the horizon, GB")
	storagePrice := fs.String("storage-usd-per-gb-month", "0", "storage price, USD per GB-month")
	egressGB := fs.String("egress-gb-per-month", "0", "data sent out per month, GB")
	egressPrice := fs.String("egress-usd-per-gb", "0", "egress price, USD per GB")
	input := fs.String("input", "", "evaluate this TCO input JSON instead of building one from the catalog")
	report := addReportFlags(fs, "output format: text or json (input and result)")
	currency := fs.String("currency", "USD", "currency of the money figures: USD, or CNY (the USD figures converted at the catalog's FX rate, each rounded as its USD figure; JSON adds them as \"in_currency\")")
	path := fs.String("catalog", "", "snapshot to price from (default: the catalog embedded in this build)")
	tag, code, ok := report.parse(env, fs, parse, args)
	if !ok {
		return code
	}
	if *currency != "USD" && *currency != "CNY" {
		return usageError(env, "tco: --currency %s: want USD or CNY", catalog.Excerpt(*currency))
	}

	var plans []string
	var err error
	if *billing != "" {
		if plans, err = checkBillingPlans(*billing); err != nil {
			return usageError(env, "tco: --billing: %v", err)
		}
	}

	var in compare.TCOInput
	if *input != "" {
		if len(offers) > 0 {
			return usageError(env, "tco: --input and --offer do not go together")
		}
		b, err := catalog.ReadRegularFile(*input, catalog.MaxDataFileBytes)
		if err != nil {
			return fail(env, "tco: --input: %v", err)
		}
		if err := compare.ScanTCOInput(*input, b); err != nil {
			return fail(env, "tco: --input: %v", err)
		}
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&in); err != nil {
			return fail(env, "tco: --input: %v (gpuatlas tco --format json writes one under \"input\")", catalog.JSONError(*input, b, err))
		}
		if dec.More() {
			return fail(env, "tco: --input: %s: more than one JSON value: want one TCO input object", *input)
		}
	} else {
		if len(offers) == 0 || *region == "" {
			return usageError(env, "tco: --offer PROVIDER/TYPE and --region R are required (or --input FILE)")
		}
		// An id longer than any provider's is refused here: the errors of the
		// lookups repeat the offer and the region.
		if len(*region) > maxTCOIDBytes {
			return usageError(env, "tco: --region %s: %d bytes, longer than any region id (at most %d)", catalog.Excerpt(*region), len(*region), maxTCOIDBytes)
		}
		for _, o := range offers {
			if len(o) > maxTCOIDBytes {
				return usageError(env, "tco: --offer %s: %d bytes, longer than any instance type (at most %d)", catalog.Excerpt(o), len(o), maxTCOIDBytes)
			}
			p, _, ok := strings.Cut(o, "/")
			if !ok {
				return usageError(env, "tco: --offer %s: want PROVIDER/TYPE, e.g. aws/p4d.24xlarge", catalog.Excerpt(o))
			}
			if _, err := catalog.ParseProvider(p); err != nil {
				return usageError(env, "tco: --offer %s: %v", catalog.Excerpt(o), err)
			}
		}
		nums := map[string]*decimal.Decimal{}
		// In a fixed order: with two bad flags, the same one is named each time.
		for _, f := range [][2]string{{"hours-per-month", *hours}, {"utilisation", *util}, {"idle-hours", *idle},
			{"spot-overhead", *spot}, {"jobs-per-month", *jobs}, {"storage-gb", *storageGB}, {"storage-usd-per-gb-month", *storagePrice},
			{"egress-gb-per-month", *egressGB}, {"egress-usd-per-gb", *egressPrice},
			{"checkpoint-minutes", *checkpoint}, {"restart-minutes", *restart}, {"interruptions-per-month", *rate}} {
			if f[0] == "interruptions-per-month" && f[1] == "" {
				continue
			}
			name, v := f[0], f[1]
			d, err := parseTCOFlag(name, v)
			if err != nil {
				return usageError(env, "tco: --%s %s: %v", name, catalog.Excerpt(v), err)
			}
			nums[name] = &d
		}
		if err := checkTCOIntFlag("months", *months); err != nil {
			return usageError(env, "tco: --months %d: %v", *months, err)
		}
		if err := checkTCOIntFlag("reserved-instances", *committed); err != nil {
			return usageError(env, "tco: --reserved-instances %d: %v", *committed, err)
		}
		req := compare.TCORequest{Instances: offers, Region: *region, SpotOverhead: *nums["spot-overhead"],
			CheckpointMinutes: *nums["checkpoint-minutes"], RestartMinutes: *nums["restart-minutes"], SpotRate: nums["interruptions-per-month"],
			CommittedInstances: *committed, ReferenceGPU: *refGPU,
			Workload: compare.TCOWorkload{JobSize: *nums["hours-per-month"], JobsPerMonth: decimal.NewFromInt(1),
				Utilisation: *nums["utilisation"], IdleHoursPerMonth: *nums["idle-hours"], HorizonMonths: *months}}
		if *refGPU != "" {
			if *jobHours == "" {
				return usageError(env, "tco: --reference-gpu needs --job-gpu-hours")
			}
			d, err := parseTCOFlag("job-gpu-hours", *jobHours)
			if err != nil {
				return usageError(env, "tco: --job-gpu-hours %s: %v", catalog.Excerpt(*jobHours), err)
			}
			req.Workload.JobSize, req.Workload.JobsPerMonth = d, *nums["jobs-per-month"]
		} else if *jobHours != "" {
			return usageError(env, "tco: --job-gpu-hours needs --reference-gpu")
		}
		req.Billing = plans
		if nums["storage-gb"].IsPositive() || nums["storage-usd-per-gb-month"].IsPositive() {
			req.Storage = &compare.TCOStorage{GB: *nums["storage-gb"], USDPerGBMonth: *nums["storage-usd-per-gb-month"]}
		}
		if nums["egress-gb-per-month"].IsPositive() || nums["egress-usd-per-gb"].IsPositive() {
			req.Egress = &compare.TCOEgress{GBPerMonth: *nums["egress-gb-per-month"], USDPerGB: *nums["egress-usd-per-gb"]}
		}
		snap, _, ref, err := loadCatalog(*path)
		if err != nil {
			return fail(env, "tco: %v", err)
		}
		if *scenario != "" {
			set, err := loadScenarioSet(*scPath)
			if err != nil {
				return fail(env, "tco: %v", err)
			}
			s, ok := set.Scenario(*scenario)
			if !ok {
				return usageError(env, "tco: --scenario %s: not one of %s", catalog.Excerpt(*scenario), strings.Join(set.IDs(), ", "))
			}
			req.Figures = s.Compute
			if len(s.Workloads) > 0 {
				req.BenchmarkWorkload = s.Workloads[0]
			}
		}
		if req.BenchmarkWorkload != "" {
			if req.Costs, err = benchmarkCosts(env, "tco", *bench, snap); err != nil {
				return fail(env, "tco: %v", err)
			}
		}
		if in, err = compare.NewTCOInput(snap, ref, req); err != nil {
			return fail(env, "tco: %v", err)
		}
	}
	res, err := compare.TCO(in)
	if err != nil {
		return fail(env, "%v", err)
	}
	var conv *compare.TCOInCurrency
	if *currency != "USD" {
		// The catalog's FX table: the embedded one, or --catalog's.
		snap, _, err := loadSnapshot(*path)
		if err != nil {
			return fail(env, "tco: %v", err)
		}
		c, err := res.InCurrency(snap.FX, catalog.Currency(*currency))
		if err != nil {
			return fail(env, "tco: %v", err)
		}
		conv = &c
	}
	w := bufio.NewWriter(env.Stdout)
	if report.json() {
		err = writeJSON(w, struct {
			compare.TCOResult
			InCurrency *compare.TCOInCurrency `json:"in_currency,omitempty"`
		}{res, conv})
	} else {
		var words words.ReasonWords
		if words, err = reasonWords(tag); err == nil {
			err = writeTCOText(w, words, res)
			if err == nil && conv != nil {
				err = writeTCOCurrencyText(w, words, res, *conv)
			}
		}
	}
	if err == nil {
		err = w.Flush()
	}
	if err != nil {
		return fail(env, "tco: %v", err)
	}
	return ExitOK
}

// maxTCOIDBytes bounds --offer and --region, which the errors of the catalog
// lookups repeat.
const maxTCOIDBytes = 256

// flagNumber is a plain decimal as a flag takes it: digits, an optional
// fraction, no sign or exponent.
var flagNumber = regexp.MustCompile(`^[0-9]{1,12}(\.[0-9]{1,9})?$`)

// parseTCOFlag reads a numeric tco flag's value: a plain decimal with at most
// 9 digits after the point (a share also as a percentage, "80%") in the
// flag's range of compare.TCOBounds, the same a TCO input file is held to.
// The error says what is accepted.
func parseTCOFlag(flag, s string) (decimal.Decimal, error) {
	b, ok := compare.TCOFlagBound(flag)
	if !ok {
		return decimal.Zero, fmt.Errorf("no range for --%s", flag)
	}
	return parseBounded(b, s)
}

// parseBounded reads a plain decimal flag value (a share also as a
// percentage) in the range b.
func parseBounded(b compare.Bound, s string) (decimal.Decimal, error) {
	t := strings.TrimSpace(s)
	percent := b.Share && strings.HasSuffix(t, "%")
	if percent {
		t = strings.TrimSpace(strings.TrimSuffix(t, "%"))
	}
	d, err := decimal.NewFromString(t)
	if !flagNumber.MatchString(t) || err != nil {
		return decimal.Zero, fmt.Errorf("not a plain decimal number (at most 9 digits after the point): want %s", b)
	}
	if percent {
		d = d.Div(decimal.NewFromInt(100))
	}
	if err := b.Check(d); err != nil {
		return decimal.Zero, err
	}
	return d, nil
}

// checkTCOIntFlag checks a whole-number tco flag against its range.
func checkTCOIntFlag(flag string, n int) error {
	b, ok := compare.TCOFlagBound(flag)
	if !ok {
		return fmt.Errorf("no range for --%s", flag)
	}
	return b.Check(decimal.NewFromInt(int64(n)))
}

// checkBillingPlans reads --billing: each comma-separated plan a billing kind
// or COMMITMENT+on_demand|spot (compare.CheckBillingPlan); the error is a
// usage error naming the plan.
func checkBillingPlans(s string) ([]string, error) {
	var plans []string
	for _, b := range strings.Split(s, ",") {
		if b = strings.TrimSpace(b); b == "" {
			continue
		}
		if err := compare.CheckBillingPlan(b); err != nil {
			return nil, err
		}
		plans = append(plans, b)
	}
	if len(plans) == 0 {
		return nil, fmt.Errorf("%s: no billing plan: want a comma-separated list of %s, or COMMITMENT+on_demand|spot", catalog.Excerpt(s), strings.Join(billingKindNames(), ", "))
	}
	return plans, nil
}

func billingKindNames() []string {
	var out []string
	for _, k := range catalog.BillingKinds {
		out = append(out, string(k))
	}
	return out
}
