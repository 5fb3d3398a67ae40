#include "mt/model/marian_import.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <set>
#include <unordered_map>

#include "libcorpus/core/error.h"
#include "libcorpus/core/json_write.h"
#include "libcorpus/core/npz.h"
#include "mt/model/marian_yaml.h"
#include "mt/model/transformer.h"
#include "mt/spm/spm.h"

namespace mt {

namespace {

const char* kConfigMember = "special:model.yml";

std::string read_whole(const std::string& path, const char* what) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw corpus::Error(fmt::format("cannot open the {}", what)).at(path);
  std::string s((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  if (f.bad()) throw corpus::Error("read error").at(path);
  return s;
}

Tokenizer tokenizer(const std::string& bytes, const std::string& path) {
  try {
    return Tokenizer(bytes);
  } catch (const corpus::Error& e) {
    throw corpus::Error(e.what(), "give the source.spm / target.spm of the Marian model folder").at(path);
  }
}

// The Marian options this import reads, checked against what it can express.
struct Options {
  int dim = 0, heads = 0, ffn = 0, enc = 0, dec = 0;
  Activation act = Activation::kSwish;
  bool tied_all = false, tied_src = false, tied_trg = false, omit_bias = false;
};

Options check_options(const std::map<std::string, std::string>& y, const std::string& file) {
  auto unsupported = [&](const std::string& key, const std::string& value, const std::string& want) {
    throw corpus::Error(
        fmt::format("the Marian option {}: {} is not supported ({})", key, value.empty() ? "\"\"" : value, want),
        "import-marian reads OPUS-MT-style post-norm transformers")
        .at(file);
  };
  auto get = [&](const std::string& key, const std::string& dflt) {
    auto it = y.find(key);
    return it == y.end() ? dflt : it->second;
  };
  auto is = [&](const std::string& key, std::initializer_list<const char*> ok, const std::string& dflt,
                const std::string& want) {
    const std::string v = get(key, dflt);
    for (const char* o : ok)
      if (v == o) return v;
    unsupported(key, v, want);
    return std::string();
  };
  auto flag = [&](const std::string& key) {
    const std::string v = get(key, "false");
    if (v != "true" && v != "false") unsupported(key, v, "true or false");
    return v == "true";
  };
  auto number = [&](const std::string& key, int lo, int hi) {
    auto it = y.find(key);
    if (it == y.end()) throw corpus::Error(fmt::format("the Marian config has no {}", key)).at(file);
    const std::string& v = it->second;
    if (v.empty() || v.size() > 9 || v.find_first_not_of("0123456789") != std::string::npos || std::stoi(v) < lo ||
        std::stoi(v) > hi)
      throw corpus::Error(fmt::format("the Marian option {}: {} is not a number from {} to {}", key, v, lo, hi))
          .at(file);
    return std::stoi(v);
  };
  is("type", {"transformer"}, "", "only type: transformer");
  is("transformer-postprocess", {"dan"}, "dan", "only dan: post-norm");
  is("transformer-preprocess", {""}, "", "only \"\": no pre-norm");
  is("transformer-postprocess-emb", {"d", ""}, "d", "only d: no norm on embeddings");
  is("transformer-postprocess-top", {""}, "", "only \"\"");
  is("transformer-ffn-depth", {"2"}, "2", "only 2");
  is("transformer-decoder-ffn-depth", {"0", "2"}, "0", "only 0 or 2");
  is("transformer-decoder-autoreg", {"self-attention"}, "self-attention", "only self-attention");
  is("transformer-tied-layers", {""}, "", "only []");
  is("lemma-dim-emb", {"0"}, "0", "no factors");
  for (const char* k : {"transformer-train-position-embeddings", "right-left", "transformer-no-projection",
                        "transformer-pool", "transformer-rnn-projection"})
    if (flag(k)) unsupported(k, "true", "only false");
  Options o;
  const std::string act = is("transformer-ffn-activation", {"swish", "relu"}, "swish", "swish or relu");
  o.act = act == "relu" ? Activation::kRelu : Activation::kSwish;
  o.dim = number("dim-emb", 2, kMaxDim);
  o.heads = number("transformer-heads", 1, kMaxDim);
  o.ffn = number("transformer-dim-ffn", 1, kMaxFfnDim);
  o.enc = number("enc-depth", 1, kMaxLayers);
  o.dec = number("dec-depth", 1, kMaxLayers);
  o.tied_all = flag("tied-embeddings-all");
  o.tied_src = flag("tied-embeddings-src");
  o.tied_trg = flag("tied-embeddings");
  o.omit_bias = flag("output-omit-bias");
  if (o.dim % 2 || o.dim % o.heads)
    throw corpus::Error(fmt::format("dim-emb {} is odd or not a multiple of transformer-heads {}", o.dim, o.heads))
        .at(file);
  return o;
}

class Tensors {
 public:
  Tensors(corpus::npz::Archive a, std::string file) : a_(std::move(a)), file_(std::move(file)) {}
  bool has(const std::string& n) const { return a_.count(n) > 0; }
  // The values of a [rows, cols] tensor (a vector may be [cols] or [1, cols]).
  std::vector<float> get(const std::string& n, int64_t rows, int64_t cols) {
    auto it = a_.find(n);
    if (it == a_.end())
      throw corpus::Error(fmt::format("tensor '{}' is missing", n), "the .npz is not a whole Marian transformer")
          .at(file_);
    const auto& sh = it->second.shape;
    const bool ok =
        rows == 1 ? (sh.size() == 1 && sh[0] == static_cast<uint64_t>(cols)) ||
                        (sh.size() == 2 && sh[0] == 1 && sh[1] == static_cast<uint64_t>(cols))
                  : sh.size() == 2 && sh[0] == static_cast<uint64_t>(rows) && sh[1] == static_cast<uint64_t>(cols);
    if (!ok) {
      std::string s;
      for (uint64_t d : sh) s += (s.empty() ? "" : ", ") + std::to_string(d);
      throw corpus::Error(fmt::format("tensor '{}' has shape ({}), expected ({}, {})", n, s, rows, cols)).at(file_);
    }
    used_.insert(n);
    return corpus::npz::floats(it->second, file_, n);
  }
  // Every tensor must have been read: one this import does not know means a
  // network it would get wrong.
  void check_all_used() const {
    for (const auto& [n, a] : a_)
      if (n != kConfigMember && !used_.count(n))
        throw corpus::Error(fmt::format("tensor '{}' belongs to no part of the transformer this import knows", n),
                            "the model has layers or options import-marian cannot express")
            .at(file_);
  }
  const corpus::npz::Array* find(const std::string& n) const {
    auto it = a_.find(n);
    return it == a_.end() ? nullptr : &it->second;
  }

 private:
  corpus::npz::Archive a_;
  std::string file_;
  std::set<std::string> used_;
};

// Marian keeps W [in, out] for x W; paracorp's [out, in] for x W^T.
void put_transposed(const std::vector<float>& w, int64_t in, int64_t out, float* dst) {
  for (int64_t i = 0; i < in; ++i)
    for (int64_t o = 0; o < out; ++o) dst[o * in + i] = w[static_cast<size_t>(i * out + o)];
}

void put(const std::vector<float>& v, float* dst) { std::copy(v.begin(), v.end(), dst); }

void attention(Tensors& t, const std::string& p, const AttnOffsets& a, const NormOffsets& ln, int64_t C, float* P) {
  const std::pair<const char*, std::pair<int64_t, int64_t>> parts[] = {
      {"q", {a.wq, a.bq}}, {"k", {a.wk, a.bk}}, {"v", {a.wv, a.bv}}, {"o", {a.wo, a.bo}}};
  for (const auto& [m, off] : parts) {
    put_transposed(t.get(p + "_W" + m, C, C), C, C, P + off.first);
    put(t.get(p + "_b" + m, 1, C), P + off.second);
  }
  put(t.get(p + "_Wo_ln_scale", 1, C), P + ln.g);
  put(t.get(p + "_Wo_ln_bias", 1, C), P + ln.b);
}

void ffn(Tensors& t, const std::string& p, const FfnOffsets& f, const NormOffsets& ln, int64_t C, int64_t F, float* P) {
  put_transposed(t.get(p + "_W1", C, F), C, F, P + f.w1);
  put(t.get(p + "_b1", 1, F), P + f.b1);
  put_transposed(t.get(p + "_W2", F, C), F, C, P + f.w2);
  put(t.get(p + "_b2", 1, C), P + f.b2);
  put(t.get(p + "_ffn_ln_scale", 1, C), P + ln.g);
  put(t.get(p + "_ffn_ln_bias", 1, C), P + ln.b);
}

int find_piece(const Tokenizer& tok, const std::string& piece) {
  for (int i = 0; i < tok.vocab_size(); ++i)
    if (tok.piece(i) == piece) return i;
  return -1;
}

}  // namespace

MarianModel convert_marian(const MarianSources& src) {
  Tensors t(corpus::npz::read(src.npz), src.npz);
  const corpus::npz::Array* yml = t.find(kConfigMember);
  if (!yml)
    throw corpus::Error(fmt::format("no {} inside: not a Marian model file", kConfigMember),
                        "Marian stores its config in the .npz; give the model.npz of an OPUS-MT folder")
        .at(src.npz);
  if (yml->item_size() != 1 || yml->shape.size() != 1)
    throw corpus::Error(fmt::format("{} is not a 1-D array of bytes", kConfigMember)).at(src.npz);
  std::string text = yml->data;
  while (!text.empty() && text.back() == '\0') text.pop_back();
  const std::string yml_name = src.npz + ": " + kConfigMember;
  const Options o = check_options(marian::parse_config(text, yml_name), yml_name);

  MarianModel m;
  m.vocabs.src = read_whole(src.src_spm, "source SentencePiece model");
  m.vocabs.trg = read_whole(src.trg_spm, "target SentencePiece model");
  const Tokenizer stok = tokenizer(m.vocabs.src, src.src_spm), ttok = tokenizer(m.vocabs.trg, src.trg_spm);
  const auto entries = marian::parse_vocab(read_whole(src.vocab, "Marian vocabulary"), src.vocab);
  std::unordered_map<std::string, int64_t> marian_id;
  for (const auto& [p, id] : entries) marian_id.emplace(p, id);
  for (const char* special : {"</s>", "<unk>"})
    if (!marian_id.count(special))
      throw corpus::Error(fmt::format("the vocabulary has no {}", special), "give the Marian model's vocab.yml")
          .at(src.vocab);

  // Embedding matrices: one for all (tied-embeddings-all, -src), else one per side.
  const bool one_emb = o.tied_all || o.tied_src;
  const std::string src_name = one_emb ? "Wemb" : "encoder_Wemb", trg_name = one_emb ? "Wemb" : "decoder_Wemb";
  const corpus::npz::Array* we = t.find(src_name);
  if (!we || we->shape.size() != 2)
    throw corpus::Error(fmt::format("tensor '{}' is missing or not 2-D", src_name),
                        "the .npz is not a whole Marian transformer")
        .at(src.npz);
  const int64_t V = static_cast<int64_t>(we->shape[0]), C = o.dim, F = o.ffn;
  if (V < 2 || V > kMaxVocab) throw corpus::Error(fmt::format("tensor '{}' has {} rows", src_name, V)).at(src.npz);
  for (const auto& [p, id] : entries)
    if (id >= V)
      throw corpus::Error(fmt::format("the vocabulary gives {} the id {}, outside the model's {} embedding rows",
                                      corpus::quote(p), id, V),
                          "give the vocabulary the model was trained with")
          .at(src.vocab);
  const std::vector<float> Es = t.get(src_name, V, C);
  const std::vector<float> Et = one_emb ? Es : t.get(trg_name, V, C);

  Config& c = m.config;
  c.src_vocab = stok.vocab_size();
  c.trg_vocab = ttok.vocab_size();
  c.shared_embeddings = false;
  c.tied_output = o.tied_all || o.tied_trg;
  c.dim = o.dim, c.heads = o.heads, c.ffn_dim = o.ffn, c.enc_layers = o.enc, c.dec_layers = o.dec;
  c.activation = o.act;
  c.pre_norm = false;
  c.ln_eps = 1e-6;
  c.positions = Positions::kMarian;
  c.max_len = 1024;
  c.preset = "marian";
  c.unk_id = find_piece(ttok, "<unk>");
  c.bos_id = find_piece(ttok, "<s>");
  c.eos_id = find_piece(ttok, "</s>");
  const int pad = find_piece(ttok, "<pad>");
  c.pad_id = pad >= 0 ? pad : c.eos_id;
  if (c.unk_id < 0 || c.bos_id < 0 || c.eos_id < 0 || find_piece(stok, "<unk>") != c.unk_id ||
      find_piece(stok, "</s>") != c.eos_id)
    throw corpus::Error("the SentencePiece models need <unk>, <s> and </s> at the same ids on both sides",
                        "give the source.spm and target.spm of the Marian model folder")
        .at(src.trg_spm);
  c.validate();

  m.layout = make_layout(c, m.offsets);
  m.params.assign(static_cast<size_t>(m.layout.total()), 0.0f);
  float* P = m.params.data();
  const ModelOffsets& off = m.offsets;
  const int64_t unk = marian_id.at("<unk>");
  MarianReport& r = m.report;
  r.marian_vocab = static_cast<int64_t>(entries.size());
  r.activation = activation_name(o.act);
  r.tied_output = c.tied_output;
  auto row_of = [&](const Tokenizer& tok, int i, int64_t& unmapped) {
    auto it = marian_id.find(tok.piece(i));
    if (it != marian_id.end()) return it->second;
    if (i != c.bos_id) ++unmapped;
    return unk;
  };
  std::vector<int64_t> trg_rows(static_cast<size_t>(c.trg_vocab));
  for (int i = 0; i < c.src_vocab; ++i)
    std::copy_n(Es.begin() + row_of(stok, i, r.src_unmapped) * C, C, P + off.src_emb + i * C);
  for (int i = 0; i < c.trg_vocab; ++i) {
    trg_rows[static_cast<size_t>(i)] = row_of(ttok, i, r.trg_unmapped);
    if (i != c.bos_id) std::copy_n(Et.begin() + trg_rows[static_cast<size_t>(i)] * C, C, P + off.trg_emb + i * C);
  }
  std::set<std::string> trg_pieces;
  for (int i = 0; i < c.trg_vocab; ++i) trg_pieces.insert(ttok.piece(i));
  for (const auto& [p, id] : entries) r.marian_only += trg_pieces.count(p) ? 0 : 1;

  if (!c.tied_output) {
    const std::vector<float> W = t.get("decoder_ff_logit_out_W", C, V);
    for (int i = 0; i < c.trg_vocab; ++i)
      for (int64_t k = 0; k < C; ++k) P[off.out_w + i * C + k] = W[static_cast<size_t>(k * V + trg_rows[i])];
  }
  const std::vector<float> b =
      o.omit_bias ? std::vector<float>(static_cast<size_t>(V), 0.0f) : t.get("decoder_ff_logit_out_b", 1, V);
  for (int i = 0; i < c.trg_vocab; ++i) {
    const bool never = !marian_id.count(ttok.piece(i)) || i == c.unk_id || i == c.bos_id || i == pad;
    P[off.out_b + i] = never ? kSuppressed : b[static_cast<size_t>(trg_rows[static_cast<size_t>(i)])];
  }

  for (int l = 0; l < c.enc_layers; ++l) {
    const std::string p = fmt::format("encoder_l{}", l + 1);
    attention(t, p + "_self", off.enc[l].self, off.enc[l].self_ln, C, P);
    ffn(t, p + "_ffn", off.enc[l].ffn, off.enc[l].ffn_ln, C, F, P);
  }
  for (int l = 0; l < c.dec_layers; ++l) {
    const std::string p = fmt::format("decoder_l{}", l + 1);
    attention(t, p + "_self", off.dec[l].self, off.dec[l].self_ln, C, P);
    attention(t, p + "_context", off.dec[l].cross, off.dec[l].cross_ln, C, P);
    ffn(t, p + "_ffn", off.dec[l].ffn, off.dec[l].ffn_ln, C, F, P);
  }
  t.check_all_used();
  return m;
}

MarianSources marian_sources(const std::vector<std::string>& args) {
  namespace fs = std::filesystem;
  if (args.size() == 4) return {args[0], args[2], args[3], args[1]};
  if (args.size() != 1)
    throw corpus::ConfigError("import-marian takes FOLDER, MODEL.npz, or MODEL.npz VOCAB.yml SOURCE.spm TARGET.spm");
  std::error_code ec;
  const bool folder = fs::is_directory(args[0], ec);
  const fs::path dir = folder                                    ? fs::path(args[0])
                       : fs::path(args[0]).parent_path().empty() ? fs::path(".")
                                                                 : fs::path(args[0]).parent_path();
  // The one file of the folder whose name ends in `tail`.
  auto one = [&](const std::string& tail, const char* what) {
    std::vector<std::string> found;
    for (const auto& e : fs::directory_iterator(dir, ec)) {
      const std::string n = e.path().filename().string();
      if (n.size() >= tail.size() && n.compare(n.size() - tail.size(), tail.size(), tail) == 0)
        found.push_back(e.path().string());
    }
    if (found.size() == 1) return found[0];
    std::sort(found.begin(), found.end());
    std::string list;
    for (const auto& f : found) list += (list.empty() ? "" : ", ") + fs::path(f).filename().string();
    throw corpus::Error(found.empty() ? fmt::format("no {} ({}) in the folder", what, tail)
                                      : fmt::format("{} files end in {}: {}", found.size(), tail, list),
                        "name the files: import-marian MODEL.npz VOCAB.yml SOURCE.spm TARGET.spm")
        .at(dir.string());
  };
  auto named = [&](const char* name) {
    const fs::path p = dir / name;
    if (!fs::exists(p, ec))
      throw corpus::Error(fmt::format("no {} in the folder", name),
                          "name the files: import-marian MODEL.npz VOCAB.yml SOURCE.spm TARGET.spm")
          .at(dir.string());
    return p.string();
  };
  const std::string vocab =
      fs::exists(dir / "vocab.yml", ec) ? (dir / "vocab.yml").string() : one(".vocab.yml", "vocabulary");
  return {folder ? one(".npz", "model") : args[0], named("source.spm"), named("target.spm"), vocab};
}

std::string describe(const MarianReport& r) {
  return fmt::format(
      "Marian vocabulary of {} entries; {} source and {} target pieces it lacks, {} entries the target "
      "SentencePiece lacks; {} feed-forward, {} output",
      r.marian_vocab, r.src_unmapped, r.trg_unmapped, r.marian_only, r.activation, r.tied_output ? "tied" : "untied");
}

MarianReport import_marian(const MarianSources& src, const std::string& out,
                           const std::map<std::string, std::string>& provenance) {
  const MarianModel m = convert_marian(src);
  ModelWrite w;
  w.config = &m.config;
  w.layout = &m.layout;
  w.params = m.params.data();
  w.vocabs = &m.vocabs;
  nlohmann::ordered_json prov(provenance);
  w.metadata["provenance"] = corpus::json_text(prov);
  w.metadata["imported_from"] = "marian";
  save_model(out, w);
  return m.report;
}

}  // namespace mt
