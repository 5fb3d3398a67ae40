#include "align/mine/side.h"

#include <fmt/format.h>
#include <oneapi/tbb/parallel_for.h>

#include <cmath>
#include <string_view>
#include <unordered_set>

#include "libcorpus/core/error.h"
#include "libcorpus/core/line_reader.h"
#include "libcorpus/core/npy.h"

namespace align::mine {

namespace {

bool blank(std::string_view s) { return s.find_first_not_of(" \t\r") == std::string_view::npos; }

// Reads the sentences; calls keep(line index) for each distinct non-empty one.
template <class Keep>
void read_texts(Side& s, const std::string& path, const SideOptions& opt, Keep&& keep) {
  s.name = path;
  corpus::TextLines in(path, corpus::LineLimit(opt.max_line));
  std::unordered_set<std::string> seen;
  std::string_view line;
  while (in.next(line)) {
    const uint64_t i = s.lines_read++;
    if (blank(line)) {
      ++s.empty;
      continue;
    }
    if (!seen.emplace(line).second) {
      ++s.duplicates;
      continue;
    }
    s.texts.emplace_back(line);
    s.lines.push_back(i + 1);
    keep(i);
  }
  if (s.texts.empty() && !opt.allow_empty)
    throw corpus::Error(s.lines_read ? "no non-empty sentence to mine" : "no sentences to mine (the file is empty)",
                        "give a file with one sentence per line")
        .at(path);
}

}  // namespace

void normalize_rows(std::span<float> v, size_t dim) {
  for (size_t r = 0; r + dim <= v.size(); r += dim) {
    double n = 0;
    for (size_t i = 0; i < dim; ++i) n += static_cast<double>(v[r + i]) * v[r + i];
    if (n <= 0) continue;
    const double inv = 1.0 / std::sqrt(n);
    for (size_t i = 0; i < dim; ++i) v[r + i] = static_cast<float>(v[r + i] * inv);
  }
}

Side read_side(const std::string& text_path, const std::string& npy_path, const SideOptions& opt) {
  const corpus::npy::Matrix m = corpus::npy::read(npy_path);
  Side s;
  s.dim = m.dim;
  std::vector<uint64_t> keep;
  read_texts(s, text_path, opt, [&](uint64_t i) { keep.push_back(i); });
  if (m.rows != s.lines_read)
    throw corpus::ConfigError(
        fmt::format("{} has {} rows but {} has {} lines", npy_path, m.rows, text_path, s.lines_read),
        "give the .npy that pc-embed encode wrote for these sentences (row i = line i)");
  if (m.dim == 0) throw corpus::Error("the vectors have no dimensions").at(npy_path);
  s.vectors.resize(keep.size() * s.dim);
  for (size_t r = 0; r < keep.size(); ++r) {
    const auto src = m.row(keep[r]);
    std::copy(src.begin(), src.end(), s.vectors.begin() + static_cast<std::ptrdiff_t>(r * s.dim));
  }
  for (float x : s.vectors)
    if (!std::isfinite(x)) throw corpus::Error("a vector holds NaN or infinity").at(npy_path);
  normalize_rows(s.vectors, s.dim);
  return s;
}

Side encode_side(const std::string& text_path, const SentenceEncoder& enc, SentenceEncoder::Side which,
                 const SideOptions& opt) {
  Side s;
  s.dim = enc.dim();
  read_texts(s, text_path, opt, [](uint64_t) {});
  s.vectors.resize(s.texts.size() * s.dim);
  constexpr size_t kBatch = 256;
  const size_t batches = (s.texts.size() + kBatch - 1) / kBatch;
  oneapi::tbb::parallel_for(size_t{0}, batches, [&](size_t b) {
    const size_t lo = b * kBatch, hi = std::min(s.texts.size(), lo + kBatch);
    std::vector<std::string_view> v(s.texts.begin() + static_cast<std::ptrdiff_t>(lo),
                                    s.texts.begin() + static_cast<std::ptrdiff_t>(hi));
    enc.encode(v, which, std::span<float>(s.vectors).subspan(lo * s.dim, (hi - lo) * s.dim));
  });
  normalize_rows(s.vectors, s.dim);
  return s;
}

}  // namespace align::mine
