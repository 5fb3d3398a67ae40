// pc-split: sentence splitting for every script, on plain text (one paragraph
// per line) or documents JSONL, with optional normalisation.
#include <malloc.h>

#include <memory>
#include <string>

#include <oneapi/tbb/enumerable_thread_specific.h>

#include "libcorpus/core/cli.h"
#include "libcorpus/core/error.h"
#include "libcorpus/core/input.h"
#include "libcorpus/core/line_pipeline.h"
#include "libcorpus/core/output.h"
#include "libcorpus/core/paragraph_reader.h"
#include "libcorpus/core/split_records.h"

using namespace corpus;

namespace {

constexpr size_t kMaxPiece = size_t{4} << 20;   // plain-text lines are read in pieces of this size
constexpr size_t kMaxJsonLine = size_t{1} << 30;

// JSONL when the data starts with '{' (after a byte-order mark and white space).
bool looks_like_jsonl(PeekableSource& in) {
  std::string_view head = in.peek(4096);
  size_t i = head.substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0;
  while (i < head.size() && (head[i] == ' ' || head[i] == '\n' || head[i] == '\r' || head[i] == '\t')) ++i;
  return i < head.size() && head[i] == '{';
}

}  // namespace

int main(int argc, char** argv) {
  // Pieces of long lines are 4 MiB buffers freed on worker threads; glibc's
  // adaptive mmap threshold would otherwise keep them in growing heaps, so a
  // 150 MB line took 1.6x the peak memory of a 50 MB one. A fixed threshold
  // keeps memory flat (measured: 56 MB and 51 MB).
  mallopt(M_MMAP_THRESHOLD, 1 << 20);
  cli::App app("pc-split", "Split text into sentences (all scripts), optionally normalising it first.",
               "pc-split [options] [FILE]");
  cli::Common c;
  SplitConfig cfg;
  std::string format = "auto", normalize;
  uint64_t max_len = 4096, min_len = 0;
  app.group("Splitting");
  app.option("l,lang", "LANG", &cfg.lang,
             "language of plain text, and of documents whose lang is und (BCP-47: en, de, zh, hi, ...)");
  app.option("format", "FORMAT", &format, "input format: text (a paragraph per line), jsonl (documents), or auto");
  app.option("max-length", "BYTES", &max_len, "cut longer sentences at a safe point (0 = no limit)");
  app.option("min-length", "BYTES", &min_len, "join shorter sentences to the next one (0 = never)");
  app.flag("keep-paragraphs", &cfg.keep_paragraphs, "text output: an empty line between paragraphs");
  app.flag("icu-only", &cfg.seg.icu_only, "plain ICU sentence breaks, without pc-split's rules (a baseline)");
  app.option("prefix-dir", "DIR", &cfg.seg.prefix_dir, "folder of LANG.txt non-breaking prefix lists that replace the built-in ones");
  app.group("Normalisation");
  app.option("normalize", "STEPS", &normalize,
             "comma-separated steps applied to each paragraph first: " + norm_step_names());
  app.common(c, cli::Common::kOutput | cli::Common::kThreads | cli::Common::kSkipBad | cli::Common::kInputs);

  return app.run(argc, argv, [&](cli::Context& ctx) {
    if (format != "auto" && format != "text" && format != "jsonl")
      throw cli::UsageError("--format must be text, jsonl or auto, not " + quote(format));
    if (min_len > 0 && max_len > 0 && min_len > max_len)
      throw cli::UsageError("--min-length " + std::to_string(min_len) + " is above --max-length " + std::to_string(max_len));
    cfg.norm = Normalizer::parse(normalize);
    cfg.seg.max_bytes = max_len;
    cfg.seg.min_bytes = min_len;
    cfg.skip_bad = c.skip_bad;
    if (c.inputs.size() > 1) throw cli::UsageError("one input file at a time", "concatenate them first, or run once per file");
    const std::string path = c.inputs.empty() ? "-" : c.inputs[0];
    if (path == "-") ctx.check_stdin_not_terminal("pc-split [options] [FILE]");
    ctx.note_input(path);
    PeekableSource in(open_input(path));
    ctx.progress().set_total(in.raw_size());
    const bool jsonl = format == "jsonl" || (format == "auto" && looks_like_jsonl(in));

    Output out(c.output);
    PieceReader reader(in, jsonl ? kMaxJsonLine : kMaxPiece, !jsonl, c.skip_bad);
    oneapi::tbb::enumerable_thread_specific<std::unique_ptr<SplitWorker>> workers;
    oneapi::tbb::enumerable_thread_specific<SplitCounts> counts;
    uint64_t records = 0;
    LinePipelineSource src{[&](std::string& o) { return reader.next(o); }, [&] { return reader.line_number(); },
                           [&] { return reader.bytes_read(); }};
    run_line_pipeline(
        src, size_t{1} << 20,
        [&](LineBatch& b) {
          auto& w = workers.local();
          if (!w) w = std::make_unique<SplitWorker>(cfg);
          SplitCounts& n = counts.local();
          uint64_t line = b.first_line;
          b.out.reserve(b.data.size() + b.data.size() / 8);
          for (size_t i = 0; i < b.size(); ++i) {
            std::string_view rec = b.line(i);
            if (i > 0 && (rec.empty() || rec.front() != '\n')) ++line;
            std::string msg = jsonl ? w->jsonl_line(rec, b.out, n) : w->text_line(rec, b.first_row + i == 0, b.out, n);
            if (!msg.empty()) {
              b.error = msg;
              b.error_line = line;
              return;
            }
          }
        },
        [&](LineBatch& b) {
          if (!b.error.empty())
            throw Error(b.error, jsonl ? "fix the line, or pass --skip-bad to repair bad UTF-8 and skip bad documents"
                                       : "repair it with --skip-bad (bad bytes become U+FFFD)")
                .at(in.name(), b.error_line);
          out.write(b.out);
          records += b.size();
          ctx.progress().update(b.input_pos, records);
        });
    out.commit();
    SplitCounts total;
    for (const SplitCounts& n : counts) total.add(n);
    ctx.set_count(jsonl ? "documents" : "paragraphs", jsonl ? records - total.skipped : total.paragraphs);
    if (jsonl) ctx.set_count("paragraphs", total.paragraphs);
    ctx.set_count("sentences", total.sentences);
    if (!cfg.norm.empty()) ctx.set_count("paragraphs normalised", total.normalized);
    if (c.skip_bad || total.repaired || reader.repaired())
      ctx.set_count("lines repaired (bad UTF-8)", total.repaired + reader.repaired());
    if (jsonl && (c.skip_bad || total.skipped)) ctx.set_count("documents skipped (bad)", total.skipped);
  });
}
