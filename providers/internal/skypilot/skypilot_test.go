package skypilot

import "testing"

func TestRecoverCNY(t *testing.T) {
	tests := []struct{ usd, want string }{
		{"4.56135954", "33.05333"}, // Alibaba gn6i row: not to the cent
		{"1.0833", "7.85"},         // Tencent GN7 row: back to the fen
		{"0.011592", "0.084"},      // the gn5i artefact
	}
	for _, tt := range tests {
		got, err := RecoverCNY(tt.usd)
		if err != nil || got.String() != tt.want {
			t.Errorf("RecoverCNY(%s) = %s, %v; want %s", tt.usd, got, err, tt.want)
		}
	}
	if _, err := RecoverCNY("x"); err == nil {
		t.Error("malformed amount: want an error")
	}
}
