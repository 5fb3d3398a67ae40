// pc-nmt's option tables (included by tools/pc-nmt.cpp alone): the settings of
// each command and where they go.
#pragma once

#include <string>

#include "libcorpus/core/cli.h"
#include "mt/train/recipes.h"
#include "mt/train/train_run.h"

namespace {

namespace cli = corpus::cli;

// The training settings, plus what translate and inspect take.
struct Args : mt::TrainSettings {
  std::string model;
  bool vocab = false;
  int beam = 1, n_best = 0, block = 4, candidates = 1;
  std::string length_penalty = "gnmt", stats, ddg, ibm1, decode = "greedy", draft = "pad", column,
              out_column = "x_translation", ngram_pool, recipe;
  double alpha = 0.6;
  bool free_placeholders = false;
  std::string draft_heads;
  int guesses = 2, head_dim = 0, shortlist = 2048, head_epochs = 4;
  uint64_t sentences = 20000;
};

// Decoding settings: translate's, and train's for validation.
void decoding_options(cli::App& a, Args& s) {
  a.group("Decoding");
  a.option("batch-size", "N", &s.batch_size, "sentences decoded together").at_least(1);
  a.option("max-len-factor", "X", &s.max_len_factor, "output tokens <= X * source tokens + 10").at_least(0);
}

void training_options(cli::App& t, Args& a) {
  t.group("Recipe");
  // main() expands the recipe into its options before parsing (recipes.h).
  t.choice("recipe", "NAME", &a.recipe, mt::recipe_names(), "a measured set of the options below, which options "
           "given after it override (man pc-nmt, RECIPES)");
  t.group("Data");
  t.option("valid", "FILE", &a.valid, "validation bitext TSV: loss, chrF and BLEU every --valid-every steps");
  t.option("max-len", "N", &a.max_len, "tokens per sentence, EOS included; longer pairs are counted and skipped").at_least(2);
  t.option("vocab-size", "N", &a.vocab_size, "SentencePiece vocabulary size (a soft limit on small data)").at_least(8);
  t.choice("spm-type", "TYPE", &a.spm_type, {"unigram", "bpe"}, "SentencePiece model");
  t.option("spm-sentences", "N", &a.spm_sentences, "sentences sampled (seeded) to train SentencePiece").at_least(1);
  t.flag("separate-vocab", &a.separate_vocab, "one SentencePiece model per side (default: one joint model)");
  t.flag("protect-placeholders", &a.protect_placeholders, "mask %s, {0}, <b>, &amp; ... as numbered symbols in "
         "training and translation, so they come out unchanged");
  t.group("Architecture");
  t.choice("arch", "NAME", &a.arch, {"base", "small", "tiny"}, "preset (base: Marian transformer-base)");
  t.option("dim", "N", &a.dim, "model channels", "from --arch").range(0, 65536);
  t.option("heads", "N", &a.heads, "attention heads", "from --arch").range(0, 1024);
  t.option("ffn-dim", "N", &a.ffn_dim, "feed-forward channels", "from --arch").range(0, 262144);
  t.option("enc-layers", "N", &a.enc_layers, "encoder layers", "from --arch").range(0, 1024);
  t.option("dec-layers", "N", &a.dec_layers, "decoder layers", "from --arch").range(0, 1024);
  t.choice("activation", "F", &a.activation, {"relu", "swish", "gelu"}, "feed-forward activation", "from --arch");
  t.choice("norm", "WHERE", &a.norm, {"post", "pre"}, "layer norm (post: Marian)", "from --arch");
  t.flag("untie-output", &a.untie_output, "an output projection of its own (default: tied to target embeddings)");
  t.group("Training");
  t.option("batch-tokens", "N", &a.batch_tokens, "padded tokens per batch").at_least(1);
  t.option("grad-shards", "N", &a.grad_shards, "batch pieces with their own gradient, summed in order; "
           "results depend on this, never on --threads").at_least(1);
  t.option("lr", "X", &a.lr, "peak learning rate").at_least(0);
  t.option("warmup", "N", &a.warmup, "linear warm-up steps");
  t.choice("decay", "D", &a.decay, {"inv-sqrt", "linear", "none"}, "after warm-up (linear: to 0 at --max-steps)");
  t.option("beta1", "X", &a.beta1, "AdamW beta1").range(0, 1);
  t.option("beta2", "X", &a.beta2, "AdamW beta2").range(0, 1);
  t.option("adam-eps", "X", &a.adam_eps, "AdamW epsilon").at_least(0);
  t.option("weight-decay", "X", &a.weight_decay, "AdamW decoupled weight decay").at_least(0);
  t.option("label-smoothing", "X", &a.label_smoothing, "label smoothing").range(0, 1);
  t.option("dropout", "X", &a.dropout, "dropout on embeddings and sublayer outputs").range(0, 1);
  t.option("clip-norm", "X", &a.clip_norm, "clip the gradient's global norm to X (0: off)").at_least(0);
  t.option("max-steps", "N", &a.max_steps, "stop after N steps in all (0: no limit)");
  t.option("max-time", "SECONDS", &a.max_time, "stop this run after SECONDS (0: no limit)").at_least(0);
  t.option("max-epochs", "N", &a.max_epochs, "stop after N epochs (0: no limit)");
  t.option("valid-every", "N", &a.valid_every, "steps between validations and checkpoints").at_least(1);
  t.option("log-every", "N", &a.log_every, "steps between training-log records").at_least(1);
  t.option("patience", "N", &a.patience, "stop after N validations without improvement (0: never)").at_least(0);
  t.choice("stop-metric", "M", &a.stop_metric, {"chrf", "bleu", "loss"},
           "validation metric for the best model and early stopping");
  t.option("keep-checkpoints", "N", &a.keep_checkpoints, "keep the weights of the last N validation points as "
           "MODEL.step-S, for pc-nmt average (0: none)").range(0, 1000);
  t.flag("resume", &a.resume, "continue from MODEL.ckpt, bit for bit, with the same options and data");
  t.option("log", "FILE", &a.log, "JSONL training log", "MODEL.log.jsonl");
  t.option("plot", "FILE", &a.plot, "SVG plot of the loss and score curves", "MODEL.svg");
  decoding_options(t, a);
}

void translate_options(cli::App& t, Args& a) {
  t.group("Model");
  t.option("m,model", "FILE", &a.model, "model file (.safetensors) to translate with");
  t.group("Input");
  t.option("column", "NAME", &a.column, "translate this column of a TSV bitext (src_text, ...) and write each row "
           "with its translation added (default: text in, a line out per line)");
  t.option("out-column", "NAME", &a.out_column, "with --column: the name of the added column");
  decoding_options(t, a);
  t.group("Search");
  t.option("beam", "K", &a.beam, "beam size (1: greedy decoding)").range(1, 1024);
  t.option("n-best", "N", &a.n_best, "write N best rows SENTENCE TAB TEXT TAB SCORE (0: a line each)").range(0, 1024);
  t.choice("length-penalty", "LP", &a.length_penalty, {"none", "gnmt", "marian"},
           "beam ranking: log P / ((5+len)/6)^alpha (gnmt), / len^alpha (marian), log P (none)");
  t.option("alpha", "X", &a.alpha, "length penalty exponent").range(0, 10);
  t.flag("free-placeholders", &a.free_placeholders, "with a --protect-placeholders model, let it write placeholders "
         "freely (default: each of the source's exactly as often as there)");
  t.choice("decode", "MODE", &a.decode, {"greedy", "jacobi", "gs-jacobi", "hybrid"},
           "greedy's output by parallel passes: jacobi (a sliding block), gs-jacobi (fixed blocks), hybrid");
  t.option("block", "B", &a.block, "positions a parallel pass runs").range(1, 16);
  t.choice("draft", "SRC", &a.draft, {"pad", "copy", "ngram", "train-ngram", "ibm1", "heads"},
           "guesses for new positions of a parallel pass");
  t.option("draft-heads", "FILE", &a.draft_heads, "draft heads of this model (pc-nmt train-heads) for --draft heads");
  t.option("ibm1", "FILE", &a.ibm1, "IBM1 model of the pair (pc-ibm1 train) for --draft ibm1, or one more candidate");
  t.option("ngram-pool", "FILE", &a.ngram_pool, "target sentences, a line each (the training targets), whose "
           "bigrams give --draft train-ngram its guesses, or more candidates");
  t.option("candidates", "K", &a.candidates, "chains of guesses a parallel pass verifies at once, "
           "1 + K * (B - 1) <= 16 rows").range(1, 15);
  t.option("stats", "FILE", &a.stats, "per-sentence TSV: passes, tokens, tokens per pass, ms; medians in the summary");
  t.option("ddg", "FILE", &a.ddg, "SVG of the decoding dependency graph (pass x position) of the first 20 sentences");
}

void train_heads_options(cli::App& t, Args& a) {
  t.group("Model");
  t.option("m,model", "FILE", &a.model, "model file (.safetensors) the heads draft for");
  t.group("Input");
  t.option("column", "NAME", &a.column, "read this column of a TSV bitext (src_text, ...) instead of a sentence a line");
  t.option("sentences", "N", &a.sentences, "source sentences with tokens to translate and learn from (the first N)")
      .at_least(1);
  decoding_options(t, a);
  t.group("Heads");
  t.option("guesses", "K", &a.guesses, "heads: tokens guessed past the next one (a pass runs 1 + K rows)").range(1, 15);
  t.option("head-dim", "N", &a.head_dim, "hidden units of each head's layer (0: the model's dim)").range(0, 65536);
  t.option("shortlist", "N", &a.shortlist, "the heads choose among the N pieces the model writes most").range(1, 1 << 20);
  t.option("epochs", "N", &a.head_epochs, "passes over the positions").range(1, 1000);
}

}  // namespace
