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
	want := template.HTML(`来源：<span translate="no" lang="en">ECB &lt;x&gt; {date}</span>（2025-11-28）&lt;b&gt;`)
	if got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if _, err := l.tOutside("m", "source"); err == nil {
		t.Error("an odd number of placeholder arguments is not an error")
	}
}

// On a page, a suspect reason in the page's words is escaped, and one of a
// form the site does not know is marked as English (words' TestSuspect_BothLanguages
// checks the words).
func TestSuspectHTML_BothLanguages(t *testing.T) {
	langs := newLanguages()
	if err := loadMessages(templates.FS, langs); err != nil {
		t.Fatal(err)
	}
	en, zh := langs[0], langs[1]
	reason := "spot price 12.909073 is at or below 10% of the on-demand price 142.79173 CNY/hour; odd <reason>"
	if got, want := suspectHTML(zh, reason), template.HTML(`竞价价格 12.909073 不到按量付费价格 142.79173 CNY/小时的 10%；<span lang="en">odd &lt;reason&gt;</span>`); got != want {
		t.Errorf("zh: %q, want %q", got, want)
	}
	if got, want := suspectHTML(en, reason), template.HTML(`spot price 12.909073 is at or below 10% of the on-demand price 142.79173 CNY/hour; odd &lt;reason&gt;`); got != want {
		t.Errorf("en: %q, want %q", got, want)
	}
}
