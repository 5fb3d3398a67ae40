// pc-ingest: WARC / tar / zip / folders of HTML and text -> documents JSONL.
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "libcorpus/core/cli.h"
#include "libcorpus/core/cli_values.h"
#include "libcorpus/core/error.h"
#include "libcorpus/ingest/ingest.h"
#include "libcorpus/ingest/per_lang_writer.h"
#include "libcorpus/core/output.h"

using namespace corpus;

int main(int argc, char** argv) {
  cli::App app("pc-ingest",
               "Turn WARC files, tar/zip archives and folders of HTML or text into language-tagged documents (JSONL).",
               "pc-ingest [options] [FILE|FOLDER...]");
  cli::Common c;
  IngestOptions o;
  std::string langs, split_dir, split_suffix = ".jsonl", mimes = "text/html,application/xhtml+xml,text/plain", max_size = "20M";
  bool no_dedup = false, no_boilerplate = false;
  int repeat_pages = static_cast<int>(o.repeat_min_pages), short_chars = static_cast<int>(o.bp.short_chars);
  app.group("Selection");
  app.option("mime", "LIST", &mimes, "MIME types kept, comma-separated (files: .html/.htm/.xhtml are text/html, .txt text/plain)");
  app.option("max-size", "SIZE", &max_size, "largest record or decoded body; larger ones are bad input");
  app.option("lang", "LIST", &langs, "keep only documents in these languages, comma-separated (e.g. en,fr)");
  app.option("min-lang-percent", "N", &o.min_lang_percent, "CLD2 share (percent) below which a language is und");
  app.flag("no-dedup", &no_dedup, "keep exact duplicate documents (same text)");
  app.flag("follow-symlinks", &o.follow_symlinks, "in a folder, read what symbolic links point to (skipped and counted otherwise)");
  app.group("Boilerplate");
  app.flag("no-boilerplate", &no_boilerplate, "keep every text block (no link-density, short-block or repeat rules)");
  app.option("max-link-density", "X", &o.bp.max_link_density, "blocks with a larger share of link text are dropped");
  app.option("short-chars", "N", &short_chars, "blocks shorter than this (code points) need a good neighbour");
  app.option("repeat-min-pages", "N", &repeat_pages, "a paragraph on this many pages of a host is boilerplate...");
  app.option("repeat-fraction", "X", &o.repeat_fraction, "...when that is also at least this share of its pages");
  app.group("Output");
  app.option("split-by-lang", "DIR", &split_dir, "write DIR/LANG.jsonl per language instead of one stream");
  app.option("split-suffix", "SUFFIX", &split_suffix, "file suffix with --split-by-lang: .jsonl, .jsonl.gz, .jsonl.zst");
  app.common(c, cli::Common::kOutput | cli::Common::kThreads | cli::Common::kSkipBad | cli::Common::kInputs);

  return app.run(argc, argv, [&](cli::Context& ctx) {
    o.mimes = cli::split_list(mimes);
    o.langs = cli::split_list(langs);
    o.max_size = cli::parse_size(max_size, "--max-size");
    o.skip_bad = c.skip_bad;
    o.dedup = !no_dedup;
    o.boilerplate = !no_boilerplate;
    if (repeat_pages < 1) throw cli::UsageError("--repeat-min-pages must be at least 1");
    if (short_chars < 0) throw cli::UsageError("--short-chars must not be negative");
    o.repeat_min_pages = static_cast<uint32_t>(repeat_pages);
    o.bp.short_chars = static_cast<uint32_t>(short_chars);
    if (o.min_lang_percent < 0 || o.min_lang_percent > 100) throw cli::UsageError("--min-lang-percent must be 0..100");
    if (split_suffix != ".jsonl" && split_suffix != ".jsonl.gz" && split_suffix != ".jsonl.zst")
      throw cli::UsageError("--split-suffix must be .jsonl, .jsonl.gz or .jsonl.zst, not " + quote(split_suffix));
    if (!split_dir.empty() && c.output != "-") throw cli::UsageError("give either -o or --split-by-lang, not both");
    std::vector<std::string> inputs = c.inputs.empty() ? std::vector<std::string>{"-"} : c.inputs;
    for (const auto& in : inputs) {
      if (in == "-") ctx.check_stdin_not_terminal("pc-ingest [options] [FILE|FOLDER...]");
      ctx.note_input(in);
    }

    std::unique_ptr<Output> out;
    std::unique_ptr<LangSplitWriter> split;
    if (split_dir.empty())
      out = std::make_unique<Output>(c.output);
    else
      split = std::make_unique<LangSplitWriter>(split_dir, split_suffix);
    uint64_t skipped_shown = 0;
    IngestCallbacks cb;
    cb.write = [&](const std::string& lang, std::string_view line) {
      if (split) {
        split->write(lang, line);
      } else {
        out->write(line);
        out->put('\n');
      }
    };
    cb.skipped = [&](const std::string& msg) {
      if (++skipped_shown <= 10) ctx.warn("skipped: " + msg);
    };
    if (ctx.progress().enabled())  // not with -q or --no-progress: nothing to draw
      cb.progress = [&](uint64_t bytes, uint64_t records) { ctx.progress().update(bytes, records); };
    IngestStats st = run_ingest(inputs, o, cb);
    if (split)
      split->commit();
    else
      out->commit();
    ctx.set_count("records", st.records);
    for (const auto& [k, v] : st.outcomes.entries()) ctx.set_count(k, v);
    ctx.set_count("docs", st.docs);
    for (const auto& [k, v] : st.langs) ctx.set_count("docs " + k, v);
  });
}
