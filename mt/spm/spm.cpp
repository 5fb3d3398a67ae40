#include "mt/spm/spm.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <sentencepiece_processor.h>
#include <sentencepiece_trainer.h>

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <numeric>

#include "libcorpus/core/error.h"
#include "libcorpus/core/utf8.h"
#include "libcorpus/core/hash_mix.h"
#include "mt/spm/spm_proto_check.h"

namespace mt {

namespace {

class VectorIterator : public sentencepiece::SentenceIterator {
 public:
  VectorIterator(const std::vector<std::string>& s, const std::vector<size_t>& order) : s_(s), order_(order) {}
  bool done() const override { return i_ >= order_.size(); }
  void Next() override { ++i_; }
  const std::string& value() const override { return s_[order_[i_]]; }
  sentencepiece::util::Status status() const override { return {}; }

 private:
  const std::vector<std::string>& s_;
  const std::vector<size_t>& order_;
  size_t i_ = 0;
};

}  // namespace

std::string train_spm(const std::vector<std::string>& sentences, const SpmTrainOptions& opt) {
  if (sentences.empty()) throw corpus::Error("no sentences to train SentencePiece on");
  // A seeded sample: order by hash, keep the first max_sentences.
  std::vector<size_t> order(sentences.size());
  std::iota(order.begin(), order.end(), 0);
  if (order.size() > opt.max_sentences) {
    std::vector<uint64_t> key(order.size());
    for (size_t i = 0; i < key.size(); ++i) key[i] = corpus::mix64(opt.seed * 0x9e3779b97f4a7c15ULL + i);
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return key[a] < key[b]; });
    order.resize(opt.max_sentences);
    std::sort(order.begin(), order.end());
  }
  sentencepiece::SetRandomGeneratorSeed(static_cast<unsigned>(opt.seed));
  const std::string args = fmt::format(
      "--model_type={} --vocab_size={} --character_coverage={} --pad_id=0 --unk_id=1 --bos_id=2 --eos_id=3 "
      "--hard_vocab_limit=false --num_threads=1 --input_sentence_size=0 --shuffle_input_sentence=false "
      "--max_sentence_length=8192 --minloglevel=2{}",
      opt.model_type, opt.vocab_size, opt.character_coverage,
      opt.user_symbols.empty() ? "" : " --user_defined_symbols=" + fmt::format("{}", fmt::join(opt.user_symbols, ",")));
  VectorIterator it(sentences, order);
  std::string model;
  // SentencePiece logs "Running command: ..." to stderr before it reads
  // --minloglevel; a library must not print, so stderr is parked meanwhile.
  std::fflush(stderr);
  const int saved = ::dup(2);
  const int null = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
  if (saved >= 0 && null >= 0) ::dup2(null, 2);
  auto st = sentencepiece::SentencePieceTrainer::Train(args, &it, &model);
  if (saved >= 0 && null >= 0) ::dup2(saved, 2);
  if (saved >= 0) ::close(saved);
  if (null >= 0) ::close(null);
  if (!st.ok()) throw corpus::Error("SentencePiece training failed: " + std::string(st.message()));
  return model;
}

Tokenizer::Tokenizer(std::string_view serialized) : sp_(std::make_unique<sentencepiece::SentencePieceProcessor>()) {
  auto refuse = [](std::string why) {
    while (!why.empty() && why.back() == ' ') why.pop_back();
    throw corpus::Error("not a valid SentencePiece model (" + why + ")");
  };
  // What libsentencepiece does not check itself (spm_proto_check.h).
  if (std::string why = spm_proto_problem(serialized); !why.empty()) refuse(why);
  sentencepiece::util::Status st;
  try {
    st = sp_->LoadFromSerializedProto(serialized);
  } catch (const std::exception& e) {  // its trie (Darts) and allocations throw past its Status
    refuse(e.what());
  }
  if (!st.ok()) refuse(std::string(st.message()));
  for (int id = 0; id < sp_->GetPieceSize(); ++id)
    if (!sp_->IsControl(id) && !sp_->IsUnknown(id) && !sp_->IsUnused(id) && !sp_->IsByte(id))
      max_piece_bytes_ = std::max(max_piece_bytes_, sp_->IdToPiece(id).size());
}

Tokenizer::~Tokenizer() = default;

std::vector<int32_t> Tokenizer::encode(std::string_view text) const {
  std::vector<int> ids;
  sp_->Encode(text, &ids).IgnoreError();
  return {ids.begin(), ids.end()};
}

std::vector<int32_t> Tokenizer::encode_prefix(std::string_view text, size_t max_tokens, bool& cut) const {
  const size_t limit = max_text_bytes(max_tokens);
  cut = text.size() > limit;
  if (!cut) return encode(text);
  return encode(text.substr(0, corpus::utf8_cut_at_or_before(text, limit)));
}

std::string Tokenizer::decode(const std::vector<int32_t>& ids) const {
  std::vector<int> v(ids.begin(), ids.end());
  std::string out;
  sp_->Decode(v, &out).IgnoreError();
  return out;
}

int Tokenizer::vocab_size() const { return sp_->GetPieceSize(); }
std::string Tokenizer::piece(int id) const { return sp_->IdToPiece(id); }
int Tokenizer::piece_id(std::string_view piece) const {
  const int id = sp_->PieceToId(piece);
  return id == sp_->unk_id() && piece != sp_->IdToPiece(id) ? -1 : id;
}
float Tokenizer::score(int id) const { return sp_->GetScore(id); }

}  // namespace mt
