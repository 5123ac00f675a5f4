package words

// A reason's text figures are names from outside (a benchmark's submitter and
// system, an instance type id, a run's file and line) that are shown as
// written: on a page they are marked with their language (sitegen's
// outsideText) so that the words around them are the page's and the names are
// not translated. Private-use characters, which no message or figure holds,
// delimit them between rendering (Marked) and escaping (sitegen's ReasonHTML).
const (
	MarkOpen  = "\uE000"
	MarkClose = "\uE001"
)
