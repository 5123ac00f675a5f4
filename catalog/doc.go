// Package catalog is the normalized model of cloud GPU offerings that every other
// package of GPU Atlas shares: instance types, offers, prices, regions, GPU models,
// coverage and the snapshot that holds them.
package catalog
