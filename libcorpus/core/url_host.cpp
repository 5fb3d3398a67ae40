#include "libcorpus/core/url_host.h"

#include <algorithm>
#include <cctype>

namespace corpus {

std::optional<UrlAuthority> split_url_authority(std::string_view url) {
  const size_t s = url.find("://");
  if (s == std::string_view::npos) return std::nullopt;
  UrlAuthority a;
  a.scheme = url.substr(0, s);
  url.remove_prefix(s + 3);
  const size_t e = std::min(url.find_first_of("/?#"), url.size());
  a.rest = url.substr(e);
  std::string_view auth = url.substr(0, e);
  // The last '@' ends the user information: a password may hold another.
  const size_t at = auth.rfind('@');
  if (at != std::string_view::npos) auth.remove_prefix(at + 1);
  a.host_port = auth;
  // A ':' after an IPv6 literal's ']' (or anywhere in a name) starts the port.
  const size_t close = auth.size() && auth.front() == '[' ? auth.find(']') : std::string_view::npos;
  const size_t colon = auth.find(':', close == std::string_view::npos ? 0 : close);
  a.host = auth.substr(0, colon);
  if (colon != std::string_view::npos) a.port = auth.substr(colon + 1);
  return a;
}

std::string url_host_port(std::string_view url) {
  auto a = split_url_authority(url);
  if (!a) return "";
  std::string h(a->host_port);
  for (char& c : h) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return h;
}

}  // namespace corpus
