package sitegen

import (
	"encoding/xml"
	"fmt"
	"net/url"
	"strings"
)

// normalizeSiteURL checks the site's origin (https://example.github.io) used for
// canonical URLs, Open Graph and the sitemap: an http(s) URL with a host and no
// path, query or fragment. Empty means unknown, and those are left out.
func normalizeSiteURL(s string) (string, error) {
	if s == "" {
		return "", nil
	}
	s = strings.TrimSuffix(s, "/")
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || u.Path != "" || u.RawQuery != "" || u.Fragment != "" || u.User != nil {
		return "", fmt.Errorf("build site: site URL %q must be an origin such as https://example.github.io (the path goes in the base URL)", s)
	}
	return s, nil
}

type sitemapURL struct {
	Loc     string `xml:"loc"`
	LastMod string `xml:"lastmod,omitempty"`
}

type sitemapSet struct {
	XMLName xml.Name     `xml:"http://www.sitemaps.org/schemas/sitemap/0.9 urlset"`
	URLs    []sitemapURL `xml:"url"`
}

// sitemapXML lists the canonical URL of every page in the order given.
func sitemapXML(locs []string, lastmod string) ([]byte, error) {
	set := sitemapSet{}
	for _, l := range locs {
		set.URLs = append(set.URLs, sitemapURL{Loc: l, LastMod: lastmod})
	}
	b, err := xml.MarshalIndent(set, "", " ")
	if err != nil {
		return nil, fmt.Errorf("encode sitemap.xml: %w", err)
	}
	return append([]byte(xml.Header), append(b, '\n')...), nil
}

// robotsTxt allows everything and names the sitemap when the site URL is known.
func robotsTxt(siteURL, base string) []byte {
	s := "User-agent: *\nAllow: /\n"
	if siteURL != "" {
		s += "Sitemap: " + siteURL + base + "sitemap.xml\n"
	}
	return []byte(s)
}
