// pc-clean: fix, filter, deduplicate and score bitext, saying why for every row.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <memory>
#include <string>

#include "align/encoder.h"
#include "align/ibm1_model.h"
#include "filter/clean_run.h"
#include "filter/fasttext_lid.h"
#include "filter/rules.h"
#include "filter/spell.h"
#include "libcorpus/core/cli.h"
#include "libcorpus/core/error.h"
#include "libcorpus/core/input.h"
#include "libcorpus/core/line_cap.h"
#include "libcorpus/core/output.h"
#include "libcorpus/core/tsv.h"
#include "mt/decode/forced_score.h"
#include "mt/encoder/open_encoder.h"

using namespace corpus;

namespace {

struct Opts {
  std::string chain, src_file, trg_file, ibm1, encoder, nmt, rejected, lid_model, dict_dir;
  std::vector<std::string> multiway, order_lm;
  bool annotate = false;
  double floor = 1e-4;
};

std::unique_ptr<BitextLines> open_bitext(cli::Context& ctx, const Opts& o, const std::vector<std::string>& files) {
  if (o.src_file.empty() != o.trg_file.empty()) throw cli::UsageError("--src and --trg go together");
  if (!o.src_file.empty() && !files.empty()) throw cli::UsageError("give either FILE or --src/--trg, not both");
  if (!o.src_file.empty()) {
    for (const auto& f : {o.src_file, o.trg_file}) ctx.note_input(f);
    return open_lockstep_lines(o.src_file, o.trg_file, ctx.common().max_line);
  }
  const std::string path = ctx.single_input(files, "pc-clean [options] [BITEXT]");
  return open_tsv_lines(cap_lines(open_input(path), ctx.common().max_line));
}

}  // namespace

