// pc-ingest: WARC / tar / zip / folders of HTML and text -> documents JSONL.
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "libcorpus/core/cli.h"
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
  std::string split_dir, split_suffix = ".jsonl", lang_id = "one-pass", html_parser = "stream";
  bool no_dedup = false, no_boilerplate = false;
  app.group("Selection");
  app.option("mime", "LIST", &o.mimes, "MIME types kept, comma-separated (files: .html/.htm/.xhtml are text/html, .txt text/plain)");
  app.size("max-size", "SIZE", &o.max_size, "largest record or decoded body; larger ones are bad input").at_least(1);
  app.option("lang", "LIST", &o.langs, "keep only documents in these languages, comma-separated (e.g. en,fr)");
  app.option("min-lang-percent", "N", &o.min_lang_percent, "CLD2 share (percent) below which a language is und").range(0, 100);
  app.choice("lang-id", "HOW", &lang_id, {"one-pass", "two-pass"},
             "paragraph languages from the document's CLD2 call, or a call per paragraph");
  app.choice("html-parser", "HOW", &html_parser, {"stream", "gumbo"},
             "HTML to text in one streaming pass, or through gumbo's tree (the HTML5 tree builder's exact output)");
  app.flag("no-dedup", &no_dedup, "keep exact duplicate documents (same text)");
  app.flag("follow-symlinks", &o.follow_symlinks, "in a folder, read what symbolic links point to (skipped and counted otherwise)");
  app.flag("warc-resources", &o.warc_resources, "WARC resource records of HTML are pages too (else only responses)");
  app.group("Boilerplate");
  app.flag("no-boilerplate", &no_boilerplate, "keep every text block (no link-density, short-block or repeat rules)");
  app.option("max-link-density", "X", &o.bp.max_link_density, "blocks with a larger share of link text are dropped").range(0, 1);
  app.option("short-chars", "N", &o.bp.short_chars, "blocks shorter than this (code points) need a good neighbour");
  app.option("repeat-min-pages", "N", &o.repeat_min_pages, "a paragraph on this many pages of a host is boilerplate...")
      .at_least(1);
  app.option("repeat-fraction", "X", &o.repeat_fraction, "...when that is also at least this share of its pages").range(0, 1);
  app.group("Output");
  app.option("split-by-lang", "DIR", &split_dir, "write DIR/LANG.jsonl per language instead of one stream");
  app.choice("split-suffix", "SUFFIX", &split_suffix, {".jsonl", ".jsonl.gz", ".jsonl.zst"},
             "file suffix with --split-by-lang");
  app.common(c, cli::Common::kOutput | cli::Common::kThreads | cli::Common::kSkipBad | cli::Common::kInputs);

  return app.run(argc, argv, [&](cli::Context& ctx) {
    o.skip_bad = c.skip_bad;
    o.dedup = !no_dedup;
    o.boilerplate = !no_boilerplate;
    o.one_pass_langid = lang_id == "one-pass";
    o.gumbo_html = html_parser == "gumbo";
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
