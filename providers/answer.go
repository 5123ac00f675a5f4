package providers

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
)

// maxAnswer bounds an API answer read into memory; the largest real ones (an
// EC2 DescribeInstanceTypes page of 100 types, a large region's Tencent
// DescribeZoneInstanceConfigInfos) are a few hundred KiB.
const maxAnswer = 64 << 20

// ReadAnswer reads resp's body whole (at most maxAnswer) and puts it back in
// memory, so that an adapter's transport may vet an answer before its SDK
// reads it.
func ReadAnswer(resp *http.Response) ([]byte, error) {
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxAnswer))
	_ = resp.Body.Close() // read-only and done with: a close error loses nothing
	if err != nil {
		return nil, err
	}
	resp.Body = io.NopCloser(bytes.NewReader(body))
	resp.ContentLength = int64(len(body))
	return body, nil
}

// JSONObjectAnswer returns resp with its body read into memory when the body
// is a JSON object, and an error naming the status, content type and size when
// it is not (a gateway's HTML page, a body cut off mid-transfer, a JSON null).
// Adapters whose SDK mishandles such answers (prints to standard output,
// panics on null, reports nothing retryable) return it from their transport:
// as a transport error it is retried as unavailability.
func JSONObjectAnswer(resp *http.Response) (*http.Response, error) {
	body, err := ReadAnswer(resp)
	if err != nil {
		return nil, fmt.Errorf("read answer (HTTP %d): %w", resp.StatusCode, err)
	}
	if trimmed := bytes.TrimSpace(body); !json.Valid(body) || len(trimmed) == 0 || trimmed[0] != '{' {
		return nil, fmt.Errorf("answer (HTTP %d, %s, %d bytes) is not a JSON object", resp.StatusCode, resp.Header.Get("Content-Type"), len(body))
	}
	return resp, nil
}
