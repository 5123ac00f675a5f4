package providertest

import (
	"context"
	"testing"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/providers"
)

// FindOffer is the offer of instance type typ in zone ("" for a regional
// offer) with billing kind b.
func FindOffer(offers []catalog.Offer, typ, zone string, b catalog.BillingKind) (catalog.Offer, bool) {
	for _, o := range offers {
		if o.InstanceType == typ && o.Zone == zone && o.Billing == b {
			return o, true
		}
	}
	return catalog.Offer{}, false
}

// MustOffer is FindOffer that fails t when there is no such offer.
func MustOffer(t testing.TB, offers []catalog.Offer, typ, zone string, b catalog.BillingKind) catalog.Offer {
	t.Helper()
	o, ok := FindOffer(offers, typ, zone, b)
	if !ok {
		t.Fatalf("no %s offer for %s in zone %q", b, typ, zone)
	}
	return o
}

// MustInstance is FindInstance that fails t when there is no such type.
func MustInstance(t testing.TB, instances []catalog.InstanceType, id string) catalog.InstanceType {
	t.Helper()
	it, ok := FindInstance(instances, id)
	if !ok {
		t.Fatalf("no instance type %s", id)
	}
	return it
}

// FindInstance is the instance type with the given id.
func FindInstance(instances []catalog.InstanceType, id string) (catalog.InstanceType, bool) {
	for _, it := range instances {
		if it.ID == id {
			return it, true
		}
	}
	return catalog.InstanceType{}, false
}

// CoverageOf is the snapshot's coverage record of provider p.
func CoverageOf(snap *catalog.Snapshot, p catalog.Provider) catalog.Coverage {
	for _, c := range snap.Coverage {
		if c.Provider == p {
			return c
		}
	}
	return catalog.Coverage{}
}

// Stub is the factory of an adapter that stands for another cloud in the same
// crawl: it lists the given regions and finds nothing in them. Tests crawl it
// beside an adapter to show that the adapter's failure stays its own.
func Stub(id catalog.Provider, regions ...string) providers.Factory {
	return providers.Factory{ID: id, New: func(providers.Config) (providers.Provider, error) {
		return stub{id: id, regions: regions}, nil
	}}
}

type stub struct {
	id      catalog.Provider
	regions []string
}

func (s stub) ID() catalog.Provider                      { return s.id }
func (s stub) Regions(context.Context) ([]string, error) { return s.regions, nil }
func (s stub) Crawl(context.Context, string) (*providers.RegionData, error) {
	return &providers.RegionData{}, nil
}
