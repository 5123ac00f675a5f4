// Package pagetext finds the text a reader sees on a built HTML page and the
// runs of it that are in the wrong language: English words on a Chinese page,
// Chinese on an English one. The site's tests (sitegen's and the embedded
// site's in cmd/gpuatlas) use it to hold every page to the language rules.
//
//   - pagetext.go: the text a reader sees (Visible, Readable), the mixed-script
//     runs (EnglishRuns, ChineseRuns) and the whole-site check (CheckSite).
//   - prose.go: English prose on a Chinese page whatever its markup says
//     (ProseRuns, ChineseProse, Tally), the names that are not prose (Names).
package pagetext
