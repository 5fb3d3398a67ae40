// The fixers pc-clean runs before any rule: steps of the core normaliser
// (libcorpus/core/normalize.h, shared with pc-split), each switched on its
// own, with a cheap test that skips a step which cannot change the text
// (most bitext is ASCII without '&', where every step but ws is a no-op).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "filter/orthography.h"
#include "libcorpus/core/normalize.h"

namespace filter {

class Fixers {
 public:
  // "all" (mojibake+entities+ctrl+nfc+ortho+ws+punct), "none", or steps
  // joined by '+' ("entities+ws"), applied in the order given. Throws
  // corpus::ConfigError naming an unknown step. ortho is the side's
  // language's Orthography (filter/orthography.h).
  static Fixers parse(std::string_view spec);
  std::string spec() const;  // parse(spec()) gives the same fixers
  bool empty() const { return steps_.empty(); }
  // Applies the steps, ortho with `ortho`; true when the text changed.
  // Input must be valid UTF-8.
  bool apply(std::string& s, const Orthography& ortho = Orthography()) const;

 private:
  struct Step {
    bool ortho = false;  // else `norm`
    corpus::NormStep norm = corpus::NormStep::kNfc;
  };
  std::vector<Step> steps_;
  bool all_ = false;
};

}  // namespace filter
