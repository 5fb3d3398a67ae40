#include "align/mine/mine_run.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>

#include "align/mine/flat_both.h"
#include "align/mine/judge.h"
#include "libcorpus/core/digit_runs.h"
#include "libcorpus/core/utf8.h"
#include "libcorpus/core/error.h"

namespace align::mine {

namespace {

void check_dims(const Side& a, const Side& b) {
  if (a.dim != b.dim)
    throw corpus::ConfigError(
        fmt::format("{}-dimensional vectors for {} but {}-dimensional for {}", a.dim, a.name, b.dim, b.name),
        "encode both sides with the same encoder");
}

std::vector<float> gather(const Side& s, const std::vector<uint64_t>& rows) {
  std::vector<float> v(rows.size() * s.dim);
  for (size_t r = 0; r < rows.size(); ++r)
    std::copy_n(s.vectors.begin() + static_cast<std::ptrdiff_t>(rows[r] * s.dim), s.dim,
                v.begin() + static_cast<std::ptrdiff_t>(r * s.dim));
  return v;
}

uint32_t k_for(uint32_t k, uint64_t rows) { return static_cast<uint32_t>(std::min<uint64_t>(k, rows)); }

std::string factory_for(const IndexOptions& opt, const Side& base) {
  return opt.factory.empty() ? default_factory(base.rows(), base.dim) : opt.factory;
}

VectorIndex trained_index(const Side& base, const IndexOptions& opt, uint64_t* trained_on) {
  VectorIndex ix(base.dim, factory_for(opt, base), opt);
  if (!ix.is_trained()) {
    const auto rows = training_rows(base.rows(), opt.train_sample, opt.seed);
    ix.train(gather(base, rows));
    if (trained_on) *trained_on = rows.size();
  }
  return ix;
}

// Each row's length in code points (the texts are valid UTF-8: bytes that
// do not continue a sequence).
std::vector<uint32_t> code_points(const Side& s) {
  std::vector<uint32_t> n(s.rows(), 0);
  for (uint64_t i = 0; i < s.rows(); ++i)
    n[i] = static_cast<uint32_t>(corpus::utf8_code_points(s.texts[i]));
  return n;
}

// Each row's corpus::digit_runs_key.
std::vector<uint64_t> number_keys(const Side& s) {
  std::vector<uint64_t> k(s.rows());
  for (uint64_t i = 0; i < s.rows(); ++i) k[i] = corpus::digit_runs_key(s.texts[i]);
  return k;
}

// The median log length ratio of the best quarter (at least one) of `pairs`,
// which are mostly translations whatever the threshold; 0 with no pairs.
double typical_log_ratio(std::vector<MinedPair> pairs, const std::vector<uint32_t>& sl,
                         const std::vector<uint32_t>& tl) {
  if (pairs.empty()) return 0;
  std::stable_sort(pairs.begin(), pairs.end(), [](const auto& a, const auto& b) { return a.score > b.score; });
  std::vector<double> r;
  for (size_t i = 0; i < std::max<size_t>(1, pairs.size() / 4); ++i)
    r.push_back(std::log((tl[pairs[i].trg] + 5.0) / (sl[pairs[i].src] + 5.0)));
  std::sort(r.begin(), r.end());
  const size_t h = r.size() / 2;
  return r.size() % 2 ? r[h] : (r[h - 1] + r[h]) / 2;
}

std::span<const float> range(const Side& s, uint64_t lo, uint64_t hi) {
  return std::span<const float>(s.vectors).subspan(lo * s.dim, (hi - lo) * s.dim);
}

}  // namespace

void write_pairs(const Side& src, const Side& trg, const std::vector<MinedPair>& pairs, const WriteFn& out) {
  out("src_text\ttrg_text\tmine_score\tsrc_id\ttrg_id\n");
  std::string line;
  for (const auto& p : pairs) {
    line.clear();
    fmt::format_to(std::back_inserter(line), "{}\t{}\t{:.6f}\t{}\t{}\n", src.texts[p.src], trg.texts[p.trg], p.score,
                   src.lines[p.src], trg.lines[p.trg]);
    out(line);
  }
}

KnnLists search_single(const Side& queries, const Side& base, uint32_t k, const IndexOptions& opt,
                       std::string* factory_used) {
  check_dims(queries, base);
  VectorIndex ix = trained_index(base, opt, nullptr);
  ix.add(base.vectors, 0);
  if (factory_used) *factory_used = ix.factory();
  const uint32_t ke = k_for(k, base.rows());
  return rerank(ix.search(queries.vectors, ke, base.rows()), queries.vectors, base.vectors, base.dim, ke);
}

MineCounts score_and_write(const Side& src, const Side& trg, const KnnLists& fwd_in, const KnnLists& bwd_in,
                           const MineOptions& opt, const WriteFn& out) {
  MineCounts c;
  KnnLists fwd = fwd_in, bwd = bwd_in;
  if (opt.ibm1) {
    const Ibm1Rescorer r(*opt.ibm1, opt.ibm1_weight, src, trg);
    fwd = r.apply(fwd_in, true, k_for(opt.k, trg.rows()));
    bwd = r.apply(bwd_in, false, k_for(opt.k, src.rows()));
  }
  const auto same = [&](uint64_t i, uint64_t j) { return src.texts[i] == trg.texts[j]; };
  std::vector<MinedPair> pairs = select_pairs(fwd, bwd, opt.select, same, &c.dropped_same);
  if (opt.nmt && opt.nmt_weight > 0) {
    const JudgeTable judge = judge_candidates(*opt.nmt, src, trg, fwd, bwd);
    fwd = apply_judge(fwd, judge, opt.nmt_weight, true);
    bwd = apply_judge(bwd, judge, opt.nmt_weight, false);
  }
  if (opt.length_weight > 0 || opt.number_weight > 0) {
    PairPrior prior;
    std::vector<uint32_t> sl, tl;
    if (opt.length_weight > 0) {
      sl = code_points(src);
      tl = code_points(trg);
      prior.length_weight = opt.length_weight;
      prior.mu = typical_log_ratio(pairs, sl, tl);
      prior.src_len = &sl;
      prior.trg_len = &tl;
    }
    std::vector<uint64_t> sn, tn;
    if (opt.number_weight > 0) {
      sn = number_keys(src);
      tn = number_keys(trg);
      prior.number_weight = opt.number_weight;
      prior.src_numbers = &sn;
      prior.trg_numbers = &tn;
    }
    pairs = select_pairs(fwd, bwd, opt.select, same, &c.dropped_same, prior);
  }
  write_pairs(src, trg, pairs, out);
  c.pairs = pairs.size();
  return c;
}

MineCounts mine(const Side& src, const Side& trg, const MineOptions& opt, const WriteFn& out) {
  check_dims(src, trg);
  std::string fi = factory_for(opt.index, trg), bi = factory_for(opt.index, src);
  KnnLists fwd, bwd;
  const uint32_t kf = k_for(opt.search_k(), trg.rows()), kb = k_for(opt.search_k(), src.rows());
  if (fi == "Flat" && bi == "Flat") {
    // Both directions from one product (flat_both.h).
    set_blas_threads(1);
    auto both = flat_knn_both(src, trg, kf, kb);
    fwd = rerank(both.first, src.vectors, trg.vectors, trg.dim, kf);
    bwd = rerank(both.second, trg.vectors, src.vectors, src.dim, kb);
  } else {
    fwd = search_single(src, trg, opt.search_k(), opt.index, &fi);
    bwd = search_single(trg, src, opt.search_k(), opt.index, &bi);
  }
  MineCounts c = score_and_write(src, trg, fwd, bwd, opt, out);
  c.trg_index = fi;
  c.src_index = bi;
  return c;
}

IndexCounts build_shards(const Side& side, uint32_t shards, std::optional<uint32_t> only, const IndexOptions& opt,
                         const std::string& prefix) {
  if (shards == 0 || shards > side.rows())
    throw corpus::ConfigError(fmt::format("{} shards for {} distinct sentences", shards, side.rows()),
                              "give at most one shard per sentence");
  if (only && *only >= shards)
    throw corpus::ConfigError(fmt::format("shard {} of {} (shards are numbered from 0)", *only, shards));
  IndexCounts c;
  c.rows = side.rows();
  const std::string trained_path = prefix + ".trained.idx";
  VectorIndex::ShardInfo info{side.rows(), 0, shards};
  std::optional<VectorIndex> trained;
  if (only && access(trained_path.c_str(), F_OK) == 0) {
    VectorIndex::ShardInfo ti;
    trained.emplace(VectorIndex::load(trained_path, opt, &ti));
    if (trained->dim() != side.dim || ti.total_rows != side.rows() || ti.shards != shards)
      throw corpus::ConfigError(
          fmt::format("trained for {} rows of {} dimensions in {} shards, but these are {} rows of {} in {}",
                      ti.total_rows, trained->dim(), ti.shards, side.rows(), side.dim, shards),
          "train again without --shard, or give the same sentences and --shards")
          .at(trained_path);
  } else {
    trained.emplace(trained_index(side, opt, &c.trained_on));
    trained->save(trained_path, info);
  }
  c.factory = trained->factory();
  for (uint32_t s = 0; s < shards; ++s) {
    if (only && s != *only) continue;
    const uint64_t lo = side.rows() * s / shards, hi = side.rows() * (s + 1) / shards;
    VectorIndex ix = trained->empty_copy();
    ix.add(range(side, lo, hi), static_cast<int64_t>(lo));
    info.shard = s;
    const std::string path = fmt::format("{}.{}.idx", prefix, s);
    ix.save(path, info);
    c.files.push_back(path);
  }
  return c;
}

KnnLists search_shard(const Side& queries, const std::string& shard_path, uint32_t k, const IndexOptions& opt) {
  VectorIndex::ShardInfo info;
  const VectorIndex ix = VectorIndex::load(shard_path, opt, &info);
  if (ix.dim() != queries.dim)
    throw corpus::ConfigError(
        fmt::format("{}-dimensional queries for an index of {}-dimensional vectors", queries.dim, ix.dim()),
        "search with vectors of the encoder that made the index")
        .at(shard_path);
  return ix.search(queries.vectors, k_for(k, info.total_rows), info.total_rows);
}

MineCounts score_shards(const Side& src, const Side& trg, const std::vector<std::string>& fwd_files,
                        const std::vector<std::string>& bwd_files, const MineOptions& opt, const WriteFn& out) {
  check_dims(src, trg);
  const auto merged = [&](const std::vector<std::string>& files, const Side& q, const Side& base) {
    std::vector<KnnLists> parts;
    for (const auto& f : files) {
      parts.push_back(read_knn(f));
      if (parts.back().queries != q.rows() || parts.back().indexed != base.rows())
        throw corpus::ConfigError(
            fmt::format("lists of {} queries over {} rows, but {} has {} distinct sentences "
                        "and {} has {}",
                        parts.back().queries, parts.back().indexed, q.name, q.rows(), base.name, base.rows()),
            "give the lists searched with these sentences, fwd (source queries) before bwd")
            .at(f);
    }
    return rerank(concat(parts, files), q.vectors, base.vectors, base.dim, k_for(opt.search_k(), base.rows()));
  };
  const KnnLists fwd = merged(fwd_files, src, trg);
  const KnnLists bwd = merged(bwd_files, trg, src);
  return score_and_write(src, trg, fwd, bwd, opt, out);
}

}  // namespace align::mine
