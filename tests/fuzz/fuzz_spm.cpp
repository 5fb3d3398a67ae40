// SentencePiece models as bytes (the U8 tensors of an NMT model file): the
// tokenizer built from them, encoding, decoding and the piece table.
#include "libcorpus/core/error.h"
#include "mt/spm/spm.h"
#include "tests/fuzz/fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    mt::Tokenizer tok(fuzz::bytes(data, size));
    bool cut = false;
    std::vector<int32_t> ids = tok.encode_prefix("Hello world. Ça va? 東京 ", 32, cut);
    (void)tok.decode(ids);
    int n = tok.vocab_size();
    for (int id = 0; id < n && id < 64; ++id) {
      (void)tok.piece(id);
      (void)tok.score(id);
    }
  } catch (const corpus::Error&) {
  }
  return 0;
}
