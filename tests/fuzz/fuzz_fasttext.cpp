// fastText model files (pc-clean --lid-model): the layout check, then, for a
// file it accepts, libfasttext's own loader and a prediction, which read
// past an array (under AddressSanitizer), divide by zero or loop at EOF if
// the check let an inconsistent size or type by.
#include <string>

#include "filter/fasttext_format.h"
#include "filter/fasttext_lid.h"
#include "libcorpus/core/error.h"
#include "tests/fuzz/fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string bytes(fuzz::bytes(data, size));
  try {
    (void)filter::check_fasttext_model(bytes);
  } catch (const corpus::Error&) {
    return 0;
  }
  try {
    const filter::FastTextLid lid(fuzz::as_file(bytes, ".bin"));
    for (const char* text : {"Guten Tag Welt", "bonjour", ""}) {
      for (const auto& guess : lid.predict(text))
        if (!(guess.p >= 0 && guess.p <= 1.0001f)) fuzz::broken("a probability outside [0, 1]");
    }
  } catch (const corpus::Error&) {
    fuzz::broken("a model the check accepted did not load");
  }
  return 0;
}
