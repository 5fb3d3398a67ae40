// `pc-nmt inspect`: what a model file holds, as a JSON report (format, size,
// parameters, config, training state, provenance, vocabularies, tensors) or
// as the vocabulary list (side, id, piece, score; one line per piece).
#pragma once

#include <string>

#include "libcorpus/core/output.h"

namespace mt {

// Writes the report on the model file at `path` to `out` (not committed).
// Throws corpus::Error naming the file when it is no NMT model or is damaged.
void inspect_model(const std::string& path, bool vocab, corpus::Output& out);

}  // namespace mt
