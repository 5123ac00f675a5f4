package words

import (
	"strings"
	"testing"
)

// TestMemoryUnits: in every language, a label of GPU memory says GB and not
// GiB, a label of an instance's memory says GiB (units.go).
func TestMemoryUnits(t *testing.T) {
	for _, l := range loadTestLanguages(t) {
		lang, cat := l.Tag, l.messages
		for _, k := range GPUMemoryLabels {
			s, ok := cat[k]
			if !ok {
				t.Errorf("%s: no message %s", lang, k)
				continue
			}
			if !strings.Contains(s, GPUMemoryUnit) || strings.Contains(s, RAMUnit) {
				t.Errorf("%s: %s = %q: GPU memory is in %s", lang, k, s, GPUMemoryUnit)
			}
		}
		for _, k := range RAMLabels {
			if s := cat[k]; !strings.Contains(s, RAMUnit) {
				t.Errorf("%s: %s = %q: an instance's memory is in %s", lang, k, s, RAMUnit)
			}
		}
	}
}
