// TMX reading (expat): the header, then every <tu> with its variants.
#include "libcorpus/core/error.h"
#include "libcorpus/core/tmx.h"
#include "tests/fuzz/fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view in = fuzz::bytes(data, size);
  fuzz::MemorySource src(in, fuzz::chunk_for(in));
  try {
    corpus::TmxReader reader(src);
    (void)reader.header();
    corpus::TmxUnit unit;
    while (reader.next(unit)) {
    }
  } catch (const corpus::Error&) {
  }
  return 0;
}
