package sitegen

import (
	"bytes"
	"fmt"
	"html"
	"html/template"
	"io/fs"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"
)

// markdown is the site's goldmark instance for English: CommonMark with GitHub
// tables. Raw HTML in the source is not rendered (goldmark's default), so
// content is text.
var markdown = goldmark.New(goldmark.WithExtensions(extension.Table))

// markdownZH is the instance for Chinese: a line break between two Chinese
// characters or punctuation marks is dropped (CSS Text's segment break rules),
// where a browser would show a space that Chinese text does not have. English
// pages keep goldmark's default, which these rules would join after a full stop.
var markdownZH = goldmark.New(goldmark.WithExtensions(extension.Table,
	extension.NewCJK(extension.WithEastAsianLineBreaks(extension.EastAsianLineBreaksCSS3Draft))))

// contentPages are the pages written in Markdown, templates/content/<name>.<lang>.md.
var contentPages = []struct{ Name, Nav, Title string }{
	{"methodology", "methodology", "methodology.title"},
	{"about", "about", "about.title"},
}

// markdownData is the model of a page written in Markdown.
type markdownData struct {
	Title string // message key
	HTML  template.HTML
}

// renderMarkdown renders templates/content/<name>.<lang>.md. Relative links
// ("offers.html", "gpus/") are pages of the same language and are rewritten
// to absolute paths under the base URL, as every other link of the site is.
func renderMarkdown(fsys fs.FS, name string, l *language, base string) (template.HTML, error) {
	file := "content/" + name + "." + l.Tag + ".md"
	src, err := fs.ReadFile(fsys, file)
	if err != nil {
		return "", fmt.Errorf("read %s: %w", file, err)
	}
	md := markdown
	if l.Tag == "zh" {
		md = markdownZH
	}
	doc := md.Parser().Parse(text.NewReader(src))
	// Tables get a caption (the heading of their section) and header cells a
	// scope, as every other table of the site.
	var captions []string
	heading := ""
	err = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.Link:
			n.Destination = []byte(pageLink(base, l, string(n.Destination)))
		case *ast.Emphasis:
			// On a Chinese page, an emphasised stretch with no Chinese is a
			// title as published (a paper's): marked as English.
			if l.Tag == "zh" && !hasHan(plainText(n, src)) {
				n.SetAttributeString("lang", []byte("en"))
			}
		case *ast.Heading:
			heading = plainText(n, src)
		case *east.Table:
			captions = append(captions, heading)
		case *east.TableCell:
			if _, ok := n.Parent().(*east.TableHeader); ok {
				n.SetAttributeString("scope", []byte("col"))
			}
		}
		return ast.WalkContinue, nil
	})
	if err != nil {
		return "", fmt.Errorf("%s: %w", file, err)
	}
	var b bytes.Buffer
	if err := md.Renderer().Render(&b, src, doc); err != nil {
		return "", fmt.Errorf("render %s: %w", file, err)
	}
	out := b.String()
	for _, c := range captions {
		// Raw HTML is not rendered, so "<table>" can only be a table's start.
		out = strings.Replace(out, "<table>\n", "<table class=\"md\">\n<caption class=\"visually-hidden\">"+html.EscapeString(c)+"</caption>\n", 1)
	}
	return template.HTML(out), nil
}

// plainText is the text of a node's inline children.
func plainText(n ast.Node, src []byte) string {
	var b strings.Builder
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if t, ok := c.(*ast.Text); ok && entering {
			b.Write(t.Segment.Value(src))
		}
		return ast.WalkContinue, nil
	})
	return b.String()
}

// pageLink resolves a link written in content: fragments and absolute URLs stay
// as they are; a relative path is a page of the language under the base URL.
func pageLink(base string, l *language, dest string) string {
	if dest == "" || strings.HasPrefix(dest, "#") || strings.HasPrefix(dest, "/") || strings.Contains(dest, "://") || strings.HasPrefix(dest, "mailto:") {
		return dest
	}
	if strings.HasPrefix(dest, "data/") || strings.HasPrefix(dest, "static/") {
		return base + dest // language-independent files
	}
	return base + l.Prefix + strings.TrimSuffix(dest, "index.html")
}
