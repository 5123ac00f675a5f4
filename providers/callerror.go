package providers

import (
	"fmt"

	"github.com/gpuatlas/gpuatlas/catalog"
)

// CallError is a failed API call: which provider, what was done, where, and the
// vendor error with its class, so that errors.Is(err, ErrThrottled) and the like
// work while the message stays short ("huawei: list flavors in cn-north-4: status
// 429 APIGW.0308: ... (request id ...)").
type CallError struct {
	Provider catalog.Provider
	Action   string
	Region   string // empty for a call that is not about one region
	Class    error  // one of the Err* sentinels, or nil
	Err      error  // the vendor error
	Detail   string // Err shortened to status, code, message and request id
}

func (e *CallError) Error() string {
	where := ""
	if e.Region != "" {
		where = " in " + e.Region
	}
	detail := e.Detail
	if detail == "" {
		detail = e.Err.Error()
	}
	return fmt.Sprintf("%s: %s%s: %s", e.Provider, e.Action, where, detail)
}

// Unwrap exposes the class and the vendor error to errors.Is and errors.As.
func (e *CallError) Unwrap() []error {
	if e.Class != nil {
		return []error{e.Class, e.Err}
	}
	return []error{e.Err}
}
