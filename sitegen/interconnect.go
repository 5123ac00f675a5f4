package sitegen

// LinkUnknown says that the type has more than one accelerator device and no
// documented link between them: the pages say "unknown" rather than a dash,
// which reads as "not applicable".
func (v *typeView) LinkUnknown() bool {
	if v.T.Interconnect != "" {
		return false
	}
	n := 0
	for _, a := range v.T.Accelerators {
		n += a.Count
	}
	return n > 1
}
