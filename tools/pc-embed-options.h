// pc-embed's option tables (included by tools/pc-embed.cpp alone): the
// settings of each command and where they go.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "align/lexical_encoder.h"
#include "libcorpus/core/cli.h"
#include "mt/encoder/dual_train.h"

namespace {

namespace cli = corpus::cli;

struct Opts {
  std::string model, kind = "lexical", side = "src", column, dtype = "float32", char_words = "all", pooling = "cls",
      groups;
  std::vector<std::string> dicts;
  bool dict_reverse = false, no_center = false, no_whiten = false, no_cca = false;
  uint64_t max_pairs = 0;
  double weight = 0.7;  // combine: the neural part's weight
  align::LexicalOptions lex;
  mt::DualTrainSettings neural;
};

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
  a.option("length-weight", "W", &o.lex.length_weight, "weight of the length block (0: none)").range(0, 100);
  a.option("length-scale", "X", &o.lex.length_scale, "length block: radians per unit of log length ratio").range(0.01, 100);
  a.option("split-unseen", "N", &o.lex.split_min, "split a word unseen in training into known words of at least N "
           "code points, so an unseen compound is translated by its parts (0: off)").range(0, 64);
  a.flag("no-center", &o.no_center, "LSA block: do not subtract each language's mean");
  a.option("remove-top", "K", &o.lex.post.remove_top, "LSA block: remove the K top principal components").range(0, 4095);
  a.flag("no-whiten", &o.no_whiten, "LSA block: no ZCA whitening per language");
  a.flag("no-cca", &o.no_cca, "LSA block: no CCA between the languages");
  a.option("iterations", "N", &o.lex.ibm1_iterations, "IBM1 EM iterations").range(1, 100);
  a.option("min-prob", "P", &o.lex.min_prob, "IBM1 entries kept per word: t >= P").range(0, 1);
  a.option("top-k", "N", &o.lex.top_k, "IBM1 entries kept per word: at most N").range(1, 1000);
}

// --kind neural: the dual encoder (mt/encoder/dual_train.h).
void neural_options(cli::App& a, Opts& o) {
  mt::DualTrainSettings& s = o.neural;
  a.group("Neural encoder: architecture");
  a.option("vocab-size", "N", &s.vocab_size, "joint SentencePiece vocabulary (a soft limit on small data)").range(8, 1 << 20);
  a.option("dim", "N", &s.dim, "model channels (the vector's dimension)").range(2, 65536);
  a.option("heads", "N", &s.heads, "attention heads").range(1, 1024);
  a.option("ffn-dim", "N", &s.ffn_dim, "feed-forward channels").range(1, 262144);
  a.option("layers", "N", &s.layers, "Transformer layers").range(1, 64);
  a.option("max-len", "N", &s.max_len, "pieces per sentence, EOS included; longer sentences are cut").range(4, 4096);
  a.choice("activation", "F", &s.activation, {"relu", "swish", "gelu"}, "feed-forward activation");
  a.choice("norm", "WHERE", &s.norm, {"pre", "post"}, "layer norm before (plus a final norm) or after each sublayer");
  a.group("Neural encoder: training");
  a.option("scale", "X", &s.scale, "cosines times X are the logits of the in-batch softmax").range(0.01, 1000);
  a.option("margin", "M", &s.margin, "additive margin taken off each pair's own cosine").range(0, 2);
  a.option("batch-pairs", "N", &s.batch_pairs, "pairs per step; each is a negative for the others").range(2, 65536);
  a.option("groups", "FILE", &o.groups, "a group label per seed pair, line for line (its package, site or document): "
           "batches are drawn from one group, so the negatives are its near misses");
  a.option("group-share", "X", &s.group_share, "with --groups: the share of each batch from one group; "
           "the rest is drawn from the whole seed").range(0, 1);
  a.option("grad-shards", "N", &s.grad_shards, "batch pieces with their own gradient, summed in order; "
           "results depend on this, never on --threads").range(1, 256);
  a.option("lr", "X", &s.lr, "peak learning rate").at_least(0);
  a.option("warmup", "N", &s.warmup, "linear warm-up steps");
  a.choice("decay", "D", &s.decay, {"inv-sqrt", "linear", "none"}, "after warm-up (linear: to 0 at --max-steps)");
  a.option("weight-decay", "X", &s.weight_decay, "AdamW decoupled weight decay").at_least(0);
  a.option("dropout", "X", &s.dropout, "dropout on embeddings and sublayer outputs").range(0, 1);
  a.option("clip-norm", "X", &s.clip_norm, "clip the gradient's global norm to X (0: off)").at_least(0);
  a.option("max-steps", "N", &s.max_steps, "stop after N steps in all (0: no limit)");
  a.option("max-time", "SECONDS", &s.max_time, "stop this run after SECONDS (0: no limit)").at_least(0);
  a.option("max-epochs", "N", &s.max_epochs, "stop after N epochs (0: no limit)");
  a.option("valid-pairs", "N", &s.valid_pairs, "pairs held out of the seed (at most a tenth) for P@1; 0: none");
  a.option("valid", "FILE", &s.valid, "validation bitext TSV for P@1 instead of pairs held out of the seed");
  a.option("valid-every", "N", &s.valid_every, "steps between validations and checkpoints").at_least(1);
  a.option("log-every", "N", &s.log_every, "steps between training-log records").at_least(1);
  a.option("patience", "N", &s.patience, "stop after N validations without a better P@1 (0: never)").range(0, 1 << 20);
  a.flag("resume", &s.resume, "continue from MODEL.ckpt, bit for bit, with the same options and data");
  a.option("log", "FILE", &s.log, "JSONL training log", "MODEL.log.jsonl");
  a.option("plot", "FILE", &s.plot, "SVG plot of the loss and P@1 curves", "MODEL.svg");
}

