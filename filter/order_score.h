// pc-clean's order score: does the target keep a plausible word order? IBM1
// q_max and the lexical encoder are bags of words and cannot see a target
// whose words were shuffled. These signals can:
//  - the target-side bigram model's fluency gain of the order given over the
//    mean of all orders of the same words (order_lm.h), per word, smoothed
//    towards `prior` so that a short side (little to judge) is not rejected;
//    less source_weight times the same for the source under a source-side
//    model: a command synopsis or a table header ("read [-ers] [-a
//    tableau]", "Destination Passerelle Genmask Indic") is no prose on either
//    side, and its target's low gain says nothing about the translation;
//  - the words copied unchanged (once on each side: options, names,
//    placeholders, "[-ers]", "Iface"): Kendall's (concordant - discordant)
//    / (pairs + 1) of their positions. Copies keep their order in such
//    strings, where the models know least; a shuffle breaks it;
//  - with a pc-ibm1 model, the share of steps between consecutive linked
//    target words whose source words are neighbours too (|i' - i| <= 1, in
//    either direction, so that English noun compounds turned round in
//    French keep theirs). A share of non-crossing link pairs (Kendall) was
//    tried first and rejected: short catalogue strings are turned round as
//    often as not ("Invalid archive signature" / "Signature d'archive non
//    valable"), and it caught 1-13% of shuffled targets on the valid split.
// F(side)     = (gain + prior_words * prior) / (words + 1 + prior_words)
// order_score = F(target) - source_weight * F(source)
//             + copy_weight * (concordant - discordant) / (concordant + discordant + 1)
//             + link_weight * ((near + link_prior) / (steps + 1) - link_prior)
// the last term only with a pc-ibm1 model. A shuffled target scores about
// 0 on F and below 0 on the other terms; clean pairs score higher.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include "align/ibm1_model.h"
#include "filter/order_lm.h"

namespace filter {

struct LinkSteps {
  uint32_t near = 0;   // steps to a neighbouring (or the same) source word
  uint32_t steps = 0;  // steps between consecutive linked target words
};

struct CopyPairs {
  uint32_t concordant = 0, discordant = 0;
};
// Over the words (split at spaces, the first OrderLm::kMaxWords of each
// side) that occur exactly once on each side.
CopyPairs copy_pairs(std::string_view src, std::string_view trg);

// Links by fwd Viterbi (each target word to its most likely source word,
// NULL excluded). `src` and `trg` hold known word ids only (unknown words
// removed, order kept).
LinkSteps link_steps(const align::Ibm1Model& m, std::span<const uint32_t> src, std::span<const uint32_t> trg);

struct OrderOptions {
  double prior = 1.5;        // the per-word gain a side with few words is taken to have
  double prior_words = 4;    // the prior's weight, in words
  double link_weight = 0.5;  // the link term's weight (0: leave it out)
  double link_prior = 0.75;  // the near share a pair with few links is taken to have
  double source_weight = 0.25;  // the source term's weight
  double copy_weight = 0.25;    // the copied words' term's weight
};

// F(side) above.
double order_fluency(const OrderGain& g, const OrderOptions& o = {});

// `links` null: no IBM1 model, the link term is left out; `src` null: no
// source model, the source term is left out.
double order_score(const OrderGain& trg, const OrderGain* src, const CopyPairs& copies, const LinkSteps* links,
                   const OrderOptions& o = {});

}  // namespace filter
