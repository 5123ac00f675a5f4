package pagetext

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestVisible(t *testing.T) {
	page := `<html><head><style>p { color: red }</style><script>var a = "one two three four";</script></head>
<body><!-- a comment of many English words --><p>显存 <b>80 GiB</b><br>per GPU &amp; more</p><p lang="en">Up to 100 Gigabit of <i>network</i></p>
<img alt="x"><template><p>hidden template words here</p></template><p lang="en-US">also English</p><p>GPU 参考表</p><p lang="zh-CN">中文</p></body></html>`
	tests := []struct {
		name, skip, want string
	}{
		{"skip English", "en", "显存 80 GiB per GPU & more GPU 参考表 中文"},
		{"skip none", "", "显存 80 GiB per GPU & more Up to 100 Gigabit of network also English GPU 参考表 中文"},
		{"skip Chinese", "zh", "显存 80 GiB per GPU & more Up to 100 Gigabit of network also English GPU 参考表"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := strings.Join(strings.Fields(Visible(page, tt.skip)), " ")
			if got != tt.want {
				t.Errorf("Visible(%q) = %q, want %q", tt.skip, got, tt.want)
			}
		})
	}
}

func TestEnglishRuns(t *testing.T) {
	tests := []struct {
		text string
		want []string
	}{
		// Three words, then a figure: not a run of four.
		{"ample GPU memory (1,432.5 GiB of 640 GiB)", nil},
		{"ample GPU memory of the target, 显存 8 × NVIDIA H100 SXM5 80GB", []string{"ample GPU memory of the target"}},
		{"aws/p4d.24xlarge ecs.gn7i-c8g1.2xlarge cn-hangzhou us-east-1", nil},
		{"NVIDIA Tesla V100 显存 Intel Xeon Platinum Processor", []string{"Intel Xeon Platinum Processor"}},
		// A heading and the paragraph after it are two lines.
		{"About GPU Atlas\nGPU Atlas is open", []string{"GPU Atlas is open"}},
		{"", nil},
	}
	for _, tt := range tests {
		if got := EnglishRuns(tt.text); !cmp.Equal(got, tt.want) {
			t.Errorf("EnglishRuns(%q) = %q, want %q", tt.text, got, tt.want)
		}
	}
}

func TestChineseRuns(t *testing.T) {
	tests := []struct {
		text string
		want []string
	}{
		{"8 × H100 per hour", nil},
		{"Price per hour 每小时价格 in USD", []string{"per hour 每小时价格 in USD"}},
		{"一，二", []string{"一，二"}},
	}
	for _, tt := range tests {
		if got := ChineseRuns(tt.text); !cmp.Equal(got, tt.want) {
			t.Errorf("ChineseRuns(%q) = %q, want %q", tt.text, got, tt.want)
		}
	}
}
