// The tokenizers kept inside a model file (tensors spm.joint, or spm.src and
// spm.trg), made with errors that name the file and the tensor.
#pragma once

#include <string>
#include <string_view>

#include "mt/model/model_file.h"
#include "mt/spm/spm.h"

namespace mt {

// A tokenizer from a model file's tensor; a damaged one is a corpus::Error
// naming the file and the tensor.
Tokenizer load_tokenizer(std::string_view bytes, const std::string& file, std::string_view tensor);

// One side's tokenizer: the joint model when there is one, else that side's.
// `file` is where the vocabularies came from, for the error.
Tokenizer side_tokenizer(const Vocabs& v, bool source, const std::string& file);

}  // namespace mt
