// Package replay serves recorded provider API answers from a local HTTP server, in
// each provider's own wire format, so that adapters are exercised through the real
// vendor SDK clients without a network. Tests use it directly; `make data` uses it
// to crawl the fixtures into the embedded catalog.
//
// A fixture folder holds answer bodies and a manifest.json (manifest.go) that
// lists which request each answers; the fixture generators under
// providers/<cloud>/internal/fixturegen write them. The server (server.go) reads a
// request through a Dialect (dialect.go; one file per cloud's wire format:
// aws.go, alibaba.go, tencent.go, huawei.go, volcengine.go, azure.go, gcp.go) and
// serves the first exchange that matches it.
package replay
