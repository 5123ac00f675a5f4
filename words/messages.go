package words

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"sort"
	"strings"
)

// Catalogs reads each language's message catalog, in the order of tags, and
// checks that they all define the same keys, so that no page or command can
// show a missing string in one language.
func Catalogs(fsys fs.FS, tags ...string) ([]map[string]string, error) {
	cats := make([]map[string]string, len(tags))
	for i, tag := range tags {
		// A language's catalog is i18n/<tag>.json plus any i18n/<tag>.<part>.json,
		// so that the messages of one part of the site can live in a file of
		// their own; a key defined twice is an error.
		parts, err := fs.Glob(fsys, "i18n/"+tag+".*.json")
		if err != nil {
			return nil, fmt.Errorf("read message catalog: %w", err)
		}
		msgs := map[string]string{}
		for _, name := range append([]string{"i18n/" + tag + ".json"}, parts...) {
			b, err := fs.ReadFile(fsys, name)
			if err != nil {
				return nil, fmt.Errorf("read message catalog: %w", err)
			}
			part := map[string]string{}
			if err := json.Unmarshal(b, &part); err != nil {
				return nil, fmt.Errorf("message catalog %s: %w", name, err)
			}
			for k, v := range part {
				if _, dup := msgs[k]; dup {
					return nil, fmt.Errorf("message catalog %s: key %q is already defined in another i18n/%s*.json file", name, k, tag)
				}
				msgs[k] = v
			}
		}
		cats[i] = msgs
	}
	for i := range tags {
		for j := range tags {
			if missing := missingKeys(cats[i], cats[j]); len(missing) > 0 {
				return nil, fmt.Errorf("message catalog i18n/%s.json lacks %d keys that i18n/%s.json has: %s",
					tags[j], len(missing), tags[i], strings.Join(missing, ", "))
			}
		}
	}
	return cats, nil
}

// Messages is one language's message catalog (i18n/<tag>.json and its parts)
// from the templates: the words the command line prints with --lang.
func Messages(fsys fs.FS, tag string) (map[string]string, error) {
	cats, err := Catalogs(fsys, tag)
	if err != nil {
		return nil, err
	}
	return cats[0], nil
}

// missingKeys lists, sorted, the keys of have that want lacks.
func missingKeys(have, want map[string]string) []string {
	var out []string
	for k := range have {
		if _, ok := want[k]; !ok {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}
