package main

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"os"
	"sort"

	"github.com/gpuatlas/gpuatlas/catalog"
)

// spotAdvisorRows is the shared data's file of the four committed copies of
// AWS's Spot Instance Advisor feed (its README, "spot/").
const spotAdvisorRows = "spot/aws_spot_advisor_accelerated_linux.csv"

// writeBands writes the dated interruption bands of every copy of the feed
// (catalog.BandHistoryFile's format) to path: one row per copy, region and
// type, dated by the copy's commit (it was fetched on or before it), the
// source the copy's blob at that commit.
func writeBands(realdata, path string) error {
	t, err := readTable(realdata, spotAdvisorRows, "provider", "snapshot_upper_bound_date", "region", "os", "instance_type",
		"interruption_band_label", "savings_over_ondemand_pct", "source_repo", "source_path", "source_commit")
	if err != nil {
		return err
	}
	var rows [][]string
	for i, r := range t.rows {
		if t.get(r, "os") != "Linux" {
			continue
		}
		if _, err := catalog.ParseInterruptionBand(t.get(r, "interruption_band_label")); err != nil {
			return fmt.Errorf("%s: %w", t.where(i), err)
		}
		src := "https://github.com/" + t.get(r, "source_repo") + "/blob/" + t.get(r, "source_commit") + "/" + t.get(r, "source_path")
		rows = append(rows, []string{t.get(r, "provider"), t.get(r, "region"), t.get(r, "instance_type"), t.get(r, "snapshot_upper_bound_date"),
			t.get(r, "interruption_band_label"), t.get(r, "savings_over_ondemand_pct"), src})
	}
	sort.Slice(rows, func(i, j int) bool {
		for k := range rows[i] {
			if rows[i][k] != rows[j][k] {
				return rows[i][k] < rows[j][k]
			}
		}
		return false
	})
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	_ = w.Write([]string{"provider", "region", "instance_type", "observed_at", "band", "savings_pct", "source"})
	_ = w.WriteAll(rows) // a bytes.Buffer does not fail; WriteAll flushes
	if err := w.Error(); err != nil {
		return err
	}
	// Read back through the reader the site and diff use.
	if _, err := catalog.ParseBandHistory(catalog.BandHistoryFile, b.Bytes()); err != nil {
		return fmt.Errorf("%s does not read back: %w", path, err)
	}
	if err := catalog.WriteFileAtomic(path, b.Bytes()); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "wrote %s: %d dated interruption bands\n", path, len(rows))
	return nil
}
