// The binary layout of a fastText model file (.bin, and .ftz when
// quantised), walked end to end before libfasttext sees it. fastText's own
// loader trusts every size it reads: a truncated file sends its dictionary
// reader into an endless loop at EOF, a hostile matrix size allocates what
// the header says, and rows or labels that do not match the dictionary are
// read past their ends at prediction time. check_fasttext_model() throws
// corpus::Error (what is wrong, at which byte) on anything a prediction
// could trip on, so a model it accepts is safe to load and to query.
//
// Layout (fastText 0.9.2, little-endian): magic 793712314, version (11 or
// 12); args (dim, ws, epoch, minCount, neg, wordNgrams, loss, model, bucket,
// minn, maxn, lrUpdateRate as int32, t as double); dictionary (size, nwords,
// nlabels as int32, ntokens and pruneidx_size as int64, then size entries of
// a NUL-terminated word, an int64 count and an int8 type, words before
// labels, then pruneidx_size pairs of int32); the input matrix (a quantised
// flag byte, then dense: rows and columns as int64 and rows x columns
// floats; or quantised: a norm flag byte, rows and columns as int64, the
// code size as int32, the codes, a product quantiser (dim, nsubq, dsub,
// lastdsub as int32, dim x 256 floats) and with the norm flag the norm codes
// and a one-dimensional quantiser); then the output matrix the same way
// (quantised only when the input is). Nothing may follow, and every float
// is finite and at most 65536 in size (fastText throws from inside a
// prediction on a NaN, and huge weights overflow its sums into one).
#pragma once

#include <cstdint>
#include <string_view>

namespace filter {

struct FastTextShape {
  int32_t dim = 0;
  int32_t words = 0;
  int32_t labels = 0;
  bool quantised = false;
};

// Throws corpus::Error (the caller adds the file name) unless `bytes` is a
// whole, consistent supervised fastText model.
FastTextShape check_fasttext_model(std::string_view bytes);

}  // namespace filter
