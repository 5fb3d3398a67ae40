// The lexical sentence encoder (align/lexical_encoder.h).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "align/encoder.h"
#include "align/lexical_encoder.h"
#include "align/lexical_tables.h"
#include "libcorpus/core/error.h"
#include "libcorpus/core/safetensors.h"
#include "support/tmpdir.h"
#include "support/test_data.h"

using namespace align;

namespace {


std::vector<TextPair> sample_pairs(size_t n) {
  std::ifstream f(kSampleEnDe);
  std::string line;
  std::getline(f, line);  // header
  std::vector<TextPair> v;
  while (v.size() < n && std::getline(f, line)) {
    const size_t tab = line.find('\t');
    v.emplace_back(line.substr(0, tab), line.substr(tab + 1));
  }
  return v;
}

LexicalOptions small_options() {
  LexicalOptions o;
  o.buckets = 128;
  o.lsa_dim = 32;
  o.char_buckets = 64;
  return o;
}

std::vector<float> encode_all(const SentenceEncoder& e, const std::vector<std::string>& s, SentenceEncoder::Side side) {
  std::vector<std::string_view> views(s.begin(), s.end());
  std::vector<float> out(views.size() * e.dim());
  e.encode(views, side, out);
  return out;
}

// Share of sources whose nearest target (dot product) is their own translation.
double p_at_1(const std::vector<float>& a, const std::vector<float>& b, size_t n, size_t d) {
  size_t hits = 0;
  for (size_t i = 0; i < n; ++i) {
    size_t best = 0;
    double best_s = -2;
    for (size_t j = 0; j < n; ++j) {
      double s = 0;
      for (size_t k = 0; k < d; ++k) s += static_cast<double>(a[i * d + k]) * b[j * d + k];
      if (s > best_s) {
        best_s = s;
        best = j;
      }
    }
    hits += best == i;
  }
  return static_cast<double>(hits) / static_cast<double>(n);
}

std::string data_error(const std::function<void()>& f) {
  try {
    f();
  } catch (const corpus::Error& e) {
    return e.format("t");
  }
  return "";
}

}  // namespace

TEST_CASE("lexical encoder: unit vectors that find their translations among the training pairs") {
  const auto pairs = sample_pairs(1500);
  LexicalTrainStats st;
  const auto e = LexicalEncoder::train(pairs, small_options(), &st);
  CHECK(st.pairs == 1500);
  CHECK(e->dim() == 2 * 128 + 32 + 64 + 2);  // the blocks, and the length block's 2
  std::vector<std::string> src, trg;
  for (size_t i = 0; i < 300; ++i) {
    src.push_back(pairs[i].first);
    trg.push_back(pairs[i].second);
  }
  const auto a = encode_all(*e, src, SentenceEncoder::Side::kSource);
  const auto b = encode_all(*e, trg, SentenceEncoder::Side::kTarget);
  for (size_t i = 0; i < src.size(); ++i) {
    double n = 0;
    for (size_t k = 0; k < e->dim(); ++k) n += static_cast<double>(a[i * e->dim() + k]) * a[i * e->dim() + k];
    REQUIRE(std::abs(n - 1) < 1e-5);
  }
  const double p = p_at_1(a, b, src.size(), e->dim());
  MESSAGE("P@1 on 300 training pairs: " << p);
  CHECK(p > 0.8);
}

TEST_CASE("lexical encoder: the empty sentence is the zero vector, and invalid UTF-8 is an error") {
  const auto e = LexicalEncoder::train(sample_pairs(300), small_options());
  const auto v = encode_all(*e, {"", "   ", "Datei"}, SentenceEncoder::Side::kSource);
  for (size_t k = 0; k < 2 * e->dim(); ++k) REQUIRE(v[k] == 0.0f);
  double n = 0;
  for (size_t k = 2 * e->dim(); k < 3 * e->dim(); ++k) n += static_cast<double>(v[k]) * v[k];
  CHECK(std::abs(n - 1) < 1e-5);
  const std::string msg = data_error([&] { encode_all(*e, {"ok", "bad \xff byte"}, SentenceEncoder::Side::kSource); });
  CHECK(msg.find("invalid UTF-8 at byte 4 of sentence 1") != std::string::npos);
}

