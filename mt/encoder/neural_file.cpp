#include "mt/encoder/neural_file.h"

#include <fmt/format.h>

#include <cmath>
#include <cstring>

#include "libcorpus/core/error.h"
#include "libcorpus/core/utf8.h"
#include "mt/model/tokenizers.h"
#include "mt/tensor/tensor.h"

namespace mt {

namespace {
std::vector<uint64_t> dims(const std::vector<int64_t>& shape) { return {shape.begin(), shape.end()}; }
}  // namespace

void save_neural(const std::string& path, const NeuralWrite& w) {
  corpus::safetensors::Writer f;
  f.metadata("format", align::kEncoderFormat);
  f.metadata("version", kNeuralVersion);
  f.metadata("config", w.config->to_json().dump());
  for (const auto& [k, v] : w.metadata) f.metadata(k, v);
  for (const auto& t : w.layout->tensors())
    f.add<float>(t.name, {w.params + t.offset, static_cast<size_t>(t.size)}, dims(t.shape));
  for (const auto& [name, v] : w.extra) f.add<float>(name, *v);
  f.add_bytes("tokenizer", w.spm);
  f.write(path);
}

NeuralFile::NeuralFile(const std::string& path) : file_(std::make_shared<corpus::safetensors::File>(path)) {
  file_->expect(align::kEncoderFormat, kNeuralVersion, "pc-embed train --kind neural");
  load(file_->meta("config"));
}

NeuralFile::NeuralFile(std::shared_ptr<const corpus::safetensors::File> f, const std::string& prefix,
                       const std::string& config)
    : file_(std::move(f)), prefix_(prefix) {
  load(config);
}

void NeuralFile::load(const std::string& config) {
  const auto& f = *file_;
  const std::string& path = f.path();
  const auto j = nlohmann::json::parse(config, nullptr, false);
  const std::string kind =
      j.is_object() && j.contains("kind") && j["kind"].is_string() ? j["kind"].get<std::string>() : "(none)";
  if (kind != kNeuralKind)
    throw corpus::Error("the encoder" + (prefix_.empty() ? "" : " part " + corpus::quote(prefix_)) + " is of kind " +
                            corpus::quote(kind) + ", not \"neural\"",
                        "give an encoder made by pc-embed train --kind neural")
        .at(path);
  try {
    cfg_ = NeuralConfig::from_json(j);
  } catch (corpus::Error& e) {
    throw e.at(path);
  }
  DualOffsets off;
  layout_ = make_dual_layout(cfg_, off);
  // Shapes first (the embedding bounds vocab and dim), so nothing is sized
  // by a number the file's own tensors do not back.
  for (const auto& t : layout_.tensors())
    f.info_shaped(prefix_ + t.name, corpus::safetensors::Dtype::kF32, dims(t.shape));
  params_.resize(layout_.total());
  for (const auto& t : layout_.tensors())
    std::memcpy(params_.data() + t.offset, f.get_shaped<float>(prefix_ + t.name, dims(t.shape)).data(),
                t.size * sizeof(float));
  if (!f.has(prefix_ + "tokenizer"))
    throw corpus::Error("the encoder has no " + corpus::quote(prefix_ + "tokenizer") + " tensor").at(path);
}

std::string_view NeuralFile::spm() const { return file_->bytes(prefix_ + "tokenizer"); }

const float* NeuralFile::extra(const std::string& name, int64_t n) const {
  return file_->get_shaped<float>(prefix_ + name, {static_cast<uint64_t>(n)}).data();
}

NeuralEncoder::NeuralEncoder(const std::string& path) : NeuralEncoder(NeuralFile(path)) {}

NeuralEncoder::NeuralEncoder(NeuralFile file)
    : file_(std::move(file)), tok_(load_tokenizer(file_.spm(), file_.file().path(), "tokenizer")) {
  const std::string& path = file_.file().path();
  if (tok_.vocab_size() > file_.config().vocab)
    throw corpus::Error(fmt::format("the tokenizer has {} pieces, the embedding table {} rows", tok_.vocab_size(),
                                    file_.config().vocab))
        .at(path);
  // encode() runs on several threads at once; OpenBLAS's own threads would
  // only spin against them on these small products.
  use_single_threaded_blas();
}

std::vector<int32_t> neural_pieces(const Tokenizer& tok, std::string_view text, int max_len) {
  bool cut = false;
  const size_t keep = static_cast<size_t>(max_len - 1);
  std::vector<int32_t> ids = tok.encode_prefix(text, keep, cut);
  if (ids.size() > keep) ids.resize(keep);
  return ids;
}

void neural_embed(const NeuralConfig& cfg, const float* params, const std::vector<const std::vector<int32_t>*>& seqs,
                  float* out) {
  // One sentence per pass. A pass of several would have to keep each row's
  // bits: OpenBLAS's rows change with the row count and the row's place
  // (measured on Haswell sgemm: 53 of 63 rows of a 64-row product keep
  // their bits when shifted by one row), so only passes of at most kFewRows
  // positions of one length qualify, and those measured 2.5% slower in CPU
  // time than sentences alone (5,000 catalogue strings, d = 256): the
  // weights-streamed kernel costs the same per row at 4 rows as at 16.
  // mt's AVX-512 kernel for products over kFewRows rows (gemm_avx512) keeps
  // a row's bits across row counts and places (0 of 72 shapes and shifts
  // differed), so on CPUs that run it, passes of more than kFewRows rows
  // could keep the bits: the next thing to try, with this path kept where
  // OpenBLAS runs instead.
  DualModel<float> model(cfg);
  const int C = cfg.dim;
  for (size_t i = 0; i < seqs.size(); ++i) {
    float* o = out + i * C;
    if (seqs[i]->empty()) {
      std::fill(o, o + C, 0.0f);
      continue;
    }
    model.forward(params, {seqs[i]}, o);
    double norm = 0;
    for (int c = 0; c < C; ++c) norm += double(o[c]) * o[c];
    norm = std::sqrt(norm);
    if (norm > 0)
      for (int c = 0; c < C; ++c) o[c] = static_cast<float>(o[c] / norm);
  }
}

void NeuralEncoder::encode(std::span<const std::string_view> sentences, Side, std::span<float> out) const {
  const size_t C = dim();
  if (out.size() != sentences.size() * C)
    throw corpus::Error(
        fmt::format("encode: {} floats for {} sentences of dimension {}", out.size(), sentences.size(), C));
  std::vector<std::vector<int32_t>> ids(sentences.size());
  std::vector<const std::vector<int32_t>*> seqs;
  for (size_t i = 0; i < sentences.size(); ++i) {
    if (size_t bad = corpus::find_invalid_utf8(sentences[i]); bad != std::string_view::npos)
      throw corpus::Error(fmt::format("invalid UTF-8 at byte {} of the sentence", bad + 1),
                          "convert the text to UTF-8 first");
    ids[i] = neural_pieces(tok_, sentences[i], file_.config().max_len);
    seqs.push_back(&ids[i]);
  }
  neural_embed(file_.config(), file_.params().data(), seqs, out.data());
}

std::string NeuralEncoder::describe() const {
  const NeuralConfig& c = file_.config();
  return fmt::format("neural d={} layers={} heads={} ffn={} vocab={} max_len={}, mean pooling", c.dim, c.layers,
                     c.heads, c.ffn_dim, c.vocab, c.max_len);
}

std::unique_ptr<align::SentenceEncoder> load_neural_encoder(const std::string& path) {
  return std::make_unique<NeuralEncoder>(path);
}

}  // namespace mt
