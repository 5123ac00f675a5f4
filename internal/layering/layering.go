// Package layering states the import rules between GPU Atlas's packages
// (docs/architecture.md: the table of folders and "Layering") and checks a
// module's packages against them. `make lint` runs it through
// internal/tools/layering. docmap.go checks that the packages' doc comments,
// which map their files, name every file (DocMapGaps); filesize.go that no
// production source file is over MaxLines (LongFiles).
package layering

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"regexp"
	"sort"
	"strings"
)

// Package is one package of the module as `go list` describes it: its path
// relative to the module ("providers/aws") and what it imports, in production
// code and in its tests (in-package and external test files together).
type Package struct {
	Path        string
	Imports     []string
	TestImports []string
}

// Violation is one import that breaks a rule.
type Violation struct {
	Package string // relative path of the importing package
	Import  string // the imported path (relative when it is one of ours)
	Test    bool   // the import is in a test file
	Rule    string // which rule, in words
}

func (v Violation) String() string {
	where := v.Package
	if v.Test {
		where += " (tests)"
	}
	return fmt.Sprintf("%s imports %s: %s", where, v.Import, v.Rule)
}

// vendorSDK matches the import paths of the clouds' SDKs.
var vendorSDK = regexp.MustCompile(`^(github\.com/(aws/aws-sdk-go-v2|aws/smithy-go|aliyun/alibaba-cloud-sdk-go|tencentcloud/tencentcloud-sdk-go|huaweicloud/huaweicloud-sdk-go-v3|volcengine/volcengine-go-sdk|Azure/azure-sdk-for-go)|cloud\.google\.com/go|google\.golang\.org/api)(/|$)`)

// clouds are the adapter folders under providers/.
var clouds = []string{"aws", "alibaba", "tencent", "huawei", "volcengine", "azure", "gcp"}

// testHelpers are packages of ours that any package's tests may import: they
// import nothing of ours that would turn a test into an upward dependency.
var testHelpers = map[string]bool{"internal/golden": true, "internal/browsertest": true, "internal/testlane": true}

// Rules, in the words a violation is reported with.
const (
	RuleVendorSDK     = "a vendor SDK is imported only inside providers/<cloud>"
	RuleCloudToCloud  = "a cloud adapter never imports another cloud's adapter"
	RuleCatalog       = "catalog imports nothing of ours"
	RuleCompare       = "compare imports only catalog"
	RuleSitegen       = "sitegen never imports providers"
	RuleProviders     = "providers never imports sitegen or compare"
	RuleTemplates     = "templates imports nothing of ours"
	RuleTestsUpward   = "tests of catalog, compare and sitegen never import providers"
	RuleProviderTests = "tests of providers never import sitegen or compare"
	RuleWords         = "words imports only catalog, compare and templates"
	RuleBelowWords    = "catalog and compare never import words"
	RuleCLI           = "internal/cli never imports sitegen (cmd/gpuatlas wires it in: cli.Site)"
)

// Check returns every import of pkgs that breaks a rule; module is the module
// path, which is stripped from imports of ours. The result is sorted.
func Check(module string, pkgs []Package) []Violation {
	var out []Violation
	for _, p := range pkgs {
		for _, imp := range p.Imports {
			out = append(out, check(module, p.Path, imp, false)...)
		}
		for _, imp := range p.TestImports {
			out = append(out, check(module, p.Path, imp, true)...)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Package != out[j].Package {
			return out[i].Package < out[j].Package
		}
		if out[i].Import != out[j].Import {
			return out[i].Import < out[j].Import
		}
		return out[i].Rule < out[j].Rule
	})
	return dedupe(out)
}

