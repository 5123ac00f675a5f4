// Package templates holds the site's embedded HTML templates, static assets (CSS,
// JavaScript) and message catalogs, for sitegen to render.
package templates

import "embed"

// FS holds the templates: pages (*.html), shared layouts and partials (_*.html),
// static assets (static/), the message catalogs (i18n/en.json, i18n/zh.json) and
// the pages written in Markdown (content/<page>.<lang>.md).
//
//go:embed *.html static/* i18n/*.json content/*.md api/schema/*.json
var FS embed.FS
