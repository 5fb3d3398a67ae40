// TSV bitext: the header rule, row splitting and the row checks, as the tools
// read a TSV stream with --skip-bad.
#include <memory>

#include "libcorpus/core/error.h"
#include "libcorpus/core/tsv.h"
#include "tests/fuzz/fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view in = fuzz::bytes(data, size);
  try {
    corpus::BitextReader reader(corpus::open_tsv_lines(std::make_unique<fuzz::MemorySource>(in, fuzz::chunk_for(in))),
                                true);
    size_t ncols = reader.columns().size();
    std::vector<std::string_view> fields;
    while (reader.next(fields)) {
      if (fields.size() != ncols) fuzz::broken("a row with the wrong number of fields passed");
      if (!corpus::check_row(fields, ncols).empty()) fuzz::broken("a row that fails check_row passed");
    }
  } catch (const corpus::Error&) {
  }
  return 0;
}
