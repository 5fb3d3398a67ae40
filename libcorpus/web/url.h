// URLs for the crawler: resolution of links against a base, normalisation
// (lower-case scheme and host, default port dropped, fragment dropped, dot
// segments removed: libcurl's URL API), and the parts scope and robots rules
// look at. Only http and https URLs are accepted.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace corpus {

struct UrlParts {
  std::string scheme;  // "http" or "https"
  std::string host;    // lower case, no port
  std::string port;    // "" when the scheme's default
  std::string path;    // path and query ("/a/b?x=1"), at least "/"
  std::string origin() const;  // "http://host[:port]"
};

// `ref` (absolute or relative) resolved against `base` (absolute; may be
// empty when `ref` is absolute) and normalised; nullopt if it is not an
// http(s) URL, does not parse, or its host holds a control byte or white
// space once %-decoded. Normalising its result again gives it back unchanged.
std::optional<std::string> resolve_url(std::string_view base, std::string_view ref);

// Splits a normalised http(s) URL; nullopt otherwise (and for a host that
// resolve_url refuses).
std::optional<UrlParts> split_url(std::string_view url);

}  // namespace corpus
