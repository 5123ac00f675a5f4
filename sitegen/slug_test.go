package sitegen

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gpuatlas/gpuatlas/catalog"
)

func TestSlugify(t *testing.T) {
	cases := []struct{ in, want string }{
		{"p5.48xlarge", "p5.48xlarge"},
		{"ecs.gn7i-c8g1.2xlarge", "ecs.gn7i-c8g1.2xlarge"},
		{"GN10Xp.20XLARGE320", "gn10xp.20xlarge320"},
		{"../../etc/x<script>", "etc-x-script"},
		{"..", "x"},
		{"", "x"},
		{"a/b\\c d", "a-b-c-d"},
		{"...hidden", "hidden"},
		{"a..b", "a.b"},
		{"вычисл", "x"},
		{strings.Repeat("a", 300), strings.Repeat("a", maxSlug)},
	}
	for _, c := range cases {
		got := slugify(c.in)
		if got != c.want {
			t.Errorf("slugify(%q) = %q, want %q", c.in, got, c.want)
		}
		if strings.Contains(got, "..") || strings.Contains(got, "/") || strings.HasPrefix(got, ".") {
			t.Errorf("slugify(%q) = %q is not a safe file name", c.in, got)
		}
	}
}

func TestInstancePaths_CollisionsResolveDeterministically(t *testing.T) {
	types := []catalog.InstanceType{
		{Provider: catalog.Tencent, ID: "gn10x.large"},
		{Provider: catalog.Tencent, ID: "GN10X.LARGE"},
		{Provider: catalog.Tencent, ID: "gn10x.large-2"},
		{Provider: catalog.AWS, ID: "gn10x.large"},
	}
	want := map[string]string{
		"tencent/GN10X.LARGE":   "instances/tencent/gn10x.large.html",
		"tencent/gn10x.large":   "instances/tencent/gn10x.large-2.html",
		"tencent/gn10x.large-2": "instances/tencent/gn10x.large-2-2.html",
		"aws/gn10x.large":       "instances/aws/gn10x.large.html",
	}
	if diff := cmp.Diff(want, instancePaths(types)); diff != "" {
		t.Errorf("paths (-want +got):\n%s", diff)
	}
	reversed := []catalog.InstanceType{types[3], types[2], types[1], types[0]}
	if diff := cmp.Diff(want, instancePaths(reversed)); diff != "" {
		t.Errorf("paths depend on input order (-want +got):\n%s", diff)
	}
}
