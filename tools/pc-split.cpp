// pc-split: sentence splitting for every script, on plain text (one paragraph
// per line) or documents JSONL, with optional normalisation.
#include <malloc.h>

#include <string>

#include "libcorpus/core/cli.h"
#include "libcorpus/core/error.h"
#include "libcorpus/core/input.h"
#include "libcorpus/core/output.h"
#include "libcorpus/core/sniff.h"
#include "libcorpus/core/split_stream.h"

using namespace corpus;

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
  cfg.seg.max_bytes = 4096;
  std::string format = "auto", normalize;
  app.group("Splitting");
  app.option("l,lang", "LANG", &cfg.lang,
             "language of plain text, and of documents whose lang is und (BCP-47: en, de, zh, hi, ...)");
  app.choice("format", "FORMAT", &format, {"text", "jsonl", "auto"},
             "input format; text: a paragraph per line, jsonl: documents");
  app.option("max-length", "BYTES", &cfg.seg.max_bytes, "cut longer sentences at a safe point (0 = no limit)");
  app.option("min-length", "BYTES", &cfg.seg.min_bytes, "join shorter sentences to the next one (0 = never)");
  app.flag("keep-paragraphs", &cfg.keep_paragraphs, "text output: an empty line between paragraphs");
  app.flag("icu-only", &cfg.seg.icu_only, "plain ICU sentence breaks, without pc-split's rules (a baseline)");
  app.option("prefix-dir", "DIR", &cfg.seg.prefix_dir, "folder of LANG.txt non-breaking prefix lists that replace the built-in ones");
  app.group("Normalisation");
  app.option("normalize", "STEPS", &normalize,
             "comma-separated steps applied to each paragraph first: " + norm_step_names());
  app.common(c, cli::Common::kOutput | cli::Common::kThreads | cli::Common::kSkipBad | cli::Common::kMaxLine |
                    cli::Common::kInputs);

  return app.run(argc, argv, [&](cli::Context& ctx) {
    if (cfg.seg.min_bytes > 0 && cfg.seg.max_bytes > 0 && cfg.seg.min_bytes > cfg.seg.max_bytes)
      throw cli::UsageError("--min-length " + std::to_string(cfg.seg.min_bytes) + " is above --max-length " +
                            std::to_string(cfg.seg.max_bytes));
    cfg.norm = Normalizer::parse(normalize);
    cfg.skip_bad = c.skip_bad;
    PeekableSource in(open_input(ctx.single_input(c.inputs, "pc-split [options] [FILE]")));
    ctx.progress().set_total(in.raw_size());
    const bool jsonl = format == "jsonl" || (format == "auto" && first_significant_byte(in) == '{');

    Output out(c.output);
    SplitStreamResult r = split_stream(in, out, cfg, jsonl, c.max_line, [&](uint64_t pos, uint64_t n) { ctx.progress().update(pos, n); });
    out.commit();
    const SplitCounts& total = r.counts;
    ctx.set_count(jsonl ? "documents" : "paragraphs", jsonl ? r.records - total.skipped : total.paragraphs);
    if (jsonl) ctx.set_count("paragraphs", total.paragraphs);
    ctx.set_count("sentences", total.sentences);
    if (!cfg.norm.empty()) ctx.set_count("paragraphs normalised", total.normalized);
    if (c.skip_bad || total.repaired || r.reader_repaired)
      ctx.set_count("lines repaired (bad UTF-8)", total.repaired + r.reader_repaired);
    if (jsonl && (c.skip_bad || total.skipped)) ctx.set_count("documents skipped (bad)", total.skipped);
  });
}
