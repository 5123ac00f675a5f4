// Package duckdbtest holds the test that reads GPU Atlas's Parquet exports (the
// offers and the price history, partitioned by provider) in DuckDB, as an analyst
// would, and runs the README's example queries on them. DuckDB comes from npm
// (@duckdb/node-api with its bundled binary, pinned in package-lock.json here),
// which `make duckdb` installs under .cache/duckdb; `make test` does it first.
package duckdbtest
