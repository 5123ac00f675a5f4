// Package workflowlint checks the GitHub Actions workflows against the
// project's own rules (workflow_test.go); the npm linter it pins runs with
// make workflow-lint.
package workflowlint
