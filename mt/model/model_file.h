// An NMT model as one .safetensors file (DESIGN.md §4):
//   __metadata__: format "paracorp.nmt", version "1", config (JSON),
//                 plus whatever the writer adds (training state, provenance)
//   tensors:      the weights in layout order (F32, contiguous, so loading
//                 points into the mapped file without a copy), then the
//                 SentencePiece model(s) as U8: "spm.joint", or "spm.src" and
//                 "spm.trg"; a checkpoint adds "adam.m" and "adam.v".
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "libcorpus/core/safetensors.h"
#include "mt/model/config.h"
#include "mt/model/params.h"
#include "mt/model/transformer.h"

namespace mt {

inline constexpr const char* kNmtFormat = "paracorp.nmt";
inline constexpr const char* kNmtVersion = "1";

// Serialised SentencePiece models: `joint`, or `src` and `trg`. All may be
// empty (engine tests without a tokenizer).
struct Vocabs {
  std::string joint, src, trg;
};

struct ModelWrite {
  const Config* config = nullptr;
  const ParamLayout* layout = nullptr;
  const float* params = nullptr;
  const Vocabs* vocabs = nullptr;
  std::map<std::string, std::string> metadata;                    // added to __metadata__
  std::vector<std::pair<std::string, const std::vector<float>*>> extra;  // more F32 tensors (1-D)
};

// Writes atomically (temporary name, then rename).
void save_model(const std::string& path, const ModelWrite& w);

class ModelFile {
 public:
  // Maps the file and checks its kind and version: a file of another format
  // (an IBM1 model, an encoder) or version is an Error saying what it is.
  explicit ModelFile(const std::string& path);

  const Config& config() const { return cfg_; }
  const ParamLayout& layout() const { return layout_; }
  const ModelOffsets& offsets() const { return off_; }
  const float* params() const { return params_; }
  bool mapped() const { return copy_.empty(); }  // weights read in place from the mapping
  const corpus::safetensors::File& file() const { return *file_; }
  // The SentencePiece models inside (tensors spm.joint, spm.src, spm.trg); "" for those absent.
  Vocabs vocabs() const;
  // F32 tensor of `n` values (checkpoint moments); throws when absent.
  const float* extra(const std::string& name, int64_t n) const;

 private:
  std::unique_ptr<corpus::safetensors::File> file_;
  Config cfg_;
  ParamLayout layout_;
  ModelOffsets off_;
  const float* params_ = nullptr;
  std::vector<float> copy_;
};

// The metadata "trained_steps" as a number; -1 when absent or not a plain
// non-negative integer (metadata is the writer's word, not checked on load).
int64_t trained_steps(const ModelFile& f);

}  // namespace mt
