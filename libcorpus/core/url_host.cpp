#include "libcorpus/core/url_host.h"

#include <unicode/bytestream.h>
#include <unicode/idna.h>

#include <algorithm>
#include <cctype>
#include <memory>

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

std::optional<std::string> host_to_ascii(std::string_view host) {
  if (std::all_of(host.begin(), host.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; }))
    return std::string(host);
  // One immutable instance; ICU's IDNA objects are safe to share between threads.
  static const std::unique_ptr<const icu::IDNA> idna = [] {
    UErrorCode st = U_ZERO_ERROR;
    std::unique_ptr<const icu::IDNA> p(icu::IDNA::createUTS46Instance(
        UIDNA_NONTRANSITIONAL_TO_ASCII | UIDNA_USE_STD3_RULES | UIDNA_CHECK_BIDI | UIDNA_CHECK_CONTEXTJ, st));
    return U_SUCCESS(st) ? std::move(p) : nullptr;
  }();
  if (!idna) return std::nullopt;
  std::string out;
  icu::StringByteSink<std::string> sink(&out);
  icu::IDNAInfo info;
  UErrorCode st = U_ZERO_ERROR;
  idna->nameToASCII_UTF8(icu::StringPiece(host.data(), static_cast<int32_t>(host.size())), sink, info, st);
  // Hyphen placement and DNS lengths are not checked, as in the WHATWG URL
  // standard (CheckHyphens and VerifyDnsLength false): ASCII hosts are not either.
  const uint32_t ignored = UIDNA_ERROR_LEADING_HYPHEN | UIDNA_ERROR_TRAILING_HYPHEN | UIDNA_ERROR_HYPHEN_3_4 |
                           UIDNA_ERROR_EMPTY_LABEL | UIDNA_ERROR_LABEL_TOO_LONG | UIDNA_ERROR_DOMAIN_NAME_TOO_LONG;
  if (U_FAILURE(st) || (info.getErrors() & ~ignored) != 0 || out.empty()) return std::nullopt;
  return out;
}

std::string url_host_port(std::string_view url) {
  auto a = split_url_authority(url);
  if (!a) return "";
  std::string h(a->host_port);
  for (char& c : h) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return h;
}

}  // namespace corpus
