// Any paracorp sentence encoder file, by its config "kind": the one place
// that knows every kind, so pc-embed, pc-mine, pc-align and pc-clean open
// models alike. It lives in mt because mt may include align (the lexical
// kind) and holds the neural kinds; align itself never includes mt.
#pragma once

#include <memory>
#include <string>

#include "align/encoder.h"

namespace mt {

// Kinds: "lexical" (align/lexical_encoder.h), "bert" (bert_encoder.h),
// "neural" (neural_file.h), "combined" (combined_encoder.h). A file that is
// not an encoder, or of a kind this build cannot run, is a corpus::Error
// naming the file.
std::unique_ptr<align::SentenceEncoder> open_sentence_encoder(const std::string& path);

}  // namespace mt
