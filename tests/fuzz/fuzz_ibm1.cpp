// IBM Model 1 files: Ibm1Model::load checks every table, so afterwards every
// vocabulary word and every row of both tables must be readable in bounds.
#include "align/ibm1_model.h"
#include "libcorpus/core/error.h"
#include "tests/fuzz/fuzz_input.h"

namespace {
volatile float sink;

void walk(const align::TTable& t, uint32_t ncols) {
  for (uint32_t r = 0; r < t.rows(); ++r) {
    auto cols = t.cols(r);
    auto vals = t.vals(r);
    for (size_t i = 0; i < cols.size(); ++i) {
      if (cols[i] >= ncols) fuzz::broken("a table column outside the vocabulary");
      sink = sink + vals[i] + t.prob(r, cols[i]);
    }
  }
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string& path = fuzz::as_file(fuzz::bytes(data, size), ".ibm1");
  try {
    align::Ibm1Model m = align::Ibm1Model::load(path);
    for (const align::VocabView* v : {&m.src, &m.trg}) {
      for (uint32_t w = 1; w < v->size(); ++w) (void)v->find(v->word(w));
    }
    walk(m.fwd, m.trg.size());
    walk(m.rev, m.src.size());
    (void)m.tokenizer();
  } catch (const corpus::Error&) {
  }
  return 0;
}
