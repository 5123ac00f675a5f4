// Package templates holds the site's embedded HTML templates, static assets (CSS,
// JavaScript) and message catalogs, for sitegen to render.
package templates

import "embed"

// FS holds the templates: pages (*.html), shared layouts and partials (_*.html),
// static assets (static/) and the message catalogs (i18n/en.json, i18n/zh.json).
//
//go:embed *.html static/* i18n/en.json i18n/zh.json
var FS embed.FS
