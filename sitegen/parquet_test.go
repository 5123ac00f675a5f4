package sitegen

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/parquet-go/parquet-go"

	"github.com/gpuatlas/gpuatlas/catalog"
)

func readParquet[T any](t *testing.T, b []byte) ([]T, []string) {
	t.Helper()
	f, err := parquet.OpenFile(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatalf("open parquet: %v", err)
	}
	var cols []string
	for _, c := range f.Schema().Fields() {
		cols = append(cols, c.Name())
	}
	r := parquet.NewGenericReader[T](bytes.NewReader(b))
	rows := make([]T, r.NumRows())
	if n, err := r.Read(rows); n != len(rows) {
		t.Fatalf("read %d of %d rows: %v", n, len(rows), err)
	}
	if err := r.Close(); err != nil {
		t.Fatalf("close parquet reader: %v", err)
	}
	return rows, cols
}

func TestWriteOffersParquet_ReadBack(t *testing.T) {
	snap := testSnapshot(t)
	var b bytes.Buffer
	if err := WriteOffersParquet(&b, snap, catalog.AWS); err != nil {
		t.Fatal(err)
	}
	rows, cols := readParquet[offerParquet](t, b.Bytes())
	if diff := cmp.Diff(OfferColumns[1:], cols); diff != "" {
		t.Errorf("columns are not OfferColumns without the provider partition (-want +got):\n%s", diff)
	}
	if len(rows) != 7 {
		t.Fatalf("%d AWS offers read back, want 7", len(rows))
	}
	var reserved offerParquet
	for _, r := range rows {
		if r.InstanceType == "p5.48xlarge" && r.Billing == "reserved_1y_all_upfront" {
			reserved = r
		}
	}
	usd := int64(60_502283) // 530000 / 8760 = 60.502283 to 6 places
	observed := time.Date(2026, 11, 30, 1, 30, 0, 0, time.UTC)
	want := offerParquet{
		InstanceType: "p5.48xlarge", Region: "us-east-1", Billing: "reserved_1y_all_upfront", Price: "0", Currency: "USD",
		Unit: "hour", PriceUSDPerHour: &usd, GPUModel: "nvidia-h100-sxm-80gb", GPUCount: 8, GPUMemoryGiB: 640, VCPUs: 192,
		MemoryGiB: 2048, Source: "pricing.GetProducts", FetchedAt: time.Date(2026, 11, 30, 1, 30, 0, 0, time.UTC),
		Upfront: "530000", Availability: "available", GPUName: "H100", GPUMemoryGiBEach: floatPtr(catalog.Dec("80")), Family: "p5",
		ObservedAt: &observed,
		// Its facts: 60.50228311 / 8 GPUs, / 640 GiB, against on-demand.
		PricePerGPUHour: "7.56278539", PricePerGiBHour: "0.09453482", SavingVsOnDemandPct: "38.46",
		// 530000 / 8760 per hour, times 730 per month.
		SubscriptionPerMonth: "44166.67", SubscriptionHourlyEquivalent: "60.502283",
	}
	if diff := cmp.Diff(want, reserved); diff != "" {
		t.Errorf("reserved p5.48xlarge read back (-want +got):\n%s", diff)
	}
	var suspect offerParquet
	for _, r := range rows {
		if r.Suspect != "" {
			suspect = r
		}
	}
	if suspect.InstanceType != "g5.xlarge" || suspect.Region != "us-west-2" || *suspect.PriceUSDPerHour != 10100 {
		t.Errorf("suspect offer read back = %+v", suspect)
	}
	// The spot figure is an old dataset's average with its band.
	var spot offerParquet
	for _, r := range rows {
		if r.Billing == "spot" {
			spot = r
		}
	}
	if spot.ObservedAt == nil || !spot.ObservedAt.Equal(time.Date(2025, 11, 30, 0, 0, 0, 0, time.UTC)) || spot.PriceMin != "13.2182" || spot.PriceMax != "52.0766" {
		t.Errorf("spot offer read back: observed %v, band %q..%q", spot.ObservedAt, spot.PriceMin, spot.PriceMax)
	}
	// An undated offer reads back with a null observed_at; a reported one says so.
	rows, _ = readParquet[offerParquet](t, parquetOf(t, snap, catalog.Alibaba))
	if len(rows) == 0 {
		t.Fatal("no alibaba offers read back")
	}
	if rows[0].ObservedAt != nil {
		t.Errorf("alibaba observed_at = %v, want null", rows[0].ObservedAt)
	}
	rows, _ = readParquet[offerParquet](t, parquetOf(t, snap, catalog.Huawei))
	if len(rows) != 1 || !rows[0].Reported {
		t.Errorf("huawei offers = %+v, want one reported", rows)
	}
}

