// pc-eval: BLEU, chrF and chrF++ with sacreBLEU-identical numbers and
// signatures (with paired bootstrap resampling), BUCC mining P/R/F1, and
// sentence (Vecalign strict/lax) and word (AER) alignment scores.
#include <fmt/format.h>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "libcorpus/core/cli.h"
#include "libcorpus/core/error.h"
#include "libcorpus/core/output.h"
#include "libcorpus/eval/align_score.h"
#include "libcorpus/eval/corpus_eval.h"
#include "libcorpus/eval/metric_settings.h"
#include "libcorpus/eval/mining.h"
#include "libcorpus/eval/score_tables.h"

using namespace corpus;
namespace mm = corpus::eval;

int main(int argc, char** argv) {
  cli::App app("pc-eval", "Score translations (BLEU, chrF, chrF++ as sacreBLEU 2.6.0), mined bitext and alignments.",
               "pc-eval COMMAND [options]");
  cli::Common c;
  std::vector<std::string> refs, gold;
  std::string tsv, format = "text", src_sents, trg_sents, mining_gold, align_format = "auto";
  mm::MetricSettings ms;
  mm::MiningFiles mf;
  int width = 1, bs_n = 1000;
  bool sentence = false, score_only = false, short_sig = false, paired_bs = false;
  cli::App& score = app.subcommand(mm::is_metric_list, "bleu|chrf|chrf++", "translation scores (several: bleu,chrf)",
                                   "bleu|chrf|chrf++[,...] -r REF [-r REF...] [HYP]   (--paired-bs: BASELINE SYSTEM...)");
  score.group("Translation scores");
  score.option("r,ref", "FILE", &refs, "reference file, one segment per line; repeat for more references").whole_items();
  score.option("tsv", "FILE", &tsv, "read hypotheses and references from columns of this TSV (see --ref: column names)");
  score.flag("sentence", &sentence, "score each segment (one output line per segment; BLEU uses effective order)");
  score.flag("paired-bs", &paired_bs, "paired bootstrap test: first HYP is the baseline, the others are compared to it");
  score.option("paired-bs-n", "N", &bs_n, "bootstrap resamples for --paired-bs").at_least(1);
  score.choice("format", "FMT", &format, {"text", "json"}, "output (text: sacreBLEU's text line)");
  score.option("width", "N", &width, "decimals of the printed scores").range(0, 16);
  score.flag("score-only", &score_only, "print the score only");
  score.flag("short", &short_sig, "short signature (#:1|c:mixed|...)");
  score.flag("lowercase", &ms.lowercase, "case-insensitive scores (case:lc), for every metric");
  score.group("BLEU");
  score.choice("tokenize", "TOK", &ms.tokenize, {"13a", "intl", "zh", "char", "none"}, "tokenizer");
  score.choice("smooth-method", "M", &ms.smooth, {"exp", "floor", "add-k", "none"}, "smoothing");
  score.option("smooth-value", "X", &ms.smooth_value, "value for floor (default 0.1) and add-k (default 1)");
  score.option("max-ngram-order", "N", &ms.max_order, "largest n-gram order").range(1, 100);
  score.flag("effective-order", &ms.effective_order, "leave out n-gram orders with no n-grams (eff:yes)");
  score.group("chrF");
  score.option("chrf-char-order", "N", &ms.char_order, "character n-gram order").range(0, 100);
  score.option("chrf-word-order", "N", &ms.word_order, "word n-gram order", "0 for chrf, 2 for chrf++").range(0, 100);
  score.option("chrf-beta", "N", &ms.beta, "weight of recall against precision").range(0, 100);
  score.flag("chrf-whitespace", &ms.whitespace, "keep white space in character n-grams (space:yes)");
  score.flag("chrf-eps-smoothing", &ms.eps_smoothing, "epsilon smoothing as chrF++.py, Moses and NLTK (eff:no)");
  score.common(c, cli::Common::kOutput | cli::Common::kThreads | cli::Common::kSeed | cli::Common::kMaxLine |
                     cli::Common::kInputs);

  cli::App& mining = app.subcommand("mining", "BUCC precision, recall and F1 of mined pairs",
                                    "mining --gold GOLD [--src-sents F --trg-sents F] [CANDIDATES]");
  mining.group("Mining");
  mining.option("g,gold", "FILE", &mf.gold, "gold pairs, BUCC format (SRC_ID<TAB>TRG_ID)");
  mining.option("src-sents", "FILE", &mf.src_sents, "source sentences, ID<TAB>SENTENCE (BUCC)");
  mining.option("trg-sents", "FILE", &mf.trg_sents, "target sentences, ID<TAB>SENTENCE (BUCC)");
  mining.option("threshold", "X", &mf.threshold, "extract candidates with score >= X");
  mining.option("score-column", "NAME", &mf.score_column, "score column of a candidate TSV with a header");
  mining.common(c, cli::Common::kOutput | cli::Common::kSkipBad | cli::Common::kMaxLine | cli::Common::kInputs);

  cli::App& align = app.subcommand("align", "sentence (Vecalign strict/lax) and word (AER) alignment scores",
                                   "align --gold GOLD [--gold GOLD...] TEST...");
  align.group("Alignment");
  align.option("g,gold", "FILE", &gold, "gold alignments, one per TEST").whole_items();
  align.choice("align-format", "FMT", &align_format, {"vecalign", "pharaoh", "auto"}, "format (auto: from the gold file)");
  align.common(c, cli::Common::kOutput | cli::Common::kMaxLine | cli::Common::kInputs);

  return app.run(argc, argv, [&](cli::Context& ctx) {
    const std::string cmd = ctx.command();
    const std::vector<std::string>& files = c.inputs;
    for (const auto& f : files) ctx.note_input(f);
    Output out(c.output);

    if (cmd == "mining") {
      if (mf.gold.empty()) throw cli::UsageError("mining needs --gold FILE");
      mf.candidates = ctx.single_input(files, "pc-eval mining --gold GOLD [CANDIDATES]");
      mf.skip_bad = c.skip_bad;
      mf.max_line = c.max_line;
      mm::MiningReport r = mm::score_mining_files(mf);
      out.write(mm::format_mining_table(r));
      out.commit();
      ctx.set_count("candidate pairs", r.candidates);
      if (r.ambiguous) ctx.set_count("dropped (repeated sentence)", r.ambiguous);
      if (c.skip_bad || r.skipped) ctx.set_count("skipped (bad)", r.skipped);
      return;
    }
    if (cmd == "align") {
      if (files.empty()) throw cli::UsageError("align needs the test alignment file(s)", "see 'pc-eval align --help'");
      if (gold.empty()) throw cli::UsageError("align needs --gold FILE");
      std::string fmt_name = align_format == "auto" ? mm::detect_alignment_format(gold[0], c.max_line) : align_format;
      if (fmt_name == "vecalign") {
        mm::SentAlignScores s = mm::score_sentence_alignment_files(gold, files, c.max_line);
        out.write(mm::format_sentence_alignment_table(s));
        ctx.set_count("test alignments", s.pcounts.tp_strict + s.pcounts.fp_strict);
      } else {
        if (gold.size() != 1 || files.size() != 1) throw cli::UsageError("word alignment takes one --gold and one TEST file");
        mm::WordAlignScores w = mm::score_word_alignment_files(gold[0], files[0], c.max_line);
        out.write(mm::format_word_alignment_table(w));
        ctx.set_count("links", w.links);
      }
      out.commit();
      return;
    }

    // bleu / chrf / chrf++, possibly several separated by commas.
    // --sentence implies effective order, as sacreBLEU's --sentence-level does.
    ms.effective_order = ms.effective_order || sentence;
    std::vector<std::unique_ptr<mm::Metric>> owned = mm::make_metrics(cmd, ms);
    std::vector<const mm::Metric*> metrics;
    for (const auto& m : owned) metrics.push_back(m.get());

    mm::CorpusSpec spec;
    spec.max_line = c.max_line;
    if (!tsv.empty()) {
      // --tsv FILE: HYP... are column names (or numbers), --ref gives the reference columns.
      spec.tsv = tsv;
      spec.systems = files;
      spec.refs = refs;
      if (spec.systems.empty()) throw cli::UsageError("with --tsv, name the hypothesis column (e.g. pc-eval bleu --tsv F -r trg_text x_mt)");
    } else {
      spec.systems = files.empty() ? std::vector<std::string>{"-"} : files;
      spec.refs = refs;
      for (const auto& r : refs) ctx.note_input(r);
      if (files.empty()) ctx.check_stdin_not_terminal("pc-eval bleu -r REF [HYP]");
    }
    if (paired_bs && spec.systems.size() < 2)
      throw cli::UsageError("--paired-bs needs a baseline and at least one system", "give two or more hypothesis files");
    if (!paired_bs && spec.systems.size() > 1)
      throw cli::UsageError("one hypothesis input at a time", "to compare systems, add --paired-bs (the first is the baseline)");
    if (paired_bs && sentence) throw cli::UsageError("--sentence and --paired-bs cannot be combined");

    mm::SignatureInfo si;
    si.nrefs = static_cast<int>(spec.refs.size());
    si.short_form = short_sig;
    if (paired_bs) {
      si.bootstrap = bs_n;
      si.seed = std::to_string(c.seed);
    }
    mm::SentenceFormat sf{width, score_only, format == "json", {}};
    for (const auto* m : metrics) sf.signatures.push_back(m->signature(si));
    mm::CorpusOptions opt;
    opt.keep_segment_stats = paired_bs;
    if (sentence) {
      opt.sentence = &sf;
      opt.sink = [&](std::string_view s) { out.write(s); };
    }
    opt.progress = [&](uint64_t bytes, uint64_t n) { ctx.progress().update(bytes, n); };
    mm::CorpusStats st = mm::score_corpus(spec, metrics, opt);
    if (st.segments == 0)
      throw Error("empty input: no segments to score", "check that the hypothesis file is not empty")
          .at(spec.tsv.empty() ? spec.systems[0] : spec.tsv);
    if (!sentence && !paired_bs) out.write(mm::format_corpus_scores(metrics, st, sf));
    if (paired_bs)
      out.write(mm::format_bootstrap_table(spec.systems, metrics, mm::paired_bootstrap(metrics, st, bs_n, c.seed),
                                           sf.signatures, width));
    out.commit();
    ctx.set_count("segments", st.segments);
  });
}