func check(module, pkg, imp string, test bool) []Violation {
	var out []Violation
	bad := func(rule, shown string) {
		out = append(out, Violation{Package: pkg, Import: shown, Test: test, Rule: rule})
	}
	if vendorSDK.MatchString(imp) && cloudOf(pkg) == "" {
		bad(RuleVendorSDK, imp)
	}
	ours, rel := ourPath(module, imp)
	if !ours || rel == pkg {
		return out
	}
	if c := cloudOf(pkg); c != "" {
		if other := cloudOf(rel); other != "" && other != c {
			bad(RuleCloudToCloud, rel)
		}
	}
	if test && testHelpers[rel] {
		return out
	}
	switch {
	case (under(pkg, "catalog") || under(pkg, "compare")) && under(rel, "words"):
		bad(RuleBelowWords, rel)
	case under(pkg, "catalog"):
		if !under(rel, "catalog") {
			bad(RuleCatalog, rel)
		}
		if test && under(rel, "providers") {
			bad(RuleTestsUpward, rel)
		}
	case under(pkg, "compare"):
		if !test && !under(rel, "catalog") && !under(rel, "compare") {
			bad(RuleCompare, rel)
		}
		if test && under(rel, "providers") {
			bad(RuleTestsUpward, rel)
		}
	case under(pkg, "sitegen"):
		if under(rel, "providers") {
			if test {
				bad(RuleTestsUpward, rel)
			} else {
				bad(RuleSitegen, rel)
			}
		}
	case under(pkg, "words"):
		if !under(rel, "words") && !under(rel, "catalog") && !under(rel, "compare") && !under(rel, "templates") {
			bad(RuleWords, rel)
		}
	case under(pkg, "internal/cli"):
		if under(rel, "sitegen") {
			bad(RuleCLI, rel)
		}
	case under(pkg, "templates"):
		if !test {
			bad(RuleTemplates, rel)
		}
	case under(pkg, "providers"):
		if under(rel, "sitegen") || under(rel, "compare") {
			if test {
				bad(RuleProviderTests, rel)
			} else {
				bad(RuleProviders, rel)
			}
		}
	}
	return out
}

// ourPath reports whether imp is a package of the module, and its path relative
// to the module root.
func ourPath(module, imp string) (bool, string) {
	if imp == module {
		return true, "."
	}
	if rest, ok := strings.CutPrefix(imp, module+"/"); ok {
		return true, rest
	}
	return false, ""
}

// under reports whether rel is the folder dir or inside it.
func under(rel, dir string) bool { return rel == dir || strings.HasPrefix(rel, dir+"/") }

// cloudOf is the cloud whose adapter folder holds rel, or "".
func cloudOf(rel string) string {
	for _, c := range clouds {
		if under(rel, "providers/"+c) {
			return c
		}
	}
	return ""
}

func dedupe(vs []Violation) []Violation {
	out := vs[:0]
	for i, v := range vs {
		if i > 0 && v == vs[i-1] {
			continue
		}
		out = append(out, v)
	}
	return out
}

// Load lists the packages of the module in dir with `go list -json ./...`, and
// returns the module path and the packages.
func Load(dir string) (string, []Package, error) {
	cmd := exec.Command("go", "list", "-e", "-json=ImportPath,Module,Imports,TestImports,XTestImports,Error", "./...")
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	raw, err := cmd.Output()
	if err != nil {
		return "", nil, fmt.Errorf("go list in %s: %w: %s", dir, err, strings.TrimSpace(stderr.String()))
	}
	return parse(raw)
}

type listed struct {
	ImportPath   string
	Module       *struct{ Path string }
	Imports      []string
	TestImports  []string
	XTestImports []string
	Error        *struct{ Err string }
}

func parse(raw []byte) (string, []Package, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	var module string
	var pkgs []Package
	for {
		var l listed
		if err := dec.Decode(&l); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			return "", nil, fmt.Errorf("reading go list output: %w", err)
		}
		if l.Error != nil {
			return "", nil, fmt.Errorf("go list: %s: %s", l.ImportPath, l.Error.Err)
		}
		if l.Module == nil {
			continue
		}
		module = l.Module.Path
		_, rel := ourPath(module, l.ImportPath)
		pkgs = append(pkgs, Package{Path: rel, Imports: l.Imports, TestImports: append(l.TestImports, l.XTestImports...)})
	}
	if module == "" {
		return "", nil, errors.New("go list found no packages of a module")
	}
	return module, pkgs, nil
}
