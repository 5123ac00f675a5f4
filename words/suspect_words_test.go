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
		"on-demand price 43.066150064 USD/hour is below 55% of the median 94.029025 of its 16 regions' on-demand prices",
		"on-demand GPU part 1.705858125 USD/hour per GPU is below 60% of the median 2.933908 over 10 regions for NVIDIA A100 40GB",
		"kubernetes/autoscaler cluster-autoscaler/cloudprovider/gce/gce_price_info.go @ e72c7c68329b gives 10.1376 USD/hour (2026-06-23), not 5.891640008",
		"in us-central1, kubernetes/autoscaler gce_price_info.go @ e72c7c68329b gives 10.1376 USD/hour (2026-06-23) where the source says 5.891640008: its price here is in doubt too",
	} {
		if got := zh.SuspectReason(in); got == in {
			t.Errorf("zh: %q is not in words", in)
		}
	}
}

// The cross-check reason keeps its source (a file in a repository, a name)
// and says the rest in Chinese.
func TestSuspect_CheckInChinese(t *testing.T) {
	in := "kubernetes/autoscaler cluster-autoscaler/cloudprovider/gce/gce_price_info.go @ e72c7c68329b gives 10.1376 USD/hour (2026-06-23), not 5.891640008"
	want := "kubernetes/autoscaler cluster-autoscaler/cloudprovider/gce/gce_price_info.go @ e72c7c68329b 给出的价格是 10.1376 USD/小时（2026-06-23），而非 5.891640008"
	if got := testWords(t, "zh").SuspectReason(in); got != want {
		t.Errorf("zh: %q, want %q", got, want)
	}
}
