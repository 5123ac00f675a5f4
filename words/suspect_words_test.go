package words

import "testing"

// A suspect reason of a known form is said in the language's words; one of a
// form the words do not know is kept as written.
func TestSuspect_BothLanguages(t *testing.T) {
	reason := "spot price 12.909073 is at or below 10% of the on-demand price 142.79173 CNY/hour; something new"
	for tag, want := range map[string]string{
		"en": reason,
		"zh": "竞价价格 12.909073 不到按量付费价格 142.79173 CNY/小时的 10%；something new",
	} {
		if got := testWords(t, tag).Suspect(reason); got != want {
			t.Errorf("%s: %q, want %q", tag, got, want)
		}
	}
	zh := testWords(t, "zh")
	for _, in := range []string{
		"price per GPU 0.1 USD/hour is below 10% of the median 2.5 of 12 on_demand offers for NVIDIA H100",
		"monthly price 9000 CNY/month is above 730 hours of the on-demand price 10 CNY/hour (7300 CNY)",
	} {
		if got := zh.SuspectReason(in); got == in {
			t.Errorf("zh: %q is not in words", in)
		}
	}
}
