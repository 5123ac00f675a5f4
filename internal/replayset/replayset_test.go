package replayset

import (
	"slices"
	"testing"
	"time"

	"github.com/gpuatlas/gpuatlas/catalog"

	"github.com/gpuatlas/gpuatlas/providers/replay"
)

func TestStart_EndpointsMatchTheCrawlFlags(t *testing.T) {
	set, err := Start("../..", replay.WithLatency(time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	defer set.Close()
	flags := map[string]bool{}
	for i := 0; i+1 < len(set.Args); i++ {
		if set.Args[i] == "--endpoint" {
			flags[set.Args[i+1]] = true
		}
	}
	n := 0
	for p, services := range set.Endpoints {
		if set.Servers[p] == nil {
			t.Errorf("endpoints for %s, which has no server", p)
		}
		for service, url := range services {
			n++
			if flag := string(p) + "." + service + "=" + url; !flags[flag] {
				t.Errorf("endpoint %s is not among the crawl flags %v", flag, set.Args)
			}
			if url != set.Servers[p].URL {
				t.Errorf("%s.%s = %s, want its server %s", p, service, url, set.Servers[p].URL)
			}
		}
	}
	if n != len(flags) || len(set.Endpoints) != len(Fixtures()) {
		t.Errorf("%d endpoints over %d providers, want the %d --endpoint flags over %d fixtures", n, len(set.Endpoints), len(flags), len(Fixtures()))
	}
}

// TestRunning_Real names the providers whose recordings are wholly real: the
// ones make nightly crawls. Huawei's prices and regions and all of Volcano
// Engine are made up for the adapters' tests.
func TestRunning_Real(t *testing.T) {
	set, err := Start("../..")
	if err != nil {
		t.Fatal(err)
	}
	defer set.Close()
	got := set.Real()
	want := []catalog.Provider{catalog.AWS, catalog.Alibaba, catalog.Tencent, catalog.Azure, catalog.GCP}
	if !slices.Equal(got, want) {
		t.Errorf("Real() = %v, want %v", got, want)
	}
	args := set.ArgsFor(got)
	if n := len(args); n < 2 || args[n-2] != "--providers" || args[n-1] != "aws,alibaba,tencent,azure,gcp" {
		t.Errorf("ArgsFor ends %v, want --providers aws,alibaba,tencent,azure,gcp", args[max(0, len(args)-2):])
	}
	if len(args) != len(set.Args) {
		t.Errorf("ArgsFor has %d flags, Args %d: the endpoints differ", len(args), len(set.Args))
	}
}
