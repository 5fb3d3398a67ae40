// pc-nmt import-marian: an OPUS-MT/Marian transformer (.npz with its YAML
// config as special:model.yml, the SentencePiece models of both sides and
// Marian's vocabulary) as a paracorp model that decodes as Marian does.
//
// What Marian does and the model reproduces:
//  - ids: paracorp keeps SentencePiece ids (its tokenizers are the .spm
//    files), so every embedding and output row is moved from the Marian id of
//    its piece; a piece Marian's vocabulary lacks reads as Marian's <unk> row
//    (Marian maps it to <unk>) and can never be output.
//  - the output never gives <unk> (Marian suppresses it unless --allow-unk);
//    such rows get a bias of kSuppressed.
//  - the first decoder step sees a zero embedding, not a BOS token: the
//    target embedding row of <s>, which paracorp's decoder starts from, is
//    zero (and <s> is suppressed in the output).
//  - sin/cos position halves with Marian's timescales (Config::positions),
//    embeddings times sqrt(dim), post-norm ("dan") with layer-norm epsilon
//    1e-6, ReLU or Swish, tied or untied output.
// Options Marian models may carry that change the network otherwise (s2s or
// other types, pre-norm, trained positions, tied layers, right-to-left,
// other FFN depths or activations) are refused with the option's name.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "mt/model/config.h"
#include "mt/model/model_file.h"
#include "mt/model/params.h"

namespace mt {

inline constexpr float kSuppressed = -1e9f;  // output bias of pieces Marian never outputs

struct MarianSources {
  std::string npz, src_spm, trg_spm, vocab;
};

// What the conversion found, for the summary.
struct MarianReport {
  int64_t marian_vocab = 0;  // entries of vocab.yml
  int64_t src_unmapped = 0;  // source pieces that Marian's vocabulary lacks (read as <unk>)
  int64_t trg_unmapped = 0;  // target pieces that Marian's vocabulary lacks (never output)
  int64_t marian_only = 0;   // Marian entries that the target SentencePiece lacks (paracorp cannot output them)
  std::string activation;
  bool tied_output = true;
};

struct MarianModel {
  Config config;
  ParamLayout layout;
  ModelOffsets offsets;
  std::vector<float> params;
  Vocabs vocabs;
  MarianReport report;
};

// The files from pc-nmt import-marian's arguments: an OPUS-MT folder (its one
// .npz, vocab.yml or its one *.vocab.yml, source.spm, target.spm), a .npz
// with those files beside it, or the four files MODEL.npz VOCAB.yml
// SOURCE.spm TARGET.spm. A corpus::Error names the folder when one is missing
// or ambiguous.
MarianSources marian_sources(const std::vector<std::string>& args);

// One line for the tool's summary: vocabulary sizes, pieces the two
// vocabularies do not share, activation and output.
std::string describe(const MarianReport& r);

// Reads and converts; a corpus::Error naming the file for anything missing,
// damaged or unsupported.
MarianModel convert_marian(const MarianSources& src);

// Converts and writes the model file (atomically); `provenance` goes into
// the file's metadata.
MarianReport import_marian(const MarianSources& src, const std::string& out,
                           const std::map<std::string, std::string>& provenance);

}  // namespace mt
