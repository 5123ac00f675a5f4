package layering

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const mod = "github.com/gpuatlas/gpuatlas"

// TestCheck_EachRuleRejects gives each rule one violating import and one
// allowed neighbour, and expects exactly the violation.
func TestCheck_EachRuleRejects(t *testing.T) {
	cases := []struct {
		name string
		pkg  Package
		want []Violation
	}{
		{"vendor SDK outside providers/<cloud>", Package{Path: "sitegen", Imports: []string{"github.com/aws/aws-sdk-go-v2/service/ec2", "github.com/go-analyze/charts"}},
			[]Violation{{"sitegen", "github.com/aws/aws-sdk-go-v2/service/ec2", false, RuleVendorSDK}}},
		{"vendor SDK in the providers package", Package{Path: "providers", Imports: []string{"github.com/aliyun/alibaba-cloud-sdk-go/sdk"}},
			[]Violation{{"providers", "github.com/aliyun/alibaba-cloud-sdk-go/sdk", false, RuleVendorSDK}}},
		{"Google's and Azure's SDKs outside their adapters", Package{Path: "internal/cli", Imports: []string{"google.golang.org/api/compute/v1",
			"cloud.google.com/go/auth", "github.com/Azure/azure-sdk-for-go/sdk/azcore", "google.golang.org/protobuf/proto"}},
			[]Violation{{"internal/cli", "cloud.google.com/go/auth", false, RuleVendorSDK}, {"internal/cli", "github.com/Azure/azure-sdk-for-go/sdk/azcore", false, RuleVendorSDK},
				{"internal/cli", "google.golang.org/api/compute/v1", false, RuleVendorSDK}}},
		{"Google's SDK in its own adapter", Package{Path: "providers/gcp", Imports: []string{"google.golang.org/api/compute/v1", "cloud.google.com/go/auth", mod + "/providers"}}, nil},
		{"vendor SDK in its own adapter", Package{Path: "providers/tencent", Imports: []string{"github.com/tencentcloud/tencentcloud-sdk-go/tencentcloud/cvm/v20170312", mod + "/providers", mod + "/catalog"}}, nil},
		{"cloud to cloud", Package{Path: "providers/aws", Imports: []string{mod + "/providers/alibaba"}},
			[]Violation{{"providers/aws", "providers/alibaba", false, RuleCloudToCloud}}},
		{"cloud to cloud from a sub-package", Package{Path: "providers/huawei/internal/fixturegen", Imports: []string{mod + "/providers/volcengine"}},
			[]Violation{{"providers/huawei/internal/fixturegen", "providers/volcengine", false, RuleCloudToCloud}}},
		{"cloud to cloud in tests", Package{Path: "providers/tencent", TestImports: []string{mod + "/providers/aws"}},
			[]Violation{{"providers/tencent", "providers/aws", true, RuleCloudToCloud}}},
		{"registry may import every cloud", Package{Path: "providers/registry", Imports: []string{mod + "/providers/aws", mod + "/providers/alibaba"}}, nil},
		{"catalog imports ours", Package{Path: "catalog", Imports: []string{mod + "/compare"}},
			[]Violation{{"catalog", "compare", false, RuleCatalog}}},
		{"catalog tests may use golden", Package{Path: "catalog", TestImports: []string{mod + "/internal/golden"}}, nil},
		{"compare imports sitegen", Package{Path: "compare", Imports: []string{mod + "/catalog", mod + "/sitegen"}},
			[]Violation{{"compare", "sitegen", false, RuleCompare}}},
		{"compare imports data", Package{Path: "compare", Imports: []string{mod + "/data"}},
			[]Violation{{"compare", "data", false, RuleCompare}}},
		{"compare tests import providers", Package{Path: "compare", TestImports: []string{mod + "/data", mod + "/providers/replay"}},
			[]Violation{{"compare", "providers/replay", true, RuleTestsUpward}}},
		{"sitegen imports providers", Package{Path: "sitegen", Imports: []string{mod + "/compare", mod + "/providers/fx"}},
			[]Violation{{"sitegen", "providers/fx", false, RuleSitegen}}},
		{"providers imports compare", Package{Path: "providers/aws", Imports: []string{mod + "/compare"}},
			[]Violation{{"providers/aws", "compare", false, RuleProviders}}},
		{"providers imports sitegen", Package{Path: "providers", Imports: []string{mod + "/sitegen"}},
			[]Violation{{"providers", "sitegen", false, RuleProviders}}},
		{"provider tests import sitegen", Package{Path: "providers/replay", TestImports: []string{mod + "/sitegen"}},
			[]Violation{{"providers/replay", "sitegen", true, RuleProviderTests}}},
		{"templates imports ours", Package{Path: "templates", Imports: []string{mod + "/catalog"}},
			[]Violation{{"templates", "catalog", false, RuleTemplates}}},
		{"the CLI imports everything but sitegen", Package{Path: "internal/cli", Imports: []string{mod + "/providers/registry", mod + "/words", mod + "/compare", mod + "/templates"}}, nil},
		{"the CLI imports sitegen", Package{Path: "internal/cli", Imports: []string{mod + "/words", mod + "/sitegen"}},
			[]Violation{{"internal/cli", "sitegen", false, RuleCLI}}},
		{"CLI tests import sitegen", Package{Path: "internal/cli", TestImports: []string{mod + "/providers/replay", mod + "/sitegen"}},
			[]Violation{{"internal/cli", "sitegen", true, RuleCLI}}},
		{"the command wires sitegen in", Package{Path: "cmd/gpuatlas", Imports: []string{mod + "/internal/cli", mod + "/sitegen"}}, nil},
		{"words imports catalog, compare and templates", Package{Path: "words", Imports: []string{mod + "/catalog", mod + "/compare", mod + "/templates"},
			TestImports: []string{mod + "/templates", mod + "/internal/golden"}}, nil},
		{"words imports sitegen", Package{Path: "words", Imports: []string{mod + "/compare", mod + "/sitegen"}},
			[]Violation{{"words", "sitegen", false, RuleWords}}},
		{"words imports data", Package{Path: "words", Imports: []string{mod + "/data"}},
			[]Violation{{"words", "data", false, RuleWords}}},
		{"words tests import internal/cli", Package{Path: "words", TestImports: []string{mod + "/catalog", mod + "/internal/cli"}},
			[]Violation{{"words", "internal/cli", true, RuleWords}}},
		{"sitegen imports words", Package{Path: "sitegen", Imports: []string{mod + "/words", mod + "/compare", mod + "/templates"}}, nil},
		{"compare imports words", Package{Path: "compare", Imports: []string{mod + "/catalog", mod + "/words"}},
			[]Violation{{"compare", "words", false, RuleBelowWords}}},
		{"compare tests import words", Package{Path: "compare", TestImports: []string{mod + "/data", mod + "/words"}},
			[]Violation{{"compare", "words", true, RuleBelowWords}}},
		{"catalog imports words", Package{Path: "catalog", Imports: []string{mod + "/words"}},
			[]Violation{{"catalog", "words", false, RuleBelowWords}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := Check(mod, []Package{c.pkg})
			if diff := cmp.Diff(c.want, got); diff != "" {
				t.Errorf("violations (-want +got):\n%s", diff)
			}
		})
	}
}

