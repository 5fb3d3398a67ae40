#include "align/sentalign/align_run.h"

#include <fmt/format.h>

#include <map>
#include <mutex>

#include "align/sentalign/overlaps.h"
#include "libcorpus/core/utf8.h"
#include "libcorpus/core/error.h"
#include "libcorpus/core/line_pipeline.h"
#include "libcorpus/core/line_reader.h"

namespace align::sentalign {

namespace {

uint32_t code_points(const std::string& s) {
  return static_cast<uint32_t>(corpus::utf8_code_points(s));
}

// A bead's sentences joined by a space, with the TSV's separators made spaces.
void append_text(std::string& out, const std::vector<std::string>& side, uint32_t b, uint32_t l) {
  for (uint32_t i = b; i < b + l; ++i) {
    if (i > b) out += ' ';
    for (const char c : side[i]) out += c == '\t' || c == '\n' || c == '\r' ? ' ' : c;
  }
}

void append_field(std::string& out, const std::string& s) {
  for (const char c : s) out += c == '\t' || c == '\n' || c == '\r' ? ' ' : c;
}

void append_indices(std::string& out, uint32_t b, uint32_t l) {
  out += '[';
  for (uint32_t i = b; i < b + l; ++i) {
    if (i > b) out += ", ";
    out += std::to_string(i);
  }
  out += ']';
}

}  // namespace

PairAlignment align_pair(const DocPair& p, const SentenceEncoder* enc, const AlignRunOptions& opt) {
  PairAlignment a;
  if (opt.method == AlignMethod::kLength) {
    std::vector<uint32_t> ls, lt;
    for (const auto& s : p.src_sentences) ls.push_back(code_points(s));
    for (const auto& s : p.trg_sentences) lt.push_back(code_points(s));
    a.beads = align_lengths(ls, lt, opt.len);
    a.scores = length_scores(ls, lt, a.beads);
    return a;
  }
  if (!enc) throw corpus::ConfigError("embedding alignment needs an encoder");
  const int layers = opt.vec.max_bead - 1;
  const OverlapVectors s = encode_overlaps(*enc, p.src_sentences, SentenceEncoder::Side::kSource, layers);
  const OverlapVectors t = encode_overlaps(*enc, p.trg_sentences, SentenceEncoder::Side::kTarget, layers);
  Alignment al = align_vectors(s, t, opt.vec);
  a.beads = std::move(al.beads);
  a.deletion_penalty = al.deletion_penalty;
  for (const Bead& b : a.beads) a.scores.push_back(bead_cosine(s, t, b));
  return a;
}

void format_pair(const DocPair& p, const PairAlignment& a, AlignFormat f, std::string& out, AlignRunCounts& n) {
  ++n.pairs;
  n.src_sentences += p.src_sentences.size();
  n.trg_sentences += p.trg_sentences.size();
  n.empty_side += p.src_sentences.empty() || p.trg_sentences.empty();
  for (size_t k = 0; k < a.beads.size(); ++k) {
    const Bead& b = a.beads[k];
    if (!b.sl || !b.tl) {
      n.src_deleted += b.sl;
      n.trg_deleted += b.tl;
    } else {
      ++n.rows;
    }
    if (f == AlignFormat::kVecalign) {
      append_indices(out, b.sb, b.sl);
      out += ':';
      append_indices(out, b.tb, b.tl);
      out += fmt::format(":{:.6f}\n", a.scores[k]);
    } else if (b.sl && b.tl) {
      append_field(out, p.src_url);
      out += '\t';
      append_field(out, p.trg_url);
      out += '\t';
      append_text(out, p.src_sentences, b.sb, b.sl);
      out += '\t';
      append_text(out, p.trg_sentences, b.tb, b.tl);
      out += fmt::format("\t{:.6f}\n", a.scores[k]);
    }
  }
  if (f == AlignFormat::kVecalign) out += '\n';
}

AlignRunCounts align_doc_pairs(corpus::ByteSource& in, const SentenceEncoder* enc, const AlignRunOptions& opt,
                               const std::function<void(std::string_view)>& write, const AlignProgress& progress) {
  if (opt.method == AlignMethod::kEmbedding && !enc) throw corpus::ConfigError("embedding alignment needs an encoder");
  corpus::LineReader reader(in, corpus::LineLimit(opt.max_line ? opt.max_line : corpus::kDefaultMaxLine, opt.skip_bad));
  const corpus::LinePipelineSource src{[&](std::string& s) {
                                         std::string_view l;
                                         if (!reader.next(l)) return false;
                                         s.append(l);
                                         return true;
                                       },
                                       [&] { return reader.line_number(); }, [&] { return in.raw_bytes_read(); }};
  AlignRunCounts total;
  if (opt.format == AlignFormat::kTsv) write("src_url\ttrg_url\tsrc_text\ttrg_text\talign_score\n");
  // Each batch's counts, keyed by its first row, added up by the consumer in
  // input order.
  std::mutex mu;
  std::map<uint64_t, AlignRunCounts> batch_counts;
  corpus::run_line_pipeline(
      src, opt.batch_bytes,
      [&](corpus::LineBatch& b) {
        AlignRunCounts n;
        DocPair p;
        const auto keep = [&] {
          const std::lock_guard<std::mutex> lock(mu);
          batch_counts[b.first_row] = n;
        };
        for (size_t i = 0; i < b.size(); ++i) {
          std::string msg = parse_doc_pair(b.line(i), p);
          if (!msg.empty()) {
            if (b.error.empty()) b.error = std::move(msg), b.error_line = b.first_line + i;
            ++b.skipped;
            if (!opt.skip_bad) return keep();
            continue;
          }
          format_pair(p, align_pair(p, enc, opt), opt.format, b.out, n);
        }
        b.rows_out = n.pairs;
        keep();
      },
      [&](corpus::LineBatch& b) {
        if (!b.error.empty() && !opt.skip_bad)
          throw corpus::Error(b.error, "fix the line, or pass --skip-bad to skip such lines").at(in.name(), b.error_line);
        AlignRunCounts n;
        {
          const std::lock_guard<std::mutex> lock(mu);
          const auto it = batch_counts.find(b.first_row);
          n = it->second;
          batch_counts.erase(it);
        }
        write(b.out);
        total.pairs += n.pairs;
        total.src_sentences += n.src_sentences;
        total.trg_sentences += n.trg_sentences;
        total.rows += n.rows;
        total.src_deleted += n.src_deleted;
        total.trg_deleted += n.trg_deleted;
        total.empty_side += n.empty_side;
        total.skipped_bad += b.skipped;
        if (progress) progress(b.input_pos, total.pairs);
      });
  total.skipped_bad += reader.long_lines_skipped();
  return total;
}

}  // namespace align::sentalign