func parquetOf(t *testing.T, snap *catalog.Snapshot, p catalog.Provider) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := WriteOffersParquet(&b, snap, p); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestWriteInstancesParquet_ReadBack(t *testing.T) {
	snap := testSnapshot(t)
	var b bytes.Buffer
	if err := WriteInstancesParquet(&b, snap, catalog.AWS); err != nil {
		t.Fatal(err)
	}
	rows, cols := readParquet[instanceParquet](t, b.Bytes())
	if diff := cmp.Diff(InstanceColumns[1:], cols); diff != "" {
		t.Errorf("columns are not InstanceColumns without the provider partition (-want +got):\n%s", diff)
	}
	var ids []string
	for _, r := range rows {
		ids = append(ids, r.InstanceType)
	}
	if diff := cmp.Diff([]string{"g5.xlarge", "g6f.large", "p5.48xlarge"}, ids); diff != "" {
		t.Errorf("AWS instance types read back (-want +got):\n%s", diff)
	}
	p5 := rows[2]
	if p5.GPUCount != 8 || p5.RDMA != "efa" || p5.Interconnect != "nvlink" || p5.LocalStorageGB == nil || *p5.LocalStorageGB != 30400 || !p5.LocalNVMe {
		t.Errorf("p5.48xlarge read back = %+v", p5)
	}
	if g6f := rows[1]; g6f.GPUCount != 0.125 || g6f.LocalStorageGB != nil {
		t.Errorf("g6f.large read back = %+v", g6f)
	}
}

// TestBuild_ParquetPartitions checks the published folders: one file per provider
// under provider=<id>/, holding together every offer and type, byte-identical on
// a rebuild.
func TestBuild_ParquetPartitions(t *testing.T) {
	out := buildSite(t)
	snap := testSnapshot(t)
	offers, types := 0, 0
	for _, p := range []string{"alibaba", "aws", "huawei", "volcengine"} {
		b, err := os.ReadFile(filepath.Join(out, "data", "parquet", "offers", "provider="+p, "part-0.parquet"))
		if err != nil {
			t.Fatal(err)
		}
		rows, _ := readParquet[offerParquet](t, b)
		offers += len(rows)
		b, err = os.ReadFile(filepath.Join(out, "data", "parquet", "instances", "provider="+p, "part-0.parquet"))
		if err != nil {
			t.Fatal(err)
		}
		trows, _ := readParquet[instanceParquet](t, b)
		types += len(trows)
	}
	if offers != len(snap.Offers) || types != len(snap.Instances) {
		t.Errorf("the partitions hold %d offers and %d types, want %d and %d", offers, types, len(snap.Offers), len(snap.Instances))
	}
	if _, err := os.Stat(filepath.Join(out, "data", "parquet", "offers", "provider=tencent")); err == nil {
		t.Error("a provider without offers has a partition")
	}
	var a, b bytes.Buffer
	if err := WriteOffersParquet(&a, snap, catalog.Alibaba); err != nil {
		t.Fatal(err)
	}
	if err := WriteOffersParquet(&b, testSnapshot(t), catalog.Alibaba); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Error("two writes of the same offers differ")
	}
}
