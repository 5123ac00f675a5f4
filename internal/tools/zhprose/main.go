// Command zhprose counts the runs of English prose on the Chinese pages of a
// built site (internal/pagetext ChineseProse): go run ./internal/tools/zhprose
// -site public [-top 40] [-page zh/gpus/].
package main

import (
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/gpuatlas/gpuatlas/internal/pagetext"
)

func main() {
	site := flag.String("site", "public", "the built site")
	top := flag.Int("top", 40, "how many kinds of run to list")
	page := flag.String("page", "", "list every run on the pages whose path (under the site) holds this")
	flag.Parse()
	pages, found, err := pagetext.ChineseProse(*site)
	if err != nil {
		fmt.Fprintln(os.Stderr, "zhprose:", err)
		os.Exit(2)
	}
	withProse := map[string]bool{}
	for _, f := range found {
		withProse[f.Page] = true
	}
	fmt.Printf("%d runs of English prose on %d of %d Chinese pages\n", len(found), len(withProse), pages)
	for _, f := range found {
		if *page != "" && strings.Contains(f.Page, *page) {
			fmt.Printf("%s: %s\n", f.Page, f.Text)
		}
	}
	for i, l := range pagetext.Tally(found) {
		if i == *top {
			break
		}
		fmt.Println(l)
	}
}
