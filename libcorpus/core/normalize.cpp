#include "libcorpus/core/normalize.h"

#include <algorithm>
#include <array>

#include <unicode/bytestream.h>
#include <unicode/normalizer2.h>

#include "libcorpus/core/error.h"
#include "libcorpus/core/uchar.h"
#include "libcorpus/core/utf8.h"

namespace corpus {

namespace {

constexpr std::array<std::pair<NormStep, std::string_view>, 7> kNames = {{
    {NormStep::kNfc, "nfc"},
    {NormStep::kNfkc, "nfkc"},
    {NormStep::kWhitespace, "ws"},
    {NormStep::kControl, "ctrl"},
    {NormStep::kMojibake, "mojibake"},
    {NormStep::kEntities, "entities"},
    {NormStep::kPunct, "punct"},
}};

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wold-style-cast"
void append_utf8(std::string& out, UChar32 c) {
  char buf[4];
  int32_t n = 0;
  UBool err = false;
  U8_APPEND(reinterpret_cast<uint8_t*>(buf), n, 4, c, err);
  if (!err) out.append(buf, static_cast<size_t>(n));
}
#pragma GCC diagnostic pop

std::string icu_normalize(std::string_view s, bool compat) {
  // The instances through function-local statics: ICU builds them once
  // inside libicu, which ThreadSanitizer cannot see; the statics' guards make
  // every later caller synchronise with the thread that fetched them.
  struct Instances {
    UErrorCode nfc_st = U_ZERO_ERROR, nfkc_st = U_ZERO_ERROR;
    const icu::Normalizer2* nfc = icu::Normalizer2::getNFCInstance(nfc_st);
    const icu::Normalizer2* nfkc = icu::Normalizer2::getNFKCInstance(nfkc_st);
  };
  static const Instances inst;
  UErrorCode st = compat ? inst.nfkc_st : inst.nfc_st;
  const icu::Normalizer2* n = compat ? inst.nfkc : inst.nfc;
  if (U_FAILURE(st)) throw Error(std::string("ICU normaliser: ") + u_errorName(st));
  icu::StringPiece sp(s.data(), static_cast<int32_t>(s.size()));
  if (n->isNormalizedUTF8(sp, st) && U_SUCCESS(st)) return std::string(s);
  st = U_ZERO_ERROR;
  std::string out;
  out.reserve(s.size());
  icu::StringByteSink<std::string> sink(&out);
  n->normalizeUTF8(0, sp, sink, nullptr, st);
  if (U_FAILURE(st)) throw Error(std::string("ICU normaliser: ") + u_errorName(st));
  return out;
}

// The Windows-1252 byte a character came from, or -1. Latin-1 covers
// U+0080..U+00FF (including the C1 controls that cp1252 leaves undefined).
int cp1252_byte(UChar32 c) {
  if (c >= 0x80 && c <= 0xFF) return c;
  switch (c) {
    case 0x20AC: return 0x80; case 0x201A: return 0x82; case 0x0192: return 0x83; case 0x201E: return 0x84;
    case 0x2026: return 0x85; case 0x2020: return 0x86; case 0x2021: return 0x87; case 0x02C6: return 0x88;
    case 0x2030: return 0x89; case 0x0160: return 0x8A; case 0x2039: return 0x8B; case 0x0152: return 0x8C;
    case 0x017D: return 0x8E; case 0x2018: return 0x91; case 0x2019: return 0x92; case 0x201C: return 0x93;
    case 0x201D: return 0x94; case 0x2022: return 0x95; case 0x2013: return 0x96; case 0x2014: return 0x97;
    case 0x02DC: return 0x98; case 0x2122: return 0x99; case 0x0161: return 0x9A; case 0x203A: return 0x9B;
    case 0x0153: return 0x9C; case 0x017E: return 0x9E; case 0x0178: return 0x9F;
    default: return -1;
  }
}

bool mojibake_pass(std::string_view s, std::string& out) {
  out.clear();
  out.reserve(s.size());
  bool changed = false;
  size_t i = 0;
  while (i < s.size()) {
    size_t nx;
    UChar32 c = uc::at(s, i, &nx);
    int b0 = cp1252_byte(c);
    if (b0 >= 0xC2 && b0 <= 0xF4) {
      const size_t need = b0 <= 0xDF ? 1 : b0 <= 0xEF ? 2 : 3;
      char bytes[4] = {static_cast<char>(b0), 0, 0, 0};
      size_t j = nx, k = 0;
      for (; k < need && j < s.size(); ++k) {
        size_t nj;
        int b = cp1252_byte(uc::at(s, j, &nj));
        if (b < 0x80 || b > 0xBF) break;
        bytes[k + 1] = static_cast<char>(b);
        j = nj;
      }
      if (k == need && is_valid_utf8(std::string_view(bytes, need + 1))) {
        out.append(bytes, need + 1);
        changed = true;
        i = j;
        continue;
      }
    }
    out.append(s.substr(i, nx - i));
    i = nx;
  }
  return changed;
}

bool keep_format_char(UChar32 c) {
  return c == 0x200C || c == 0x200D || (c >= 0x0600 && c <= 0x0605) || c == 0x06DD || c == 0x070F ||
         c == 0x08E2 || c == 0x110BD || c == 0x110CD || (c >= 0xE0020 && c <= 0xE007F);
}

}  // namespace

std::string_view norm_step_name(NormStep s) {
  for (const auto& [step, name] : kNames)
    if (step == s) return name;
  return "?";
}

std::optional<NormStep> norm_step_from_name(std::string_view name) {
  for (const auto& [step, n] : kNames)
    if (n == name) return step;
  return std::nullopt;
}

std::string norm_step_names() {
  std::string out;
  for (const auto& [step, name] : kNames) {
    if (!out.empty()) out += ", ";
    out += name;
  }
  return out;
}

std::string norm_nfc(std::string_view s) { return icu_normalize(s, false); }
std::string norm_nfkc(std::string_view s) { return icu_normalize(s, true); }

std::string norm_whitespace(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  bool pending = false;
  size_t i = 0;
  while (i < s.size()) {
    size_t nx;
    UChar32 c = uc::at(s, i, &nx);
    if (uc::is_space(c) && c != 0xFEFF) {
      pending = !out.empty();
    } else {
      if (pending) out += ' ';
      pending = false;
      out.append(s.substr(i, nx - i));
    }
    i = nx;
  }
  return out;
}

std::string norm_control(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  size_t i = 0;
  while (i < s.size()) {
    size_t nx;
    UChar32 c = uc::at(s, i, &nx);
    bool drop;
    if (c < 0x80) {
      drop = (c < 0x20 && c != '\t' && c != '\n') || c == 0x7F;
    } else {
      int8_t t = u_charType(c);
      drop = t == U_CONTROL_CHAR || (t == U_FORMAT_CHAR && !keep_format_char(c));
    }
    if (!drop) out.append(s.substr(i, nx - i));
    i = nx;
  }
  return out;
}

std::string norm_mojibake(std::string_view s) {
  std::string cur(s), next;
  for (int pass = 0; pass < 3; ++pass) {
    if (!mojibake_pass(cur, next)) break;
    cur.swap(next);
  }
  return cur;
}

std::string norm_entities(std::string_view s) {
  if (s.find('&') == std::string_view::npos) return std::string(s);
  const auto& table = html_named_entities();
  std::string out;
  out.reserve(s.size());
  size_t i = 0;
  while (i < s.size()) {
    size_t amp = s.find('&', i);
    if (amp == std::string_view::npos) {
      out.append(s.substr(i));
      break;
    }
    out.append(s.substr(i, amp - i));
    i = amp + 1;
    size_t semi = s.find(';', i);
    if (semi == std::string_view::npos || semi - i > 32 || semi == i) {
      out += '&';
      continue;
    }
    std::string_view ref = s.substr(i, semi - i);
    long cp = -1;
    if (ref[0] == '#') {
      const bool hex = ref.size() > 1 && (ref[1] == 'x' || ref[1] == 'X');
      std::string_view digits = ref.substr(hex ? 2 : 1);
      if (!digits.empty() && digits.size() <= 7) {
        cp = 0;
        for (char ch : digits) {
          int d = ch >= '0' && ch <= '9' ? ch - '0'
                  : hex && ch >= 'a' && ch <= 'f' ? ch - 'a' + 10
                  : hex && ch >= 'A' && ch <= 'F' ? ch - 'A' + 10 : -1;
          if (d < 0) {
            cp = -1;
            break;
          }
          cp = cp * (hex ? 16 : 10) + d;
        }
      }
      // NUL, surrogates and out-of-range values are not characters.
      if (cp == 0 || (cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF) cp = -1;
    } else {
      auto it = std::lower_bound(table.begin(), table.end(), ref,
                                 [](const auto& e, std::string_view k) { return e.first < k; });
      if (it != table.end() && it->first == ref) cp = static_cast<long>(it->second);
    }
    if (cp < 0) {
      out += '&';
      continue;
    }
    append_utf8(out, static_cast<UChar32>(cp));
    i = semi + 1;
  }
  return out;
}

std::string norm_punct(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  size_t i = 0;
  while (i < s.size()) {
    if (static_cast<unsigned char>(s[i]) < 0x80) {
      out += s[i++];
      continue;
    }
    size_t nx;
    UChar32 c = uc::at(s, i, &nx);
    switch (c) {
      case 0x201C: case 0x201D: case 0x201E: case 0x201F: case 0x2033: out += '"'; break;
      case 0x2018: case 0x2019: case 0x201A: case 0x201B: case 0x2032: out += '\''; break;
      case 0x2010: case 0x2011: case 0x2012: case 0x2013: case 0x2014: case 0x2015: case 0x2212: out += '-'; break;
      case 0x2026: out += "..."; break;
      default: out.append(s.substr(i, nx - i));
    }
    i = nx;
  }
  return out;
}

std::string apply_norm_step(NormStep step, std::string_view s) {
  switch (step) {
    case NormStep::kNfc: return norm_nfc(s);
    case NormStep::kNfkc: return norm_nfkc(s);
    case NormStep::kWhitespace: return norm_whitespace(s);
    case NormStep::kControl: return norm_control(s);
    case NormStep::kMojibake: return norm_mojibake(s);
    case NormStep::kEntities: return norm_entities(s);
    case NormStep::kPunct: return norm_punct(s);
  }
  return std::string(s);
}

Normalizer Normalizer::parse(std::string_view spec) {
  Normalizer n;
  if (spec == "none") return n;
  size_t i = 0;
  while (i <= spec.size() && !spec.empty()) {
    size_t comma = spec.find(',', i);
    std::string_view name = spec.substr(i, comma == std::string_view::npos ? std::string_view::npos : comma - i);
    auto step = norm_step_from_name(name);
    if (!step) throw ConfigError("unknown normalisation step " + quote(name), "the steps are " + norm_step_names());
    n.steps_.push_back(*step);
    if (comma == std::string_view::npos) break;
    i = comma + 1;
  }
  return n;
}

std::string Normalizer::spec() const {
  if (steps_.empty()) return "none";
  std::string out;
  for (NormStep s : steps_) {
    if (!out.empty()) out += ',';
    out += norm_step_name(s);
  }
  return out;
}

bool Normalizer::apply(std::string& s) const {
  bool changed = false;
  for (NormStep step : steps_) {
    std::string r = apply_norm_step(step, s);
    if (r != s) {
      s.swap(r);
      changed = true;
    }
  }
  return changed;
}

}  // namespace corpus
