#include "align/docalign/url_key.h"

#include <algorithm>
#include <array>
#include <cctype>

#include "libcorpus/core/url_host.h"
#include "libcorpus/core/ascii.h"
#include "libcorpus/core/split_fields.h"

namespace align {
namespace {

// ISO 639-1, sorted (binary-searched).
constexpr std::array<std::string_view, 184> kIso639_1 = {
    "aa", "ab", "ae", "af", "ak", "am", "an", "ar", "as", "av", "ay", "az", "ba", "be", "bg", "bh", "bi", "bm", "bn",
    "bo", "br", "bs", "ca", "ce", "ch", "co", "cr", "cs", "cu", "cv", "cy", "da", "de", "dv", "dz", "ee", "el", "en",
    "eo", "es", "et", "eu", "fa", "ff", "fi", "fj", "fo", "fr", "fy", "ga", "gd", "gl", "gn", "gu", "gv", "ha", "he",
    "hi", "ho", "hr", "ht", "hu", "hy", "hz", "ia", "id", "ie", "ig", "ii", "ik", "io", "is", "it", "iu", "ja", "jv",
    "ka", "kg", "ki", "kj", "kk", "kl", "km", "kn", "ko", "kr", "ks", "ku", "kv", "kw", "ky", "la", "lb", "lg", "li",
    "ln", "lo", "lt", "lu", "lv", "mg", "mh", "mi", "mk", "ml", "mn", "mr", "ms", "mt", "my", "na", "nb", "nd", "ne",
    "ng", "nl", "nn", "no", "nr", "nv", "ny", "oc", "oj", "om", "or", "os", "pa", "pi", "pl", "ps", "pt", "qu", "rm",
    "rn", "ro", "ru", "rw", "sa", "sc", "sd", "se", "sg", "si", "sk", "sl", "sm", "sn", "so", "sq", "sr", "ss", "st",
    "su", "sv", "sw", "ta", "te", "tg", "th", "ti", "tk", "tl", "tn", "to", "tr", "ts", "tt", "tw", "ty", "ug", "uk",
    "ur", "uz", "ve", "vi", "vo", "wa", "wo", "xh", "yi", "yo", "za", "zh", "zu"};

// Query keys that name the page's language.
constexpr std::array<std::string_view, 6> kLangKeys = {"hl", "lang", "language", "lng", "locale", "uselang"};

// File extensions of web pages, after which a last dot part may be a code
// (Apache's content negotiation: index.html.fr).
constexpr std::array<std::string_view, 9> kPageExts = {"asp", "aspx", "htm", "html", "jsp", "php", "shtml", "txt",
                                                        "xhtml"};

bool all_of(std::string_view s, int (*pred)(int)) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [&](char c) { return pred(static_cast<unsigned char>(c)) != 0; });
}

// A region (FR, 419) or script (Hans) subtag.
bool is_subtag(std::string_view s) {
  return (s.size() == 2 && all_of(s, isalpha)) || (s.size() == 3 && all_of(s, isdigit)) ||
         (s.size() == 4 && all_of(s, isalpha));
}

template <size_t N>
bool in(const std::array<std::string_view, N>& a, std::string_view s) {
  return std::binary_search(a.begin(), a.end(), s);
}

}  // namespace

UrlKeyer::UrlKeyer(std::vector<std::string> langs, bool iso_codes) : iso_(iso_codes) {
  for (const std::string& l : langs) {
    std::string p = corpus::ascii_lower(l.substr(0, l.find_first_of("-_")));
    if (!p.empty() && std::find(given_.begin(), given_.end(), p) == given_.end()) given_.push_back(p);
  }
}

