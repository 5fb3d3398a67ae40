#include "mt/model/tokenizers.h"

#include <fmt/format.h>

#include "libcorpus/core/error.h"

namespace mt {

Tokenizer load_tokenizer(std::string_view bytes, const std::string& file, std::string_view tensor) {
  try {
    return Tokenizer(bytes);
  } catch (const corpus::Error& e) {
    throw corpus::Error(fmt::format("tensor '{}': {}", tensor, e.what()),
                        "the model file is damaged: copy it again or retrain")
        .at(file);
  }
}

Tokenizer side_tokenizer(const Vocabs& v, bool source, const std::string& file) {
  if (!v.joint.empty()) return load_tokenizer(v.joint, file, "spm.joint");
  return source ? load_tokenizer(v.src, file, "spm.src") : load_tokenizer(v.trg, file, "spm.trg");
}

}  // namespace mt
