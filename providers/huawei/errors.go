package huawei

import (
	"errors"
	"fmt"
	"strings"

	"github.com/huaweicloud/huaweicloud-sdk-go-v3/core/sdkerr"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/providers"
)

// classify reads a Huawei SDK error by its status and code. Huawei answers
// throttling with 429 and APIGW.0308, authentication problems with 401/403
// (APIGW.0301 and friends), and a flavor or project that is not there with
// 404. The detail is status, code, message and request id.
func classify(err error) (detail string, class error) {
	var sre *sdkerr.ServiceResponseError
	if !errors.As(err, &sre) {
		return "", nil
	}
	detail = fmt.Sprintf("status %d", sre.StatusCode)
	if sre.ErrorCode != "" {
		detail += " " + sre.ErrorCode
	}
	if sre.ErrorMessage != "" {
		detail += ": " + sre.ErrorMessage
	}
	if sre.RequestId != "" {
		detail += " (request id " + sre.RequestId + ")"
	}
	if sre.ErrorCode == "APIGW.0308" || strings.Contains(sre.ErrorCode, "Throttl") {
		return detail, providers.ErrThrottled
	}
	return detail, providers.StatusClass(sre.StatusCode)
}

// authHint is what to check when Huawei Cloud refuses the credentials.
const authHint = "check " + envAK + " / " + envSK + " and the key's ECS, BSS and IAM read permissions"

// callErrors wraps the adapter's errors, with secrets (the credentials it was
// given) kept out of their text.
func callErrors(secrets []string) providers.CallErrors {
	return providers.CallErrors{Provider: catalog.Huawei, Classify: classify, Hint: authHint, Secrets: secrets}
}