cli::App& encode_command(cli::App& app, Opts& o) {
  cli::App& a = app.subcommand("encode", "write one vector per line to a .npy file", "encode -m MODEL -o OUT.npy [options] [FILE]");
  a.group("Encoding");
  a.option("m,model", "FILE", &o.model, "the encoder model");
  a.choice("side", "SIDE", &o.side, {"src", "trg"}, "the language of the sentences: the model's source or target");
  a.option("column", "NAME", &o.column, "read a TSV bitext and encode this column (src_text, trg_text, ...)");
  a.choice("dtype", "TYPE", &o.dtype, {"float32", "float16"}, "the .npy element type");
  return a;
}

cli::App& score_command(cli::App& app, Opts& o) {
  cli::App& a = app.subcommand("score", "append the cosine of each pair as embed_score", "score -m MODEL [options] [BITEXT]");
  a.group("Scoring");
  a.option("m,model", "FILE", &o.model, "the encoder model");
  return a;
}

cli::App& import_command(cli::App& app, Opts& o) {
  cli::App& a = app.subcommand("import", "convert a Hugging Face BERT-family encoder (LaBSE, E5, MiniLM) to one file",
                               "import -o MODEL [--pooling cls|mean] FOLDER");
  a.group("Import");
  a.choice("pooling", "HOW", &o.pooling, {"cls", "mean"},
           "sentence vector: [CLS] through the pooler (LaBSE), or the mean of the tokens (E5, MiniLM)");
  return a;
}

// combine: a lexical and a neural encoder as one (mt/encoder/combined_encoder.h).
cli::App& combine_command(cli::App& app, Opts& o) {
  cli::App& a = app.subcommand("combine", "join a lexical and a neural encoder into one model of kind combined",
                               "combine -o MODEL [--weight W] LEXICAL NEURAL");
  a.group("Combining");
  a.option("weight", "W", &o.weight, "the neural vector's weight beside the unit-length lexical one").range(0, 100);
  return a;
}

}  // namespace
