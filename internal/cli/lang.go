package cli

import (
	"fmt"
	"strings"

	"github.com/gpuatlas/gpuatlas/templates"
	"github.com/gpuatlas/gpuatlas/words"
)

// textLang is the language of a command's words: --lang, else the locale of the
// environment as POSIX resolves it (LC_ALL, then LC_MESSAGES, then LANG: the
// first that is set decides; zh_CN.UTF-8 and zh_TW are zh), else en.
func textLang(flagValue string, getenv func(string) string) (string, error) {
	switch flagValue {
	case "en", "zh":
		return flagValue, nil
	case "":
		for _, v := range []string{"LC_ALL", "LC_MESSAGES", "LANG"} {
			if s := getenv(v); s != "" {
				if strings.HasPrefix(strings.ToLower(s), "zh") {
					return "zh", nil
				}
				return "en", nil
			}
		}
		return "en", nil
	}
	return "", fmt.Errorf("--lang %q: want en or zh", flagValue)
}

// reasonWords are the site's words for compare's reasons in the language: the
// command line and the site say the same thing (words.ReasonWords).
func reasonWords(tag string) (words.ReasonWords, error) {
	msgs, err := words.Messages(templates.FS, tag)
	if err != nil {
		return words.ReasonWords{}, err
	}
	return words.NewReasonWords(tag, msgs), nil
}
