#include "mt/encoder/neural_file.h"

#include <fmt/format.h>

#include <algorithm>
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

namespace {

// Whether every product of a pass of more than kFewRows positions runs on
// mt's AVX-512 kernel (tensor.h: m > kFewRows, n >= 32, k >= 16), which keeps
// a row's bits whatever the row count and the row's place (0 of 72 shapes
// and shifts differed). OpenBLAS, the other path, does not (69 of 72).
bool rows_keep_bits(const NeuralConfig& cfg) {
  return gemm_backend() == GemmBackend::kAvx512 && cfg.dim >= 32 && cfg.ffn_dim >= 32;
}

void normalise_into(const float* v, float* o, int C) {
  double norm = 0;
  for (int c = 0; c < C; ++c) norm += double(v[c]) * v[c];
  norm = std::sqrt(norm);
  for (int c = 0; c < C; ++c) o[c] = norm > 0 ? static_cast<float>(v[c] / norm) : 0.0f;
}

}  // namespace

void neural_embed(const NeuralConfig& cfg, const float* params, const std::vector<const std::vector<int32_t>*>& seqs,
                  float* out) {
  DualModel<float> model(cfg);
  const int C = cfg.dim;
  std::vector<float> pooled(C);
  if (!rows_keep_bits(cfg)) {
    // One sentence per pass: OpenBLAS's rows change with the row count and
    // place (53 of 63 rows of a 64-row product when shifted by one row), and
    // passes of at most kFewRows positions measured 2.5% slower in CPU time
    // than sentences alone (the weights-streamed kernel costs the same per
    // row at 4 rows as at 16).
    for (size_t i = 0; i < seqs.size(); ++i) {
      float* o = out + i * C;
      if (seqs[i]->empty()) {
        std::fill(o, o + C, 0.0f);
        continue;
      }
      model.forward(params, {seqs[i]}, pooled.data());
      normalise_into(pooled.data(), o, C);
    }
    return;
  }
  // Passes of sentences of one length (no padding, so attention sees what it
  // sees alone), more than kFewRows positions each (a short pass is filled
  // with copies of its last sentence) and at most kPassRows, so every
  // product runs on the AVX-512 kernel: a vector has the same bits alone and
  // in any call.
  constexpr size_t kPassRows = 512;
  std::vector<uint32_t> order;
  for (size_t i = 0; i < seqs.size(); ++i)
    if (seqs[i]->empty()) std::fill(out + i * C, out + (i + 1) * C, 0.0f);
    else order.push_back(static_cast<uint32_t>(i));
  std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return seqs[a]->size() < seqs[b]->size(); });
  std::vector<const std::vector<int32_t>*> pass;
  for (size_t i = 0; i < order.size();) {
    const size_t positions = seqs[order[i]]->size() + 1;  // pieces and EOS
    const size_t most = std::max<size_t>(1, kPassRows / positions);
    const size_t first = i;
    pass.clear();
    for (; i < order.size() && pass.size() < most && seqs[order[i]]->size() + 1 == positions; ++i)
      pass.push_back(seqs[order[i]]);
    const size_t real = pass.size();
    while (pass.size() * positions <= static_cast<size_t>(kFewRows)) pass.push_back(pass.back());
    pooled.resize(pass.size() * C);
    model.forward(params, pass, pooled.data());
    for (size_t r = 0; r < real; ++r) normalise_into(pooled.data() + r * C, out + static_cast<size_t>(order[first + r]) * C, C);
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
