package ghactions

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gpuatlas/gpuatlas/catalog"
)

// Whatever the file name, message or title, an annotation is one line that
// the runner reads back as exactly what was meant.
func TestAnnotation_Hostile(t *testing.T) {
	hostile := []string{
		"plain",
		"x.csv\n::error file=README.md,line=1::forged",
		"x.csv\r\n::add-mask::secret",
		"%0A%25 already escaped looking",
		"a:b,c=d::e",
		"  ::warning::leading blanks",
		"\x1b[31mred\x1b[0m and \u202eoverride",
		"guard: price 10 USD/hour → 30 USD/hour (+200.00%), beyond ±50%",
	}
	for _, file := range hostile {
		for _, msg := range hostile {
			line := Annotation("error", "gpuatlas validate", file, 7, msg)
			if strings.ContainsAny(line, "\r\n") {
				t.Fatalf("Annotation(%q, %q) spans lines: %q", file, msg, line)
			}
			got := ReadCommands(line)
			want := []Command{{Command: "error", Props: map[string]string{"file": catalog.SafeLine(file), "line": "7", "title": "gpuatlas validate"}, Message: catalog.SafeLine(msg)}}
			// Line breaks survive as breaks; other control characters as Go escapes.
			want[0].Props["file"] = strings.NewReplacer(`\n`, "\n", `\r`, "\r").Replace(want[0].Props["file"])
			want[0].Message = strings.NewReplacer(`\n`, "\n", `\r`, "\r").Replace(want[0].Message)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("Annotation(%q, %q) = %q reads back (-want +got):\n%s", file, msg, line, diff)
			}
		}
	}
	if got := Annotation("warning", "", "", 0, "m"); got != "::warning::m" {
		t.Errorf("no properties: %q", got)
	}
}

// Whatever the file, title and message, an annotation is one line, one
// command, and reads back as what was meant (control characters but line
// breaks shown as escapes).
func FuzzAnnotation(f *testing.F) {
	f.Add("data/benchmarks/a.csv", "gpuatlas validate", "value 0 must be positive")
	f.Add("x.csv\n::error file=README.md,line=1::forged", "t:i,t\rle", "100% %0A %25\r\n::add-mask::x")
	f.Add("\x1b[2J\u202e", "", "\xff\xfe")
	f.Fuzz(func(t *testing.T, file, title, msg string) {
		line := Annotation("error", title, file, 3, msg)
		if strings.ContainsAny(line, "\r\n") {
			t.Fatalf("annotation spans lines: %q", line)
		}
		cmds := ReadCommands(line)
		if len(cmds) != 1 || cmds[0].Command != "error" {
			t.Fatalf("annotation %q reads as %+v", line, cmds)
		}
		c := cmds[0]
		same := func(got, want string) bool { return catalog.SafeLine(got) == catalog.SafeLine(want) }
		if !same(c.Message, msg) || (file != "" && !same(c.Props["file"], file)) || (title != "" && !same(c.Props["title"], title)) {
			t.Fatalf("annotation %q reads back as %+v; want file %q, title %q, message %q", line, c, file, title, msg)
		}
		wantProps := 0
		if file != "" {
			wantProps += 2 // file and line
		}
		if title != "" {
			wantProps++
		}
		if len(c.Props) != wantProps {
			t.Fatalf("annotation %q has properties %v", line, c.Props)
		}
	})
}
