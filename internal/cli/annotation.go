package cli

import (
	"strconv"
	"strings"

	"github.com/gpuatlas/gpuatlas/catalog"
)

// GitHub Actions reads every line a step prints, on stdout and stderr alike: a
// line that starts with "::" (after blanks) is a workflow command. A command's
// properties end at "::" and are separated by ",", and the command ends with
// its line. So every annotation is written by annotation below, which escapes
// its message and its properties as the runner decodes them (% as %25, CR as
// %0D, LF as %0A; in a property also : as %3A and , as %2C), and every other
// line a command prints in Actions is one line (catalog.SafeLine): a file
// named "x\n::error file=…::forged", a provider's region name or an error
// text cannot start a line of its own.

// annotation formats a workflow command that shows msg as an annotation of
// the given level (error, warning, notice), titled title, on file and line
// when file is set (line when positive).
func annotation(level, title, file string, line int, msg string) string {
	var props []string
	if file != "" {
		props = append(props, "file="+escapeProperty(file))
		if line > 0 {
			props = append(props, "line="+strconv.Itoa(line))
		}
	}
	if title != "" {
		props = append(props, "title="+escapeProperty(title))
	}
	cmd := "::" + level
	if len(props) > 0 {
		cmd += " " + strings.Join(props, ",")
	}
	return cmd + "::" + escapeData(msg)
}

var (
	dataEscaper     = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A")
	propertyEscaper = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C")
)

// escapeData escapes a command's message; other control and format
// characters (an escape sequence, a bidirectional override) are written as Go
// escapes, so that the annotation shows what it says.
func escapeData(s string) string { return catalog.SafeLine(dataEscaper.Replace(s)) }

// escapeProperty escapes a property value (file, title).
func escapeProperty(s string) string { return catalog.SafeLine(propertyEscaper.Replace(s)) }

// safeLines returns s with each of its lines made safe to print
// (catalog.SafeLine): the line breaks stay, nothing else that is not printable
// does.
func safeLines(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = catalog.SafeLine(l)
	}
	return strings.Join(lines, "\n")
}
