package tencent

import (
	"strings"
	"testing"
)

func TestParseFamilies(t *testing.T) {
	fams, err := parseFamilies(strings.NewReader("family,model,confidence,source\nGN7vi,nvidia-t4-16gb,certain,doc\n"))
	if err != nil {
		t.Fatal(err)
	}
	if f, ok := fams[familyKey("GN7VI")]; !ok || f.model != "nvidia-t4-16gb" {
		t.Errorf("families = %+v", fams)
	}
	if _, err := parseFamilies(strings.NewReader("family,confidence\n")); err == nil {
		t.Error("a table without a model column was accepted")
	}
}
