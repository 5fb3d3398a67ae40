#include "libcorpus/web/url.h"

#include <curl/curl.h>

#include <cctype>
#include <memory>
#include <string>

#include "libcorpus/core/url_host.h"
#include "libcorpus/core/ascii.h"

namespace corpus {

namespace {

struct UrlDeleter {
  void operator()(CURLU* u) const { curl_url_cleanup(u); }
};
using UrlHandle = std::unique_ptr<CURLU, UrlDeleter>;

std::string get(CURLU* u, CURLUPart part, unsigned flags = 0) {
  char* s = nullptr;
  if (curl_url_get(u, part, &s, flags) != CURLUE_OK || !s) return "";
  std::string r(s);
  curl_free(s);
  return r;
}

// libcurl keeps a host decoded and writes it percent-encoded in the URLs it
// gives ("http://a%25b/" has the host "a%b"): decode as libcurl's host part does.
std::string percent_decoded(std::string_view s) {
  std::string r;
  r.reserve(s.size());
  auto hex = [](char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; };
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && i + 2 < s.size() && hex(s[i + 1]) && hex(s[i + 2])) {
      r += static_cast<char>(std::stoi(std::string(s.substr(i + 1, 2)), nullptr, 16));
      i += 2;
    } else {
      r += s[i];
    }
  }
  return r;
}

bool has_bad_bytes(std::string_view s) {
  for (char c : s)
    if (static_cast<unsigned char>(c) <= 0x20 || c == 0x7F) return true;
  return false;
}

// libcurl writes an IPv4 address given as a number ("127.1", "0x7f.1", "4")
// as a dotted quad, but it looks for one before it decodes %-escapes, so
// "http://%34/" keeps the host "4" and the next pass makes it "0.0.0.4". A
// decoded host that may be such a number goes through libcurl's parser
// again; nullopt when that parser refuses it (the next pass would too).
std::optional<std::string> ipv4_normalised(const std::string& host) {
  if (host.find_first_not_of("0123456789abcdefx.") != std::string::npos) return host;
  UrlHandle u(curl_url());
  if (curl_url_set(u.get(), CURLUPART_URL, ("http://" + host + "/").c_str(), 0) != CURLUE_OK) return std::nullopt;
  return get(u.get(), CURLUPART_HOST);
}

}  // namespace

std::string UrlParts::origin() const { return scheme + "://" + host + (port.empty() ? "" : ":" + port); }

std::optional<std::string> resolve_url(std::string_view base, std::string_view ref) {
  // Trim the white space HTML allows around href values.
  while (!ref.empty() && (ref.front() == ' ' || ref.front() == '\t' || ref.front() == '\n' || ref.front() == '\r'))
    ref.remove_prefix(1);
  while (!ref.empty() && (ref.back() == ' ' || ref.back() == '\t' || ref.back() == '\n' || ref.back() == '\r'))
    ref.remove_suffix(1);
  if (ref.empty() || has_bad_bytes(ref) || has_bad_bytes(base)) return std::nullopt;
  UrlHandle u(curl_url());
  if (!base.empty() && curl_url_set(u.get(), CURLUPART_URL, std::string(base).c_str(), 0) != CURLUE_OK)
    return std::nullopt;
  if (curl_url_set(u.get(), CURLUPART_URL, std::string(ref).c_str(), CURLU_URLENCODE) != CURLUE_OK)
    return std::nullopt;
  std::string scheme = get(u.get(), CURLUPART_SCHEME);
  if (scheme != "http" && scheme != "https") return std::nullopt;
  curl_url_set(u.get(), CURLUPART_FRAGMENT, nullptr, 0);
  std::string host = get(u.get(), CURLUPART_HOST);
  // libcurl decodes %-escapes in a host, refuses only some of the control
  // bytes that result, and writes the rest back raw ("http://a%7fb/" becomes
  // "http://a\x7fb/"): such a URL would be refused on its next pass, so the
  // normalised URL, the frontier's key, would not be stable. Refuse it now.
  if (host.empty() || has_bad_bytes(host)) return std::nullopt;
  for (char& c : host) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  // An internationalised host is kept as its punycode, so one site has one
  // frontier key and robots.txt entry whichever form a link used.
  auto ascii = host_to_ascii(host);
  if (!ascii) return std::nullopt;
  auto h = ipv4_normalised(*ascii);
  if (!h || h->empty()) return std::nullopt;
  curl_url_set(u.get(), CURLUPART_HOST, h->c_str(), 0);
  std::string port = get(u.get(), CURLUPART_PORT);
  if ((scheme == "http" && port == "80") || (scheme == "https" && port == "443"))
    curl_url_set(u.get(), CURLUPART_PORT, nullptr, 0);
  std::string out = get(u.get(), CURLUPART_URL);
  if (out.empty()) return std::nullopt;
  return out;
}

// Not through libcurl: the URLs split here are libcurl's own normalised
// output (resolve_url), so splitting at the delimiters gives the parts libcurl
// would, without parsing each URL twice.
std::optional<UrlParts> split_url(std::string_view url) {
  auto a = split_url_authority(url);
  if (!a || a->host.empty()) return std::nullopt;
  UrlParts p;
  p.scheme = ascii_lower(a->scheme);
  if (p.scheme != "http" && p.scheme != "https") return std::nullopt;
  p.host = ascii_lower(percent_decoded(a->host));
  // The same hosts as resolve_url refuses: no URL it gives has one.
  if (has_bad_bytes(p.host)) return std::nullopt;
  p.port = a->port;
  if ((p.scheme == "http" && p.port == "80") || (p.scheme == "https" && p.port == "443")) p.port.clear();
  std::string_view rest = a->rest.substr(0, a->rest.find('#'));
  const size_t q = rest.find('?');
  p.path = rest.substr(0, q);
  if (p.path.empty()) p.path.assign(1, '/');
  if (q != std::string_view::npos && q + 1 < rest.size()) p.path.append(rest.substr(q));
  return p;
}

}  // namespace corpus