TEST_CASE("lexical encoder: a row does not depend on its batch, and a saved model encodes the same") {
  TmpDir d;
  const auto pairs = sample_pairs(400);
  const auto e = LexicalEncoder::train(pairs, small_options());
  e->save(d.path("m.safetensors"));
  CHECK(encoder_kind(d.path("m.safetensors")) == "lexical");
  const auto l = LexicalEncoder::load(d.path("m.safetensors"));
  CHECK(l->dim() == e->dim());
  CHECK(l->describe() == e->describe());
  std::vector<std::string> s;
  for (size_t i = 0; i < 50; ++i) s.push_back(pairs[i].second + " unseenword" + std::to_string(i));
  const auto all = encode_all(*e, s, SentenceEncoder::Side::kTarget);
  CHECK(encode_all(*l, s, SentenceEncoder::Side::kTarget) == all);
  for (size_t i = 0; i < s.size(); i += 7) {
    const auto one = encode_all(*e, {s[i]}, SentenceEncoder::Side::kTarget);
    REQUIRE(std::equal(one.begin(), one.end(), all.begin() + static_cast<long>(i * e->dim())));
  }
  // Training is deterministic: the same pairs and options give the same file.
  LexicalEncoder::train(pairs, small_options())->save(d.path("m2.safetensors"));
  CHECK(raw_bytes(d.path("m.safetensors")) == raw_bytes(d.path("m2.safetensors")));
}

TEST_CASE("lexical encoder: every post-processing switch trains, and changes the LSA block") {
  const auto pairs = sample_pairs(400);
  std::vector<std::vector<float>> seen;
  for (int mask = 0; mask < 16; ++mask) {
    LexicalOptions o = small_options();
    o.post = {(mask & 1) != 0, (mask & 2) ? 2 : 0, (mask & 4) != 0, (mask & 8) != 0};
    const auto e = LexicalEncoder::train(pairs, o);
    const auto v = encode_all(*e, {pairs[0].first, pairs[1].first}, SentenceEncoder::Side::kSource);
    for (float x : v) REQUIRE(std::isfinite(x));
    for (const auto& w : seen) CHECK(w != v);
    seen.push_back(v);
  }
}

TEST_CASE("lexical encoder: a sentence with no word of the LSA vocabulary has a zero LSA block") {
  const auto pairs = sample_pairs(400);
  const LexicalOptions o = small_options();
  const auto e = LexicalEncoder::train(pairs, o);
  const auto v = encode_all(*e, {"qqzzxv vvqqzx", pairs[0].first}, SentenceEncoder::Side::kSource);
  const size_t d = e->dim(), lsa0 = 2 * static_cast<size_t>(o.buckets), lsa1 = lsa0 + static_cast<size_t>(o.lsa_dim);
  const auto norm = [&](size_t row, size_t b, size_t end) {
    double s = 0;
    for (size_t k = b; k < end; ++k) s += static_cast<double>(v[row * d + k]) * v[row * d + k];
    return std::sqrt(s);
  };
  CHECK(norm(0, lsa0, lsa1) == 0.0);
  CHECK(norm(0, lsa1, lsa1 + static_cast<size_t>(o.char_buckets)) > 0.0);  // the character block still places it
  CHECK(norm(1, lsa0, lsa1) > 0.0);
  CHECK(norm(0, 0, d) == doctest::Approx(1.0));
}

TEST_CASE("lexical encoder: a model of another kind is refused with the file named") {
  TmpDir d;
  corpus::safetensors::Writer w;
  w.metadata("format", "paracorp.encoder");
  w.metadata("version", "1");
  w.metadata("config", "{\"kind\":\"bert\"}");
  const std::vector<float> x{1};
  w.add<float>("x", x);
  w.write(d.path("bert.safetensors"));
  std::string msg = data_error([&] { LexicalEncoder::load(d.path("bert.safetensors")); });
  CHECK(msg.find("bert.safetensors") != std::string::npos);
  CHECK(msg.find("a \"bert\" sentence encoder, not a lexical one") != std::string::npos);
  corpus::safetensors::Writer i;
  i.metadata("format", "paracorp.ibm1");
  i.add<float>("x", x);
  i.write(d.path("ibm1.safetensors"));
  msg = data_error([&] { LexicalEncoder::load(d.path("ibm1.safetensors")); });
  CHECK(msg.find("ibm1.safetensors: a \"paracorp.ibm1\" model, not a paracorp.encoder model") != std::string::npos);
  CHECK_THROWS_AS(LexicalEncoder::train({{"a", ""}}, small_options()), corpus::Error);
  LexicalOptions bad = small_options();
  bad.post.remove_top = 32;
  CHECK_THROWS_AS(LexicalEncoder::train(sample_pairs(10), bad), corpus::ConfigError);
}

