// pc-embed: cross-lingual sentence encoders — train, encode, score.
#include <fmt/format.h>

#include <chrono>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "align/encode_run.h"
#include "align/encoder.h"
#include "align/lexical_dict.h"
#include "align/lexical_encoder.h"
#include "libcorpus/core/cli.h"
#include "libcorpus/core/error.h"
#include "libcorpus/core/input.h"
#include "libcorpus/core/line_cap.h"
#include "libcorpus/core/npy.h"
#include "libcorpus/core/output.h"
#include "libcorpus/core/tsv.h"
#include "mt/encoder/bert_import.h"
#include "mt/encoder/combined_encoder.h"
#include "mt/encoder/dual_train.h"
#include "mt/encoder/open_encoder.h"
#include "tools/pc-embed-options.h"

using namespace corpus;
using namespace align;

namespace {

std::unique_ptr<BitextLines> open_bitext(cli::Context& ctx, const std::string& file) {
  return open_tsv_lines(cap_lines(open_input(file), ctx.common().max_line));
}

EncodeRunOptions run_options(cli::Context& ctx, const Opts& o) {
  return {o.side == "trg" ? SentenceEncoder::Side::kTarget : SentenceEncoder::Side::kSource, ctx.common().skip_bad,
          static_cast<size_t>(ctx.common().max_line)};
}

void counts(cli::Context& ctx, const EncodeCounts& n, const char* rows) {
  ctx.set_count(rows, n.rows);
  ctx.set_count("empty (zero vector)", n.empty);
  if (n.skipped_bad || ctx.common().skip_bad) ctx.set_count("skipped (bad)", n.skipped_bad);
}

// --groups: one label per line, as many as the seed's rows (a longer file is
// an error too, unless --max-pairs cut the seed: a shifted file would
// mislabel every pair).
std::vector<std::string> read_groups(cli::Context& ctx, const std::string& path, size_t pairs, bool cut) {
  ctx.note_input(path);
  TextLines in(path, LineLimit(static_cast<size_t>(ctx.common().max_line)));
  std::vector<std::string> g;
  std::string_view line;
  while ((g.size() < pairs || !cut) && in.next(line)) g.emplace_back(line);
  if (g.size() != pairs)
    throw Error(fmt::format("{} group labels for {} seed pairs", g.size(), pairs),
                "give one label per row of the seed bitext, line for line").at(path);
  return g;
}

void train_neural(cli::Context& ctx, const Opts& o, const std::vector<TextPair>& pairs,
                  const std::vector<std::string>* groups) {
  const bool bar = ctx.progress().enabled();
  auto last_draw = std::chrono::steady_clock::now() - std::chrono::seconds(1);
  mt::DualTrainEvents ev;
  ev.info = [&](const std::string& msg) { ctx.info(msg); };
  ev.count = [&](const std::string& key, uint64_t n) { ctx.set_count(key, n); };
  ev.validated = [&](const std::string& msg) { if (bar) std::fputs("\r\033[K", stderr); ctx.info(msg); };
  ev.progress = [&](const mt::DualTrainState& s, double loss, double pps) {
    const auto now = std::chrono::steady_clock::now();
    if (!bar || now - last_draw < std::chrono::milliseconds(200)) return;
    last_draw = now;
    fmt::print(stderr, "\r\033[Kpc-embed train: step {}{}  epoch {}  loss {:.3f}  {:.0f} pairs/s", s.step,
               o.neural.max_steps ? fmt::format("/{}", o.neural.max_steps) : "", s.epoch, loss, pps);
  };
  const mt::DualTrainJob job{ctx.common().output, ctx.common().seed,
                             {{"tool", "pc-embed"}, {"command", ctx.provenance_command()}}};
  std::vector<TextPair> valid;
  if (!o.neural.valid.empty()) {
    uint64_t skipped = 0;
    ctx.note_input(o.neural.valid);
    valid = read_text_pairs(*open_bitext(ctx, o.neural.valid), ctx.common().skip_bad, 0, &skipped);
  }
  const mt::DualTrainResult r = mt::train_dual_encoder(pairs, o.neural, job, ev, o.neural.valid.empty() ? nullptr : &valid, groups);
  if (bar) std::fputs("\r\033[K", stderr);
  ctx.set_count("steps", static_cast<uint64_t>(r.state.step));
  ctx.info(fmt::format("stopped ({}) at step {}, epoch {}{}; training {:.1f} s", r.why, r.state.step, r.state.epoch,
                       r.state.best_step ? fmt::format("; best validation P@1 {:.3f} at step {}", r.state.best,
                                                       r.state.best_step)
                                         : "",
                       r.seconds));
}

void train(cli::Context& ctx, Opts& o, const std::vector<std::string>& files) {
  const cli::Common& c = ctx.common();
  if (c.output == "-") throw cli::UsageError("train needs -o FILE for the model", "pc-embed train -o enc.safetensors seed.tsv");
  if (files.empty() && o.dicts.empty()) throw cli::UsageError("train needs a seed bitext (FILE), a --dict, or both");
  if (!o.groups.empty() && o.kind != "neural") throw cli::UsageError("--groups is for --kind neural");
  if (!o.groups.empty() && files.empty()) throw cli::UsageError("--groups labels the seed bitext's pairs: give one");
  std::vector<TextPair> pairs;
  std::vector<std::string> groups;
  uint64_t skipped = 0;
  if (!files.empty()) {
    auto in = open_bitext(ctx, ctx.single_input(files, "pc-embed train -o MODEL [options] [BITEXT]"));
    pairs = read_text_pairs(*in, c.skip_bad, o.max_pairs, &skipped);
    ctx.set_count("bitext pairs", pairs.size());
    o.lex.length_pairs = pairs.size();
    if (skipped || c.skip_bad) ctx.set_count("skipped (bad)", skipped);
    if (!o.groups.empty()) {
      if (skipped) throw Error(fmt::format("--groups is line for line, and {} seed rows were skipped", skipped),
                               "fix the rows, or drop --groups");
      groups = read_groups(ctx, o.groups, pairs.size(), o.max_pairs > 0 && pairs.size() == o.max_pairs);
    }
  }
  for (const auto& d : o.dicts) {
    DictStats st;
    auto more = read_dictd(d, o.dict_reverse, &st);
    ctx.note_input(d);
    ctx.count("dictionary pairs", st.pairs);
    pairs.insert(pairs.end(), more.begin(), more.end());
    if (!groups.empty()) groups.resize(pairs.size(), "dictionary " + d);  // each dictionary a group
  }
  if (o.kind == "neural") return train_neural(ctx, o, pairs, groups.empty() ? nullptr : &groups);
  o.lex.char_all = o.char_words == "all";
  o.lex.post.center = !o.no_center;
  o.lex.post.whiten = !o.no_whiten;
  o.lex.post.cca = !o.no_cca;
  o.lex.seed = c.seed;
  o.lex.src_lang = c.src_lang;
  o.lex.trg_lang = c.trg_lang;
  LexicalTrainStats st;
  const auto e = LexicalEncoder::train(pairs, o.lex, &st);
  ctx.set_count("pairs trained", st.pairs);
  if (st.empty_skipped) ctx.set_count("empty side (skipped)", st.empty_skipped);
  ctx.info(fmt::format("{}; IBM1 {:.1f} s, LSA {:.1f} s, training {:.1f} s", e->describe(), st.ibm1_s, st.lsa_s,
                       st.total_s));
  e->save(c.output);
}

void encode(cli::Context& ctx, const Opts& o, const std::vector<std::string>& files) {
  const cli::Common& c = ctx.common();
  if (c.output == "-") throw cli::UsageError("encode needs -o FILE.npy (a .npy header is written last)");
  const auto e = mt::open_sentence_encoder(o.model);
  const std::string in = ctx.single_input(files, "pc-embed encode -m MODEL -o OUT.npy [options] [FILE]");
  npy::Writer out(c.output, e->dim(), npy::parse_dtype(o.dtype));
  const auto progress = [&ctx](uint64_t b, uint64_t r) { ctx.progress().update(b, r); };
  EncodeCounts n;
  if (o.column.empty()) {
    auto src = cap_lines(open_input(in), c.max_line);
    n = encode_text(*src, *e, run_options(ctx, o), out, progress);
  } else {
    n = encode_column(*open_bitext(ctx, in), o.column, *e, run_options(ctx, o), out, progress);
  }
  out.commit();
  counts(ctx, n, "sentences");
}

void score(cli::Context& ctx, const Opts& o, const std::vector<std::string>& files) {
  const auto e = mt::open_sentence_encoder(o.model);
  auto in = open_bitext(ctx, ctx.single_input(files, "pc-embed score -m MODEL [options] [BITEXT]"));
  Output out(ctx.common().output);
  const EncodeCounts n = score_pairs(*in, *e, run_options(ctx, o), [&out](std::string_view s) { out.write(s); },
                                     [&ctx](uint64_t b, uint64_t r) { ctx.progress().update(b, r); });
  out.commit();
  counts(ctx, n, "pairs in");
}

void import(cli::Context& ctx, const Opts& o, const std::vector<std::string>& folders) {
  if (ctx.common().output == "-") throw cli::UsageError("import needs -o FILE for the encoder");
  if (folders.size() != 1) throw cli::UsageError("import reads one Hugging Face folder", "pc-embed import -o enc.safetensors FOLDER");
  ctx.note_input(folders[0]);
  ctx.info(mt::import_bert(folders[0], o.pooling, ctx.common().output));
}

void combine(cli::Context& ctx, const Opts& o, const std::vector<std::string>& parts) {
  if (ctx.common().output == "-") throw cli::UsageError("combine needs -o FILE for the encoder");
  if (parts.size() != 2) throw cli::UsageError("combine takes two models", "pc-embed combine -o c.st LEXICAL NEURAL");
  for (const auto& p : parts) ctx.note_input(p);
  ctx.info(mt::combine_encoders(parts[0], parts[1], o.weight, ctx.common().output, ctx.provenance_command()));
}

}  // namespace

