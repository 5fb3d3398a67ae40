// NMT model files: ModelFile's checks of kind, version, config and weights,
// then the SentencePiece models inside made into tokenizers as pc-nmt does.
#include "libcorpus/core/error.h"
#include "mt/model/model_file.h"
#include "mt/spm/spm.h"
#include "tests/fuzz/fuzz_input.h"

namespace {
volatile float sink;

void use_tokenizer(const std::string& bytes) {
  if (bytes.empty()) return;
  mt::Tokenizer tok(bytes);
  bool cut = false;
  std::vector<int32_t> ids = tok.encode_prefix("Hello world. Ça va? 東京", 16, cut);
  (void)tok.decode(ids);
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string& path = fuzz::as_file(fuzz::bytes(data, size), ".nmt.safetensors");
  try {
    mt::ModelFile mf(path);
    int64_t n = mf.layout().total();
    if (n > 0) sink = sink + mf.params()[0] + mf.params()[n - 1];
    mt::Vocabs v = mf.vocabs();
    use_tokenizer(v.joint);
    use_tokenizer(v.src);
    use_tokenizer(v.trg);
  } catch (const corpus::Error&) {
  }
  return 0;
}