TEST_CASE("lexical encoder: the LSA block covers the lsa_vocab most frequent words, and the file holds only their rows") {
  TmpDir d;
  LexicalOptions o = small_options();
  o.lsa_vocab = 50;
  o.lsa_rows = 100;  // every fourth of the 400 pairs
  const auto pairs = sample_pairs(400);
  const auto e = LexicalEncoder::train(pairs, o);
  e->save(d.path("m.st"));
  const corpus::safetensors::File f(d.path("m.st"));
  CHECK(f.tensors().at("src.lsa.proj").shape == std::vector<uint64_t>{50, 32});
  CHECK(f.tensors().at("trg.lsa.proj").shape == std::vector<uint64_t>{50, 32});
  CHECK(f.tensors().at("src.lsa.rows").shape[0] == f.tensors().at("src.vocab.idf").shape[0]);
  const auto l = LexicalEncoder::load(d.path("m.st"));
  std::vector<std::string> s{pairs[3].first, pairs[9].first, "Firefox"};
  CHECK(encode_all(*l, s, SentenceEncoder::Side::kSource) == encode_all(*e, s, SentenceEncoder::Side::kSource));
}

TEST_CASE("lexical encoder: the length block is (cos, sin) of scale x log length, the target's shifted by the median ratio") {
  const auto pairs = sample_pairs(301);
  LexicalOptions o = small_options();
  o.length_weight = 0.6;
  o.length_scale = 1.25;
  const auto e = LexicalEncoder::train(pairs, o);
  // The median of ln(code points of the target / of the source), the lower
  // middle of the 301 ratios, code points counted here by UTF-8 lead bytes.
  auto cps = [](const std::string& s) {
    size_t n = 0;
    for (size_t i = 0; i < s.size(); ++n) {
      const auto c = static_cast<unsigned char>(s[i]);
      i += c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
    }
    return static_cast<double>(n);
  };
  std::vector<double> r;
  for (const auto& [a, b] : pairs) r.push_back(std::log(cps(b)) - std::log(cps(a)));
  std::sort(r.begin(), r.end());
  CHECK(e->config()["length_offset"].get<double>() == doctest::Approx(r[150]).epsilon(1e-6));
  const size_t d = e->dim();
  const std::vector<std::string> s{"Datei öffnen", "x", "Eine etwas längere Zeile mit vielen Wörtern"};
  for (const auto side : {SentenceEncoder::Side::kSource, SentenceEncoder::Side::kTarget}) {
    const auto v = encode_all(*e, s, side);
    for (size_t i = 0; i < s.size(); ++i) {
      const double off = side == SentenceEncoder::Side::kTarget ? r[150] : 0.0;
      const double want = 1.25 * (std::log(cps(s[i])) - off);
      const double got = std::atan2(v[i * d + d - 1], v[i * d + d - 2]);
      CHECK(std::remainder(got - want, 2 * M_PI) == doctest::Approx(0).epsilon(1e-5));
    }
  }
  // A sentence that no other block can place keeps the zero vector.
  LexicalOptions no_chars = o;
  no_chars.char_buckets = 0;
  no_chars.lsa_dim = 0;  // the LSA block of unknown words is minus the mean, not zero
  for (float x : encode_all(*LexicalEncoder::train(pairs, no_chars), {"qxzzyv wqvvkz"}, SentenceEncoder::Side::kTarget))
    REQUIRE(x == 0.0f);
  // Weight 0: no block. A model saved before the block existed (no length
  // keys in its config) loads without one.
  o.length_weight = 0;
  CHECK(LexicalEncoder::train(pairs, o)->dim() == d - 2);
  TmpDir t;
  e->save(t.path("m.st"));
  const corpus::safetensors::File f(t.path("m.st"));
  auto c = e->config();
  c.erase("length_weight");
  c.erase("length_scale");
  c.erase("length_offset");
  const auto old = LexicalEncoder::load_part(f, "", c.dump());
  CHECK(old->dim() == d - 2);
  c["length_weight"] = 0.6;  // a weight without its scale and offset is a corrupt file
  CHECK(data_error([&] { LexicalEncoder::load_part(f, "", c.dump()); }).find("length_scale") != std::string::npos);
}

namespace {

// A vocabulary of sorted words with their idf (word 0 is "").
align::LexicalLang vocab(std::vector<std::pair<std::string, float>> words) {
  std::sort(words.begin(), words.end());
  align::LexicalLang l;
  l.idf.push_back(0);
  l.offsets.push_back(0);
  for (const auto& [w, idf] : words) {
    l.bytes.insert(l.bytes.end(), w.begin(), w.end());
    l.offsets.push_back(l.bytes.size());
    l.idf.push_back(idf);
  }
  return l;
}

std::vector<std::string> split_words(const align::LexicalLang& l, std::string_view w, int min_cp) {
  std::vector<std::string> out;
  for (uint32_t id : align::split_unseen(l, w, min_cp)) out.emplace_back(l.word(id));
  return out;
}

}  // namespace

