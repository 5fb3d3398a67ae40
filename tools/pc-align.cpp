// pc-align: align the sentences of each document pair (doc-pair JSONL from
// pc-docalign) with sentence embeddings (Vecalign's DP) or, without an
// encoder, by length (Gale–Church).
#include <fmt/format.h>

#include <memory>
#include <string>

#include "align/encoder.h"
#include "align/sentalign/align_run.h"
#include "libcorpus/core/cli.h"
#include "libcorpus/core/error.h"
#include "libcorpus/core/input.h"
#include "libcorpus/core/output.h"
#include "mt/encoder/open_encoder.h"

using namespace corpus;
using namespace align::sentalign;

int main(int argc, char** argv) {
  cli::App app("pc-align",
               "Align the sentences inside document pairs: a DP over sentence embeddings with beads of up to N "
               "sentences and deletions in linear time (Vecalign), or by length (Gale-Church) without an encoder.",
               "pc-align [options] [DOC_PAIRS]");
  cli::Common c;
  std::string encoder, method = "auto", format = "tsv", deletion = "auto";
  int max_bead = 4, band = 8, full_dp = 300;
  double length_weight = 0.05;
  app.group("Alignment");
  app.option("encoder", "MODEL", &encoder, "pc-embed model (train or import); without it, --method auto aligns by length");
  app.choice("method", "METHOD", &method, {"auto", "embedding", "length"},
             "embedding (needs --encoder), length (Gale-Church), or auto: embedding with an encoder, else length");
  app.option("max-bead", "N", &max_bead, "sentences in a bead, both sides together (embedding: 1-1 ... 3-1 at 4)")
      .range(2, 8);
  app.option("deletion", "SPEC", &deletion,
             "deletion penalty: auto (calibrated per document pair), percentile:P (Vecalign: 0.2) or fixed:C");
  app.option("length-weight", "W", &length_weight,
             "embedding: add W x the Gale-Church length cost of a bead to its cost (0: embeddings only)")
      .range(0, 10);
  app.option("band", "N", &band, "half-width of the search band around the coarser alignment").range(2, 1000);
  app.option("full-dp", "N", &full_dp, "documents up to N x N sentences are searched in full").range(8, 100000);
  app.group("Output");
  app.choice("format", "FORMAT", &format, {"tsv", "vecalign"},
             "tsv: src_url trg_url src_text trg_text align_score; vecalign: bead indices, deletions included");
  app.common(c, cli::Common::kOutput | cli::Common::kThreads | cli::Common::kSeed | cli::Common::kSkipBad |
                    cli::Common::kMaxLine | cli::Common::kInputs);

  return app.run(argc, argv, [&](cli::Context& ctx) {
    AlignRunOptions opt;
    if (method == "embedding" && encoder.empty()) throw cli::UsageError("--method embedding needs --encoder MODEL");
    opt.method = method == "length" || (method == "auto" && encoder.empty()) ? AlignMethod::kLength
                                                                             : AlignMethod::kEmbedding;
    opt.format = format == "vecalign" ? AlignFormat::kVecalign : AlignFormat::kTsv;
    try {
      opt.vec.deletion = DeletionPenalty::parse(deletion);
    } catch (const ConfigError& e) {
      throw cli::UsageError(fmt::format("--deletion: {}", e.what()), e.hint());
    }
    opt.vec.max_bead = max_bead;
    opt.vec.length_weight = length_weight;
    opt.vec.seed = c.seed;
    opt.vec.recursion = opt.len.recursion = {static_cast<uint32_t>(full_dp), static_cast<uint32_t>(band)};
    opt.skip_bad = c.skip_bad;
    opt.max_line = c.max_line;

    std::unique_ptr<align::SentenceEncoder> enc;
    if (opt.method == AlignMethod::kEmbedding) {
      enc = mt::open_sentence_encoder(encoder);  // every kind: lexical, bert
      ctx.note_input(encoder);
      ctx.info("embedding alignment: " + enc->describe());
    } else {
      if (!encoder.empty()) ctx.info("--method length: the encoder is not used");
      ctx.info(encoder.empty() ? "no --encoder: aligning by length (Gale-Church)" : "aligning by length (Gale-Church)");
    }
    auto in = open_input(ctx.single_input(c.inputs, "pc-align [--encoder MODEL] [options] [DOC_PAIRS]"));
    Output out(c.output);  // the output appears under its name only when complete
    const AlignRunCounts n = align_doc_pairs(
        *in, enc.get(), opt, [&out](std::string_view s) { out.write(s); },
        [&ctx](uint64_t b, uint64_t r) { ctx.progress().update(b, r); });
    out.commit();
    ctx.set_count("document pairs", n.pairs);
    ctx.set_count("source sentences", n.src_sentences);
    ctx.set_count("target sentences", n.trg_sentences);
    ctx.set_count("aligned beads", n.rows);
    ctx.set_count("source sentences deleted", n.src_deleted);
    ctx.set_count("target sentences deleted", n.trg_deleted);
    ctx.set_count("pairs with an empty side", n.empty_side);
    if (n.empty_side) ctx.warn(fmt::format("{} document pairs had no sentence on one side", n.empty_side));
    if (c.skip_bad) ctx.set_count("skipped (bad)", n.skipped_bad);
  });
}
