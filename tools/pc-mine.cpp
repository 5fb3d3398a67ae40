// pc-mine: bitext mining with FAISS nearest neighbours and margin scoring, on
// one machine (mine) or as separate jobs over index shards (index, search,
// score).
#include <fmt/format.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "align/ibm1_model.h"
#include "align/mine/gemm_search.h"
#include "align/mine/mine_run.h"
#include "libcorpus/core/cli.h"
#include "libcorpus/core/error.h"
#include "libcorpus/core/output.h"
#include "mt/decode/forced_score.h"
#include "mt/encoder/open_encoder.h"

using namespace corpus;
using namespace align;
using namespace align::mine;

namespace {

struct Opts {
  std::string src, trg, src_npy, trg_npy, sentences, npy, encoder, ibm1, nmt, side = "src", margin = "ratio",
      retrieval = "max";
  std::optional<double> threshold;
  std::vector<std::string> fwd, bwd;
  int k = 4, shards = 1, candidates = 16;
  double ibm1_weight = 0.3, length_weight = 0.5, number_weight = 0.5, nmt_weight = 0.35;
  std::optional<int> shard;
  IndexOptions index;
};

// Sentences with their .npy, or encoded by --encoder.
Side load(cli::Context& ctx, const Opts& o, const std::string& text, const std::string& npy, SentenceEncoder::Side s,
          const char* what) {
  if (text.empty()) throw cli::UsageError(fmt::format("give the {} sentences", what));
  ctx.note_input(text);
  const SideOptions so{static_cast<size_t>(ctx.common().max_line), false};
  if (!o.encoder.empty()) {
    if (!npy.empty()) throw cli::UsageError("give either .npy vectors or --encoder, not both");
    return encode_side(text, *mt::open_sentence_encoder(o.encoder), s, so);
  }
  if (npy.empty())
    throw cli::UsageError(fmt::format("the {} sentences need their .npy vectors, or give --encoder", what));
  ctx.note_input(npy);
  return read_side(text, npy, so);
}

void count_side(cli::Context& ctx, const Side& s, const std::string& what) {
  ctx.set_count(what + " lines", s.lines_read);
  if (s.empty) ctx.set_count(what + " empty", s.empty);
  if (s.duplicates) ctx.set_count(what + " duplicates", s.duplicates);
}

void run(cli::Context& ctx, Opts& o) {
  const std::string cmd = ctx.command();
  const auto& c = ctx.common();
  MineOptions m{static_cast<uint32_t>(o.k), {parse_margin(o.margin), parse_retrieval(o.retrieval), o.threshold},
                o.index, nullptr, o.ibm1_weight, static_cast<uint32_t>(o.candidates), o.length_weight, o.number_weight};
  m.index.seed = c.seed;
  m.index.threads = ctx.threads();
  const auto which = o.side == "trg" ? SentenceEncoder::Side::kTarget : SentenceEncoder::Side::kSource;
  if (cmd == "index") {
    if (c.output == "-") throw cli::UsageError("index needs -o PREFIX (it writes PREFIX.trained.idx and PREFIX.N.idx)");
    const Side s = load(ctx, o, o.sentences, o.npy, which, "--sentences");
    count_side(ctx, s, "sentence");
    const auto only = o.shard ? std::optional<uint32_t>(*o.shard) : std::nullopt;
    const IndexCounts n = build_shards(s, static_cast<uint32_t>(o.shards), only, m.index, c.output);
    ctx.set_count("trained on", n.trained_on);
    ctx.set_count("shard files", n.files.size());
    ctx.info(fmt::format("index '{}' over {} distinct sentences", n.factory, n.rows));
    return;
  }
  if (cmd == "search") {
    if (c.output == "-") throw cli::UsageError("search needs -o FILE for the top-k lists");
    if (c.inputs.size() != 1)
      throw cli::UsageError("search reads one index shard",
                            "pc-mine search --sentences S --npy S.npy -o S.0.knn T.0.idx");
    const Side q = load(ctx, o, o.sentences, o.npy, which, "--sentences");
    count_side(ctx, q, "query");
    ctx.note_input(c.inputs[0]);
    write_knn(c.output, search_shard(q, c.inputs[0], m.k, m.index));
    return;
  }
  if (cmd == "score" && (o.fwd.empty() || o.bwd.empty()))
    throw cli::UsageError("score needs --fwd and --bwd top-k lists");
  const Side src = load(ctx, o, o.src, o.src_npy, SentenceEncoder::Side::kSource, "--src");
  const Side trg = load(ctx, o, o.trg, o.trg_npy, SentenceEncoder::Side::kTarget, "--trg");
  count_side(ctx, src, "source");
  count_side(ctx, trg, "target");
  std::optional<Ibm1Model> ibm1;
  if (!o.ibm1.empty()) {
    ctx.note_input(o.ibm1);
    m.ibm1 = &ibm1.emplace(Ibm1Model::load(o.ibm1));
  }
  std::unique_ptr<mt::ForcedScorer> nmt;
  if (!o.nmt.empty()) {
    ctx.note_input(o.nmt);
    nmt = std::make_unique<mt::ForcedScorer>(o.nmt);
    m.nmt = nmt.get();
    m.nmt_weight = o.nmt_weight;
  }
  Output out(c.output);
  const auto write = [&out](std::string_view s) { out.write(s); };
  const MineCounts n =
      cmd == "score" ? score_shards(src, trg, o.fwd, o.bwd, m, write) : align::mine::mine(src, trg, m, write);
  ctx.set_count("pairs out", n.pairs);
  if (n.dropped_same) ctx.set_count("dropped (same text)", n.dropped_same);
  if (!n.src_index.empty()) ctx.info(fmt::format("indexes: targets '{}', sources '{}'", n.trg_index, n.src_index));
  out.commit();
}

void inputs(cli::App& a, Opts& o, bool pair) {
  a.group("Input");
  if (pair) {
    a.option("src", "FILE", &o.src, "source sentences, one per line");
    a.option("trg", "FILE", &o.trg, "target sentences, one per line");
    a.option("src-npy", "FILE", &o.src_npy, "the source vectors (.npy, row i = line i)");
    a.option("trg-npy", "FILE", &o.trg_npy, "the target vectors (.npy, row i = line i)");
  } else {
    a.option("sentences", "FILE", &o.sentences, "the sentences, one per line");
    a.option("npy", "FILE", &o.npy, "their vectors (.npy, row i = line i)");
  }
  a.option("encoder", "MODEL", &o.encoder, "encode the sentences with this pc-embed encoder instead of .npy files");
  if (!pair)
    a.choice("side", "SIDE", &o.side, {"src", "trg"}, "with --encoder: the sentences are the model's source or target");
}

void index_options(cli::App& a, Opts& o, bool build) {
  a.group("Index");
  if (build) {
    a.option("index", "FACTORY", &o.index.factory, "FAISS index factory string (Flat, IVF1024,Flat, HNSW32, ...)",
             "by size: Flat, IVF, OPQ+IVF+PQ");
    a.option("train-sample", "N", &o.index.train_sample, "rows the index is trained on (seeded sample)",
             "all up to 262144");
  }
  a.option("nprobe", "N", &o.index.nprobe, "IVF lists visited per query").range(1, 65536);
  a.option("ef-search", "N", &o.index.ef_search, "HNSW search list length").range(1, 65536);
}

void scoring(cli::App& a, Opts& o) {
  a.group("Scoring");
  a.option("k,neighbours", "N", &o.k, "neighbours in each direction").range(1, 1024);
  a.choice("margin", "HOW", &o.margin, {"ratio", "distance", "absolute"},
           "margin of a pair's cosine over its neighbourhoods'");
  a.choice("retrieval", "HOW", &o.retrieval, {"max", "intersect", "fwd", "bwd"},
           "which best pairs: both directions greedily 1-1, both agreeing, each source's, each target's");
  a.option("threshold", "X", &o.threshold, "keep pairs scoring at least X", "all");
  a.option("length-weight", "W", &o.length_weight, "length prior: scores times exp(-W |log length ratio - typical|)")
      .range(0, 100);
  a.option("number-weight", "W", &o.number_weight, "number prior: scores times exp(-W) when the digit runs differ")
      .range(0, 100);
  a.group("Re-scoring");
  a.option("ibm1", "MODEL", &o.ibm1, "re-score the candidates with this pc-ibm1 model (both directions)");
  a.option("ibm1-weight", "W", &o.ibm1_weight, "weight of the IBM1 score against the cosine").range(0, 1);
  a.option("nmt", "MODEL", &o.nmt,
           "judge every candidate with this pc-nmt model (source to target): its per-token probability of the "
           "target by forced decoding, mixed into the similarity before the margins");
  a.option("nmt-weight", "W", &o.nmt_weight, "similarity = (1 - W) cos + W judgement, with --nmt").range(0, 1);
  a.option("candidates", "N", &o.candidates, "with --ibm1: nearest neighbours re-scored per sentence (at least -k)")
      .range(1, 1024);
}

}  // namespace

