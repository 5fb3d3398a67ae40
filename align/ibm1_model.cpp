#include "align/ibm1_model.h"

#include <algorithm>

#include "align/ibm1_config.h"
#include "libcorpus/core/error.h"
#include "libcorpus/core/safetensors.h"

namespace align {

namespace st = corpus::safetensors;

uint32_t VocabView::find(std::string_view w) const {
  uint32_t lo = 1, hi = size();
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (word(mid) < w) lo = mid + 1;
    else hi = mid;
  }
  return lo < size() && !w.empty() && word(lo) == w ? lo : UINT32_MAX;
}

float TTable::prob(uint32_t row, uint32_t col) const {
  if (row >= rows()) return 0;
  auto c = cols(row);
  auto it = std::lower_bound(c.begin(), c.end(), col);
  return it != c.end() && *it == col ? values[indptr[row] + static_cast<uint64_t>(it - c.begin())] : 0.0f;
}

void pack_vocab(const std::vector<std::string>& words, const std::vector<uint64_t>& counts,
                std::vector<uint64_t>& offsets, std::vector<uint8_t>& bytes, std::vector<uint64_t>& counts_out) {
  offsets.assign(1, 0);
  bytes.clear();
  for (const auto& w : words) {
    bytes.insert(bytes.end(), w.begin(), w.end());
    offsets.push_back(bytes.size());
  }
  counts_out = counts;
}

Ibm1Model Ibm1Model::from_storage(std::shared_ptr<Storage> s, nlohmann::ordered_json config) {
  Ibm1Model m;
  m.src = {s->src_offsets, s->src_bytes, s->src_counts};
  m.trg = {s->trg_offsets, s->trg_bytes, s->trg_counts};
  m.fwd = {s->fwd_indptr, s->fwd_indices, s->fwd_values};
  m.rev = {s->rev_indptr, s->rev_indices, s->rev_values};
  m.config = std::move(config);
  m.storage_ = std::move(s);
  return m;
}

void Ibm1Model::save(const std::string& path) const {
  st::Writer w;
  w.metadata("format", kFormat);
  w.metadata("version", kVersion);
  w.metadata("config", config.dump());
  w.add("src.vocab.offsets", src.offsets);
  w.add("src.vocab.bytes", src.bytes);
  w.add("src.vocab.counts", src.counts);
  w.add("trg.vocab.offsets", trg.offsets);
  w.add("trg.vocab.bytes", trg.bytes);
  w.add("trg.vocab.counts", trg.counts);
  w.add("fwd.indptr", fwd.indptr);
  w.add("fwd.indices", fwd.indices);
  w.add("fwd.values", fwd.values);
  w.add("rev.indptr", rev.indptr);
  w.add("rev.indices", rev.indices);
  w.add("rev.values", rev.values);
  w.write(path);
}

namespace {

[[noreturn]] void corrupt_ibm1(const std::string& path, const std::string& what) {
  throw corpus::Error("inconsistent IBM1 model: " + what, "the file is damaged; train the model again").at(path);
}

void check_vocab(const std::string& path, const std::string& name, const VocabView& v) {
  if (v.offsets.size() != v.counts.size() + 1 || v.counts.empty()) corrupt_ibm1(path, name + " vocabulary sizes disagree");
  if (v.offsets[0] != 0 || v.offsets[1] != 0 || v.offsets.back() != v.bytes.size())
    corrupt_ibm1(path, name + " vocabulary offsets are out of range");
  for (size_t i = 1; i < v.offsets.size(); ++i)
    if (v.offsets[i] < v.offsets[i - 1]) corrupt_ibm1(path, name + " vocabulary offsets decrease");
  for (uint32_t i = 2; i < v.size(); ++i)
    if (!(v.word(i - 1) < v.word(i))) corrupt_ibm1(path, name + " vocabulary is not sorted");
}

void check_table(const std::string& path, const std::string& name, const TTable& t, uint32_t rows, uint32_t cols) {
  if (t.indptr.size() != static_cast<size_t>(rows) + 1) corrupt_ibm1(path, name + " has the wrong number of rows");
  if (t.indices.size() != t.values.size() || t.indptr[0] != 0 || t.indptr.back() != t.indices.size())
    corrupt_ibm1(path, name + " sizes disagree");
  for (uint32_t r = 0; r < rows; ++r) {
    if (t.indptr[r + 1] < t.indptr[r]) corrupt_ibm1(path, name + " row pointers decrease");
    auto c = t.cols(r);
    for (size_t k = 0; k < c.size(); ++k)
      if (c[k] >= cols || c[k] == 0 || (k && c[k] <= c[k - 1]))
        corrupt_ibm1(path, name + " row " + std::to_string(r) + " has bad column ids");
  }
}

}  // namespace

Ibm1Model Ibm1Model::load(const std::string& path) {
  auto f = std::make_shared<st::File>(path);
  f->expect(kFormat, kVersion, "pc-ibm1 train");
  Ibm1Model m;
  m.config = nlohmann::ordered_json::parse(f->meta("config"), nullptr, false);
  if (m.config.is_discarded() || !m.config.is_object()) corrupt_ibm1(path, "the config metadata is not a JSON object");
  m.path_ = path;
  check_ibm1_config(m.config, path);  // a damaged config is refused here, not when a setting is first read
  m.src = {f->get<uint64_t>("src.vocab.offsets", 1), f->get<uint8_t>("src.vocab.bytes", 1),
           f->get<uint64_t>("src.vocab.counts", 1)};
  m.trg = {f->get<uint64_t>("trg.vocab.offsets", 1), f->get<uint8_t>("trg.vocab.bytes", 1),
           f->get<uint64_t>("trg.vocab.counts", 1)};
  m.fwd = {f->get<uint64_t>("fwd.indptr", 1), f->get<uint32_t>("fwd.indices", 1), f->get<float>("fwd.values", 1)};
  m.rev = {f->get<uint64_t>("rev.indptr", 1), f->get<uint32_t>("rev.indices", 1), f->get<float>("rev.values", 1)};
  check_vocab(path, "source", m.src);
  check_vocab(path, "target", m.trg);
  check_table(path, "fwd table", m.fwd, m.src.size(), m.trg.size());
  check_table(path, "rev table", m.rev, m.trg.size(), m.src.size());
  m.file_ = std::move(f);
  return m;
}

TokenizerOptions Ibm1Model::tokenizer() const {
  if (!config.is_object()) return {};  // a model built in memory without a config
  return check_ibm1_config(config, path_);
}

}  // namespace align
