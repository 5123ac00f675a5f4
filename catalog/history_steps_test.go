package catalog

import (
	"bytes"
	"errors"
	"testing"
	"time"
)

// stepsAgreeWithAt checks that every step's Diff is the Diff of the whole
// snapshots At rebuilds, and that the first step's After is the first crawl.
func stepsAgreeWithAt(t *testing.T, h *History) {
	t.Helper()
	crawls := h.Crawls()
	var prev *Snapshot
	n := 0
	err := h.Steps(crawls[len(crawls)-1], func(st HistoryStep) error {
		cur, err := h.At(crawls[st.Index])
		if err != nil {
			return err
		}
		if st.Index == 0 {
			if got, want := canonical(t, st.After), canonical(t, cur); got != want {
				t.Errorf("the first step's After is not the first crawl:\n%s\nwant\n%s", got, want)
			}
			if len(st.Before.Offers)+len(st.Before.Instances) != 0 {
				t.Errorf("the first step's Before is not empty: %+v", st.Before)
			}
		} else {
			got, _ := Diff(st.Before, st.After).JSON()
			want, _ := Diff(prev, cur).JSON()
			if !bytes.Equal(got, want) {
				t.Errorf("crawl %d: the step's diff differs from the whole snapshots' diff:\n%s\nwant\n%s", st.Index, got, want)
			}
		}
		prev = cur
		n++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n != len(crawls) {
		t.Errorf("Steps visited %d crawls of %d", n, len(crawls))
	}
}

func TestHistory_StepsAgreeWithAt(t *testing.T) {
	stepsAgreeWithAt(t, buildHistory(t, historyCrawls()))
}

func TestHistory_StepsStopAtUntilAndOnError(t *testing.T) {
	h := buildHistory(t, historyCrawls())
	crawls := h.Crawls()
	var seen []int
	if err := h.Steps(crawls[1].Add(time.Hour), func(st HistoryStep) error { seen = append(seen, st.Index); return nil }); err != nil {
		t.Fatal(err)
	}
	if len(seen) != 2 {
		t.Errorf("steps up to just after the second crawl visited %v", seen)
	}
	stop := errors.New("stop")
	calls := 0
	if err := h.Steps(crawls[len(crawls)-1], func(HistoryStep) error { calls++; return stop }); !errors.Is(err, stop) || calls != 1 {
		t.Errorf("Steps returned %v after %d calls; want the callback's error after 1", err, calls)
	}
}
