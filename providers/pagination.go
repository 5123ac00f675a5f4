package providers

import (
	"errors"
	"fmt"
)

// ErrRepeatedPageToken says a paginated API handed back a token it had already
// given in the same listing: following it would loop forever, so the listing
// (and the region it belongs to) fails instead.
var ErrRepeatedPageToken = errors.New("the API repeated a pagination token")

// PageTokens remembers the tokens (or markers) of one paginated listing. The
// zero value is ready to use; use one per listing.
type PageTokens struct {
	seen  map[string]bool
	pages int
}

// Next records token, the one that asks for the next page ("" ends the
// listing and is always accepted). It returns an error wrapping
// ErrRepeatedPageToken when the listing gave the same token before.
func (p *PageTokens) Next(token string) error {
	p.pages++
	if token == "" {
		return nil
	}
	if p.seen == nil {
		p.seen = map[string]bool{}
	}
	if p.seen[token] {
		shown := token
		if len(shown) > 40 {
			shown = shown[:40] + "..."
		}
		return fmt.Errorf("%w %q after %d pages; stopping instead of looping", ErrRepeatedPageToken, shown, p.pages)
	}
	p.seen[token] = true
	return nil
}

// Paginate asks for the pages of one listing: ask gets the token of the page
// to ask for ("" for the first) and returns the token of the next ("" after
// the last). It stops at ask's first error, and fails with an error wrapping
// ErrRepeatedPageToken instead of looping when a token comes back.
func Paginate(ask func(token string) (next string, err error)) error {
	var tokens PageTokens
	token := ""
	for {
		next, err := ask(token)
		if err != nil {
			return err
		}
		if err := tokens.Next(next); err != nil {
			return err
		}
		if next == "" {
			return nil
		}
		token = next
	}
}