int main(int argc, char** argv) {
  cli::App app("pc-clean",
               "Fix, filter, deduplicate and score bitext: fixers, hard rules, exact/near dedup and one-to-many "
               "limits, IBM1 and encoder scores, all in one chain string; every rejected row says which rule.",
               "pc-clean [options] [BITEXT]");
  cli::Common c;
  Opts o;
  app.group("Input");
  app.option("src", "FILE", &o.src_file, "source sentences, one per line (Moses two-file input; with --trg)");
  app.option("trg", "FILE", &o.trg_file, "target sentences, one per line, parallel to --src");
  app.group("Cleaning");
  app.option("chain", "SPEC", &o.chain, "fixers, rules, dedup and thresholds, comma-separated (see man pc-clean)",
             filter::kDefaultChain);
  app.flag("annotate", &o.annotate, "keep every row and add clean_reason (keep or the rule that rejects it)");
  app.option("rejected", "FILE", &o.rejected, "write the rejected rows there, with clean_reason");
  app.option("lid-model", "MODEL", &o.lid_model,
             "fastText language-ID model (.bin/.ftz, e.g. lid.176): lid asks it where CLD2 is unsure");
  app.option("dict-dir", "DIRS", &o.dict_dir,
             "folders of Hunspell dictionaries for the spell rule, ':'-separated (default: $DICPATH, else "
             "/usr/share/hunspell)");
  app.group("Scores");
  app.option("ibm1", "MODEL", &o.ibm1, "pc-ibm1 model: add ibm1_score (q_max, both directions) and clean_score");
  app.option("encoder", "MODEL", &o.encoder, "pc-embed model (train or import): add cos_score (encoder cosine) and clean_score");
  app.option("nmt", "MODEL", &o.nmt,
             "pc-nmt model from the source language to the target: add nmt_score (its per-token probability of the "
             "target by forced decoding)");
  app.option("multiway", "BITEXT", &o.multiway,
             "another language pair's bitext (repeatable): add multiway_score, the languages a source is aligned to");
  app.option("order-lm", "BITEXT", &o.order_lm,
             "bitext to train the order models on (both sides; repeatable): add order_score");
  app.option("floor", "P", &o.floor, "IBM1 probability floor for unknown words and unseen pairs").range(1e-300, 0.5);
  app.common(c, cli::Common::kOutput | cli::Common::kThreads | cli::Common::kLangs | cli::Common::kSkipBad |
                    cli::Common::kMaxLine | cli::Common::kInputs);

  return app.run(argc, argv, [&](cli::Context& ctx) {
    filter::CleanOptions opt;
    if (o.chain.empty()) {
      opt.chain = filter::Chain::parse(filter::kDefaultChain);
      if (c.src_lang.empty() || c.trg_lang.empty()) {
        opt.chain = opt.chain.without_lang_rules();
        ctx.info("no -s/-t: the default chain runs without lid, script and alphabet");
      }
    } else {
      opt.chain = filter::Chain::parse(o.chain);
    }
    opt.src_lang = c.src_lang;
    opt.trg_lang = c.trg_lang;
    opt.annotate = o.annotate;
    opt.skip_bad = c.skip_bad;
    opt.max_line = c.max_line;
    const std::string spec = opt.chain.spec();
    ctx.info("chain: " + spec);

    std::unique_ptr<align::Ibm1Model> ibm1;
    std::unique_ptr<align::SentenceEncoder> enc;
    if (!o.ibm1.empty()) {
      ibm1 = std::make_unique<align::Ibm1Model>(align::Ibm1Model::load(o.ibm1));
      ctx.note_input(o.ibm1);
    }
    if (!o.encoder.empty()) {
      enc = mt::open_sentence_encoder(o.encoder);  // every kind: lexical, bert
      ctx.note_input(o.encoder);
    }
    filter::PairScorer scorer(ibm1.get(), enc.get(), o.floor);
    std::unique_ptr<mt::ForcedScorer> nmt;
    if (!o.nmt.empty()) {
      nmt = std::make_unique<mt::ForcedScorer>(o.nmt);
      ctx.note_input(o.nmt);
      scorer.set_nmt(nmt.get());
    }
    filter::OrderLm order_trg, order_src;
    if (!o.order_lm.empty()) {
      for (const auto& f : o.order_lm) ctx.note_input(f);
      order_trg = filter::OrderLm::train_files(o.order_lm, "trg_text");
      order_src = filter::OrderLm::train_files(o.order_lm, "src_text");
      scorer.set_order(&order_trg, &order_src);
    }
    std::unique_ptr<filter::FastTextLid> lid_model;
    if (!o.lid_model.empty()) {
      lid_model = std::make_unique<filter::FastTextLid>(o.lid_model);
      ctx.note_input(o.lid_model);
      opt.lid_model = lid_model.get();
    }
    filter::SpellDictionaries dictionaries(o.dict_dir);
    opt.dictionaries = &dictionaries;
    if (opt.chain.has(filter::RuleKind::kSpell))
      for (const std::string& l : {c.src_lang, c.trg_lang})
        if (!dictionaries.has(l))
          ctx.info(fmt::format("spell: no Hunspell dictionary for '{}' in {}: its side is not judged (Debian: "
                               "apt install hunspell-{})",
                               l, fmt::join(dictionaries.folders(), ":"), filter::primary_language(l)));
    filter::MultiwayIndex multiway;
    if (!o.multiway.empty()) {
      for (const auto& f : o.multiway) ctx.note_input(f);
      multiway = filter::MultiwayIndex::build(o.multiway);
      opt.multiway = &multiway;
    }
    auto in = open_bitext(ctx, o, c.inputs);
    Output out(c.output);
    std::unique_ptr<Output> rej;
    if (!o.rejected.empty()) rej = std::make_unique<Output>(o.rejected);
    const filter::CleanCounts n = filter::clean_rows(
        *in, opt, scorer, out, rej.get(), [&ctx](uint64_t b, uint64_t r) { ctx.progress().update(b, r); });
    out.commit();
    if (rej) rej->commit();

    if (opt.chain.has(filter::RuleKind::kSpell)) {
      // The dictionaries decide rows as a model does: --meta names them.
      const std::vector<std::string> used = dictionaries.loaded();
      for (const std::string& dic : used) {
        ctx.note_input(dic.substr(0, dic.size() - 4) + ".aff");
        ctx.note_input(dic);
      }
      ctx.info("spell: dictionaries " + fmt::format("{}", fmt::join(used, ", ")));
    }
    ctx.set_count("pairs in", n.rows - n.skipped_bad);
    ctx.set_count("kept", n.kept);
    ctx.set_count("fixed", n.fixed);
    for (size_t i = 0; i < opt.chain.rules.size(); ++i)
      ctx.set_count("rejected " + opt.chain.rules[i].name(), n.rejected[i]);
    if (c.skip_bad) ctx.set_count("skipped (bad)", n.skipped_bad);
    // The counts are what --meta can hold: the chain string is the one key
    // whose value is 1 (cli has no string field for a tool's settings).
    ctx.set_count("chain " + spec, 1);
  });
}
