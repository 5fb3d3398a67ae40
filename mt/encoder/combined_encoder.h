// The combined sentence encoder (config kind "combined"): a lexical encoder
// and a neural one in one file, their vectors concatenated as
//   [ lex(x) ; W · neural(x) ] / sqrt(|lex(x)|² + W² |neural(x)|²)
// where each part is unit length (or zero, for a sentence it has nothing
// for), so the cosine of two combined vectors with both parts non-zero is
// (cos_lex + W² cos_neural) / (1 + W²). That is the concatenation measured
// in docs/embed.md (bench/embed-combine.py), now one model that pc-mine,
// pc-align, pc-clean and pc-embed open like any other. A sentence without
// words (the lexical zero vector) but with pieces keeps its neural part; the
// empty sentence is the zero vector.
//
// File: format "paracorp.encoder", version "1", config {"kind": "combined",
// "weight": W, "dim": D, "parts": ["lexical", "neural"]}, the parts' configs
// as the metadata "lexical.config" and "neural.config", and each part's
// tensors under its name: "lexical.src.vocab.offsets", ..., "neural.emb",
// ..., "neural.tokenizer" (a neural checkpoint's optimiser moments are not
// copied). Python's safetensors opens it like the parts.
#pragma once

#include <memory>
#include <string>

#include "align/encoder.h"

namespace mt {

inline constexpr const char* kCombinedKind = "combined";
inline constexpr double kMaxCombinedWeight = 100;

// Writes the combined encoder of the lexical model `lexical` and the neural
// model (or checkpoint) `neural`, the neural part weighted by `weight`
// (0 < weight <= kMaxCombinedWeight), to `output` (atomically). Both parts
// are loaded and checked first: a part of the wrong kind, a damaged one, or a
// bad weight is a corpus::Error naming the file (a ConfigError for the
// weight). `command` goes into the metadata as provenance. Returns the
// combined encoder's describe().
std::string combine_encoders(const std::string& lexical, const std::string& neural, double weight,
                             const std::string& output, const std::string& command);

// Opens a file of kind "combined"; errors name the file.
std::unique_ptr<align::SentenceEncoder> load_combined_encoder(const std::string& path);

}  // namespace mt
