package main

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strconv"

	"github.com/gpuatlas/gpuatlas/providers/internal/fixture"
	"github.com/gpuatlas/gpuatlas/providers/replay"
)

// The Spot Instance Advisor replay: the newest of the committed copies of
// AWS's spot-advisor-data.json in ../shared/realdata/spot, written back in the
// feed's own shape from its Linux rows of accelerated types (the copy in the
// shared data keeps only those).
const (
	spotAdvisorRows      = "aws_spot_advisor_accelerated_linux.csv"
	spotAdvisorSnapshots = "aws_spot_advisor_snapshots.csv"
	spotAdvisorBody      = "spotadvisor/spot-advisor-data.json"
)

// advisorCopy is the committed copy the replay is built from.
type advisorCopy struct {
	repo, path, commit, date, licence, sha256 string
	rows                                      int
}

// writeSpotAdvisor writes the feed of the newest copy and its exchange, and
// returns what it was built from.
func (g *generator) writeSpotAdvisor() (advisorCopy, error) {
	dir := filepath.Join(g.in, "..", "spot")
	snaps, err := fixture.ReadCSV(filepath.Join(dir, spotAdvisorSnapshots), "source_repo", "source_path", "source_commit",
		"source_commit_date", "source_blob_sha256", "licence", "ranges_json")
	if err != nil {
		return advisorCopy{}, err
	}
	var newest fixture.Row
	for _, s := range snaps {
		if newest.Get("source_commit_date") < s.Get("source_commit_date") {
			newest = s
		}
	}
	c := advisorCopy{repo: newest.Get("source_repo"), path: newest.Get("source_path"), commit: newest.Get("source_commit"),
		date: newest.Get("source_commit_date")[:10], licence: newest.Get("licence"), sha256: newest.Get("source_blob_sha256")}
	var ranges []map[string]any
	if err := json.Unmarshal([]byte(newest.Get("ranges_json")), &ranges); err != nil {
		return c, fmt.Errorf("%s: ranges_json of %s: %w", spotAdvisorSnapshots, c.commit, err)
	}
	rows, err := fixture.ReadCSV(filepath.Join(dir, spotAdvisorRows), "source_commit", "region", "os", "instance_type",
		"interruption_band_index", "savings_over_ondemand_pct", "vcpus", "ram_gb", "emr")
	if err != nil {
		return c, err
	}
	type cell struct {
		S int `json:"s"`
		R int `json:"r"`
	}
	type spec struct {
		EMR   bool    `json:"emr"`
		Cores int     `json:"cores"`
		RAMGB float64 `json:"ram_gb"`
	}
	advisor := map[string]map[string]map[string]cell{}
	types := map[string]spec{}
	for _, r := range rows {
		if r.Get("source_commit") != c.commit {
			continue
		}
		band, err1 := strconv.Atoi(r.Get("interruption_band_index"))
		save, err2 := strconv.Atoi(r.Get("savings_over_ondemand_pct"))
		cores, err3 := strconv.Atoi(r.Get("vcpus"))
		ram, err4 := strconv.ParseFloat(r.Get("ram_gb"), 64)
		if err1 != nil || err2 != nil || err3 != nil || err4 != nil {
			return c, fmt.Errorf("%s: %s in %s: band, saving, vcpus or ram_gb is not a number", spotAdvisorRows, r.Get("instance_type"), r.Get("region"))
		}
		region, os, typ := r.Get("region"), r.Get("os"), r.Get("instance_type")
		if advisor[region] == nil {
			advisor[region] = map[string]map[string]cell{}
		}
		if advisor[region][os] == nil {
			advisor[region][os] = map[string]cell{}
		}
		advisor[region][os][typ] = cell{S: save, R: band}
		types[typ] = spec{EMR: r.Get("emr") == "true", Cores: cores, RAMGB: ram}
		c.rows++
	}
	if c.rows == 0 {
		return c, fmt.Errorf("%s: no rows of commit %s", spotAdvisorRows, c.commit)
	}
	g.folder.JSON(spotAdvisorBody, map[string]any{"ranges": ranges, "instance_types": types, "spot_advisor": advisor})
	g.folder.Add(replay.Exchange{Service: "spotadvisor", Action: "GetSpotAdvisorData", ContentType: "application/json", Body: spotAdvisorBody})
	return c, nil
}

// source is the copy's provenance line.
func (c advisorCopy) source() string {
	return fmt.Sprintf("spot/%s: AWS's Spot Instance Advisor feed (spot-advisor-data.json), Linux rows of accelerated types (%d), from the committed copy in repository %s, path %s at commit %s (%s, blob sha256 %s). Licence: %s.",
		spotAdvisorRows, c.rows, c.repo, c.path, c.commit, c.date, c.sha256, c.licence)
}
