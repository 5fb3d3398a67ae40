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

namespace {

const char* kUsage =
    "pc-eval bleu|chrf|chrf++[,...] -r REF [-r REF...] [HYP]\n"
    "         pc-eval bleu|chrf|chrf++ --paired-bs -r REF BASELINE SYSTEM...\n"
    "         pc-eval mining --gold GOLD [--src-sents F --trg-sents F] [CANDIDATES]\n"
    "         pc-eval align --gold GOLD [--gold GOLD...] TEST...";

}  // namespace

int main(int argc, char** argv) {
  cli::App app("pc-eval", "Score translations (BLEU, chrF, chrF++ as sacreBLEU 2.6.0), mined bitext and alignments.",
               kUsage);
  cli::Common c;
  std::vector<std::string> refs, gold;
  std::string tsv, tokenize = "13a", smooth = "exp", smooth_value, format = "text", threshold, src_sents,
                   trg_sents, score_column = "score", align_format = "auto";
  int width = 1, max_order = 4, char_order = 6, word_order = -1, beta = 2, bs_n = 1000;
  bool sentence = false, score_only = false, short_sig = false, lowercase = false, eff = false, whitespace = false,
       eps = false, paired_bs = false;
  app.group("Translation scores (bleu, chrf, chrf++)");
  app.option("r,ref", "FILE", &refs, "reference file, one segment per line; repeat for more references");
  app.option("tsv", "FILE", &tsv, "read hypotheses and references from columns of this TSV (see --ref: column names)");
  app.flag("sentence", &sentence, "score each segment (one output line per segment; BLEU uses effective order)");
  app.flag("paired-bs", &paired_bs, "paired bootstrap test: first HYP is the baseline, the others are compared to it");
  app.option("paired-bs-n", "N", &bs_n, "bootstrap resamples for --paired-bs", "1000");
  app.option("format", "FMT", &format, "output: text (sacreBLEU's text line) or json", "text");
  app.option("width", "N", &width, "decimals of the printed scores", "1");
  app.flag("score-only", &score_only, "print the score only");
  app.flag("short", &short_sig, "short signature (#:1|c:mixed|...)");
  app.flag("lowercase", &lowercase, "case-insensitive scores (case:lc), for every metric");
  app.group("BLEU");
  app.option("tokenize", "TOK", &tokenize, "tokenizer: 13a, intl, zh, char, none", "13a");
  app.option("smooth-method", "M", &smooth, "smoothing: exp, floor, add-k, none", "exp");
  app.option("smooth-value", "X", &smooth_value, "value for floor (default 0.1) and add-k (default 1)");
  app.option("max-ngram-order", "N", &max_order, "largest n-gram order", "4");
  app.flag("effective-order", &eff, "leave out n-gram orders with no n-grams (eff:yes)");
  app.group("chrF");
  app.option("chrf-char-order", "N", &char_order, "character n-gram order", "6");
  app.option("chrf-word-order", "N", &word_order, "word n-gram order", "0 for chrf, 2 for chrf++");
  app.option("chrf-beta", "N", &beta, "weight of recall against precision", "2");
  app.flag("chrf-whitespace", &whitespace, "keep white space in character n-grams (space:yes)");
  app.flag("chrf-eps-smoothing", &eps, "epsilon smoothing as chrF++.py, Moses and NLTK (eff:no)");
  app.group("Mining and alignment (mining, align)");
  app.option("g,gold", "FILE", &gold, "gold file: BUCC pairs (mining) or alignments (align; one per TEST)");
  app.option("src-sents", "FILE", &src_sents, "source sentences, ID<TAB>SENTENCE (BUCC)");
  app.option("trg-sents", "FILE", &trg_sents, "target sentences, ID<TAB>SENTENCE (BUCC)");
  app.option("threshold", "X", &threshold, "mining: extract candidates with score >= X");
  app.option("score-column", "NAME", &score_column, "mining: score column of a candidate TSV with a header", "score");
  app.option("align-format", "FMT", &align_format, "align: vecalign, pharaoh, or auto (from the gold file)", "auto");
  app.common(c, cli::Common::kOutput | cli::Common::kThreads | cli::Common::kSeed | cli::Common::kSkipBad |
                    cli::Common::kInputs);

  return app.run(argc, argv, [&](cli::Context& ctx) {
    if (c.inputs.empty()) throw cli::UsageError("no subcommand", std::string("Usage: ") + kUsage);
    const std::string cmd = c.inputs[0];
    std::vector<std::string> files(c.inputs.begin() + 1, c.inputs.end());
    if (format != "text" && format != "json") throw cli::UsageError("--format must be text or json, not " + quote(format));
    if (width < 0 || width > 16) throw cli::UsageError(fmt::format("--width must be 0 to 16, not {}", width));
    for (const auto& f : files) ctx.note_input(f);
    Output out(c.output);

    if (cmd == "mining") {
      if (gold.size() != 1) throw cli::UsageError("mining takes one --gold file");
      if (files.size() > 1) throw cli::UsageError("mining takes one candidates file");
      mm::MiningFiles mf{gold[0], files.empty() ? "-" : files[0], src_sents, trg_sents, score_column, {}, c.skip_bad};
      if (!threshold.empty()) {
        char* end = nullptr;
        double t = std::strtod(threshold.c_str(), &end);
        if (end != threshold.c_str() + threshold.size() || std::isnan(t))
          throw cli::UsageError("--threshold must be a number, not " + quote(threshold));
        mf.threshold = t;
      }
      if (mf.candidates == "-") ctx.check_stdin_not_terminal(kUsage);
      mm::MiningReport r = mm::score_mining_files(mf);
      out.write(mm::format_mining_table(r));
      out.commit();
      ctx.set_count("candidate pairs", r.candidates);
      if (r.ambiguous) ctx.set_count("dropped (repeated sentence)", r.ambiguous);
      if (c.skip_bad || r.skipped) ctx.set_count("skipped (bad)", r.skipped);
      return;
    }
    if (cmd == "align") {
      if (files.empty()) throw cli::UsageError("align needs the test alignment file(s)", std::string("Usage: ") + kUsage);
      if (gold.empty()) throw cli::UsageError("align needs --gold FILE");
      std::string fmt_name = align_format;
      if (fmt_name == "auto") fmt_name = mm::detect_alignment_format(gold[0]);
      if (fmt_name == "vecalign") {
        mm::SentAlignScores s = mm::score_sentence_alignment_files(gold, files);
        out.write(mm::format_sentence_alignment_table(s));
        ctx.set_count("test alignments", s.pcounts.tp_strict + s.pcounts.fp_strict);
      } else if (fmt_name == "pharaoh") {
        if (gold.size() != 1 || files.size() != 1) throw cli::UsageError("word alignment takes one --gold and one TEST file");
        mm::WordAlignScores w = mm::score_word_alignment_files(gold[0], files[0]);
        out.write(mm::format_word_alignment_table(w));
        ctx.set_count("links", w.links);
      } else {
        throw cli::UsageError("--align-format must be vecalign, pharaoh or auto, not " + quote(align_format));
      }
      out.commit();
      return;
    }

    // bleu / chrf / chrf++, possibly several separated by commas.
    // --sentence implies effective order, as sacreBLEU's --sentence-level does.
    const mm::MetricSettings ms{.tokenize = tokenize, .smooth = smooth, .smooth_value = smooth_value,
                                .max_order = max_order, .effective_order = eff || sentence,
                                .char_order = char_order, .word_order = word_order, .beta = beta,
                                .whitespace = whitespace, .eps_smoothing = eps, .lowercase = lowercase};
    std::vector<std::unique_ptr<mm::Metric>> owned = mm::make_metrics(cmd, ms);
    std::vector<const mm::Metric*> metrics;
    for (const auto& m : owned) metrics.push_back(m.get());

    mm::CorpusSpec spec;
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
      if (files.empty()) ctx.check_stdin_not_terminal(kUsage);
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
