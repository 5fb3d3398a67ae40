// Draft-heads files (pc-nmt train-heads): load_draft_heads's checks of kind,
// version, metadata and tensor shapes; then, for heads that load, a guess
// through every head on output rows of the right size, which reads only
// what those checks allow.
#include <algorithm>
#include <vector>

#include "libcorpus/core/error.h"
#include "mt/decode/draft_heads.h"
#include "tests/fuzz/fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string& path = fuzz::as_file(fuzz::bytes(data, size), ".heads.safetensors");
  try {
    mt::DraftHeads h = mt::load_draft_heads(path);
    const size_t S = h.shortlist.size(), C = static_cast<size_t>(h.dim);
    if (S * C > (size_t{1} << 22) || static_cast<size_t>(h.hidden) * C > (size_t{1} << 22)) return 0;
    h.out_w.assign(S * C, 0.01f);
    h.out_b.assign(S, 0.0f);
    std::vector<float> row(C, 0.5f), scratch;
    std::vector<int32_t> out(static_cast<size_t>(h.heads));
    h.guess(row.data(), h.heads, out.data(), scratch);
  } catch (const corpus::Error&) {
  }
  return 0;
}
