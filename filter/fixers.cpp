#include "filter/fixers.h"

#include <cstring>

#include "libcorpus/core/error.h"

namespace filter {

namespace {

using corpus::NormStep;

const std::vector<NormStep>& all_steps() {
  // Mojibake first: repaired bytes may spell entities or spaces; ws last but
  // for punct, so that removed controls leave no double spaces.
  static const std::vector<NormStep> v{NormStep::kMojibake, NormStep::kEntities, NormStep::kControl,
                                       NormStep::kNfc,      NormStep::kWhitespace, NormStep::kPunct};
  return v;
}

bool has_non_ascii(std::string_view s) {
  for (char c : s)
    if (static_cast<unsigned char>(c) >= 0x80) return true;
  return false;
}

bool has_ascii_control(std::string_view s) {
  for (char c : s) {
    auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == 0x7f) return true;
  }
  return false;
}

// Whether the ws step could change ASCII text: tabs and other controls,
// leading, trailing or doubled spaces.
bool ascii_ws_clean(std::string_view s) {
  if (s.empty()) return true;
  if (s.front() == ' ' || s.back() == ' ') return false;
  char prev = 0;
  for (char c : s) {
    auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || (c == ' ' && prev == ' ')) return false;
    prev = c;
  }
  return true;
}

// True when `step` cannot change `s` (a cheap, conservative test).
bool skip(NormStep step, std::string_view s, bool non_ascii) {
  switch (step) {
    case NormStep::kEntities: return s.find('&') == std::string_view::npos;
    case NormStep::kControl: return !non_ascii && !has_ascii_control(s);
    case NormStep::kWhitespace: return !non_ascii && ascii_ws_clean(s);
    default: return !non_ascii;  // mojibake, nfc, nfkc, punct touch only non-ASCII text
  }
}

}  // namespace

Fixers Fixers::parse(std::string_view spec) {
  Fixers f;
  if (spec == "none" || spec.empty()) return f;
  if (spec == "all") {
    f.steps_ = all_steps();
    f.all_ = true;
    return f;
  }
  size_t b = 0;
  while (b <= spec.size()) {
    size_t e = spec.find('+', b);
    if (e == std::string_view::npos) e = spec.size();
    std::string_view name = spec.substr(b, e - b);
    auto step = corpus::norm_step_from_name(name);
    if (!step)
      throw corpus::ConfigError("unknown fixer '" + std::string(name) + "' in fix=" + std::string(spec),
                                "use all, none or steps joined by '+' from: " + corpus::norm_step_names());
    f.steps_.push_back(*step);
    b = e + 1;
  }
  return f;
}

std::string Fixers::spec() const {
  if (all_) return "all";
  if (steps_.empty()) return "none";
  std::string s;
  for (NormStep st : steps_) {
    if (!s.empty()) s += '+';
    s += corpus::norm_step_name(st);
  }
  return s;
}

bool Fixers::apply(std::string& s) const {
  bool changed = false;
  for (NormStep st : steps_) {
    if (skip(st, s, has_non_ascii(s))) continue;
    std::string r = corpus::apply_norm_step(st, s);
    if (r != s) {
      s.swap(r);
      changed = true;
    }
  }
  return changed;
}

}  // namespace filter
