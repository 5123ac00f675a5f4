package sitegen

import (
	"html/template"
	"testing"

	"github.com/gpuatlas/gpuatlas/templates"
)

func TestOutsideText(t *testing.T) {
	tests := []struct {
		in   string
		want template.HTML
	}{
		{"", ""},
		{"NVIDIA A10 datasheet", `<span lang="en">NVIDIA A10 datasheet</span>`},
		{`<script>alert("x")</script>`, `<span lang="en">&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;</span>`},
		{"请求被流控", `<span lang="zh-CN">请求被流控</span>`},
		{`published as "8576 元/月"; a starting price (起: from)`,
			`<span lang="en">published as <span lang="zh-CN">&#34;8576 元/月&#34;</span>; a starting price (<span lang="zh-CN">起</span>: from)</span>`},
	}
	for _, tt := range tests {
		if got := outsideText(tt.in); got != tt.want {
			t.Errorf("outsideText(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestTOutside_MarksAndEscapesOnePass(t *testing.T) {
	l := &language{Tag: "zh", messages: map[string]string{"m": "来源：{source}（{date}）<b>"}}
	got, err := l.tOutside("m", "source", enArg(`ECB <x> {date}`), "date", "2025-11-28")
	if err != nil {
		t.Fatal(err)
	}
	want := template.HTML(`来源：<span lang="en">ECB &lt;x&gt; {date}</span>（2025-11-28）&lt;b&gt;`)
	if got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if _, err := l.tOutside("m", "source"); err == nil {
		t.Error("an odd number of placeholder arguments is not an error")
	}
}

func TestSuspectText_BothLanguages(t *testing.T) {
	langs := newLanguages()
	if err := loadMessages(templates.FS, langs); err != nil {
		t.Fatal(err)
	}
	reason := "spot price 12.909073 is at or below 10% of the on-demand price 142.79173 CNY/hour; something new"
	for _, l := range langs {
		got := suspectText(l, reason)
		want := map[string]string{
			"en": reason,
			"zh": "抢占式价格 12.909073 不到按量付费价格 142.79173 CNY/小时的 10%；something new",
		}[l.Tag]
		if got != want {
			t.Errorf("%s: %q, want %q", l.Tag, got, want)
		}
	}
	zh := langs[1]
	if got := suspectHTML(zh, "odd reason"); got != `<span lang="en">odd reason</span>` {
		t.Errorf("an unknown reason on a Chinese page: %q", got)
	}
}
