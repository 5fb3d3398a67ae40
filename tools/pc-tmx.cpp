// pc-tmx: TSV bitext <-> TMX 1.4b, streaming in constant memory.
#include <string>

#include "libcorpus/core/cli.h"
#include "libcorpus/core/error.h"
#include "libcorpus/core/input.h"
#include "libcorpus/core/output.h"
#include "libcorpus/core/sniff.h"
#include "libcorpus/core/sysinfo.h"
#include "libcorpus/core/tmx_convert.h"

using namespace corpus;

int main(int argc, char** argv) {
  cli::App app("pc-tmx", "Convert bitext between TSV and TMX 1.4b, streaming in constant memory.",
               "pc-tmx [options] [FILE]   (or --src FILE --trg FILE)");
  cli::Common c;
  std::string to = "auto", src_file, trg_file;
  app.group("Conversion");
  app.choice("to", "FORMAT", &to, {"tmx", "tsv", "auto"}, "output format; auto: the other one of the input's");
  app.option("src", "FILE", &src_file, "source sentences, one per line (Moses two-file input; with --trg)");
  app.option("trg", "FILE", &trg_file, "target sentences, one per line, parallel to --src");
  app.common(c, cli::Common::kOutput | cli::Common::kThreads | cli::Common::kLangs | cli::Common::kSkipBad |
                    cli::Common::kMaxLine | cli::Common::kInputs);

  return app.run(argc, argv, [&](cli::Context& ctx) {
    if (src_file.empty() != trg_file.empty()) throw cli::UsageError("--src and --trg go together");
    const bool lockstep = !src_file.empty();
    if (lockstep && !c.inputs.empty()) throw cli::UsageError("give either FILE or --src/--trg, not both");
    if (c.inputs.size() > 1) throw cli::UsageError("one input file at a time", "concatenate them first, or run once per file");
    const std::string path = c.inputs.empty() ? "-" : c.inputs[0];
    if (!lockstep && path == "-") ctx.check_stdin_not_terminal("pc-tmx [options] [FILE]");

    auto progress = [&](uint64_t bytes, uint64_t records) { ctx.progress().update(bytes, records); };
    Output out(c.output);
    ConvertStats st;
    std::unique_ptr<PeekableSource> in;
    if (!lockstep) {
      ctx.note_input(path);
      in = std::make_unique<PeekableSource>(open_input(path));
      ctx.progress().set_total(in->raw_size());
    } else {
      ctx.note_input(src_file);
      ctx.note_input(trg_file);
    }
    const bool to_tsv = to == "tsv" || (to == "auto" && !lockstep && first_significant_byte(*in) == '<');
    if (to_tsv) {
      if (lockstep) throw cli::UsageError("--src/--trg give plain text; they convert to TMX only");
      TmxToTsvOptions o{c.src_lang, c.trg_lang, c.skip_bad};
      st = tmx_to_tsv(*in, out, o, progress);
    } else {
      TsvToTmxOptions o;
      o.src_lang = c.src_lang;
      o.trg_lang = c.trg_lang;
      if (o.src_lang.empty() || o.trg_lang.empty()) {
        std::string s, t;
        if (lockstep) {
          s = lang_from_suffix(src_file);
          t = lang_from_suffix(trg_file);
        } else if (auto p = langs_from_filename(path)) {
          s = p->first;
          t = p->second;
        }
        if (o.src_lang.empty()) o.src_lang = s;
        if (o.trg_lang.empty()) o.trg_lang = t;
      }
      if (o.src_lang.empty() || o.trg_lang.empty())
        throw cli::UsageError("cannot infer the " + std::string(o.src_lang.empty() ? "source" : "target") +
                             " language from the file name",
                         "give -s/--src-lang and -t/--trg-lang (or name the file like en-fr.tsv)");
      o.skip_bad = c.skip_bad;
      o.tool_version = sysinfo::version();
      o.header_props = {{"x-paracorp-command", ctx.provenance_command()}, {"x-paracorp-commit", sysinfo::git_commit()}};
      const LineLimit limit(c.max_line, c.skip_bad);
      std::unique_ptr<BitextLines> lines =
          lockstep ? open_lockstep_lines(src_file, trg_file, limit) : open_tsv_lines(std::move(in), limit);
      if (lockstep) {
        ctx.progress().set_total(lines->raw_size());
      }
      st = tsv_to_tmx(*lines, out, o, progress);
      st.rows_in += lines->long_lines_skipped();  // read and skipped, like other bad rows
      st.skipped += lines->long_lines_skipped();
    }
    out.commit();
    ctx.set_count(to_tsv ? "units in" : "rows in", st.rows_in);
    ctx.set_count(to_tsv ? "rows out" : "units out", st.rows_out);
    if (c.skip_bad || st.skipped) ctx.set_count("skipped (bad)", st.skipped);
    if (st.replaced) ctx.set_count("fields with tabs/newlines replaced", st.replaced);
  });
}
