package skypilot

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

const vmsHeader = "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,Price,Region,AvailabilityZone,Generation,SpotPrice\n"

func writeVMs(t *testing.T, rows string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "vms.csv")
	if err := os.WriteFile(path, []byte(vmsHeader+rows), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestReadVMs(t *testing.T) {
	path := writeVMs(t, "GN7.LARGE20,T4,1,4,20,1.0833,ap-guangzhou,ap-guangzhou-3,GN7,0.5\n")
	vms, err := ReadVMs(path, "SpotPrice")
	if err != nil {
		t.Fatal(err)
	}
	want := VM{InstanceType: "GN7.LARGE20", AcceleratorName: "T4", AcceleratorCount: "1", VCPUs: "4", MemoryGiB: "20",
		Price: "1.0833", Region: "ap-guangzhou", Zone: "ap-guangzhou-3", Family: "GN7"}
	if len(vms) != 1 {
		t.Fatalf("ReadVMs: %d rows, want 1", len(vms))
	}
	got := vms[0]
	got.Row = want.Row
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("ReadVMs = %+v, want %+v", got, want)
	}
	if spot := vms[0].Get("SpotPrice"); spot != "0.5" {
		t.Errorf("extra column SpotPrice = %q, want 0.5", spot)
	}
}

func TestReadVMs_Errors(t *testing.T) {
	path := writeVMs(t, "GN7.LARGE20,T4,1,4,20,1.0833,ap-guangzhou,ap-guangzhou-3,GN7,\nGN7.BAD,T4,one,4,20,1,ap-guangzhou,ap-guangzhou-3,GN7,\n")
	if _, err := ReadVMs(path); err == nil || !strings.Contains(err.Error(), path+`:3: GN7.BAD: AcceleratorCount "one" is not a number`) {
		t.Errorf("ReadVMs: %v, want the file:line of the bad count", err)
	}
	if _, err := ReadVMs(path, "Arch"); err == nil || !strings.Contains(err.Error(), "no column Arch") {
		t.Errorf("ReadVMs with a missing extra column: %v", err)
	}
}

func TestCatalog_Provenance(t *testing.T) {
	c := Catalog{Repo: "sugarlxn/skypilot-catalog", Path: "catalogs/v8/tencentcloud/vms.csv", Commit: "3193"}
	want := "https://github.com/sugarlxn/skypilot-catalog/blob/3193/catalogs/v8/tencentcloud/vms.csv (via ../shared/realdata/tencent/cvm_gpu_vms.csv, unchanged but LF line endings; no licence file in the repository)"
	if got := c.Provenance("../shared/realdata/tencent/cvm_gpu_vms.csv"); got != want {
		t.Errorf("Provenance =\n%s\nwant\n%s", got, want)
	}
}
