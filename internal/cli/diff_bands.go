package cli

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/data"
)

// diffBands lists the interruption bands that moved between two copies of
// AWS's Spot Instance Advisor feed (diff --interruptions OLD NEW): the dated
// bands embedded in data/interruption_bands.csv, or --bands FILE's. Exit codes
// as diff's.
func diffBands(env Env, oldDay, newDay, file, format string) int {
	var h *catalog.BandHistory
	var err error
	if file == "" {
		h, err = catalog.LoadBandHistory(data.FS)
	} else {
		var b []byte
		if b, err = catalog.ReadFileLimit(file, catalog.MaxDataFileBytes); err == nil {
			h, err = catalog.ParseBandHistory(filepath.Base(file), b)
		}
	}
	if err != nil {
		return usageError(env, "diff: --interruptions: %v", err)
	}
	from, err1 := time.Parse("2006-01-02", oldDay)
	to, err2 := time.Parse("2006-01-02", newDay)
	if err1 != nil || err2 != nil {
		return usageError(env, "diff: --interruptions: OLD and NEW are days of advisor copies, YYYY-MM-DD")
	}
	changes, err := h.Changes(from, to)
	if err != nil {
		return usageError(env, "diff: --interruptions: %v", err)
	}
	word := func(b catalog.InterruptionBand) string {
		if b == "" {
			return "no data"
		}
		return string(b)
	}
	var b strings.Builder
	switch format {
	case "json":
		type row struct {
			Provider     catalog.Provider         `json:"provider"`
			Region       string                   `json:"region"`
			InstanceType string                   `json:"instance_type"`
			Old          catalog.InterruptionBand `json:"old"`
			New          catalog.InterruptionBand `json:"new"`
		}
		rows := []row{}
		for _, c := range changes {
			rows = append(rows, row{c.Provider, c.Region, c.InstanceType, c.Old, c.New})
		}
		out, _ := json.MarshalIndent(struct {
			Old     string `json:"old"`
			New     string `json:"new"`
			Changes []row  `json:"interruption_changes"`
		}{oldDay, newDay, rows}, "", "  ")
		b.Write(out)
		b.WriteString("\n")
	case "markdown":
		fmt.Fprintf(&b, "### Interruption band changes, Spot Instance Advisor %s → %s (%d)\n\n", oldDay, newDay, len(changes))
		b.WriteString("| provider | instance type | region | old | new |\n|---|---|---|---|---|\n")
		for _, c := range changes {
			fmt.Fprintf(&b, "| %s | `%s` | `%s` | %s | %s |\n", c.Provider, c.InstanceType, c.Region, word(c.Old), word(c.New))
		}
	default:
		fmt.Fprintf(&b, "Interruption bands, AWS Spot Instance Advisor copies of %s and %s: %d changes\n", oldDay, newDay, len(changes))
		for _, c := range changes {
			fmt.Fprintf(&b, "  ~ interruption band %s %s: %s -> %s\n", c.InstanceType, c.Region, word(c.Old), word(c.New))
		}
	}
	if _, err := env.Stdout.Write([]byte(b.String())); err != nil {
		return usageError(env, "diff: write: %v", err)
	}
	if len(changes) == 0 {
		return ExitOK
	}
	return ExitError
}
