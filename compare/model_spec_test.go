package compare

import (
	"strconv"
	"strings"
	"testing"

	"github.com/gpuatlas/gpuatlas/data"
)

func loadTestModels(t *testing.T) *ModelSet {
	t.Helper()
	ms, err := LoadModels(data.FS)
	if err != nil {
		t.Fatal(err)
	}
	return ms
}

// The committed table has the models the estimator promises, each with its
// source and the date it was read.
func TestLoadModels_Committed(t *testing.T) {
	ms := loadTestModels(t)
	for _, id := range []string{"llama-3.1-8b", "llama-3.1-70b", "llama-3.1-405b", "qwen2.5-7b", "qwen2.5-72b", "mistral-7b",
		"mixtral-8x7b", "deepseek-v3", "sdxl-base-1.0"} {
		m, ok := ms.Model(id)
		if !ok {
			t.Errorf("data/models.csv lacks %s", id)
			continue
		}
		if !strings.HasPrefix(m.Source, "https://huggingface.co/") || m.SourceDate == "" || m.Notes == "" {
			t.Errorf("%s: source %q, date %q, notes %q: every row says where its figures come from", id, m.Source, m.SourceDate, m.Notes)
		}
	}
}

// paramsFromShapes counts a transformer's parameters from its config's shapes:
// untied (or tied) embeddings, per layer the q, k, v, o projections (with q/k/v
// biases where the architecture has them), the MLP's gate, up and down
// projections for each expert (or the one dense MLP), the router and two norms,
// and the final norm. experts is how many experts' MLPs count (all for memory,
// the active ones for compute).
func paramsFromShapes(a Architecture, experts int) int64 {
	h, q, kv, f := int64(a.Hidden), int64(a.Heads*a.HeadDim), int64(a.KVHeads*a.HeadDim), int64(a.Intermediate)
	layer := h*q + 2*h*kv + q*h + 2*h
	if a.AttentionBias {
		layer += q + 2*kv
	}
	mlps := int64(1)
	if a.Experts > 0 {
		mlps = int64(experts)
		layer += h * int64(a.Experts) // router
	}
	layer += mlps * 3 * h * f
	emb := int64(2)
	if a.TiedEmbeddings {
		emb = 1
	}
	return emb*int64(a.Vocab)*h + int64(a.Layers)*layer + h
}

// Every dense and Mixtral-style row's parameter counts equal the count from its
// config's shapes, and the published checkpoint sizes (model.safetensors.index.json
// total_size in bf16, quoted in each row's notes) are twice the parameters. A
// figure mistyped in the table, or a shape that does not match the model, fails
// here.
func TestModels_ParamsMatchConfigShapesAndCheckpoints(t *testing.T) {
	ms := loadTestModels(t)
	checkpoints := map[string]int64{ // bytes, bf16
		"llama-3.1-8b": 16_060_522_496, "llama-3.1-70b": 141_107_412_992, "llama-3.1-405b": 811_706_777_600,
		"qwen2.5-7b": 15_231_233_024, "qwen2.5-72b": 145_412_407_296, "mistral-7b": 14_483_464_192, "mixtral-8x7b": 93_405_585_408,
	}
	for id, size := range checkpoints {
		m, ok := ms.Model(id)
		if !ok {
			t.Fatalf("no %s", id)
		}
		if got := paramsFromShapes(m.Arch, m.Arch.Experts); got != m.Params {
			t.Errorf("%s: params %d, the config's shapes give %d", id, m.Params, got)
		}
		if 2*m.Params != size {
			t.Errorf("%s: params %d, the published checkpoint of %d bytes holds %d", id, m.Params, size, size/2)
		}
		active := m.Params
		if m.Arch.Experts > 0 {
			active = paramsFromShapes(m.Arch, m.Arch.ActiveExperts)
		}
		if m.ActiveParams != active {
			t.Errorf("%s: active_params %d, the config's shapes give %d", id, m.ActiveParams, active)
		}
		if grouped := boundThousands(strconv.FormatInt(size, 10)); !strings.Contains(m.Notes, grouped) {
			t.Errorf("%s: the notes do not quote the checkpoint's %s bytes", id, grouped)
		}
	}
	// DeepSeek-V3: multi-head latent attention and shared experts.
	m, _ := ms.Model("deepseek-v3")
	h := int64(7168)
	attn := h*1536 + 1536 + 1536*128*192 + h*576 + 512 + 512*128*256 + 128*128*h + 2*h
	dense, moe := 3*h*18432, func(experts int64) int64 { return (experts+1)*3*h*2048 + 256*h + 256 }
	total := 2*129280*h + h + 61*attn + 3*dense + 58*moe(256)
	if m.Params != total || m.ActiveParams != 2*129280*h+h+61*attn+3*dense+58*moe(8) {
		t.Errorf("deepseek-v3: params %d, active %d; the config's shapes give %d and %d", m.Params, m.ActiveParams, total, 2*129280*h+h+61*attn+3*dense+58*moe(8))
	}
}

