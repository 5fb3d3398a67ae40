#include "mt/decode/translate_stream.h"

#include <string_view>
#include <vector>

#include "libcorpus/core/error.h"
#include "libcorpus/core/utf8.h"
#include "mt/model/tokenizers.h"

namespace mt {

namespace {

const Vocabs& with_spm(const Vocabs& v, const std::string& path) {
  if (v.joint.empty() && (v.src.empty() || v.trg.empty()))
    throw corpus::Error("the model has no SentencePiece model inside").at(path);
  return v;
}

}  // namespace

TranslationModel::TranslationModel(const std::string& path)
    : file(path),
      src(side_tokenizer(with_spm(file.vocabs(), path), true, path)),
      trg(side_tokenizer(file.vocabs(), false, path)) {}

TranslateCounts translate_stream(const TranslationModel& model, corpus::LineReader& in, corpus::Output& out,
                                 const TranslateOptions& opt, const std::function<void(uint64_t)>& progress) {
  const Config& cfg = model.file.config();
  const size_t chunk_size = static_cast<size_t>(opt.batches_per_chunk) * static_cast<size_t>(opt.decode.batch_size);
  std::vector<std::vector<int32_t>> chunk;
  TranslateCounts n;
  auto flush = [&] {
    for (const auto& h : greedy_translate(cfg, model.file.params(), chunk, opt.decode)) {
      out.write(model.trg.decode(h));
      out.put('\n');
    }
    chunk.clear();
    if (progress) progress(n.sentences);
  };
  std::string_view line;
  while (in.next(line)) {
    std::string bad = corpus::check_text(line);
    if (!bad.empty()) throw corpus::Error(bad).at(in.name(), in.line_number());
    bool cut = false;  // greedy_translate keeps max_len - 1 tokens: the rest of a huge line is not encoded
    chunk.push_back(model.src.encode_prefix(line, static_cast<size_t>(cfg.max_len), cut));
    ++n.sentences;
    if (chunk.size() >= chunk_size) flush();
  }
  flush();
  return n;
}

}  // namespace mt
