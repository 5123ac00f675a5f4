package cli

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/compare"
	"github.com/gpuatlas/gpuatlas/data"
	"github.com/gpuatlas/gpuatlas/templates"
	"github.com/gpuatlas/gpuatlas/words"
)

const fitSynopsis = "fit --model ID | --params N [--layers N --hidden N --heads N --kv-heads N [--head-dim N]]\n" +
	"           [--task inference|full|lora|qlora] [--precision fp32|bf16|fp16|fp8|int8|int4] [--kv-precision P]\n" +
	"           [--context N] [--batch N] [--sequences N] [--checkpointing none|selective|full]\n" +
	"           [--lora-rank N | --trainable-share P] [--overhead P]\n" +
	"           [--billing on_demand] [--currency USD|CNY] [--gpu ID] [--limit N]\n" +
	"           [--catalog FILE] [--models FILE] [--format text|json] [--lang en|zh]\n\n" +
	"Estimates the GPU memory a model needs (weights, gradients, optimizer states, activations,\n" +
	"KV cache, framework overhead) with every formula's figures, then lists the instance types\n" +
	"whose GPUs hold it, cheapest first, and for each GPU model that does not, its largest\n" +
	"configuration and why. Known models are in data/models.csv. Exit 0 on success, 1 when the\n" +
	"data cannot be read, 2 for a bad command line (the flag and its accepted values are named)."

// fitFlags maps the estimate's input fields to the flags that set them.
var fitFlags = map[string]string{
	"model": "--model", "params": "--params", "architecture": "--layers", "task": "--task", "precision": "--precision",
	"kv_precision": "--kv-precision", "context": "--context", "batch": "--batch", "sequences": "--sequences",
	"checkpointing": "--checkpointing", "lora_rank": "--lora-rank", "trainable_share": "--trainable-share",
	"overhead_share": "--overhead", "layers": "--layers", "hidden_size": "--hidden", "attention_heads": "--heads",
	"kv_heads": "--kv-heads", "head_dim": "--head-dim",
}