// TestLoad_RejectsCloudToCloudImport runs the real check (go list) on a small
// module laid out like this one, in which the AWS adapter imports Alibaba's.
func TestLoad_RejectsCloudToCloudImport(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"go.mod":                       "module " + mod + "\n\ngo 1.26\n",
		"catalog/catalog.go":           "package catalog\n",
		"providers/providers.go":       "package providers\n\nimport _ \"" + mod + "/catalog\"\n",
		"providers/alibaba/alibaba.go": "package alibaba\n\nimport _ \"" + mod + "/providers\"\n",
		"providers/aws/aws.go":         "package aws\n\nimport _ \"" + mod + "/providers/alibaba\"\n",
	}
	for name, body := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("GOWORK", "off")
	t.Setenv("GOFLAGS", "-mod=mod")
	module, pkgs, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if module != mod || len(pkgs) != 4 {
		t.Fatalf("loaded module %q with %d packages, want %q with 4", module, len(pkgs), mod)
	}
	got := Check(module, pkgs)
	want := []Violation{{"providers/aws", "providers/alibaba", false, RuleCloudToCloud}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("violations (-want +got):\n%s", diff)
	}
	if !strings.Contains(got[0].String(), "providers/aws imports providers/alibaba") {
		t.Errorf("message %q does not say which package imports which", got[0])
	}
}

// TestCheck_ThisModule keeps the real tree clean (make lint runs the same check).
func TestCheck_ThisModule(t *testing.T) {
	module, pkgs, err := Load("../..")
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range Check(module, pkgs) {
		t.Error(v)
	}
}
