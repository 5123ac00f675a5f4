package catalog

import (
	"strings"
	"testing"

	"github.com/shopspring/decimal"
)

const interconnectHeader = "provider,family,types,interconnect,bandwidth,bandwidth_unit,source,locator,source_date,note\n"

func TestParseInterconnects_Errors(t *testing.T) {
	cases := []struct{ name, row, want string }{
		{"kind", "aws,p3,,infiniband,,,https://x.example/doc,t,2024-01-01,", `data/interconnect.csv:2: interconnect "infiniband" is not one of`},
		{"unit", "aws,p3,,nvlink,300,Gbps,https://x.example/doc,t,2024-01-01,", `bandwidth_unit "Gbps" is not GB/s or GiB/s`},
		{"unit without figure", "aws,p3,,nvlink,,GB/s,https://x.example/doc,t,2024-01-01,", "bandwidth_unit without a bandwidth"},
		{"negative", "aws,p3,,nvlink,-3,GB/s,https://x.example/doc,t,2024-01-01,", `bandwidth "-3" is not a positive number`},
		{"source", "aws,p3,,nvlink,,,aggregator,t,2024-01-01,", "source must be the https address"},
		{"date", "aws,p3,,nvlink,,,https://x.example/doc,t,2024,", `source_date "2024" is not a date`},
		{"family of type", "aws,p3,p4d.24xlarge,nvswitch,,,https://x.example/doc,t,2024-01-01,", `type "p4d.24xlarge" is not of family "p3"`},
		{"provider", "oracle,nc,,nvlink,,,https://x.example/doc,t,2024-01-01,", "oracle"},
		{"duplicate family", "aws,p3,,nvlink,,,https://x.example/doc,t,2024-01-01,\naws,p3,,pcie,,,https://x.example/doc,t,2024-01-01,", "data/interconnect.csv:3: family aws/p3 is listed twice"},
		{"duplicate type", "aws,p3,p3.8xlarge,nvlink,,,https://x.example/doc,t,2024-01-01,\naws,p3,p3.8xlarge,pcie,,,https://x.example/doc,t,2024-01-01,", "type aws/p3.8xlarge is listed twice"},
		{"long field", "aws,p3,,nvlink,,,https://x.example/doc,t,2024-01-01," + strings.Repeat("x", 3000), "note is longer than 2000 bytes"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ParseInterconnects("data/interconnect.csv", strings.NewReader(interconnectHeader+c.row+"\n"))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err = %v, want it to contain %q", err, c.want)
			}
		})
	}
}

func TestInterconnects_ApplyTypeOverFamily(t *testing.T) {
	ix, err := ParseInterconnects("x.csv", strings.NewReader(interconnectHeader+
		"aws,p3,,nvlink,,,https://docs.example/p3,family,2023-05-11,\n"+
		"aws,p3,p3.8xlarge,nvlink,200,GB/s,https://docs.example/blog,table,2017-10-25,\n"+
		"aws,trn1,,neuronlink,384,GiB/s,https://docs.example/neuron,table,2024-12-06,\n"))
	if err != nil {
		t.Fatal(err)
	}
	gpus := func(n int) []Accelerator { return []Accelerator{{Count: n, Share: decimal.NewFromInt(1)}} }
	cases := []struct {
		typ         InstanceType
		kind, bw, u string
	}{
		{InstanceType{Provider: AWS, Family: "p3", ID: "p3.8xlarge", Accelerators: gpus(4)}, "nvlink", "200", "GB/s"},
		{InstanceType{Provider: AWS, Family: "p3", ID: "p3.16xlarge", Accelerators: gpus(8)}, "nvlink", "", ""},
		{InstanceType{Provider: AWS, Family: "p3", ID: "p3.2xlarge", Accelerators: gpus(1)}, "", "", ""}, // one GPU: no link
		{InstanceType{Provider: AWS, Family: "trn1", ID: "trn1.32xlarge", Accelerators: gpus(16)}, "neuronlink", "384", "GiB/s"},
		{InstanceType{Provider: AWS, Family: "g5", ID: "g5.48xlarge", Accelerators: gpus(8)}, "", "", ""},                           // undocumented: unknown
		{InstanceType{Provider: AWS, Family: "p3", ID: "p3.16xlarge", Accelerators: gpus(8), Interconnect: "pcie"}, "pcie", "", ""}, // the API's word kept
	}
	for _, c := range cases {
		got := ix.Apply(c.typ)
		bw := ""
		if got.InterconnectBandwidth != nil {
			bw = got.InterconnectBandwidth.String()
		}
		if got.Interconnect != c.kind || bw != c.bw || got.InterconnectUnit != c.u {
			t.Errorf("%s: got %q %q %q, want %q %q %q", c.typ.ID, got.Interconnect, bw, got.InterconnectUnit, c.kind, c.bw, c.u)
		}
		if again := ix.Apply(got); again.Interconnect != got.Interconnect || again.InterconnectSource != got.InterconnectSource {
			t.Errorf("%s: Apply is not idempotent: %+v then %+v", c.typ.ID, got, again)
		}
	}
}
