#include "filter/clean_run.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <memory>
#include <mutex>
#include <unordered_map>

#include "filter/key_table.h"
#include "filter/orthography.h"
#include "filter/row_spool.h"
#include "filter/rules.h"
#include "filter/text_stats.h"
#include "libcorpus/core/digest.h"
#include "libcorpus/core/error.h"
#include "libcorpus/core/line_pipeline.h"
#include "libcorpus/core/output.h"

namespace filter {

namespace {

constexpr int kKeep = -1, kBad = -2;

// One row's result: where its text lies in the batch's output, the first
// stateless rule it failed (or kKeep / kBad), and its dedup keys.
struct RowResult {
  size_t prefix_end = 0, end = 0;  // [start, prefix_end) before the reason, [prefix_end, end) after
  int reason = kKeep;
  uint64_t dedup_key = 0, src_key = 0, trg_key = 0;  // dedup_key: the exact or the near key
  double score = 0;  // clean_score, which near dedup ranks variants by
};

// A variant's score beats another's: NaN is the lowest, and equal scores keep
// the earlier row.
bool better_variant(double a, double b) { return !std::isnan(a) && (std::isnan(b) || a > b); }

// The output layout: where each added column goes.
struct Layout {
  std::vector<std::string> names;  // output columns (the reason column included when annotating)
  int ibm1 = -1, cos = -1, order = -1, nmt = -1, clean = -1, multiway = -1, reason = -1;
  size_t in_cols = 0;
  bool header = false;  // write a header (input had one, or columns were added)
  int place(const std::string& name, const corpus::TsvColumns& in) {
    int i = in.index(name);
    if (i >= 0) return i;
    names.push_back(name);
    return static_cast<int>(names.size()) - 1;
  }
};

std::string fmt_score(double v) { return std::isnan(v) ? std::string("nan") : fmt::format("{:.4f}", v); }

uint64_t key_hash(std::string_view a, std::string_view b) {
  std::string k;
  k.reserve(a.size() + b.size() + 1);
  k.append(a).push_back('\t');
  k.append(b);
  return corpus::hash64(k);
}

}  // namespace

CleanCounts clean_rows(corpus::BitextLines& in, const CleanOptions& opt, const PairScorer& scorer,
                       corpus::Output& out, corpus::Output* rejected,
                       const std::function<void(uint64_t, uint64_t)>& progress) {
  const corpus::TsvColumns& cols = in.columns();
  const int si = cols.index("src_text"), ti = cols.index("trg_text");
  if (si < 0 || ti < 0) throw corpus::Error("the input has no src_text and trg_text columns").at(in.name());
  const RuleSet rules(opt.chain, opt.src_lang, opt.trg_lang, opt.lid_model, opt.dictionaries);
  const Orthography src_ortho(opt.src_lang), trg_ortho(opt.trg_lang);
  const Chain& chain = opt.chain;
  if (opt.lid_model != nullptr &&
      std::none_of(chain.rules.begin(), chain.rules.end(), [](const Rule& r) { return r.kind == RuleKind::kLid; }))
    throw corpus::ConfigError("--lid-model is for the lid rule, and the chain has none",
                              "put lid in --chain, or leave --lid-model out");
  for (const Rule& r : chain.rules) {
    if (r.kind == RuleKind::kIbm1 && !scorer.has_ibm1())
      throw corpus::ConfigError("rule ibm1 needs an IBM1 model", "give --ibm1 MODEL (from pc-ibm1 train)");
    if (r.kind == RuleKind::kOrder && !scorer.has_order())
      throw corpus::ConfigError("rule order needs the order model", "give --order-lm BITEXT (target-language text)");
    if (r.kind == RuleKind::kNmt && !scorer.has_nmt())
      throw corpus::ConfigError("rule nmt needs a translation model", "give --nmt MODEL (from pc-nmt train, source to target)");
    if (r.kind == RuleKind::kCos && !scorer.has_encoder())
      throw corpus::ConfigError("rule cos needs an encoder", "give --encoder MODEL (from pc-embed train)");
    if (r.kind == RuleKind::kMultiway && !opt.multiway)
      throw corpus::ConfigError("rule multiway needs the other language pairs", "give --multiway BITEXT for each");
    if (r.kind == RuleKind::kScore && !scorer.has_clean())
      throw corpus::ConfigError("rule score needs a scorer", "give --ibm1 MODEL and/or --encoder MODEL");
  }
  const bool dedup = chain.has(RuleKind::kDedup);
  bool near = false;
  uint64_t max_trg = 0, max_src = 0;
  std::vector<size_t> stateful;  // rule indices, in chain order
  for (size_t i = 0; i < chain.rules.size(); ++i) {
    const Rule& r = chain.rules[i];
    if (!r.stateful()) continue;
    stateful.push_back(i);
    if (r.kind == RuleKind::kDedup) near = r.arg == "near";
    if (r.kind == RuleKind::kMaxTrg) max_trg = static_cast<uint64_t>(r.a);
    if (r.kind == RuleKind::kMaxSrc) max_src = static_cast<uint64_t>(r.a);
  }
  const bool keys = max_trg || max_src;
  // Near dedup with scores keeps the best-scored variant of a group, which
  // only the whole input can tell: the consumer then spools the rows and
  // records each group's best row, and the rows are decided and written once
  // the input is read. Without scores (and for exact duplicates, whose
  // scores are equal) the first variant is the one kept, in one pass.
  const bool best_variant = dedup && near && scorer.has_clean();

  Layout lay;
  lay.names = cols.names;
  lay.in_cols = cols.size();
  if (scorer.has_ibm1()) lay.ibm1 = lay.place("ibm1_score", cols);
  if (scorer.has_encoder()) lay.cos = lay.place("cos_score", cols);
  if (scorer.has_order()) lay.order = lay.place("order_score", cols);
  if (scorer.has_nmt()) lay.nmt = lay.place("nmt_score", cols);
  if (scorer.has_clean()) lay.clean = lay.place("clean_score", cols);
  if (opt.multiway) lay.multiway = lay.place("multiway_score", cols);
  const size_t main_cols = lay.names.size();
  lay.header = cols.header || main_cols > lay.in_cols || opt.annotate;
  // The reason column: in place when the input has one, else last.
  lay.reason = cols.index("clean_reason");
  const bool reason_appended = lay.reason < 0;
  std::vector<std::string> rej_names = lay.names;
  if (reason_appended) rej_names.push_back("clean_reason");
  std::vector<std::string> out_names = opt.annotate ? rej_names : lay.names;

  CleanCounts n;
  n.rejected.assign(chain.rules.size(), 0);
  std::atomic<uint64_t> fixed{0};
  std::mutex mu;
  std::unordered_map<uint64_t, std::vector<RowResult>> results;  // by batch first_row
  struct Nothing {};
  KeyTable<Nothing> seen;  // flat tables: 10M keys are the common case (filter/key_table.h)
  KeyTable<uint32_t> trg_per_src, src_per_trg;
  bool out_header_done = !lay.header, rej_header_done = false;
  corpus::TsvWriter out_w(out);

  struct BestVariant {
    double score;
    uint64_t row;
  };
  KeyTable<BestVariant> best;  // near key -> the group's best row (best_variant)
  std::unique_ptr<RowSpool> spool;
  if (best_variant) spool = std::make_unique<RowSpool>();
  uint64_t row_no = 0;  // rows handed to decide so far, bad ones not counted

  // A row's stateful rules in chain order, its counts and its writing; rows
  // come here in input order.
  auto decide = [&](int reason, uint64_t dedup_key, uint64_t src_key, uint64_t trg_key, std::string_view head,
                    std::string_view tail) {
    if (reason == kKeep) {
      for (size_t k : stateful) {
        const Rule& rule = chain.rules[k];
        bool fail = false;
        if (rule.kind == RuleKind::kDedup)
          fail = best_variant ? best.find(dedup_key)->row != row_no : !seen.try_emplace(dedup_key).second;
        else if (rule.kind == RuleKind::kMaxTrg) fail = trg_per_src[src_key] >= max_trg;
        else fail = src_per_trg[trg_key] >= max_src;
        if (fail) {
          reason = static_cast<int>(k);
          break;
        }
      }
      if (reason == kKeep) {
        if (max_trg) ++trg_per_src[src_key];
        if (max_src) ++src_per_trg[trg_key];
      }
    }
    const std::string name = reason == kKeep ? "keep" : chain.rules[static_cast<size_t>(reason)].name();
    auto write = [&](corpus::Output& o, bool with_reason) {
      o.write(head);
      if (with_reason) {
        if (reason_appended || lay.reason > 0) o.put('\t');
        o.write(name);
      }
      o.write(tail);
      o.put('\n');
    };
    if (reason == kKeep) ++n.kept;
    else ++n.rejected[static_cast<size_t>(reason)];
    if (reason == kKeep || opt.annotate) {
      if (!out_header_done) {
        out_w.header(out_names);
        out_header_done = true;
      }
      write(out, opt.annotate || !reason_appended);
    }
    if (reason != kKeep && rejected) {
      if (!rej_header_done) {
        corpus::TsvWriter(*rejected).header(rej_names);
        rej_header_done = true;
      }
      write(*rejected, true);
    }
  };

  corpus::LinePipelineSource src{[&](std::string& o) { return in.next(o); }, [&] { return in.line_number(); },
                                 [&] { return in.raw_bytes_read(); }};
  const size_t ncols = cols.size();
  corpus::run_line_pipeline(
      src, opt.batch_bytes,
      [&](corpus::LineBatch& b) {
        std::vector<RowResult> res(b.size());
        std::vector<std::string_view> fields;
        std::string fs, ft, ks, kt;
        std::vector<std::string> extra(main_cols);
        uint64_t nfixed = 0;
        for (size_t i = 0; i < b.size(); ++i) {
          RowResult& r = res[i];
          std::string msg;
          if (opt.max_line && b.line(i).size() > opt.max_line) {
            msg = "line longer than " + std::to_string(opt.max_line) + " bytes";
          } else {
            corpus::split_tsv(b.line(i), fields);
            msg = corpus::check_row(fields, ncols);
          }
          if (!msg.empty()) {
            if (b.error.empty()) {
              b.error = msg;
              b.error_line = b.first_line + i;
            }
            ++b.skipped;
            r.reason = kBad;
            r.prefix_end = r.end = b.out.size();
            if (!opt.skip_bad) break;
            continue;
          }
          fs.assign(fields[static_cast<size_t>(si)]);
          ft.assign(fields[static_cast<size_t>(ti)]);
          if (chain.has_fix) {
            bool a = chain.fix.apply(fs, src_ortho), c = chain.fix.apply(ft, trg_ortho);
            // Fixed text must stay one TSV field.
            corpus::replace_tabs_newlines(fs);
            corpus::replace_tabs_newlines(ft);
            nfixed += a || c;
          }
          PairScores sc;
          if (scorer.active()) sc = scorer.score(fs, ft);
          if (opt.multiway) sc.languages = opt.multiway->languages(fs);
          r.score = sc.clean;
          r.reason = rules.first_failure(fs, ft, sc);
          if (r.reason == kKeep && (dedup || keys)) {
            if (dedup && !near) r.dedup_key = key_hash(fs, ft);
            if (near || keys) {
              ks.clear();
              kt.clear();
              letters_key(fs, ks);
              letters_key(ft, kt);
              if (near) r.dedup_key = key_hash(ks, kt);
              r.src_key = corpus::hash64(ks);
              r.trg_key = corpus::hash64(kt);
            }
          }
          // The row's text: input fields with the fixed sides, then the scores.
          for (size_t c = 0; c < main_cols; ++c) {
            std::string_view v;
            if (static_cast<int>(c) == si) v = fs;
            else if (static_cast<int>(c) == ti) v = ft;
            else if (c < ncols) v = fields[c];
            if (static_cast<int>(c) == lay.ibm1) v = extra[c] = fmt_score(sc.ibm1);
            if (static_cast<int>(c) == lay.cos) v = extra[c] = fmt_score(sc.cos);
            if (static_cast<int>(c) == lay.order) v = extra[c] = fmt_score(sc.order);
            if (static_cast<int>(c) == lay.nmt) v = extra[c] = fmt_score(sc.nmt);
            if (static_cast<int>(c) == lay.clean) v = extra[c] = fmt_score(sc.clean);
            if (static_cast<int>(c) == lay.multiway) v = extra[c] = std::to_string(sc.languages);
            if (static_cast<int>(c) == lay.reason) {  // the input's own clean_reason: replaced in the consumer
              r.prefix_end = b.out.size();
              continue;
            }
            if (c) b.out.push_back('\t');
            b.out.append(v);
          }
          if (reason_appended) r.prefix_end = b.out.size();
          r.end = b.out.size();
        }
        fixed += nfixed;
        std::lock_guard<std::mutex> lock(mu);
        results.emplace(b.first_row, std::move(res));
      },
      [&](corpus::LineBatch& b) {
        if (!b.error.empty() && !opt.skip_bad)
          throw corpus::Error(b.error, "fix the line, or pass --skip-bad to skip such lines").at(in.name(), b.error_line);
        std::vector<RowResult> res;
        {
          std::lock_guard<std::mutex> lock(mu);
          auto it = results.find(b.first_row);
          res = std::move(it->second);
          results.erase(it);
        }
        const std::string_view text(b.out);
        size_t start = 0;
        for (const RowResult& r : res) {
          if (r.reason == kBad) continue;
          const std::string_view head = text.substr(start, r.prefix_end - start);
          const std::string_view tail = text.substr(r.prefix_end, r.end - r.prefix_end);
          start = r.end;
          if (!best_variant) {
            decide(r.reason, r.dedup_key, r.src_key, r.trg_key, head, tail);
            continue;
          }
          if (r.reason == kKeep) {
            auto [it, added] = best.try_emplace(r.dedup_key, BestVariant{r.score, row_no});
            if (!added && better_variant(r.score, it->score)) *it = {r.score, row_no};
          }
          spool->put(r.reason, r.dedup_key, r.src_key, r.trg_key, head, tail);
          ++row_no;
        }
        n.rows += b.size();
        n.skipped_bad += b.skipped;
        if (progress) progress(b.input_pos, n.rows);
      });
  if (best_variant) {
    spool->rewind();
    row_no = 0;
    SpooledRow r;
    while (spool->next(r)) {
      decide(r.reason, r.dedup_key, r.src_key, r.trg_key, r.head, r.tail);
      ++row_no;
    }
  }
  n.fixed = fixed;
  return n;
}

}  // namespace filter
