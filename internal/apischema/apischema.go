// Package apischema checks a built site's JSON API (api/v1/) for the tests of
// sitegen and of the embedded site: every document against the JSON Schema the
// site publishes for its kind (with a real JSON Schema validator, draft
// 2020-12, formats asserted), and every link a document holds against the
// site's files.
package apischema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Root is the API's folder in a site.
const Root = "api/v1"

// kindOf is the document kind of a path relative to api/v1/: its schema is
// schema/<kind>.json. "" for a path that is no document (the schemas).
func kindOf(rel string) string {
	dir, _, found := strings.Cut(rel, "/")
	if !found {
		if rel == "index.json" {
			return "index"
		}
		return "?"
	}
	switch dir {
	case "schema":
		return ""
	case "instances":
		return "instance"
	case "offers":
		return "offers"
	case "gpus":
		return "gpu"
	case "regions":
		return "region"
	case "scenarios":
		return "scenario"
	}
	return "?"
}

// Documents lists the API's documents of a site by path relative to api/v1/,
// sorted.
func Documents(site string) ([]string, error) {
	root := filepath.Join(site, filepath.FromSlash(Root))
	var out []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if kindOf(rel) != "" {
			out = append(out, rel)
		}
		return nil
	})
	sort.Strings(out)
	return out, err
}

// Validate checks every document of the site's API against its kind's schema
// from the site's own api/v1/schema/. It returns how many documents of each
// kind it validated and a problem per invalid document (path: what).
func Validate(site string) (map[string]int, []string, error) {
	docs, err := Documents(site)
	if err != nil {
		return nil, nil, err
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	c.DefaultDraft(jsonschema.Draft2020)
	schemas := map[string]*jsonschema.Schema{}
	counts := map[string]int{}
	var problems []string
	for _, rel := range docs {
		kind := kindOf(rel)
		if kind == "?" {
			problems = append(problems, rel+": not a document kind of the API")
			continue
		}
		sch := schemas[kind]
		if sch == nil {
			file, err := filepath.Abs(filepath.Join(site, filepath.FromSlash(Root), "schema", kind+".json"))
			if err != nil {
				return nil, nil, err
			}
			if sch, err = c.Compile(file); err != nil {
				return nil, nil, fmt.Errorf("schema %s: %w", kind, err)
			}
			schemas[kind] = sch
		}
		b, err := os.ReadFile(filepath.Join(site, filepath.FromSlash(Root), filepath.FromSlash(rel)))
		if err != nil {
			return nil, nil, err
		}
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
		if err != nil {
			problems = append(problems, fmt.Sprintf("%s: %v", rel, err))
			continue
		}
		if err := sch.Validate(doc); err != nil {
			problems = append(problems, fmt.Sprintf("%s: %v", rel, err))
			continue
		}
		if m, ok := doc.(map[string]any); !ok || m["schema"] != "schema/"+kind+".json" {
			problems = append(problems, fmt.Sprintf("%s: names schema %v, its folder says schema/%s.json", rel, m["schema"], kind))
			continue
		}
		counts[kind]++
	}
	return counts, problems, nil
}

// Links checks every link the documents hold: each "href" (relative to
// api/v1/) and "schema" is a file of the API, each "page" a file of the site.
// It also checks that the index reaches every document, directly or through
// the providers' offers documents. It returns how many links it followed.
func Links(site string) (int, []string, error) {
	docs, err := Documents(site)
	if err != nil {
		return 0, nil, err
	}
	exists := func(rel string) bool {
		_, err := os.Stat(filepath.Join(site, filepath.FromSlash(rel)))
		return err == nil
	}
	links := 0
	var problems []string
	var indexed map[string]bool
	for _, rel := range docs {
		b, err := os.ReadFile(filepath.Join(site, filepath.FromSlash(Root), filepath.FromSlash(rel)))
		if err != nil {
			return 0, nil, err
		}
		var doc any
		if err := json.Unmarshal(b, &doc); err != nil {
			problems = append(problems, fmt.Sprintf("%s: %v", rel, err))
			continue
		}
		hrefs := map[string]bool{}
		walk(doc, func(key, value string) {
			var target string
			switch key {
			case "href", "schema":
				target = path.Join(Root, value)
				hrefs[value] = true
			case "page", "api", "downloads", "llms_txt":
				target = value
			default:
				return
			}
			links++
			if strings.Contains(value, "..") || strings.HasPrefix(value, "/") || !exists(target) {
				problems = append(problems, fmt.Sprintf("%s: %s %q points to no file of the site", rel, key, value))
			}
		})
		if rel == "index.json" {
			indexed = hrefs
		}
	}
	if indexed == nil {
		return links, append(problems, "index.json: missing"), nil
	}
	for _, rel := range docs {
		if rel != "index.json" && !indexed[rel] {
			problems = append(problems, fmt.Sprintf("index.json: does not link %s", rel))
		}
	}
	return links, problems, nil
}

// walk calls f with every string value of the document and its key.
func walk(v any, f func(key, value string)) {
	switch x := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if s, ok := x[k].(string); ok {
				f(k, s)
				continue
			}
			walk(x[k], f)
		}
	case []any:
		for _, e := range x {
			walk(e, f)
		}
	}
}
