package catalog

import (
	"strings"
	"testing"
	"time"
)

// A spot offer whose advisor band moved (p3.16xlarge-like: >20% to 10-15%) and
// one that lost its row are listed as interruption band changes, like
// availability changes, in every format.
func TestDiff_InterruptionBandChanges(t *testing.T) {
	old, new := diffBase(), diffBase()
	new.TakenAt = day(1)
	at := time.Date(2025, 6, 28, 0, 0, 0, 0, time.UTC)
	old.Offers[4].Interruption = &Interruption{Band: BandOver20, SavingsPct: 70, ObservedAt: at, Source: "advisor 2019"}
	new.Offers[4].Interruption = &Interruption{Band: Band10To15, SavingsPct: 83, ObservedAt: at, Source: "advisor 2025"}
	r := Diff(old, new)
	if r.Total.InterruptionChanges != 1 || r.Total.Changes() != 1 {
		t.Fatalf("counts %+v, want one interruption band change", r.Total)
	}
	c := r.Providers[0].InterruptionChanges[0]
	if c.Old != BandOver20 || c.New != Band10To15 || c.Offer.InstanceType != "g6.xlarge" {
		t.Errorf("change %+v", c)
	}
	if txt := r.Text(); !strings.Contains(txt, "~ interruption band g6.xlarge us-east-1/us-east-1a spot: >20% -> 10-15%") {
		t.Errorf("text:\n%s", txt)
	}
	new.Offers[4].Interruption = nil
	r = Diff(old, new)
	if md := r.Markdown(DefaultMarkdownRows); !strings.Contains(md, "| `g6.xlarge` | `us-east-1` | us-east-1a | spot | >20% | no data |") {
		t.Errorf("markdown:\n%s", md)
	}
	b, err := r.JSON()
	if err != nil || !strings.Contains(string(b), `"interruption_changes": 1`) || !strings.Contains(string(b), `"old": ">20%"`) {
		t.Errorf("json %v:\n%s", err, b)
	}
	// Only the saving or the fetch date changed: not a band change.
	new.Offers[4].Interruption = &Interruption{Band: BandOver20, SavingsPct: 60, ObservedAt: at.AddDate(0, 1, 0), Source: "x"}
	if r := Diff(old, new); !r.Empty() {
		t.Errorf("a saving change is not a band change: %+v", r.Total)
	}
}
