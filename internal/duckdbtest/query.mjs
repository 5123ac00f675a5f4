// Runs SQL queries in DuckDB and prints each one's rows as JSON: the
// duckdbtest Go test's bridge to @duckdb/node-api. It is started from the folder
// that holds node_modules (so the import resolves), then moves to the folder the
// queries' relative paths start from.
//
//   node query.mjs DATA_DIR QUERIES_JSON_FILE
import { readFileSync } from 'node:fs';
import { DuckDBInstance } from '@duckdb/node-api';

const [dataDir, queriesFile] = process.argv.slice(2);
const queries = JSON.parse(readFileSync(queriesFile, 'utf8'));
process.chdir(dataDir);
const db = await DuckDBInstance.create(':memory:');
const conn = await db.connect();
const out = [];
for (const q of queries) {
  const reader = await conn.runAndReadAll(q);
  out.push(reader.getRowObjectsJson());
}
process.stdout.write(JSON.stringify(out));
