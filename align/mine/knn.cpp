#include "align/mine/knn.h"

#include <fmt/format.h>
#include <oneapi/tbb/parallel_for.h>

#include <algorithm>
#include <cstring>
#include <utility>

#include "align/mine/bytes.h"
#include "libcorpus/core/error.h"
#include "libcorpus/core/input.h"
#include "libcorpus/core/output.h"

namespace align::mine {

namespace {

constexpr char kKnnMagic[8] = {'P', 'C', 'K', 'N', 'N', '0', '0', '1'};
constexpr size_t kHeader = 8 + 8 + 4 + 4 + 8;

}  // namespace

uint32_t KnnLists::filled(uint64_t q) const {
  uint32_t n = 0;
  while (n < k && ids[q * k + n] >= 0) ++n;
  return n;
}

float cosine(std::span<const float> a, std::span<const float> b) {
  double s = 0;
  for (size_t i = 0; i < a.size(); ++i) s += static_cast<double>(a[i]) * b[i];
  return static_cast<float>(s);
}

KnnLists rerank(const KnnLists& in, std::span<const float> queries, std::span<const float> indexed, size_t dim,
                uint32_t k_out) {
  KnnLists out = empty_like(in, k_out);
  std::vector<std::pair<float, int64_t>> c;
  for (uint64_t q = 0; q < in.queries; ++q) {
    c.clear();
    for (uint32_t j = 0; j < in.k; ++j) {
      const int64_t id = in.id(q, j);
      if (id < 0) continue;
      c.emplace_back(cosine(queries.subspan(q * dim, dim), indexed.subspan(static_cast<size_t>(id) * dim, dim)), id);
    }
    std::sort(c.begin(), c.end(), [](const auto& a, const auto& b) { return a.second < b.second; });
    c.erase(std::unique(c.begin(), c.end(), [](const auto& a, const auto& b) { return a.second == b.second; }),
            c.end());
    keep_best(c, q, out);
  }
  return out;
}

KnnLists empty_like(const KnnLists& in, uint32_t k) {
  KnnLists out;
  out.queries = in.queries;
  out.k = k;
  out.indexed = in.indexed;
  out.ids.assign(in.queries * k, -1);
  out.sims.assign(in.queries * k, 0.0f);
  return out;
}

void keep_best(std::vector<std::pair<float, int64_t>>& c, uint64_t q, KnnLists& out) {
  std::sort(c.begin(), c.end(), [](const auto& a, const auto& b) {
    return a.first != b.first ? a.first > b.first : a.second < b.second;
  });
  const size_t n = std::min<size_t>(c.size(), out.k);
  for (size_t j = 0; j < n; ++j) {
    out.ids[q * out.k + j] = c[j].second;
    out.sims[q * out.k + j] = c[j].first;
  }
}

KnnLists mix_signal(const KnnLists& in, double w, uint32_t k_out, const PairSignal& signal) {
  KnnLists out = empty_like(in, k_out);
  oneapi::tbb::parallel_for(oneapi::tbb::blocked_range<uint64_t>(0, in.queries, 64), [&](const auto& r) {
    std::vector<std::pair<float, int64_t>> c;
    for (uint64_t q = r.begin(); q < r.end(); ++q) {
      c.clear();
      for (uint32_t j = 0, n = in.filled(q); j < n; ++j) {
        const int64_t id = in.id(q, j);
        c.emplace_back(static_cast<float>((1 - w) * in.sim(q, j) + w * signal(q, static_cast<uint64_t>(id))), id);
      }
      keep_best(c, q, out);
    }
  });
  return out;
}

KnnLists concat(const std::vector<KnnLists>& parts, const std::vector<std::string>& names) {
  if (parts.empty()) throw corpus::ConfigError("no top-k lists to merge");
  KnnLists out;
  out.queries = parts[0].queries;
  out.indexed = parts[0].indexed;
  for (size_t p = 0; p < parts.size(); ++p) {
    const auto& l = parts[p];
    if (l.queries != out.queries || l.indexed != out.indexed)
      throw corpus::ConfigError(fmt::format("{} queries of an index of {} rows, where {} has {} of {}", l.queries,
                                            l.indexed, names[0], out.queries, out.indexed),
                                "merge the lists of one query set searched in the shards of one index")
          .at(names[p]);
    out.k += l.k;
  }
  out.ids.assign(out.queries * out.k, -1);
  out.sims.assign(out.queries * out.k, 0.0f);
  for (uint64_t q = 0; q < out.queries; ++q) {
    uint32_t at = 0;
    for (const auto& l : parts) {
      std::copy_n(l.ids.begin() + q * l.k, l.k, out.ids.begin() + q * out.k + at);
      std::copy_n(l.sims.begin() + q * l.k, l.k, out.sims.begin() + q * out.k + at);
      at += l.k;
    }
  }
  return out;
}

void write_knn(const std::string& path, const KnnLists& l) {
  std::string h(kKnnMagic, sizeof kKnnMagic);
  put<uint64_t>(h, l.queries);
  put<uint32_t>(h, l.k);
  put<uint32_t>(h, 0);
  put<uint64_t>(h, l.indexed);
  corpus::Output out(path, corpus::Compression::kNone);
  out.write(h);
  out.write({reinterpret_cast<const char*>(l.ids.data()), l.ids.size() * sizeof(int64_t)});
  out.write({reinterpret_cast<const char*>(l.sims.data()), l.sims.size() * sizeof(float)});
  out.commit();
}

KnnLists read_knn(const std::string& path) {
  auto src = corpus::open_input(path);
  std::string s;
  char buf[1 << 16];
  for (size_t n; (n = src->read(buf, sizeof buf)) > 0;) s.append(buf, n);
  if (s.size() < kHeader || std::memcmp(s.data(), kKnnMagic, sizeof kKnnMagic) != 0)
    throw corpus::Error("not a top-k list file (no PCKNN001 header)", "give a file written by pc-mine search").at(path);
  KnnLists l;
  l.queries = get<uint64_t>(s, 8);
  l.k = get<uint32_t>(s, 16);
  l.indexed = get<uint64_t>(s, 24);
  const uint64_t cells = l.queries * l.k;
  if (l.k == 0 || l.k > 4096 || l.queries > (uint64_t{1} << 40) || s.size() != kHeader + cells * 12)
    throw corpus::Error(fmt::format("{} bytes where {} queries × k = {} need {} — the file is truncated or damaged",
                                    s.size(), l.queries, l.k, kHeader + cells * 12))
        .at(path);
  l.ids.resize(cells);
  l.sims.resize(cells);
  std::memcpy(l.ids.data(), s.data() + kHeader, cells * 8);
  std::memcpy(l.sims.data(), s.data() + kHeader + cells * 8, cells * 4);
  for (int64_t id : l.ids)
    if (id < -1 || id >= static_cast<int64_t>(l.indexed))
      throw corpus::Error(fmt::format("row {} outside an index of {} rows", id, l.indexed)).at(path);
  return l;
}

}  // namespace align::mine
