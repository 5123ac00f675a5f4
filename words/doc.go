// Package words is every sentence and number format a reader of GPU Atlas
// sees, in English and Chinese: the command line and the site (package sitegen)
// both take their words from here. The words are in the message catalogs of
// package templates (i18n/<lang>*.json); compare's results arrive as codes and
// figures and are put into words only here. It may import catalog, compare and
// templates, and nothing else of GPU Atlas (internal/layering).
//
// Where each part lives:
//
//   - messages.go: Catalogs and Messages, the message catalogs read and
//     checked (every language the same keys, no key twice).
//   - reason_words.go: ReasonWords, compare's reasons (a code and its figures)
//     in one language's words, money in the reader's currency (InCurrency);
//     reason_marks.go: MarkOpen and MarkClose, which delimit names from outside
//     in a reason (Marked) for a page to mark with their language.
//   - suspect_words.go: the catalog's implausibility reasons (English
//     sentences of a few fixed forms) in the language's words (Suspect).
//   - data_words.go: DataText, the catalog's and the history's texts of
//     fixed forms (what a price includes, an AWS spot figure's source, an
//     imported price's notes) in the language's words.
//   - fit_words.go: FitWords, the memory estimate in words, and the sizes and
//     prices it shows (GroupDigits, GB, Price).
//   - units.go: the memory units, one per context (GPU memory in GB by
//     its class, an instance's in GiB), and the labels held to them.
//   - number_format.go: numbers for people (FormatQuantity, FormatMoney,
//     FormatRate, FormatPercent, FormatShare, FormatExact), one set of rules
//     for both languages.
package words