bool UrlKeyer::is_marker(std::string_view s, bool given_only) const {
  // primary[-_]sub[-_]sub: at most two subtags (zh-Hant-TW).
  size_t cut = s.find_first_of("-_");
  const std::string primary = corpus::ascii_lower(s.substr(0, cut));
  for (int subtags = 0; cut != std::string_view::npos; ++subtags) {
    if (subtags == 2) return false;
    s.remove_prefix(cut + 1);
    cut = s.find_first_of("-_");
    if (!is_subtag(s.substr(0, cut))) return false;
  }
  if (std::find(given_.begin(), given_.end(), primary) != given_.end()) return true;
  return !given_only && iso_ && in(kIso639_1, primary);
}

namespace {

// The file name without its language infixes and suffixes.
std::string strip_file_name(const UrlKeyer& k, std::string_view name) {
  const std::vector<std::string_view> parts = corpus::split_fields(name, '.');
  std::string out;
  for (size_t i = 0; i < parts.size(); ++i) {
    bool drop = false;
    if (i > 0 && k.is_marker(parts[i])) {
      // As the last part only after a page extension; inside, always.
      drop = i + 1 < parts.size() || in(kPageExts, corpus::ascii_lower(parts[i - 1]));
    }
    if (drop) continue;
    std::string_view part = parts[i];
    if (i == 0 && parts.size() > 1) {  // the stem: "about_fr", "about-en" (given languages only)
      const size_t sep = part.find_last_of("-_");
      // A region after the code (about_pt-BR) is not tried: the separator is ambiguous.
      if (sep != std::string_view::npos && sep > 0 && k.is_marker(part.substr(sep + 1), true)) part = part.substr(0, sep);
    }
    if (!out.empty() || i > 0) out += '.';
    out += part;
  }
  return out;
}

std::string strip_query(std::string_view q) {
  std::string out;
  for (size_t p = 0; p <= q.size();) {
    size_t amp = q.find('&', p);
    if (amp == std::string_view::npos) amp = q.size();
    const std::string_view param = q.substr(p, amp - p);
    const std::string key = corpus::ascii_lower(param.substr(0, param.find('=')));
    if (!param.empty() && !in(kLangKeys, key)) {
      if (!out.empty()) out += '&';
      out += param;
    }
    p = amp + 1;
  }
  return out;
}

}  // namespace

std::string UrlKeyer::key(std::string_view url) const {
  std::string_view host, rest = url;
  if (auto a = corpus::split_url_authority(url)) {
    host = a->host_port;
    rest = a->rest;
  }
  rest = rest.substr(0, rest.find('#'));
  const size_t qpos = rest.find('?');
  const std::string_view path = rest.substr(0, qpos);
  const std::string_view query = qpos == std::string_view::npos ? std::string_view() : rest.substr(qpos + 1);

  std::string out = corpus::ascii_lower(host);
  // fr.wikipedia.org, fr.m.wikipedia.org: a code as the first of 3+ labels.
  const size_t dot = out.find('.');
  if (dot != std::string::npos && std::count(out.begin(), out.end(), '.') >= 2 && out[0] != '[' &&
      is_marker(std::string_view(out).substr(0, dot)))
    out.erase(0, dot + 1);

  // Path segments; the last one is the file name (maybe empty: "/fr/").
  std::vector<std::string_view> segs;
  for (size_t p = 0;;) {
    const size_t slash = path.find('/', p);
    segs.push_back(path.substr(p, slash == std::string_view::npos ? std::string_view::npos : slash - p));
    if (slash == std::string_view::npos) break;
    p = slash + 1;
  }
  std::string p;
  for (size_t i = 0; i < segs.size(); ++i) {
    const bool last = i + 1 == segs.size();
    if (i == 0 && segs[0].empty() && segs.size() > 1) continue;  // the leading '/'
    if (is_marker(segs[i])) continue;
    p += '/';
    p += last ? strip_file_name(*this, segs[i]) : std::string(segs[i]);
  }
  if (p.empty()) p.push_back('/');
  out += p;
  const std::string q = strip_query(query);
  if (!q.empty()) out += '?' + q;
  return out;
}

}  // namespace align
