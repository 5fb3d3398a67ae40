// WARC records: the streaming reader on arbitrary bytes, including the resync
// that --skip-bad uses after a malformed record.
#include "libcorpus/core/error.h"
#include "libcorpus/core/warc.h"
#include "tests/fuzz/fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view in = fuzz::bytes(data, size);
  fuzz::MemorySource src(in, fuzz::chunk_for(in));
  // A small block limit, so that the oversize (skip without storing) path
  // is reached by small inputs too.
  corpus::WarcReader reader(src, 4096);
  corpus::WarcRecord rec;
  for (;;) {
    try {
      if (!reader.next(rec)) break;
      if (rec.oversize && !rec.block.empty()) fuzz::broken("an oversize block was stored");
      if (!rec.oversize && rec.block.size() != rec.content_length) fuzz::broken("block size is not Content-Length");
      (void)rec.type();
      (void)rec.header("WARC-Target-URI");
    } catch (const corpus::Error&) {
      if (!reader.resync()) break;
    }
  }
  return 0;
}
