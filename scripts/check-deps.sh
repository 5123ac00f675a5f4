#!/usr/bin/env bash
# Layering check (STYLE.md): vendor SDKs are imported only by providers/<cloud>;
# catalog imports nothing of ours; sitegen and compare never import providers.
set -euo pipefail
cd "$(dirname "$0")/.."
mod=$(go list -m)
sdk='github.com/(aws/aws-sdk-go-v2|aliyun/alibaba-cloud-sdk-go|tencentcloud/tencentcloud-sdk-go|huaweicloud/huaweicloud-sdk-go-v3|volcengine/volcengine-go-sdk)'
bad=0
while read -r pkg imports; do
  rel=${pkg#"$mod"}; rel=${rel#/}
  test=0
  for imp in $imports; do
    if [[ $imp == "--tests--" ]]; then test=1; continue; fi
    if [[ $imp =~ ^$sdk ]] && ! [[ $rel =~ ^providers/(aws|alibaba|tencent|huawei|volcengine)(/|$) ]]; then
      echo "check-deps: $rel imports vendor SDK $imp (only providers/<cloud> may)"; bad=1
    fi
    # catalog's tests may use the shared golden-file helper, which imports nothing of ours.
    if [[ $rel == catalog* && $imp == "$mod"/* ]] && ! [[ $test == 1 && $imp == "$mod/internal/golden" ]]; then
      echo "check-deps: catalog imports $imp (catalog imports nothing of ours)"; bad=1
    fi
    if [[ $rel =~ ^(sitegen|compare|templates) && $imp == "$mod/providers"* ]]; then
      echo "check-deps: $rel imports $imp (the site never depends on providers)"; bad=1
    fi
  done
done < <(go list -f '{{.ImportPath}} {{join .Imports " "}} --tests-- {{join .TestImports " "}}' ./...)
exit $bad
