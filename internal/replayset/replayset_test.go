package replayset

import (
	"testing"
	"time"

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
