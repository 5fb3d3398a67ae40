// pc-embed: cross-lingual sentence encoders — train, encode, score.
#include <fmt/format.h>

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
#include "mt/encoder/open_encoder.h"

using namespace corpus;
using namespace align;

namespace {

struct Opts {
  std::string model, kind = "lexical", side = "src", column, dtype = "float32", char_words = "all", pooling = "cls";
  std::vector<std::string> dicts;
  bool dict_reverse = false, no_center = false, no_whiten = false, no_cca = false;
  uint64_t max_pairs = 0;
  LexicalOptions lex;
};

std::unique_ptr<SentenceEncoder> open_encoder(const std::string& path) { return mt::open_sentence_encoder(path); }

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

void train(cli::Context& ctx, Opts& o, const std::vector<std::string>& files) {
  const cli::Common& c = ctx.common();
  if (c.output == "-") throw cli::UsageError("train needs -o FILE for the model", "pc-embed train -o enc.safetensors seed.tsv");
  if (files.empty() && o.dicts.empty()) throw cli::UsageError("train needs a seed bitext (FILE), a --dict, or both");
  std::vector<TextPair> pairs;
  uint64_t skipped = 0;
  if (!files.empty()) {
    auto in = open_bitext(ctx, ctx.single_input(files, "pc-embed train -o MODEL [options] [BITEXT]"));
    pairs = read_text_pairs(*in, c.skip_bad, o.max_pairs, &skipped);
    ctx.set_count("bitext pairs", pairs.size());
    if (skipped || c.skip_bad) ctx.set_count("skipped (bad)", skipped);
  }
  for (const auto& d : o.dicts) {
    DictStats st;
    auto more = read_dictd(d, o.dict_reverse, &st);
    ctx.note_input(d);
    ctx.count("dictionary pairs", st.pairs);
    pairs.insert(pairs.end(), more.begin(), more.end());
  }
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
  const auto e = open_encoder(o.model);
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
  const auto e = open_encoder(o.model);
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

void lexical_options(cli::App& a, Opts& o) {
  a.group("Lexical encoder");
  a.option("buckets", "N", &o.lex.buckets, "hashed dimensions of each half of the IBM1 bags block (0: none)").range(0, 1 << 20);
  a.option("lsa-dim", "N", &o.lex.lsa_dim, "dimensions of the cross-lingual LSA block (0: none)").range(0, 4096);
  a.option("char-buckets", "N", &o.lex.char_buckets, "hashed character n-gram dimensions (0: none)").range(0, 1 << 20);
  a.choice("char-words", "WHICH", &o.char_words, {"all", "unseen"},
           "character n-grams of all words, or of unseen and shared ones only");
  a.option("bags-weight", "W", &o.lex.bags_weight, "weight of the bags block").range(0, 100);
  a.option("lsa-weight", "W", &o.lex.lsa_weight, "weight of the LSA block").range(0, 100);
  a.option("char-weight", "W", &o.lex.char_weight, "weight of the character n-gram block").range(0, 100);
  a.flag("no-center", &o.no_center, "LSA block: do not subtract each language's mean");
  a.option("remove-top", "K", &o.lex.post.remove_top, "LSA block: remove the K top principal components").range(0, 4095);
  a.flag("no-whiten", &o.no_whiten, "LSA block: no ZCA whitening per language");
  a.flag("no-cca", &o.no_cca, "LSA block: no CCA between the languages");
  a.option("iterations", "N", &o.lex.ibm1_iterations, "IBM1 EM iterations").range(1, 100);
  a.option("min-prob", "P", &o.lex.min_prob, "IBM1 entries kept per word: t >= P").range(0, 1);
  a.option("top-k", "N", &o.lex.top_k, "IBM1 entries kept per word: at most N").range(1, 1000);
}

}  // namespace

int main(int argc, char** argv) {
  cli::App app("pc-embed",
               "Cross-lingual sentence encoders: train one from a seed bitext and/or a bilingual dictionary, import a "
               "BERT-family one, encode sentences to .npy, score the pairs of a bitext by cosine.",
               "pc-embed COMMAND [options] [FILE]");
  cli::Common c;
  Opts o;
  constexpr unsigned kRun = cli::Common::kOutput | cli::Common::kThreads | cli::Common::kSkipBad |
                            cli::Common::kMaxLine | cli::Common::kInputs;
  cli::App& tr = app.subcommand("train", "train an encoder; the model goes to -o", "train -o MODEL [options] [BITEXT]");
  tr.group("Input");
  tr.choice("kind", "KIND", &o.kind, {"lexical"}, "the encoder to train (neural kinds come from mt)");
  tr.option("dict", "FILE", &o.dicts, "a dictd bilingual dictionary (FreeDict .index), also repeated");
  tr.flag("dict-reverse", &o.dict_reverse, "the dictionaries' headwords are in the target language");
  tr.option("max-pairs", "N", &o.max_pairs, "train on the first N pairs of the bitext (0: all)");
  lexical_options(tr, o);
  tr.common(c, kRun | cli::Common::kSeed | cli::Common::kLangs);

  cli::App& enc = app.subcommand("encode", "write one vector per line to a .npy file", "encode -m MODEL -o OUT.npy [options] [FILE]");
  enc.group("Encoding");
  enc.option("m,model", "FILE", &o.model, "the encoder model");
  enc.choice("side", "SIDE", &o.side, {"src", "trg"}, "the language of the sentences: the model's source or target");
  enc.option("column", "NAME", &o.column, "read a TSV bitext and encode this column (src_text, trg_text, ...)");
  enc.choice("dtype", "TYPE", &o.dtype, {"float32", "float16"}, "the .npy element type");
  enc.common(c, kRun);

  cli::App& sc = app.subcommand("score", "append the cosine of each pair as embed_score", "score -m MODEL [options] [BITEXT]");
  sc.group("Scoring");
  sc.option("m,model", "FILE", &o.model, "the encoder model");
  sc.common(c, kRun);

  cli::App& im = app.subcommand("import", "convert a Hugging Face BERT-family encoder (LaBSE, E5, MiniLM) to one file",
                                 "import -o MODEL [--pooling cls|mean] FOLDER");
  im.group("Import");
  im.choice("pooling", "HOW", &o.pooling, {"cls", "mean"},
            "sentence vector: [CLS] through the pooler (LaBSE), or the mean of the tokens (E5, MiniLM)");
  im.common(c, cli::Common::kOutput | cli::Common::kInputs);

  return app.run(argc, argv, [&](cli::Context& ctx) {
    const std::string cmd = ctx.command();
    if (cmd != "train" && cmd != "import" && o.model.empty()) throw cli::UsageError(cmd + " needs a model: give -m FILE");
    if (cmd == "train") train(ctx, o, c.inputs);
    else if (cmd == "import") import(ctx, o, c.inputs);
    else if (cmd == "encode") encode(ctx, o, c.inputs);
    else score(ctx, o, c.inputs);
  });
}
