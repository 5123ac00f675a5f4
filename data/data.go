// Package data embeds the committed data files: the default catalog snapshot, the
// GPU reference, region metadata and the other tables the build reads.
package data

import "embed"

// FS holds the data files, read with the loaders of package catalog.
//
//go:embed *.csv *.json *.yaml benchmarks
var FS embed.FS