int main(int argc, char** argv) {
  cli::App app("pc-embed",
               "Cross-lingual sentence encoders: train one from a seed bitext and/or a bilingual dictionary, import a "
               "BERT-family one, combine a lexical and a neural one, encode sentences to .npy, score the pairs of a "
               "bitext by cosine.",
               "pc-embed COMMAND [options] [FILE]");
  cli::Common c;
  Opts o;
  constexpr unsigned kRun = cli::Common::kOutput | cli::Common::kThreads | cli::Common::kSkipBad |
                            cli::Common::kMaxLine | cli::Common::kInputs;
  cli::App& tr = app.subcommand("train", "train an encoder; the model goes to -o", "train -o MODEL [options] [BITEXT]");
  tr.group("Input");
  tr.choice("kind", "KIND", &o.kind, {"lexical", "neural"},
            "lexical (IBM1 bags, LSA, character n-grams: seconds) or neural (a Transformer dual encoder)");
  tr.option("dict", "FILE", &o.dicts, "a dictd bilingual dictionary (FreeDict .index), also repeated");
  tr.flag("dict-reverse", &o.dict_reverse, "the dictionaries' headwords are in the target language");
  tr.option("max-pairs", "N", &o.max_pairs, "train on the first N pairs of the bitext (0: all)");
  lexical_options(tr, o);
  neural_options(tr, o);
  tr.common(c, kRun | cli::Common::kSeed | cli::Common::kLangs);

  encode_command(app, o).common(c, kRun);
  score_command(app, o).common(c, kRun);
  import_command(app, o).common(c, cli::Common::kOutput | cli::Common::kInputs);
  combine_command(app, o).common(c, cli::Common::kOutput | cli::Common::kInputs);

  return app.run(argc, argv, [&](cli::Context& ctx) {
    const std::string cmd = ctx.command();
    if (cmd == "train") return train(ctx, o, c.inputs);
    if (cmd == "import") return import(ctx, o, c.inputs);
    if (cmd == "combine") return combine(ctx, o, c.inputs);
    if (o.model.empty()) throw cli::UsageError(cmd + " needs a model: give -m FILE");
    if (cmd == "encode") encode(ctx, o, c.inputs);
    else score(ctx, o, c.inputs);
  });
}
