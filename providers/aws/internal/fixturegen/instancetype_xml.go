package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// kept lists the InstanceTypeInfo members written to the recorded answers (a
// member's whole subtree; list items add nothing to the path). The others are left
// out to keep the fixtures small: the catalog does not read them, and EBS figures,
// core lists, connection tracking and placement details make up most of a record.
var kept = map[string]bool{
	"InstanceType": true, "CurrentGeneration": true, "BareMetal": true, "Hypervisor": true,
	"VCpuInfo.DefaultVCpus": true, "VCpuInfo.DefaultCores": true, "VCpuInfo.DefaultThreadsPerCore": true,
	"MemoryInfo": true, "ProcessorInfo": true, "InstanceStorageSupported": true, "InstanceStorageInfo": true,
	"NetworkInfo.NetworkPerformance": true, "NetworkInfo.EfaSupported": true, "NetworkInfo.EfaInfo": true,
	"NetworkInfo.MaximumNetworkCards": true, "NetworkInfo.NetworkCards.NetworkCardIndex": true,
	"NetworkInfo.NetworkCards.NetworkPerformance": true, "NetworkInfo.NetworkCards.BaselineBandwidthInGbps": true,
	"NetworkInfo.NetworkCards.PeakBandwidthInGbps": true,
	"GpuInfo": true, "NeuronInfo": true, "InferenceAcceleratorInfo": true, "FpgaInfo": true, "MediaAcceleratorInfo": true,
	"SupportedUsageClasses": true,
}

// trim returns the record with only the kept members.
func trim(v any, path string) any {
	switch v := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, e := range v {
			p := k
			if path != "" {
				p = path + "." + k
			}
			switch {
			case keptWhole(p):
				out[k] = e
			case keptPart(p):
				out[k] = trim(e, p)
			}
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = trim(e, path)
		}
		return out
	}
	return v
}

// keptWhole reports whether the member at path or one of its parents is kept.
func keptWhole(path string) bool {
	for p := path; ; {
		if kept[p] {
			return true
		}
		i := strings.LastIndex(p, ".")
		if i < 0 {
			return false
		}
		p = p[:i]
	}
}

// keptPart reports whether some member below path is kept.
func keptPart(path string) bool {
	for k := range kept {
		if strings.HasPrefix(k, path+".") {
			return true
		}
	}
	return false
}

// xmlNames are the EC2 XML element names that are not the JSON member name with
// a lower-case first letter (see the SDK's awsEc2query_deserializeDocument*).
var xmlNames = map[string]string{
	"Workloads":      "workloadSet",
	"InterfaceTypes": "interfaceTypeSet",
}

// writeXMLObject writes a JSON object's members as EC2 XML elements, in name
// order; parent is the object's own member name.
func writeXMLObject(b *bytes.Buffer, obj map[string]any, parent string) {
	for _, k := range slices.Sorted(maps.Keys(obj)) {
		name := xmlNames[k]
		if name == "" {
			name = strings.ToLower(k[:1]) + k[1:]
		}
		b.WriteString("<" + name + ">")
		writeXMLValue(b, obj[k], parent+"."+k)
		b.WriteString("</" + name + ">")
	}
}

func writeXMLValue(b *bytes.Buffer, v any, path string) {
	switch v := v.(type) {
	case map[string]any:
		writeXMLObject(b, v, path)
	case []any:
		// EC2 wraps list members in <item>, except InferenceAcceleratorInfo's
		// accelerators, whose members are <member> (awsEc2query_deserializeDocumentInferenceDeviceInfoList).
		elem := "item"
		if strings.HasSuffix(path, "InferenceAcceleratorInfo.Accelerators") {
			elem = "member"
		}
		for _, e := range v {
			b.WriteString("<" + elem + ">")
			writeXMLValue(b, e, path)
			b.WriteString("</" + elem + ">")
		}
	case string:
		b.WriteString(esc(v))
	case json.Number:
		b.WriteString(v.String())
	case bool:
		fmt.Fprint(b, v)
	case nil:
	}
}
