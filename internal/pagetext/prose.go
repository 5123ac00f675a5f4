package pagetext

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
	"unicode"
)

// English prose on a Chinese page, whatever its markup says: a page in Chinese
// says everything in Chinese except proper names and identifiers. A run of three
// or more Latin tokens in a line is English prose when one of its words is a
// common word, written in lower case and not a name in Names ("40 GiB
// cloud_essd system disk", "estimate, not an observed price"). A run of names
// (NVIDIA Tesla V100, Blackwell Server Edition, MLPerf Inference v5.0) or of
// identifiers (gpu:h100, p4d.24xlarge, cn-beijing) is not prose.

// proseWord is a word of lower-case letters (an apostrophe or hyphen inside):
// the common words of an English sentence. A token with a digit, an
// underscore, a dot, a colon or a slash inside is an identifier, and one that
// starts with a capital is a name.
var proseWord = regexp.MustCompile(`^[a-z][a-z'’-]*[a-z]$`)

// Names are the lower-case words that are names or identifiers, not English:
// software written in lower case by its makers, and units.
var Names = map[string]bool{
	"pytorch": true, "dgl": true, "mxnet": true, "tensorflow": true, "jax": true, "vllm": true, "sglang": true,
	"trtllm-bench": true, "llama": true, "nemo": true, "paddle": true, "paddlepaddle": true, "onnx": true,
}

// workTitle is the title of a work (a paper, a book) in Chinese title marks:
// a name, kept as written.
var workTitle = regexp.MustCompile(`《[^》]*》`)

// ProseRuns lists the runs of English prose in text (Visible's or a browser's
// innerText): three or more Latin tokens in a row on one line, at least one a
// prose word.
func ProseRuns(text string) []string {
	var runs, run []string
	prose := false
	end := func() {
		if len(run) >= 3 && prose {
			runs = append(runs, strings.Join(run, " "))
		}
		run, prose = nil, false
	}
	for _, line := range strings.Split(text, "\n") {
		line = workTitle.ReplaceAllString(line, " 《》 ")
		for _, tok := range strings.Fields(line) {
			w := strings.Trim(tok, ",.;:()[]!?\"'“”«»…")
			if !latinToken(w) {
				end()
				continue
			}
			run = append(run, w)
			if proseWord.MatchString(w) && !Names[w] {
				prose = true
			}
		}
		end()
	}
	return runs
}

// latinToken reports whether w is a word or identifier in Latin letters: it
// holds a Latin letter and no Han character. A figure ("40", "1,432.5") is not.
func latinToken(w string) bool {
	letter := false
	for _, r := range w {
		switch {
		case unicode.Is(unicode.Han, r) || isCJKPunct(r):
			return false
		case r < 0x80 && unicode.IsLetter(r):
			letter = true
		}
	}
	return letter
}

// Prose is one run of English prose on a page.
type Prose struct {
	Page, Text string
}

// ChineseProse reads every zh/ page under out, all of its visible text
// whatever its lang marks say but for names marked translate="no" (Readable),
// and returns the runs of English prose in them
// (ProseRuns) and how many pages it read.
func ChineseProse(out string) (pages int, found []Prose, err error) {
	err = eachPage(out, "zh", func(rel, page string) {
		pages++
		for _, r := range ProseRuns(Readable(page)) {
			found = append(found, Prose{rel, r})
		}
	})
	return pages, found, err
}

// Tally counts the runs by their text with figures left out, most first: what
// a report of ChineseProse shows.
func Tally(found []Prose) []string {
	digits := regexp.MustCompile(`[0-9]+`)
	n := map[string]int{}
	for _, f := range found {
		n[digits.ReplaceAllString(f.Text, "N")]++
	}
	keys := make([]string, 0, len(n))
	for k := range n {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if n[keys[i]] != n[keys[j]] {
			return n[keys[i]] > n[keys[j]]
		}
		return keys[i] < keys[j]
	})
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = fmt.Sprintf("%6d  %s", n[k], k)
	}
	return out
}
