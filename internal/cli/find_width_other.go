//go:build !unix

package cli

import "os"

// terminalWidth is 0 where the terminal's size is not asked: set $COLUMNS.
func terminalWidth(*os.File) int { return 0 }