TEST_CASE("lexical encoder: an unseen word splits into known words, fewest parts first, then the most frequent") {
  const auto l = vocab({{"netz", 2}, {"werk", 2}, {"netzwerk", 3}, {"statistiken", 4}, {"abc", 1}, {"abcx", 1},
                        {"xyzz", 5}, {"yzz", 1}, {"größe", 2}, {"datei", 1}});
  using V = std::vector<std::string>;
  CHECK(split_words(l, "netzwerkstatistiken", 3) == V{"netzwerk", "statistiken"});   // 2 parts beat 3
  CHECK(split_words(l, "netzwerksstatistiken", 3) == V{"netzwerk", "statistiken"});  // linking s
  CHECK(split_words(l, "netzwerkenstatistiken", 3) == V{"netzwerk", "statistiken"});  // linking en
  CHECK(split_words(l, "netzwerkxstatistiken", 3).empty());                           // no such link
  CHECK(split_words(l, "netzwerkdatei", 3) == V{"netzwerk", "datei"});
  CHECK(split_words(l, "abcxyzz", 3) == V{"abcx", "yzz"});  // idf 2 against abc|xyzz's 6
  CHECK(split_words(l, "dateigröße", 3) == V{"datei", "größe"});  // cuts at code points
  CHECK(split_words(l, "dateigröße", 6).empty());                  // parts under 6 code points
  CHECK(split_words(l, "werkqqqq", 3).empty());                    // a part unknown
  CHECK(split_words(l, "netzwerkstatistiken", 0).empty());         // off
  CHECK(split_words(l, "netzdateiwerkgröße", 3).empty());          // four parts: at most three
  CHECK(split_words(l, "netzdateiwerk", 3) == V{"netz", "datei", "werk"});
  // No split: the word less one or two code points, if that is known.
  CHECK(split_words(l, "dateien", 3) == V{"datei"});
  CHECK(split_words(l, "netzes", 3) == V{"netz"});
  CHECK(split_words(l, "netzeso", 3).empty());  // three to take off
  CHECK(split_words(l, "abcxy", 3) == V{"abcx"});
  CHECK(split_words(l, "abcy", 3).empty());  // "abc" keeps only min_cp code points
  CHECK(split_words(l, "größen", 3) == V{"größe"});
  CHECK(split_words(l, "größeñ", 3) == V{"größe"});  // a two-byte last code point
  // Words over 64 code points are not tried.
  const std::string q(40, 'q'), r24(24, 'r'), r25(25, 'r');
  const auto lq = vocab({{q, 1}, {r24, 1}, {r25, 1}});
  CHECK(split_words(lq, q + r24, 3) == V{q, r24});  // 64
  CHECK(split_words(lq, q + r25, 3).empty());       // 65
}

TEST_CASE("lexical encoder: with split_min an unseen compound is placed by its parts, and older models do not split") {
  std::vector<TextPair> pairs;
  for (int i = 0; i < 20; ++i) {
    pairs.emplace_back("network error", "Netzwerk Fehler");
    pairs.emplace_back("statistics file", "Statistiken Datei");
    pairs.emplace_back("open the file", "die Datei öffnen");
    pairs.emplace_back("network", "Netzwerk");
    pairs.emplace_back("error", "Fehler");
  }
  LexicalOptions o = small_options();
  o.lsa_dim = 0;
  o.char_buckets = 0;
  o.length_weight = 0;
  o.split_min = 3;
  const auto split = LexicalEncoder::train(pairs, o);
  CHECK(split->config()["split_min"] == 3);
  o.split_min = 0;
  const auto whole = LexicalEncoder::train(pairs, o);
  const size_t d = split->dim();
  auto cosine = [&](const LexicalEncoder& e, const std::string& a, const std::string& b) {
    const auto u = encode_all(e, {a}, SentenceEncoder::Side::kSource), v = encode_all(e, {b}, SentenceEncoder::Side::kTarget);
    double s = 0;
    for (size_t k = 0; k < d; ++k) s += static_cast<double>(u[k]) * v[k];
    return s;
  };
  CHECK(cosine(*whole, "network error", "Netzwerkfehler") == 0.0);  // an unseen word, no character block
  CHECK(cosine(*split, "network error", "Netzwerkfehler") > 0.9);
  CHECK(cosine(*split, "network error", "Netzwerkfehler") == doctest::Approx(cosine(*split, "network error", "Netzwerk Fehler")));
  // A model saved before split_min existed loads without splitting.
  TmpDir t;
  split->save(t.path("m.st"));
  const corpus::safetensors::File f(t.path("m.st"));
  auto c = split->config();
  c.erase("split_min");
  CHECK(cosine(*LexicalEncoder::load_part(f, "", c.dump()), "network error", "Netzwerkfehler") == 0.0);
  CHECK(cosine(*LexicalEncoder::load(t.path("m.st")), "network error", "Netzwerkfehler") > 0.9);
}
