// JSONL documents: the reader (skipping bad lines) and the round trip of every
// document it accepts through serialize_document and parse_document.
#include <memory>

#include "libcorpus/core/error.h"
#include "libcorpus/core/jsonl.h"
#include "tests/fuzz/fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view in = fuzz::bytes(data, size);
  try {
    corpus::JsonlReader reader(std::make_unique<fuzz::MemorySource>(in, fuzz::chunk_for(in)), true);
    corpus::Document doc;
    while (reader.next(doc)) {
      std::string line = corpus::serialize_document(doc);
      corpus::Document again;
      if (!corpus::parse_document(line, again).empty()) fuzz::broken("a serialised document does not parse");
      if (again.json != doc.json) fuzz::broken("a document changed in the round trip");
    }
  } catch (const corpus::Error&) {
    // A line over the reader's limit and the like: reported, not a fault.
  }
  return 0;
}