int main(int argc, char** argv) {
  cli::App app("pc-mine",
               "Bitext mining: the k nearest neighbours of every sentence in the other language (FAISS), margin "
               "scores, the best pairs. One machine (mine), or index shards searched as separate jobs (index, "
               "search, score).",
               "pc-mine COMMAND [options]");
  app.version_line("blas", blas_info());
  app.version_line("gemm", align::mine::product_backend());
  cli::Common c;
  Opts o;
  constexpr unsigned kRun = cli::Common::kOutput | cli::Common::kThreads | cli::Common::kMaxLine;
  cli::App& mi = app.subcommand("mine", "mine two sides on one machine; the bitext TSV goes to -o",
                                "mine --src S --trg T (--src-npy S.npy --trg-npy T.npy | --encoder MODEL) [options]");
  inputs(mi, o, true);
  index_options(mi, o, true);
  scoring(mi, o);
  mi.common(c, kRun | cli::Common::kSeed);
  cli::App& ix = app.subcommand("index", "train an index once, add each shard of one side to its own file",
                                "index --sentences S --npy S.npy --shards N [--shard I] -o PREFIX [options]");
  inputs(ix, o, false);
  index_options(ix, o, true);
  ix.group("Shards");
  ix.option("shards", "N", &o.shards, "contiguous shards of the distinct sentences").range(1, 100000);
  ix.option("shard", "I", &o.shard, "add only shard I (0-based) to the index trained before", "all").range(0, 99999);
  ix.common(c, kRun | cli::Common::kSeed);
  cli::App& se = app.subcommand("search", "search one index shard with a batch of queries; top-k lists go to -o",
                                "search --sentences Q --npy Q.npy -o LISTS SHARD.idx [options]");
  inputs(se, o, false);
  index_options(se, o, false);
  se.group("Scoring");
  se.option("k,neighbours", "N", &o.k, "neighbours per query").range(1, 1024);
  se.common(c, kRun | cli::Common::kInputs);
  cli::App& sc = app.subcommand("score", "merge the shards' top-k lists, score margins, write the bitext TSV",
                                "score --src S --trg T ... --fwd L,... --bwd L,... [options]");
  inputs(sc, o, true);
  sc.group("Lists");
  sc.option("fwd", "FILE", &o.fwd, "top-k lists of the source sentences in the target shards");
  sc.option("bwd", "FILE", &o.bwd, "top-k lists of the target sentences in the source shards");
  scoring(sc, o);
  sc.common(c, kRun);

  return app.run(argc, argv, [&](cli::Context& ctx) { run(ctx, o); });
}
