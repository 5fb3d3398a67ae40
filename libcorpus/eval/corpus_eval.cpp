#include "libcorpus/eval/corpus_eval.h"

#include <tbb/enumerable_thread_specific.h>

#include <cstring>
#include <fmt/format.h>
#include <memory>
#include <nlohmann/json.hpp>

#include "libcorpus/core/error.h"
#include "libcorpus/core/input.h"
#include "libcorpus/core/line_pipeline.h"
#include "libcorpus/core/line_reader.h"
#include "libcorpus/core/tsv.h"
#include "libcorpus/core/utf8.h"
#include "libcorpus/eval/unicode.h"

namespace corpus::eval {

namespace {

struct Reader {
  std::string path;
  std::unique_ptr<corpus::ByteSource> src;
  std::unique_ptr<corpus::LineReader> lines;
};

// Fields of one record are joined with '\0', which can never occur inside a
// field (check_text rejects NUL bytes before the join).
constexpr char kSep = '\0';

int column_index(const corpus::TsvColumns& cols, const std::string& spec, const std::string& file) {
  if (!spec.empty() && spec.find_first_not_of("0123456789") == std::string::npos) {
    const int k = spec.size() > 9 ? -1 : std::stoi(spec);  // longer: beyond int, and beyond any row
    if (k < 1 || static_cast<size_t>(k) > cols.size())
      throw corpus::ConfigError(fmt::format("column {} does not exist: {} has {} columns", spec, file, cols.size()));
    return k - 1;
  }
  int i = cols.index(spec);
  if (i < 0) {
    std::string names;
    for (const auto& n : cols.names) names += (names.empty() ? "" : ", ") + n;
    throw corpus::ConfigError(fmt::format("no column named {} in {}", corpus::quote(spec), file),
                             cols.header ? "its columns are " + names
                                         : "the file has no header; give column numbers (1, 2, ...)");
  }
  return i;
}

}  // namespace

CorpusStats score_corpus(const CorpusSpec& spec, const std::vector<const Metric*>& metrics,
                         const CorpusOptions& opt) {
  const size_t nsys = spec.systems.size(), nref = spec.refs.size(), nm = metrics.size();
  if (nsys == 0) throw corpus::ConfigError("no hypothesis input");
  if (nref == 0) throw corpus::ConfigError("no reference given", "add -r REF (one per reference set)");
  std::vector<size_t> sizes(nm), offsets(nm);
  size_t per_sys = 0;
  for (size_t m = 0; m < nm; ++m) {
    sizes[m] = metrics[m]->stats_size();
    offsets[m] = per_sys;
    per_sys += sizes[m];
  }
  const size_t K = per_sys * nsys;  // statistics per segment

  // ---- the record source ----
  std::vector<Reader> readers;
  std::vector<int> cols;  // TSV: column of each field (systems, then refs)
  size_t ncols = 0;
  std::string pending;  // TSV: the first line when it is not a header
  bool have_pending = false;
  auto open = [&spec](const std::string& path) {
    Reader r;
    r.path = path.empty() ? "-" : path;
    r.src = corpus::open_input(r.path);
    r.lines = std::make_unique<corpus::LineReader>(*r.src, spec.max_line);
    return r;
  };
  if (spec.tsv.empty()) {
    int stdin_users = 0;
    for (const auto& p : spec.systems) readers.push_back(open(p)), stdin_users += (p == "-" || p.empty());
    for (const auto& p : spec.refs) readers.push_back(open(p)), stdin_users += (p == "-" || p.empty());
    if (stdin_users > 1) throw corpus::ConfigError("only one input can be stdin ('-')");
  } else {
    readers.push_back(open(spec.tsv));
    std::string_view first;
    corpus::TsvColumns tc;
    if (readers[0].lines->next(first)) {
      tc = corpus::columns_from_first_line(first);
      if (!tc.header) {
        std::vector<std::string_view> f;
        corpus::split_tsv(first, f);
        tc.names.clear();
        for (size_t i = 0; i < f.size(); ++i) tc.names.push_back(std::to_string(i + 1));
        pending.assign(first);
        have_pending = true;
      }
    }
    ncols = tc.size();
    for (const auto& c : spec.systems) cols.push_back(column_index(tc, c, readers[0].path));
    for (const auto& c : spec.refs) cols.push_back(column_index(tc, c, readers[0].path));
  }
  const std::string& first_name = readers[0].path;
  uint64_t line_no = 0;
  std::vector<std::string_view> fields;
  corpus::LinePipelineSource source;
  source.next = [&](std::string& out) -> bool {
    if (!spec.tsv.empty()) {
      std::string_view line;
      if (have_pending) {
        have_pending = false;
        line = pending;
        line_no = readers[0].lines->line_number();
      } else {
        if (!readers[0].lines->next(line)) return false;
        line_no = readers[0].lines->line_number();
      }
      if (line.find(kSep) != std::string_view::npos)
        throw corpus::Error(corpus::check_text(line)).at(first_name, line_no);
      corpus::split_tsv(line, fields);
      if (fields.size() != ncols)
        throw corpus::Error(fmt::format("expected {} tab-separated fields, found {}", ncols, fields.size()))
            .at(first_name, line_no);
      for (size_t i = 0; i < cols.size(); ++i) {
        if (i) out.push_back(kSep);
        out.append(fields[static_cast<size_t>(cols[i])]);
      }
      return true;
    }
    std::string_view line;
    auto nul_check = [&](const Reader& r) {
      if (line.find(kSep) != std::string_view::npos)
        throw corpus::Error(corpus::check_text(line)).at(r.path, r.lines->line_number());
    };
    bool got0 = readers[0].lines->next(line);
    if (got0) {
      nul_check(readers[0]);
      out.append(line);
    }
    for (size_t r = 1; r < readers.size(); ++r) {
      bool got = readers[r].lines->next(line);
      if (got != got0) {
        const Reader& shorter = got ? readers[0] : readers[r];
        const Reader& longer = got ? readers[r] : readers[0];
        throw corpus::ConfigError(fmt::format("{} has {} lines but {} has more", shorter.path,
                                             shorter.lines->line_number(), longer.path),
                                 "hypotheses and references must have one line per segment");
      }
      if (got) {
        nul_check(readers[r]);
        out.push_back(kSep);
        out.append(line);
      }
    }
    if (got0) line_no = readers[0].lines->line_number();
    return got0;
  };
  source.line_number = [&] { return line_no; };
  source.position = [&] {
    uint64_t n = 0;
    for (const auto& r : readers) n += r.src->raw_bytes_read();
    return n;
  };

  // ---- per-thread scorers ----
  tbb::enumerable_thread_specific<std::vector<std::unique_ptr<SegmentScorer>>> scorers([&] {
    std::vector<std::unique_ptr<SegmentScorer>> v;
    for (const Metric* m : metrics) v.push_back(m->scorer());
    return v;
  });
  auto field_name = [&](size_t i) -> std::string {
    if (spec.tsv.empty()) return readers[i].path;
    return first_name;
  };

  CorpusStats result;
  result.totals.assign(nsys, std::vector<std::vector<int64_t>>(nm));
  for (auto& s : result.totals)
    for (size_t m = 0; m < nm; ++m) s[m].assign(sizes[m], 0);
  if (opt.keep_segment_stats) result.segment_stats.assign(nsys, std::vector<std::vector<int64_t>>(nm));

  auto transform = [&](corpus::LineBatch& b) {
    auto& sc = scorers.local();
    const size_t n = b.size();
    // out: [K sums][n*K segment stats if kept][sentence text]
    const size_t kept = opt.keep_segment_stats ? n * K : 0;
    std::vector<int64_t> bin(K + kept, 0), seg(K);
    std::string text;
    std::vector<std::string_view> parts, refs;
    for (size_t i = 0; i < n; ++i) {
      std::string_view rec = b.line(i);
      parts.clear();
      size_t start = 0;
      for (size_t j = 0; j <= rec.size(); ++j)
        if (j == rec.size() || rec[j] == kSep) {
          parts.push_back(rec.substr(start, j - start));
          start = j + 1;
        }
      for (size_t f = 0; f < parts.size(); ++f) {
        std::string why = corpus::check_text(parts[f]);
        if (!why.empty()) throw corpus::Error(why).at(field_name(f), b.first_line + i);
        parts[f] = py_rstrip(parts[f]);
      }
      refs.assign(parts.begin() + static_cast<ptrdiff_t>(nsys), parts.end());
      for (size_t s = 0; s < nsys; ++s) {
        for (size_t m = 0; m < nm; ++m) sc[m]->stats(parts[s], refs, seg.data() + s * per_sys + offsets[m]);
      }
      for (size_t k = 0; k < K; ++k) bin[k] += seg[k];
      if (kept) std::copy(seg.begin(), seg.end(), bin.begin() + static_cast<ptrdiff_t>(K + i * K));
      if (opt.sentence) {
        const SentenceFormat& sf = *opt.sentence;
        if (sf.json && nm > 1) text += '[';
        for (size_t m = 0; m < nm; ++m) {
          const int64_t* st = seg.data() + offsets[m];
          if (sf.json) {
            std::string j = format_score_json(*metrics[m], st, sf.signatures[m], sf.width);
            // one line per segment: drop the indentation newlines
            std::string compact;
            for (size_t c = 0; c < j.size(); ++c) {
              if (j[c] == '\n') {
                while (c + 1 < j.size() && j[c + 1] == ' ') ++c;
                if (!compact.empty() && compact.back() == ',') compact.push_back(' ');
                continue;
              }
              compact.push_back(j[c]);
            }
            if (m) text += ", ";
            text += compact;
          } else {
            if (m) text += '\t';
            text += format_score_text(*metrics[m], st, sf.signatures[m], sf.width, sf.score_only);
          }
        }
        if (sf.json && nm > 1) text += ']';
        text += '\n';
      }
    }
    b.out.resize(bin.size() * sizeof(int64_t));
    std::memcpy(b.out.data(), bin.data(), b.out.size());
    b.out += text;
    b.rows_out = n;
  };
  auto consume = [&](corpus::LineBatch& b) {
    const size_t n = b.size();
    std::vector<int64_t> sums(K);
    std::memcpy(sums.data(), b.out.data(), K * sizeof(int64_t));
    for (size_t s = 0; s < nsys; ++s)
      for (size_t m = 0; m < nm; ++m)
        for (size_t k = 0; k < sizes[m]; ++k) result.totals[s][m][k] += sums[s * per_sys + offsets[m] + k];
    size_t pos = K * sizeof(int64_t);
    if (opt.keep_segment_stats) {
      std::vector<int64_t> seg(n * K);
      std::memcpy(seg.data(), b.out.data() + pos, n * K * sizeof(int64_t));
      for (size_t i = 0; i < n; ++i)
        for (size_t s = 0; s < nsys; ++s)
          for (size_t m = 0; m < nm; ++m) {
            auto& v = result.segment_stats[s][m];
            const int64_t* p = seg.data() + i * K + s * per_sys + offsets[m];
            v.insert(v.end(), p, p + sizes[m]);
          }
      pos += n * K * sizeof(int64_t);
    }
    if (opt.sentence && opt.sink && pos < b.out.size()) opt.sink(std::string_view(b.out).substr(pos));
    result.segments += n;
    if (opt.progress) opt.progress(b.input_pos, result.segments);
  };
  corpus::run_line_pipeline(source, opt.batch_bytes, transform, consume);
  return result;
}

}  // namespace corpus::eval
