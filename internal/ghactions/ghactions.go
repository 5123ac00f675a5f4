// Package ghactions writes what a GitHub Actions runner reads from a step's
// output: annotations (workflow commands), and plain lines that are safe to
// print there.
//
// The runner reads every line a step prints, on stdout and stderr alike: a line
// that starts with "::" (after blanks) is a workflow command. A command's
// properties end at "::" and are separated by ",", and the command ends with
// its line. So every annotation is written by Annotation, which escapes its
// message and its properties as the runner decodes them (% as %25, CR as %0D,
// LF as %0A; in a property also : as %3A and , as %2C), and every other line a
// command prints is written one line at a time (Line, Lines): a file named
// "x\n::error file=…::forged", a provider's region name or an error text cannot
// start a line of its own.
package ghactions

import (
	"strconv"
	"strings"

	"github.com/gpuatlas/gpuatlas/catalog"
)

// Annotation formats a workflow command that shows msg as an annotation of the
// given level (error, warning, notice), titled title when set, on file (and
// line, when positive) when file is set.
func Annotation(level, title, file string, line int, msg string) string {
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

// Line returns s as one printable line: line breaks and every other control or
// format character written as Go escapes (catalog.SafeLine).
func Line(s string) string { return catalog.SafeLine(s) }

// Lines returns s with each of its lines made one printable line (Line): its
// own line breaks stay, nothing else that is not printable does. Outside
// Actions, where a line break in a provider's string starts no command.
func Lines(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = Line(l)
	}
	return strings.Join(lines, "\n")
}

// Command is one workflow command as the runner reads it, unescaped.
type Command struct {
	Command string
	Props   map[string]string
	Message string
}

// ReadCommands reads output as the runner does (actions/runner
// ActionCommand.TryParseV2): each line that starts with "::" after blanks is
// a command up to the next "::", its properties split at "," and the first
// "=". Tests check with it what a step's output would make the runner do.
func ReadCommands(output string) []Command {
	unescapeData := strings.NewReplacer("%0D", "\r", "%0A", "\n", "%25", "%")
	unescapeProp := strings.NewReplacer("%0D", "\r", "%0A", "\n", "%3A", ":", "%2C", ",", "%25", "%")
	var out []Command
	for _, line := range strings.Split(strings.ReplaceAll(output, "\r\n", "\n"), "\n") {
		line = strings.TrimLeft(line, " \t")
		if !strings.HasPrefix(line, "::") {
			continue
		}
		head, msg, ok := strings.Cut(line[2:], "::")
		if !ok {
			continue
		}
		c := Command{Props: map[string]string{}, Message: unescapeData.Replace(msg)}
		cmd, props, _ := strings.Cut(head, " ")
		c.Command = cmd
		for _, p := range strings.Split(props, ",") {
			if k, v, ok := strings.Cut(p, "="); ok {
				c.Props[k] = unescapeProp.Replace(v)
			}
		}
		out = append(out, c)
	}
	return out
}
