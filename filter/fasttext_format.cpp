#include "filter/fasttext_format.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>

#include "libcorpus/core/error.h"

namespace filter {
namespace {

constexpr int32_t kMagic = 793712314;
constexpr int32_t kSupervised = 3;     // fasttext::model_name::sup
constexpr int32_t kCentroids = 256;    // ProductQuantizer::ksub_
constexpr int32_t kMaxDim = 1 << 16;
constexpr int32_t kMaxVocab = 30000000;  // Dictionary::MAX_VOCAB_SIZE
constexpr size_t kMaxWordBytes = 1 << 16;
constexpr float kMaxWeight = 65536.0f;
constexpr char kHint[] = "give a fastText supervised model file (.bin or .ftz), e.g. lid.176.bin";

class Reader {
 public:
  explicit Reader(std::string_view b) : b_(b) {}
  template <typename T>
  T get(const char* what) {
    if (b_.size() - pos_ < sizeof(T)) truncated(what);
    T v;
    std::memcpy(&v, b_.data() + pos_, sizeof(T));
    pos_ += sizeof(T);
    return v;
  }
  // Skips n elements of `size` bytes, n read from the file (checked here, so
  // a hostile n cannot overflow the product).
  void skip(int64_t n, size_t size, const char* what) {
    if (n < 0 || static_cast<uint64_t>(n) > (b_.size() - pos_) / size) truncated(what);
    pos_ += static_cast<size_t>(n) * size;
  }
  // Skips n floats, n read from the file, each finite and at most
  // kMaxWeight in size: fastText throws from inside a prediction on a NaN
  // (DenseMatrix::EncounteredNaNError), and huge finite weights overflow its
  // sums into one. With every stored float (a quantised row's centroid and
  // norm alike) under 2^16, a product of dimension up to 2^16 over a line's
  // sum of rows stays far from float's 2^128.
  void floats(int64_t n, const char* what) {
    const size_t at = pos_;
    skip(n, sizeof(float), what);
    for (size_t i = at; i < pos_; i += sizeof(float)) {
      float f;
      std::memcpy(&f, b_.data() + i, sizeof f);
      if (!(std::fabs(f) <= kMaxWeight)) {
        pos_ = i;
        bad(std::isnan(f) ? fmt::format("{} holds NaN", what)
                          : fmt::format("{} holds {:g}, over {:g} in size", what, f, kMaxWeight));
      }
    }
  }
  std::string_view word() {
    const size_t end = b_.find('\0', pos_);
    if (end == std::string_view::npos) truncated("a dictionary entry");
    if (end - pos_ > kMaxWordBytes) bad(fmt::format("a dictionary entry of {} bytes", end - pos_));
    std::string_view w = b_.substr(pos_, end - pos_);
    pos_ = end + 1;
    return w;
  }
  bool flag(const char* what) {
    const auto v = get<uint8_t>(what);
    if (v > 1) bad(fmt::format("{} is {}, not 0 or 1", what, v));
    return v == 1;
  }
  size_t pos() const { return pos_; }
  size_t left() const { return b_.size() - pos_; }
  [[noreturn]] void truncated(const char* what) const {
    throw corpus::Error(fmt::format("truncated fastText model: {} is cut off at byte {} of {}", what, pos_, b_.size()),
                        kHint);
  }
  [[noreturn]] void bad(const std::string& what) const {
    throw corpus::Error(fmt::format("bad fastText model (byte {}): {}", pos_, what), kHint);
  }

