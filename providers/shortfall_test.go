package providers

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/gpuatlas/gpuatlas/catalog"
)

// Gather keeps what succeeded and sets aside what failed, one shortfall per
// item, whatever the error: a request's own timeout (which matches
// context.DeadlineExceeded, as net/http's client timeouts do) is a
// shortfall, not a cancelled crawl. Refused credentials, or the crawl's own
// cancellation, fail the region.
func TestGather(t *testing.T) {
	offer := func(typ string) []catalog.Offer {
		return []catalog.Offer{{Provider: catalog.Tencent, InstanceType: typ}}
	}
	timeout := fmt.Errorf("tencent: inquiry: Post: %w (Client.Timeout exceeded)", context.DeadlineExceeded)
	tests := []struct {
		name      string
		fail      map[string]error
		cancel    bool
		wantTypes []string
		wantShort []string
		wantErr   error
	}{
		{"all succeed", nil, false, []string{"A", "B", "C"}, nil, nil},
		{"a request timeout is a shortfall", map[string]error{"B": timeout}, false, []string{"A", "C"}, []string{"B"}, nil},
		{"a server error is a shortfall", map[string]error{"A": ErrUnavailable, "C": ErrThrottled}, false, []string{"B"}, []string{"A", "C"}, nil},
		{"refused credentials fail the region", map[string]error{"B": fmt.Errorf("x: %w", ErrAuth)}, false, nil, nil, ErrAuth},
		{"a cancelled crawl fails the region", map[string]error{"B": context.Canceled}, true, nil, nil, context.Canceled},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			asked := map[string]int{}
			offers, short, err := Gather(ctx, 1, []string{"A", "B", "C"}, func(s string) []string { return []string{s} },
				func(ctx context.Context, typ string) ([]catalog.Offer, error) {
					asked[typ]++
					if err := tt.fail[typ]; err != nil && asked[typ] == 1 {
						if tt.cancel {
							cancel()
						}
						return nil, err
					}
					return offer(typ), nil
				})
			if !errors.Is(err, tt.wantErr) || (tt.wantErr == nil && err != nil) {
				t.Fatalf("err %v, want %v", err, tt.wantErr)
			}
			var types, shortTypes []string
			for _, o := range offers {
				types = append(types, o.InstanceType)
			}
			for _, s := range short {
				shortTypes = append(shortTypes, s.InstanceTypes...)
				again, err := s.Again(context.Background())
				if err != nil || len(again) != 1 || again[0].InstanceType != s.InstanceTypes[0] {
					t.Errorf("asking %v again gave %v, %v", s.InstanceTypes, again, err)
				}
			}
			if fmt.Sprint(types) != fmt.Sprint(tt.wantTypes) || fmt.Sprint(shortTypes) != fmt.Sprint(tt.wantShort) {
				t.Errorf("offers of %v, shortfalls of %v; want %v and %v", types, shortTypes, tt.wantTypes, tt.wantShort)
			}
		})
	}
}
