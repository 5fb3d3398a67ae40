#include "align/lexical_encoder.h"

#include <fmt/format.h>

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <unordered_map>

#include "align/lexical_tables.h"
#include "libcorpus/core/error.h"
#include "libcorpus/core/hash_mix.h"
#include "libcorpus/core/safetensors.h"
#include "libcorpus/core/utf8.h"

namespace align {

namespace st = corpus::safetensors;

uint32_t LexicalLang::find(std::string_view w) const {
  uint32_t lo = 1, hi = size();
  while (lo < hi) {
    const uint32_t mid = lo + (hi - lo) / 2;
    if (word(mid) < w) lo = mid + 1;
    else hi = mid;
  }
  return lo < size() && !w.empty() && word(lo) == w ? lo : UINT32_MAX;
}

void l2_normalise(std::span<float> v) {
  double s = 0;
  for (float x : v) s += static_cast<double>(x) * x;
  if (s <= 0) return;
  const float inv = static_cast<float>(1.0 / std::sqrt(s));
  for (float& x : v) x *= inv;
}

void fold_post(LexicalEncoder::Tables& t) {
  using RowMat = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  const Eigen::Index L = t.lsa_dim;
  for (LexicalLang* l : {&t.src, &t.trg}) {
    const Eigen::Index v = static_cast<Eigen::Index>(L ? l->proj.size() / static_cast<size_t>(L) : 0);
    l->proj_post.assign(static_cast<size_t>(v * L), 0.0f);
    l->mean_post.assign(static_cast<size_t>(L), 0.0f);
    if (L == 0) continue;
    const Eigen::Map<const RowMat> post(l->post.data(), L, L);
    Eigen::Map<RowMat>(l->proj_post.data(), v, L) = Eigen::Map<const RowMat>(l->proj.data(), v, L) * post;
    Eigen::Map<RowMat>(l->mean_post.data(), 1, L) = Eigen::Map<const RowMat>(l->mean.data(), 1, L) * post;
  }
}

namespace {

struct Split {
  std::vector<uint32_t> ids;
  double idf = 0;
  bool better_than(const Split& o) const { return o.ids.empty() || ids.size() < o.ids.size() || (ids.size() == o.ids.size() && idf < o.idf); }
};

// The best split of w[pos..) into at most `left` known parts.
Split best_split(const LexicalLang& l, std::string_view w, size_t pos, int left, int min_cp) {
  static constexpr std::string_view kLinks[] = {"", "s", "es", "n", "en", "e"};
  Split best;
  int cps = 0;
  for (size_t j = pos; j < w.size();) {
    do ++j;  // to the next code point (the text is valid UTF-8)
    while (j < w.size() && (static_cast<unsigned char>(w[j]) & 0xC0) == 0x80);
    if (++cps < min_cp) continue;
    const uint32_t id = l.find(w.substr(pos, j - pos));
    if (id == UINT32_MAX) continue;
    const double idf = l.idf[id];
    if (j == w.size()) {
      Split s{{id}, idf};
      if (s.better_than(best)) best = std::move(s);
      continue;
    }
    if (left < 2) continue;
    for (std::string_view link : kLinks) {
      if (w.substr(j, link.size()) != link || j + link.size() >= w.size()) continue;
      Split rest = best_split(l, w, j + link.size(), left - 1, min_cp);
      if (rest.ids.empty()) continue;
      rest.ids.insert(rest.ids.begin(), id);
      rest.idf += idf;
      if (rest.better_than(best)) best = std::move(rest);
    }
  }
  return best;
}

}  // namespace

std::vector<uint32_t> split_unseen(const LexicalLang& l, std::string_view w, int min_cp) {
  constexpr size_t kMaxCodePoints = 64;  // longer tokens (hashes, runs of one letter) are no compounds
  if (min_cp <= 0) return {};
  const size_t cps = corpus::utf8_code_points(w);
  if (cps > kMaxCodePoints) return {};
  if (cps >= static_cast<size_t>(2 * min_cp)) {
    Split s = best_split(l, w, 0, 3, min_cp);
    if (s.ids.size() >= 2) return s.ids;
  }
  // An inflected form: the word less its last one or two code points.
  size_t end = w.size();
  for (size_t k = 1; k <= 2 && cps > k && cps - k > static_cast<size_t>(min_cp); ++k) {
    end = corpus::utf8_cut_at_or_before(w, end - 1);  // one code point off
    const uint32_t id = l.find(w.substr(0, end));
    if (id != UINT32_MAX) return {id};
  }
  return {};
}

SparseBag own_bag(std::vector<uint32_t> ids, const std::vector<float>& idf) {
  std::sort(ids.begin(), ids.end());
  SparseBag bag;
  double norm = 0;
  for (size_t i = 0; i < ids.size();) {
    size_t j = i;
    while (j < ids.size() && ids[j] == ids[i]) ++j;
    if (ids[i] != UINT32_MAX) {
      const float w = static_cast<float>((1.0 + std::log(static_cast<double>(j - i))) * idf[ids[i]]);
      bag.emplace_back(ids[i], w);
      norm += static_cast<double>(w) * w;
    }
    i = j;
  }
  if (norm > 0)
    for (auto& e : bag) e.second = static_cast<float>(e.second / std::sqrt(norm));
  return bag;
}

SparseBag translated_bag(const SparseBag& own, const LexicalCsr& table) {
  SparseBag out;
  for (const auto& [id, w] : own)
    for (uint64_t k = table.indptr[id]; k < table.indptr[id + 1]; ++k) out.emplace_back(table.indices[k], w * table.values[k]);
  // Sorted by id, then merged in that fixed order: the sums do not depend on anything but the sentence.
  std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  SparseBag merged;
  double norm = 0;
  for (const auto& e : out) {
    if (!merged.empty() && merged.back().first == e.first) merged.back().second += e.second;
    else merged.push_back(e);
  }
  for (const auto& e : merged) norm += static_cast<double>(e.second) * e.second;
  if (norm > 0)
    for (auto& e : merged) e.second = static_cast<float>(e.second / std::sqrt(norm));
  return merged;
}

namespace {

// Signed feature hashing: the bucket and sign of a key.
inline void hashed_add(std::span<float> block, uint64_t key, float w) {
  const uint64_t h = corpus::mix64(key);
  block[h % block.size()] += (h >> 63) ? -w : w;
}

uint64_t bytes_hash(std::string_view s, uint64_t seed) {
  uint64_t h = corpus::mix64(seed ^ s.size());
  for (unsigned char c : s) h = corpus::mix64(h ^ c);
  return h;
}

// Character 3- to 5-grams of "<word>", byte-wise (a cut inside a multi-byte
// character only makes a rarer feature; it is the same in every sentence).
void add_char_ngrams(std::span<float> block, std::string_view word, uint64_t seed) {
  // Appended into a reserved string: "<" + std::string(word) takes the
  // insert path, which GCC 12 warns about falsely (-Wrestrict) at -O2.
  std::string w;
  w.reserve(word.size() + 2);
  w.append(1, '<').append(word).append(1, '>');
  for (size_t n = 3; n <= 5; ++n)
    for (size_t i = 0; i + n <= w.size(); ++i) hashed_add(block, bytes_hash(std::string_view(w).substr(i, n), seed), 1.0f);
}

void put_bag(std::span<float> half, const SparseBag& bag, uint64_t space_seed) {
  for (const auto& [id, w] : bag) hashed_add(half, space_seed ^ corpus::mix64(id), w);
}

constexpr uint64_t kSrcSpace = 0x5352430000000000ULL, kTrgSpace = 0x5452470000000000ULL, kCharSpace = 0x43484152ULL;

[[noreturn]] void corrupt_encoder(const std::string& path, const std::string& what) {
  throw corpus::Error("inconsistent lexical encoder: " + what, "the file is damaged; train the model again").at(path);
}

template <typename T>
std::vector<T> copy_of(const st::File& f, const std::string& name, std::vector<uint64_t> shape = {}) {
  std::span<const T> s = shape.empty() ? f.get<T>(name, 1) : f.get_shaped<T>(name, shape);
  return std::vector<T>(s.begin(), s.end());
}

void load_lang(const st::File& f, const std::string& p, LexicalLang& l, int d) {
  l.offsets = copy_of<uint64_t>(f, p + ".vocab.offsets");
  l.bytes = copy_of<uint8_t>(f, p + ".vocab.bytes");
  l.idf = copy_of<float>(f, p + ".vocab.idf");
  const uint64_t v = l.idf.size();
  if (l.offsets.size() != v + 1 || v == 0 || l.offsets[0] != 0 || l.offsets[1] != 0 || l.offsets.back() != l.bytes.size())
    corrupt_encoder(f.path(), p + " vocabulary sizes disagree");
  for (size_t i = 1; i < l.offsets.size(); ++i)
    if (l.offsets[i] < l.offsets[i - 1]) corrupt_encoder(f.path(), p + " vocabulary offsets decrease");
  for (uint32_t i = 2; i < l.size(); ++i)
    if (!(l.word(i - 1) < l.word(i))) corrupt_encoder(f.path(), p + " vocabulary is not sorted");
  if (d > 0) {
    const uint64_t ud = static_cast<uint64_t>(d);
    l.lsa_row = copy_of<uint32_t>(f, p + ".lsa.rows", {v});
    const auto& pi = f.info(p + ".lsa.proj", st::Dtype::kF32, 2);
    if (pi.shape[1] != ud) corrupt_encoder(f.path(), p + ".lsa.proj has the wrong width");
    for (uint32_t r : l.lsa_row)
      if (r != UINT32_MAX && r >= pi.shape[0]) corrupt_encoder(f.path(), p + ".lsa.rows points past .lsa.proj");
    l.proj = copy_of<float>(f, p + ".lsa.proj", {pi.shape[0], ud});
    l.mean = copy_of<float>(f, p + ".lsa.mean", {ud});
    l.post = copy_of<float>(f, p + ".lsa.post", {ud, ud});
  }
}

void load_csr(const st::File& f, const std::string& p, LexicalCsr& t, uint32_t rows, uint32_t cols) {
  t.indptr = copy_of<uint64_t>(f, p + ".indptr");
  t.indices = copy_of<uint32_t>(f, p + ".indices");
  t.values = copy_of<float>(f, p + ".values");
  if (t.indptr.size() != static_cast<size_t>(rows) + 1 || t.indptr[0] != 0 || t.indptr.back() != t.indices.size() ||
      t.indices.size() != t.values.size())
    corrupt_encoder(f.path(), p + " sizes disagree");
  for (uint32_t r = 0; r < rows; ++r)
    if (t.indptr[r + 1] < t.indptr[r]) corrupt_encoder(f.path(), p + " rows decrease");
  for (uint32_t c : t.indices)
    if (c >= cols) corrupt_encoder(f.path(), p + " has a word id out of range");
}

int config_int(const nlohmann::ordered_json& c, const char* key, int lo, int hi, const std::string& path) {
  if (!c.contains(key) || !c[key].is_number_integer() || c[key].get<int64_t>() < lo || c[key].get<int64_t>() > hi)
    corrupt_encoder(path, fmt::format("config \"{}\" is missing or outside {}..{}", key, lo, hi));
  return c[key].get<int>();
}

float config_float(const nlohmann::ordered_json& c, const char* key, const std::string& path) {
  if (!c.contains(key) || !c[key].is_number() || !std::isfinite(c[key].get<double>()) || c[key].get<double>() < 0)
    corrupt_encoder(path, fmt::format("config \"{}\" is missing or not a weight >= 0", key));
  return c[key].get<float>();
}

}  // namespace

LexicalEncoder::LexicalEncoder(std::shared_ptr<Tables> t) : t_(std::move(t)) {}
LexicalEncoder::~LexicalEncoder() = default;

std::size_t LexicalEncoder::dim() const {
  return static_cast<size_t>(2 * t_->buckets + t_->lsa_dim + t_->char_buckets + t_->length_dims());
}

size_t length_code_points(std::string_view s) {
  return std::max<size_t>(corpus::utf8_code_points(s), 1);
}

std::string LexicalEncoder::describe() const {
  return fmt::format("lexical d={} (bags 2x{} w={}, lsa {} w={}, chars {} w={} of {} words, length {} w={}; vocab {}/{})",
                     dim(), t_->buckets, t_->bags_weight, t_->lsa_dim, t_->lsa_weight, t_->char_buckets,
                     t_->char_weight, t_->char_all ? "all" : "unseen", t_->length_dims(), t_->length_weight,
                     t_->src.size() - 1, t_->trg.size() - 1);
}

void LexicalEncoder::encode(std::span<const std::string_view> sentences, Side side, std::span<float> out) const {
  const Tables& t = *t_;
  const size_t d = dim();
  if (out.size() != sentences.size() * d) throw corpus::Error("encode: the output does not hold one row per sentence");
  const bool is_src = side == Side::kSource;
  const LexicalLang& own = is_src ? t.src : t.trg;
  const LexicalLang& other = is_src ? t.trg : t.src;
  const LexicalCsr& table = is_src ? t.fwd : t.rev;
  const size_t B = static_cast<size_t>(t.buckets), L = static_cast<size_t>(t.lsa_dim);
  Tokenizer tok(t.tokenizer);  // one per call: encode() runs on several threads at once
  std::vector<std::string> words;
  std::vector<uint32_t> ids;
  std::unordered_map<std::string, std::vector<uint32_t>> splits;  // unseen words of this call, split once
  std::vector<double> z(L);
  for (size_t s = 0; s < sentences.size(); ++s) {
    std::span<float> row = out.subspan(s * d, d);
    std::fill(row.begin(), row.end(), 0.0f);
    const size_t bad = corpus::find_invalid_utf8(sentences[s]);
    if (bad != std::string_view::npos)
      throw corpus::Error(fmt::format("invalid UTF-8 at byte {} of sentence {} of the batch", bad, s),
                          "fix the input encoding (iconv) or filter the line");
    words.clear();
    tok.tokenize(sentences[s], words);
    if (words.empty()) continue;  // the empty sentence: the zero vector
    ids.clear();
    for (const auto& w : words) ids.push_back(own.find(w));
    std::vector<uint32_t> bag_ids = ids;  // an unseen compound counts as its parts
    if (t.split_min > 0)
      for (size_t i = 0; i < words.size(); ++i)
        if (ids[i] == UINT32_MAX) {
          auto it = splits.find(words[i]);
          if (it == splits.end()) it = splits.emplace(words[i], split_unseen(own, words[i], t.split_min)).first;
          bag_ids.insert(bag_ids.end(), it->second.begin(), it->second.end());
        }
    const SparseBag bag = own_bag(std::move(bag_ids), own.idf);
    std::span<float> bags = row.subspan(0, 2 * B);
    if (B > 0 && !bag.empty()) {
      const SparseBag tr = translated_bag(bag, table);
      std::span<float> src_half = bags.subspan(0, B), trg_half = bags.subspan(B, B);
      put_bag(is_src ? src_half : trg_half, bag, is_src ? kSrcSpace : kTrgSpace);
      put_bag(is_src ? trg_half : src_half, tr, is_src ? kTrgSpace : kSrcSpace);
      l2_normalise(src_half);
      l2_normalise(trg_half);
      l2_normalise(bags);
      for (float& x : bags) x *= t.bags_weight;
    }
    if (L > 0) {
      for (size_t k = 0; k < L; ++k) z[k] = -static_cast<double>(own.mean_post[k]);
      bool placed = false;  // a sentence with no word of the LSA vocabulary has no LSA vector, not -mean
      for (const auto& [id, w] : bag) {
        if (own.lsa_row[id] == UINT32_MAX) continue;
        placed = true;
        const float* p = own.proj_post.data() + static_cast<size_t>(own.lsa_row[id]) * L;
        for (size_t k = 0; k < L; ++k) z[k] += static_cast<double>(w) * p[k];
      }
      if (placed) {
        std::span<float> lsa = row.subspan(2 * B, L);
        for (size_t k = 0; k < L; ++k) lsa[k] = static_cast<float>(z[k]);
        l2_normalise(lsa);
        for (float& x : lsa) x *= t.lsa_weight;
      }
    }
    if (t.char_buckets > 0) {
      std::span<float> chars = row.subspan(2 * B + L, static_cast<size_t>(t.char_buckets));
      for (size_t i = 0; i < words.size(); ++i)
        if (t.char_all || ids[i] == UINT32_MAX || other.find(words[i]) != UINT32_MAX) add_char_ngrams(chars, words[i], t.seed ^ kCharSpace);
      l2_normalise(chars);
      for (float& x : chars) x *= t.char_weight;
    }
    // The length block goes only beside some evidence: a sentence whose words
    // no block can place stays the zero vector, like the empty one, rather
    // than a vector of its length alone that would be near every sentence of
    // that length.
    if (t.length_dims() > 0 && std::any_of(row.begin(), row.end(), [](float x) { return x != 0.0f; })) {
      const double theta = static_cast<double>(t.length_scale) *
                           (std::log(static_cast<double>(length_code_points(sentences[s]))) -
                            (is_src ? 0.0 : static_cast<double>(t.length_offset)));
      row[d - 2] = t.length_weight * static_cast<float>(std::cos(theta));
      row[d - 1] = t.length_weight * static_cast<float>(std::sin(theta));
    }
    l2_normalise(row);
  }
}

void LexicalEncoder::save(const std::string& path) const {
  const Tables& t = *t_;
  st::Writer w;
  w.metadata("format", kEncoderFormat);
  w.metadata("version", kVersion);
  w.metadata("config", config_.dump());
  const uint64_t L = static_cast<uint64_t>(t.lsa_dim);
  for (const auto& [p, l] : {std::pair<std::string, const LexicalLang*>{"src", &t.src}, {"trg", &t.trg}}) {
    w.add<uint64_t>(p + ".vocab.offsets", l->offsets);
    w.add<uint8_t>(p + ".vocab.bytes", l->bytes);
    w.add<float>(p + ".vocab.idf", l->idf);
    if (L > 0) {
      w.add<uint32_t>(p + ".lsa.rows", l->lsa_row);
      w.add<float>(p + ".lsa.proj", l->proj, {l->proj.size() / L, L});
      w.add<float>(p + ".lsa.mean", l->mean);
      w.add<float>(p + ".lsa.post", l->post, {L, L});
    }
  }
  for (const auto& [p, c] : {std::pair<std::string, const LexicalCsr*>{"fwd", &t.fwd}, {"rev", &t.rev}}) {
    w.add<uint64_t>(p + ".indptr", c->indptr);
    w.add<uint32_t>(p + ".indices", c->indices);
    w.add<float>(p + ".values", c->values);
  }
  w.write(path);
}

std::unique_ptr<LexicalEncoder> LexicalEncoder::load(const std::string& path) {
  const std::string kind = encoder_kind(path);
  if (kind != kKind)
    throw corpus::Error("a \"" + kind + "\" sentence encoder, not a lexical one", "give a model made by pc-embed train --kind lexical")
        .at(path);
  const st::File f(path);
  f.expect(kEncoderFormat, kVersion, "pc-embed train");
  return load_part(f, "", f.meta("config"));
}

std::unique_ptr<LexicalEncoder> LexicalEncoder::load_part(const st::File& f, const std::string& prefix,
                                                          const std::string& config) {
  const std::string& path = f.path();
  auto c = nlohmann::ordered_json::parse(config, nullptr, false);
  if (!c.is_object() || !c.contains("kind") || c["kind"] != kKind) corrupt_encoder(path, prefix + "config is not a lexical one");
  auto t = std::make_shared<Tables>();
  t->buckets = config_int(c, "buckets", 0, 1 << 20, path);
  t->lsa_dim = config_int(c, "lsa_dim", 0, 1 << 14, path);
  t->char_buckets = config_int(c, "char_buckets", 0, 1 << 20, path);
  if (t->buckets + t->lsa_dim + t->char_buckets == 0) corrupt_encoder(path, "every block has size 0");
  t->bags_weight = config_float(c, "bags_weight", path);
  t->lsa_weight = config_float(c, "lsa_weight", path);
  t->char_weight = config_float(c, "char_weight", path);
  if (c.contains("length_weight")) {  // models saved before the length block have none
    t->length_weight = config_float(c, "length_weight", path);
    t->length_scale = config_float(c, "length_scale", path);
    if (!c.contains("length_offset") || !c["length_offset"].is_number() ||
        !std::isfinite(c["length_offset"].get<double>()))
      corrupt_encoder(path, "config \"length_offset\" is missing or not a number");
    t->length_offset = c["length_offset"].get<float>();
  }
  if (c.contains("split_min")) t->split_min = config_int(c, "split_min", 0, 64, path);  // absent in older models
  if (!c.contains("seed") || !c["seed"].is_number_unsigned()) corrupt_encoder(path, "config \"seed\" is missing");
  t->seed = c["seed"].get<uint64_t>();
  if (!c.contains("char_words") || !c["char_words"].is_string() ||
      (c["char_words"] != "all" && c["char_words"] != "unseen"))
    corrupt_encoder(path, "config \"char_words\" is not all or unseen");
  t->char_all = c["char_words"] == "all";
  if (!c.contains("tokenize") || !c["tokenize"].is_string() || !c.contains("lowercase") || !c["lowercase"].is_boolean())
    corrupt_encoder(path, "config \"tokenize\" or \"lowercase\" is missing");
  try {
    t->tokenizer = {parse_token_mode(c["tokenize"].get<std::string>()), c["lowercase"].get<bool>()};
  } catch (const corpus::Error&) {
    corrupt_encoder(path, "config \"tokenize\" is not icu or whitespace");
  }
  load_lang(f, prefix + "src", t->src, t->lsa_dim);
  load_lang(f, prefix + "trg", t->trg, t->lsa_dim);
  load_csr(f, prefix + "fwd", t->fwd, t->src.size(), t->trg.size());
  load_csr(f, prefix + "rev", t->rev, t->trg.size(), t->src.size());
  fold_post(*t);
  auto e = std::make_unique<LexicalEncoder>(std::move(t));
  e->config_ = std::move(c);
  return e;
}

}  // namespace align
