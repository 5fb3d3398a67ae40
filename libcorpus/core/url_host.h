// The scheme, host and port of an absolute URL, found by splitting at the
// delimiters of RFC 3986 and nothing more: no validation, no percent
// decoding, no normalisation. The crawler gives it URLs that libcurl has
// already parsed and normalised; pc-ingest gives it WARC-Target-URIs as
// written, and only needs the host to group pages by site.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace corpus {

struct UrlAuthority {
  std::string_view scheme;     // before "://", as written
  std::string_view host_port;  // the authority without "user@": "a.b:8080", "[::1]:80"
  std::string_view host;       // host_port without ":port" (an IPv6 literal keeps its brackets)
  std::string_view port;       // after that ':' ("" when none)
  std::string_view rest;       // path, query and fragment: "/x?y#z" ("" when none)
};

// Views into `url`; nullopt when it has no "://".
std::optional<UrlAuthority> split_url_authority(std::string_view url);

// A host in the ASCII form that DNS and the crawler's frontier keys use:
// unchanged when it is ASCII; an internationalised name mapped by UTS #46
// (nontransitional, as the WHATWG URL standard's domain-to-ASCII, with the
// STD3 letter-digit-hyphen rule) to lower-case punycode labels
// ("Bücher.example" -> "xn--bcher-kva.example"); nullopt when it is not a
// valid internationalised name (invalid UTF-8, a disallowed code point, a
// label against the bidi rules).
std::optional<std::string> host_to_ascii(std::string_view host);

// The host and port of a URL in lower case ("http://u@A.b:8080/x" ->
// "a.b:8080"), or "" when it has no "://".
std::string url_host_port(std::string_view url);

}  // namespace corpus
