// Package compare turns the catalog and benchmark results into comparisons: cost
// per unit of work from measured (or, labelled as such, estimated) throughput, and
// the scenario and TCO models built on them. It imports only package catalog.
package compare