const modelsHeader = "id,name,kind,params,frozen_params,active_params,layers,hidden_size,attention_heads,kv_heads,head_dim,intermediate_size,vocab_size,tied_embeddings,attention_bias,experts,active_experts,shared_experts,kv_lora_rank,qk_rope_head_dim,sliding_window,weights_dtype,source,source_date,notes\n"

const goodRow = "m-7b,M 7B,transformer,7000000000,0,7000000000,32,4096,32,8,128,14336,32000,false,false,,,,,,,bf16,https://example.org/config.json,2026-12-01,n\n"

// Bad rows are refused with the file and line and what is wrong.
func TestParseModels_Errors(t *testing.T) {
	for _, c := range []struct {
		name, csv, want string
	}{
		{"missing column", "id,name\nx,y\n", "models.csv:1: missing column"},
		{"bad id", modelsHeader + strings.Replace(goodRow, "m-7b", "M 7B", 1), "models.csv:2: id \"M 7B\""},
		{"duplicate", modelsHeader + goodRow + goodRow, "models.csv:3: model \"m-7b\" is already defined on line 2"},
		{"kind", modelsHeader + strings.Replace(goodRow, "transformer", "rnn", 1), "models.csv:2: model m-7b: kind"},
		{"params", modelsHeader + strings.Replace(goodRow, ",7000000000,0,", ",7e9,0,", 1), "models.csv:2: model m-7b: params \"7e9\""},
		{"source", modelsHeader + strings.Replace(goodRow, "https://example.org/config.json", "", 1), "models.csv:2: model m-7b: source must be an https URL"},
		{"date", modelsHeader + strings.Replace(goodRow, "2026-12-01", "Dec 2026", 1), "models.csv:2: model m-7b: source_date"},
		{"dtype", modelsHeader + strings.Replace(goodRow, ",bf16,", ",bf17,", 1), "models.csv:2: model m-7b: weights_dtype"},
		{"active above total", modelsHeader + strings.Replace(goodRow, "7000000000,0,7000000000", "7000000000,0,8000000000", 1), "active_params"},
		{"kv heads", modelsHeader + strings.Replace(goodRow, ",32,8,128,", ",32,64,128,", 1), "kv_heads 64 exceeds"},
		{"no shapes", modelsHeader + strings.Replace(goodRow, ",32,4096,32,8,128,", ",,,,,,", 1), "a transformer needs layers"},
		{"experts alone", modelsHeader + strings.Replace(goodRow, "false,false,,,", "false,false,8,,", 1), "experts and active_experts go together"},
		{"quote", modelsHeader + "m,\"M,transformer\n", "models.csv:2:"},
		{"empty", modelsHeader, "no models"},
		{"fields", modelsHeader + "a,b\n", "models.csv:2: wrong number of fields"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := ParseModels("data/models.csv", strings.NewReader(c.csv))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want one containing %q", err, c.want)
			}
		})
	}
	if _, err := ParseModels("data/models.csv", strings.NewReader(modelsHeader+goodRow)); err != nil {
		t.Errorf("a good row: %v", err)
	}
	big := modelsHeader + strings.Replace(goodRow, ",n\n", ","+strings.Repeat("n", maxModelsBytes)+"\n", 1)
	if _, err := ParseModels("data/models.csv", strings.NewReader(big)); err == nil || !strings.Contains(err.Error(), "larger than") {
		t.Errorf("a table over the size limit: %v", err)
	}
}

// FuzzParseModels: any input is read or refused with an error, never a panic,
// and what is read passes the table's own checks.
func FuzzParseModels(f *testing.F) {
	f.Add(modelsHeader + goodRow)
	f.Add(modelsHeader + "x,\"unterminated\n")
	f.Add("id\n\n")
	f.Fuzz(func(t *testing.T, s string) {
		ms, err := ParseModels("fuzz.csv", strings.NewReader(s))
		if err != nil {
			return
		}
		for _, m := range ms.Models {
			if err := m.check(); err != nil {
				t.Errorf("read a model that fails its checks: %v", err)
			}
		}
	})
}