 private:
  std::string_view b_;
  size_t pos_ = 0;
};

void check_range(Reader& r, const char* name, int64_t v, int64_t lo, int64_t hi) {
  if (v < lo || v > hi) r.bad(fmt::format("{} is {}, expected {} to {}", name, v, lo, hi));
}

// A dense matrix: int64 rows, columns, then the floats.
void dense_matrix(Reader& r, const char* what, int64_t rows, int32_t dim) {
  const auto m = r.get<int64_t>(what), n = r.get<int64_t>(what);
  if (n != dim) r.bad(fmt::format("{} has {} columns, the model's dimension is {}", what, n, dim));
  if (m != rows) r.bad(fmt::format("{} has {} rows, the dictionary needs {}", what, m, rows));
  r.floats(m * n, what);
}

// A product quantiser of vectors of `dim` floats (ProductQuantizer::load);
// returns its number of sub-vectors, the code bytes a row.
int32_t quantiser(Reader& r, const char* what, int32_t dim) {
  const auto d = r.get<int32_t>(what), nsubq = r.get<int32_t>(what), dsub = r.get<int32_t>(what),
             last = r.get<int32_t>(what);
  if (d != dim) r.bad(fmt::format("{}: a quantiser for {} dimensions, not {}", what, d, dim));
  if (dsub < 1 || dsub > dim) r.bad(fmt::format("{}: a quantiser with sub-vectors of {}", what, dsub));
  const int32_t want_nsubq = (dim + dsub - 1) / dsub, want_last = dim - (want_nsubq - 1) * dsub;
  if (nsubq != want_nsubq || last != want_last)
    r.bad(fmt::format("{}: a quantiser of {} sub-vectors (the last of {}), expected {} (the last of {})", what,
                      nsubq, last, want_nsubq, want_last));
  r.floats(static_cast<int64_t>(dim) * kCentroids, what);
  return nsubq;
}

// A quantised matrix (QuantMatrix::load) of `min_rows` rows or more.
void quant_matrix(Reader& r, const char* what, int64_t min_rows, int32_t dim) {
  const bool qnorm = r.flag(what);
  const auto m = r.get<int64_t>(what), n = r.get<int64_t>(what);
  const auto codesize = r.get<int32_t>(what);
  if (n != dim) r.bad(fmt::format("{} has {} columns, the model's dimension is {}", what, n, dim));
  // fastText indexes rows with int32.
  if (m < min_rows || m > INT32_MAX) r.bad(fmt::format("{} has {} rows, the dictionary needs {}", what, m, min_rows));
  r.skip(codesize, 1, what);
  const int32_t nsubq = quantiser(r, what, dim);
  if (static_cast<int64_t>(codesize) != m * nsubq)
    r.bad(fmt::format("{} has {} code bytes for {} rows of {} codes", what, codesize, m, nsubq));
  if (qnorm) {
    r.skip(m, 1, what);
    quantiser(r, what, 1);
  }
}

}  // namespace

FastTextShape check_fasttext_model(std::string_view bytes) {
  Reader r(bytes);
  if (bytes.size() < 8 || r.get<int32_t>("the magic number") != kMagic)
    throw corpus::Error("not a fastText model file (no fastText magic number)", kHint);
  const auto version = r.get<int32_t>("the version");
  if (version != 11 && version != 12)
    throw corpus::Error(fmt::format("a fastText model of format version {}; this program reads 11 and 12", version),
                        kHint);
  FastTextShape shape;
  // Args::load
  shape.dim = r.get<int32_t>("the arguments");
  check_range(r, "dim", shape.dim, 1, kMaxDim);
  for (int i = 0; i < 4; ++i) (void)r.get<int32_t>("the arguments");  // ws, epoch, minCount, neg
  const auto word_ngrams = r.get<int32_t>("the arguments");
  const auto loss = r.get<int32_t>("the arguments");
  const auto model = r.get<int32_t>("the arguments");
  const auto bucket = r.get<int32_t>("the arguments");
  const auto minn = r.get<int32_t>("the arguments");
  auto maxn = r.get<int32_t>("the arguments");
  (void)r.get<int32_t>("the arguments");  // lrUpdateRate
  (void)r.get<double>("the arguments");   // t
  check_range(r, "wordNgrams", word_ngrams, 1, 64);
  check_range(r, "loss", loss, 1, 4);
  if (model != kSupervised)
    r.bad(fmt::format("a {} model, not a supervised (classification) one", model == 1   ? "cbow"
                                                                            : model == 2 ? "skipgram"
                                                                                         : "unknown"));
  check_range(r, "bucket", bucket, 0, INT32_MAX);
  if (version == 11) maxn = 0;  // fastText reads old supervised models without subwords
  if (maxn != 0) {
    check_range(r, "minn", minn, 1, 64);
    check_range(r, "maxn", maxn, minn, 64);
  }
  if ((maxn > 0 || word_ngrams > 1) && bucket == 0) r.bad("subword or word n-grams with no buckets");

  // Dictionary::load
  const auto size = r.get<int32_t>("the dictionary"), nwords = r.get<int32_t>("the dictionary"),
             nlabels = r.get<int32_t>("the dictionary");
  const auto ntokens = r.get<int64_t>("the dictionary"), pruned = r.get<int64_t>("the dictionary");
  check_range(r, "the dictionary size", size, 1, kMaxVocab);
  check_range(r, "the word count", nwords, 0, size);
  if (nlabels < 1 || static_cast<int64_t>(nwords) + nlabels != size)
    r.bad(fmt::format("{} words and {} labels in a dictionary of {}", nwords, nlabels, size));
  if (ntokens < 0) r.bad("a negative token count");
  if (pruned < -1) r.bad(fmt::format("pruneidx_size is {}", pruned));
  shape.words = nwords;
  shape.labels = nlabels;
  // The labels' counts are what fastText builds its hierarchical-softmax
  // tree from (at load, whatever the loss); that tree takes any count
  // under 10^15 as a leaf's and 10^15 as the mark of a node not yet built,
  // so a count at the mark or above, or a sum that reaches it, makes a node
  // its own parent and the loader loops until memory runs out.
  constexpr int64_t kMaxLabelCounts = 1000000000000000LL;  // HierarchicalSoftmaxLoss::buildTree's 1e15
  int64_t label_counts = 0;
  for (int32_t i = 0; i < size; ++i) {
    (void)r.word();
    const auto count = r.get<int64_t>("a dictionary entry");
    if (count < 0) r.bad(fmt::format("entry {} has a negative count", i));
    if (i >= nwords) {
      if (count >= kMaxLabelCounts - label_counts)
        r.bad(fmt::format("the labels' counts reach {} at entry {}: over fastText's limit of 10^15", count, i));
      label_counts += count;
    }
    const auto type = r.get<int8_t>("a dictionary entry");
    // fastText finds label i at entry nwords + i and counts the label-typed
    // entries for its loss: the types must be words first, then labels.
    if (type != (i < nwords ? 0 : 1))
      r.bad(fmt::format("entry {} is a {}, but entries 0 to {} are words and the rest labels", i,
                        type == 0 ? "word" : type == 1 ? "label" : "entry of unknown type", nwords - 1));
  }
  int64_t ngram_rows = (maxn > 0 || word_ngrams > 1) ? bucket : 0;
  if (pruned >= 0) {
    if (static_cast<uint64_t>(pruned) > r.left() / 8) r.truncated("the pruned n-gram index");
    int64_t top = -1;
    for (int64_t i = 0; i < pruned; ++i) {
      (void)r.get<int32_t>("the pruned n-gram index");
      const auto to = r.get<int32_t>("the pruned n-gram index");
      if (to < 0) r.bad("the pruned n-gram index maps to a negative row");
      top = std::max<int64_t>(top, to);
    }
    ngram_rows = top + 1;
  }

  // The matrices.
  const int64_t input_rows = nwords + ngram_rows;
  shape.quantised = r.flag("the input matrix flag");
  if (!shape.quantised && pruned >= 0) r.bad("a pruned dictionary with a dense input matrix");
  if (shape.quantised) {
    quant_matrix(r, "the input matrix", input_rows, shape.dim);
  } else {
    dense_matrix(r, "the input matrix", input_rows, shape.dim);
  }
  const bool qout = r.flag("the output matrix flag");
  if (shape.quantised && qout)
    quant_matrix(r, "the output matrix", nlabels, shape.dim);  // hs reads nlabels - 1 rows, the others nlabels
  else
    dense_matrix(r, "the output matrix", nlabels, shape.dim);
  if (r.left() != 0) r.bad(fmt::format("{} bytes after the output matrix", r.left()));
  return shape;
}

}  // namespace filter