func runFit(env Env, args []string) int {
	fs, parse := newFlagSet(env, "fit", fitSynopsis)
	model := fs.String("model", "", "known model id (data/models.csv), e.g. llama-3.1-70b")
	params := fs.String("params", "", "parameter count of another model: 70e9, 70B, 7241732096")
	layers := fs.Int("layers", 0, "with --params: transformer layers")
	hidden := fs.Int("hidden", 0, "with --params: hidden size")
	heads := fs.Int("heads", 0, "with --params: attention heads")
	kvHeads := fs.Int("kv-heads", 0, "with --params: KV heads (grouped-query attention)")
	headDim := fs.Int("head-dim", 0, "with --params: head dimension (default hidden / heads)")
	task := fs.String("task", "inference", "inference, full (fine-tuning or pre-training, AdamW), lora or qlora")
	precision := fs.String("precision", "", "weight precision: fp32, bf16, fp16, fp8, int8, int4 (default bf16; int4 for qlora)")
	kvPrecision := fs.String("kv-precision", "", "inference: KV-cache precision (default bf16, fp32 with fp32 weights)")
	context := fs.Int("context", 0, "tokens per sequence, prompt and output (default 8192)")
	batch := fs.Int("batch", 0, "sequences per step, or served together (default 1)")
	sequences := fs.Int("sequences", 0, "inference: concurrent sequences whose KV cache is held (default: --batch)")
	checkpointing := fs.String("checkpointing", "", "training: activation checkpointing none, selective or full (default selective; full for lora, qlora)")
	rank := fs.Int("lora-rank", 0, "lora, qlora: adapter rank (default 16)")
	share := fs.String("trainable-share", "", "lora, qlora: trainable parameters as a share, 0.5% or 0.005 (instead of the rank)")
	overhead := fs.String("overhead", "", "framework overhead as a share of the weights, 20% or 0.2 (default 20%)")
	billing := fs.String("billing", string(catalog.OnDemand), "billing kind whose offers are priced")
	currency := fs.String("currency", string(catalog.USD), "currency of the prices (through the catalog's FX table)")
	gpu := fs.String("gpu", "", "only instance types with this GPU model (data/gpus.csv id)")
	limit := fs.Int("limit", 0, "how many fitting instance types to list (0: all)")
	report := addReportFlags(fs, "output format: text or json")
	path := fs.String("catalog", "", "snapshot to price from (default: the catalog embedded in this build)")
	modelsPath := fs.String("models", "", "known models CSV (default: data/models.csv embedded in this build)")
	tag, code, ok := report.parse(env, fs, parse, args)
	if !ok {
		return code
	}
	bk, err := catalog.ParseBillingKind(*billing)
	if err != nil {
		return usageError(env, "fit: --billing: %v", err)
	}
	if *limit < 0 {
		return usageError(env, "fit: --limit %d: must be 0 (all) or more", *limit)
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	in, uerr := fitInput(set, fitValues{model: *model, params: *params, task: *task, precision: *precision, kvPrecision: *kvPrecision,
		checkpointing: *checkpointing, share: *share, overhead: *overhead,
		ints: map[string]int{"layers": *layers, "hidden": *hidden, "heads": *heads, "kv-heads": *kvHeads, "head-dim": *headDim,
			"context": *context, "batch": *batch, "sequences": *sequences, "lora-rank": *rank}})
	if uerr != "" {
		return usageError(env, "fit: %s", uerr)
	}
	models, err := loadModels(*modelsPath)
	if err != nil {
		return fail(env, "fit: %v", err)
	}
	est, err := compare.EstimateMemory(in, models)
	if err != nil {
		var ie *compare.InputError
		if errors.As(err, &ie) {
			return usageError(env, "fit: %s", inputErrorText(ie))
		}
		return fail(env, "fit: %v", err)
	}
	snap, _, err := loadSnapshot(*path)
	if err != nil {
		return fail(env, "fit: %v", err)
	}
	if _, err := snap.FX.Rate(catalog.Currency(*currency)); err != nil {
		return usageError(env, "fit: --currency %s: the catalog's FX table (%s, %s) has no rate for it", catalog.Excerpt(*currency), snap.FX.Source, snap.FX.Date)
	}
	ref, err := catalog.LoadGPUReference(data.FS)
	if err != nil {
		return fail(env, "fit: %v", err)
	}
	if *gpu != "" {
		if _, ok := ref.Model(*gpu); !ok {
			return usageError(env, "fit: --gpu %s: not a GPU model id of data/gpus.csv", catalog.Excerpt(*gpu))
		}
	}
	cs, err := compare.MemoryCandidates(snap, ref, compare.CandidateOptions{Billing: bk, Currency: catalog.Currency(*currency)})
	if err != nil {
		return fail(env, "fit: %v", err)
	}
	ans := compare.MemoryAnswer{Schema: compare.MemorySchema, Estimate: est,
		Offers: compare.FitMemory(est, cs, compare.FitOptions{Limit: *limit, GPU: *gpu})}
	w := bufio.NewWriter(env.Stdout)
	if report.json() {
		err = writeJSON(w, ans)
	} else {
		var msgs map[string]string
		if msgs, err = words.Messages(templates.FS, tag); err == nil {
			err = writeFitText(w, words.NewFitWords(msgs), ans)
		}
	}
	if err == nil {
		err = w.Flush()
	}
	if err != nil {
		return fail(env, "fit: %v", err)
	}
	return ExitOK
}

// fitValues are the flag values fitInput reads; ints by flag name.
type fitValues struct {
	model, params, task, precision, kvPrecision, checkpointing, share, overhead string
	ints                                                                        map[string]int
}

// fitInput builds the estimate's input from the flags that were given. A flag
// given as zero is out of range (the input takes zero as "the default"); the
// returned text is the usage error.
func fitInput(set map[string]bool, v fitValues) (compare.MemoryInput, string) {
	in := compare.MemoryInput{Model: v.model, Task: compare.Task(v.task), Precision: compare.Precision(v.precision),
		KVPrecision: compare.Precision(v.kvPrecision), Checkpointing: compare.Checkpointing(v.checkpointing)}
	fields := map[string]string{"layers": "layers", "hidden": "hidden_size", "heads": "attention_heads", "kv-heads": "kv_heads",
		"head-dim": "head_dim", "context": "context", "batch": "batch", "sequences": "sequences", "lora-rank": "lora_rank"}
	for _, name := range []string{"context", "batch", "sequences", "lora-rank", "layers", "hidden", "heads", "kv-heads", "head-dim"} {
		if set[name] && v.ints[name] < 1 {
			return in, inputErrorText(compare.RangeError(fields[name], int64(v.ints[name])))
		}
	}
	in.Context, in.Batch, in.Sequences, in.LoRARank = v.ints["context"], v.ints["batch"], v.ints["sequences"], v.ints["lora-rank"]
	if set["params"] {
		p, err := parseParams(v.params)
		if err != nil {
			return in, fmt.Sprintf("--params %s: %v", catalog.Excerpt(v.params), err)
		}
		in.Params = p
	}
	if set["layers"] || set["hidden"] || set["heads"] || set["kv-heads"] || set["head-dim"] {
		in.Arch = &compare.Architecture{Layers: v.ints["layers"], Hidden: v.ints["hidden"], Heads: v.ints["heads"],
			KVHeads: v.ints["kv-heads"], HeadDim: v.ints["head-dim"]}
	}
	for _, s := range []struct {
		flag, value string
		dst         **decimal.Decimal
	}{{"trainable-share", v.share, &in.TrainableShare}, {"overhead", v.overhead, &in.OverheadShare}} {
		if !set[s.flag] {
			continue
		}
		d, err := parseBounded(shareFlag, s.value)
		if err != nil {
			return in, fmt.Sprintf("--%s: %v", s.flag, err)
		}
		*s.dst = &d
	}
	return in, ""
}

// shareFlag is the range of fit's shares (--trainable-share, --overhead).
var shareFlag = compare.Bound{Min: decimal.Zero, Max: decimal.NewFromInt(1), Share: true}

// parseParams reads a parameter count: an integer, scientific notation (70e9)
// or a number with a K, M, B or T suffix (70B, 7.24b).
func parseParams(s string) (int64, error) {
	t := strings.TrimSpace(s)
	mult := decimal.NewFromInt(1)
	if n := len(t); n > 0 {
		switch strings.ToUpper(t[n-1:]) {
		case "K":
			mult = decimal.New(1, 3)
		case "M":
			mult = decimal.New(1, 6)
		case "B":
			mult = decimal.New(1, 9)
		case "T":
			mult = decimal.New(1, 12)
		}
		if !mult.Equal(decimal.NewFromInt(1)) {
			t = t[:n-1]
		}
	}
	d, err := decimal.NewFromString(t)
	if err != nil || len(t) > 40 {
		return 0, errors.New("not a number (use e.g. 70e9, 70B or 70000000000)")
	}
	d = d.Mul(mult)
	if !d.Equal(d.Truncate(0)) {
		return 0, errors.New("not a whole number of parameters")
	}
	if d.LessThan(decimal.New(1, 6)) || d.GreaterThan(decimal.New(1, 13)) {
		return 0, fmt.Errorf("must be 1e6 to 1e13")
	}
	return d.IntPart(), nil
}

// inputErrorText is an estimate's input error as a usage message naming the
// flag and what it accepts.
func inputErrorText(e *compare.InputError) string {
	flagName := fitFlags[e.Field]
	if flagName == "" {
		flagName = e.Field
	}
	switch e.Code {
	case "out_of_range":
		return fmt.Sprintf("%s %s: must be %s to %s", flagName, e.Value, e.Min, e.Max)
	case "not_one_of":
		s := fmt.Sprintf("%s %s: want one of %s", flagName, catalog.Excerpt(e.Value), strings.Join(e.Allowed, ", "))
		if e.With != "" {
			s += " for --task " + e.With
		}
		return s
	case "unknown_model":
		return fmt.Sprintf("%s %s: not a known model; known: %s (or --params N for another model)", flagName, catalog.Excerpt(e.Value), strings.Join(e.Allowed, ", "))
	case "missing":
		switch e.With {
		case "model":
			return "give --model ID or --params N"
		case "architecture":
			return fmt.Sprintf("%s is required with the other architecture flags (--layers, --hidden, --heads, --kv-heads)", flagName)
		case "lora_rank_needs_architecture":
			return "--trainable-share is required: the LoRA adapters of this model cannot be counted from --lora-rank"
		case "hidden_size_not_divisible":
			return "--head-dim is required: --hidden is not a multiple of --heads"
		}
		return flagName + " is required"
	case "conflict":
		return fmt.Sprintf("%s and %s do not go together", flagName, orFlag(fitFlags[e.With], e.With))
	case "not_applicable":
		return fmt.Sprintf("%s does not apply to --task %s", flagName, e.With)
	case "not_divisor":
		return fmt.Sprintf("%s %s: must divide %s (each KV head serves the same number of attention heads)", flagName, e.Value, orFlag(fitFlags[e.With], e.With))
	}
	return e.Error()
}

func orFlag(f, field string) string {
	if f != "" {
		return f
	}
	return field
}

// loadModels reads the known models at path, or the embedded ones.
func loadModels(path string) (*compare.ModelSet, error) {
	if path == "" {
		return compare.LoadModels(data.FS)
	}
	f, err := catalog.OpenRegularFile(path, catalog.MaxDataFileBytes)
	if err != nil {
		return nil, fmt.Errorf("read models: %w", err)
	}
	defer func() { _ = f.Close() }() // read-only: a close error loses nothing
	return compare.ParseModels(path, f)
}
