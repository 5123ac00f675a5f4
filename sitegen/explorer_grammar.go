package sitegen

import "github.com/gpuatlas/gpuatlas/compare"

// grammarField is one field of the filter expressions (README "Filter
// expressions"; static/filter.js parses them in the page, compare.ParseFilter
// for gpuatlas find) as the explorer's help lists it: its name, the other
// names it answers to, its type (number, text, name, keyword) and what it
// describes (type, offer, price). The help's words are the message
// "field.<name>" in each language. TestBrowser_FilterGrammar checks this list,
// which is compare's, against the script's.
type grammarField struct {
	Name    string
	Aliases []string
	Type    string
	Level   string
}

var grammarFields = func() []grammarField {
	out := make([]grammarField, len(compare.FilterFields))
	for i, f := range compare.FilterFields {
		out[i] = grammarField{f.Name, f.Aliases, f.Type, f.Level}
	}
	return out
}()
