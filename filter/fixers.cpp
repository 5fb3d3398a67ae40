#include "filter/fixers.h"

#include <cstring>

#include "libcorpus/core/error.h"

namespace filter {

namespace {

using corpus::NormStep;

constexpr std::string_view kOrtho = "ortho";

// What the steps' "cannot change this" tests need, in one pass over the text
// (one pass per step was a sixth of the rules-only chain's time).
struct FixScan {
  bool non_ascii = false;
  bool amp = false;       // an '&': entities may change it
  bool control = false;   // an ASCII control (tabs included)
  bool ws_dirty = false;  // ASCII controls, leading, trailing or doubled spaces
  explicit FixScan(std::string_view s) {
    if (!s.empty() && (s.front() == ' ' || s.back() == ' ')) ws_dirty = true;
    char prev = 0;
    for (char c : s) {
      const auto u = static_cast<unsigned char>(c);
      non_ascii |= u >= 0x80;
      amp |= c == '&';
      control |= u < 0x20 || u == 0x7f;
      ws_dirty |= u < 0x20 || (c == ' ' && prev == ' ');
      prev = c;
    }
  }
};

// True when `step` cannot change the scanned text (a cheap, conservative test).
bool skip(NormStep step, const FixScan& f) {
  switch (step) {
    case NormStep::kEntities: return !f.amp;
    case NormStep::kControl: return !f.non_ascii && !f.control;
    case NormStep::kWhitespace: return !f.non_ascii && !f.ws_dirty;
    default: return !f.non_ascii;  // mojibake, nfc, nfkc, punct touch only non-ASCII text
  }
}

}  // namespace

Fixers Fixers::parse(std::string_view spec) {
  Fixers f;
  if (spec == "none" || spec.empty()) return f;
  if (spec == "all") {
    // Mojibake first: repaired bytes may spell entities or spaces; ortho
    // after nfc, which composes the letters it compares; ws last but for
    // punct, so that removed controls leave no double spaces.
    for (NormStep st : {NormStep::kMojibake, NormStep::kEntities, NormStep::kControl, NormStep::kNfc})
      f.steps_.push_back({false, st});
    f.steps_.push_back({true});
    for (NormStep st : {NormStep::kWhitespace, NormStep::kPunct}) f.steps_.push_back({false, st});
    f.all_ = true;
    return f;
  }
  size_t b = 0;
  while (b <= spec.size()) {
    size_t e = spec.find('+', b);
    if (e == std::string_view::npos) e = spec.size();
    std::string_view name = spec.substr(b, e - b);
    auto step = corpus::norm_step_from_name(name);
    if (!step && name != kOrtho)
      throw corpus::ConfigError("unknown fixer '" + std::string(name) + "' in fix=" + std::string(spec),
                                "use all, none or steps joined by '+' from: " + corpus::norm_step_names() + ", " +
                                    std::string(kOrtho));
    f.steps_.push_back(step ? Step{false, *step} : Step{true});
    b = e + 1;
  }
  return f;
}

std::string Fixers::spec() const {
  if (all_) return "all";
  if (steps_.empty()) return "none";
  std::string s;
  for (const Step& st : steps_) {
    if (!s.empty()) s += '+';
    s += st.ortho ? std::string(kOrtho) : std::string(corpus::norm_step_name(st.norm));
  }
  return s;
}

bool Fixers::apply(std::string& s, const Orthography& ortho) const {
  bool changed = false;
  FixScan scan(s);
  for (const Step& st : steps_) {
    if (st.ortho) {
      if (ortho.apply(s)) {
        changed = true;
        scan = FixScan(s);
      }
      continue;
    }
    if (skip(st.norm, scan)) continue;
    std::string r = corpus::apply_norm_step(st.norm, s);
    if (r != s) {
      s.swap(r);
      changed = true;
      scan = FixScan(s);
    }
  }
  return changed;
}

}  // namespace filter
