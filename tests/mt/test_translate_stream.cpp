// Translating a stream (mt/decode/translate_stream.h) and the inspect report
// (mt/model/inspect.h) on a small model written here: one line out per line
// in, in input order whatever the chunking; bad lines stopped at their line;
// and the report and vocabulary listing of pc-nmt inspect.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "support/tmpdir.h"
#include "libcorpus/core/error.h"
#include "libcorpus/core/input.h"
#include "libcorpus/core/line_reader.h"
#include "libcorpus/core/output.h"
#include "mt/decode/greedy.h"
#include "mt/decode/translate_stream.h"
#include "mt/model/inspect.h"
#include "mt/model/model_file.h"
#include "mt/spm/spm.h"

using namespace mt;

namespace {

const std::string& spm_model() {
  static const std::string model = [] {
    std::vector<std::string> sents;
    const char* words[] = {"the", "quick", "brown", "fox", "jumps", "over", "lazy", "dog", "red", "cat"};
    for (int i = 0; i < 300; ++i) {
      std::string s;
      for (int w = 0; w < 6; ++w) s.append(words[(i * 7 + w * 3) % 10]).append(" ");
      sents.push_back(s);
    }
    SpmTrainOptions o;
    o.vocab_size = 40;
    return train_spm(sents, o);
  }();
  return model;
}

// A model with random weights and the joint tokenizer above.
std::string write_model(const TmpDir& d) {
  Config cfg = Config::from_preset("tiny");
  cfg.src_vocab = cfg.trg_vocab = Tokenizer(spm_model()).vocab_size();
  cfg.dim = 8, cfg.heads = 2, cfg.ffn_dim = 12, cfg.enc_layers = 1, cfg.dec_layers = 1, cfg.max_len = 24;
  ModelOffsets off;
  const ParamLayout layout = make_layout(cfg, off);
  std::vector<float> p(static_cast<size_t>(layout.total()));
  init_params(layout, p.data(), 5);
  const Vocabs vocabs{spm_model(), "", ""};
  ModelWrite w;
  w.config = &cfg;
  w.layout = &layout;
  w.params = p.data();
  w.vocabs = &vocabs;
  w.metadata["trained_steps"] = "3";
  const std::string path = d.path("m.safetensors");
  save_model(path, w);
  return path;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

std::string translate_text(const TranslationModel& m, const TmpDir& d, const std::string& text,
                           const TranslateOptions& opt, uint64_t* sentences = nullptr,
                           std::vector<uint64_t>* progress = nullptr) {
  write_file(d.path("in.txt"), text);
  auto src = corpus::open_input(d.path("in.txt"));
  corpus::LineReader lines(*src);
  {
    corpus::Output out(d.path("out.txt"));
    const TranslateCounts n = translate_stream(m, lines, out, opt, [&](uint64_t k) {
      if (progress) progress->push_back(k);
    });
    if (sentences) *sentences = n.sentences;
    out.commit();
  }
  return raw_bytes(d.path("out.txt"));
}

const char* kText = "the quick fox\nlazy dog\n\nred cat jumps over the brown dog\nthe\nfox fox fox\ncat\n";

}  // namespace

TEST_CASE("translate_stream: one line per input line, in input order, whatever the chunks") {
  TmpDir d;
  const TranslationModel m(write_model(d));
  const std::vector<std::string> in = lines_of(kText);
  // Each line alone, decoded directly.
  std::string want;
  DecodeOptions one;
  one.batch_size = 1;
  for (const auto& l : in) {
    bool cut = false;
    const auto hyp = greedy_translate(m.file.config(), m.file.params(),
                                      {m.src.encode_prefix(l, static_cast<size_t>(m.file.config().max_len), cut)}, one);
    want += m.trg.decode(hyp.at(0)) + "\n";
  }
  TranslateOptions opt;
  opt.decode.batch_size = 1;
  opt.batches_per_chunk = 1;  // a chunk per line
  uint64_t n = 0;
  std::vector<uint64_t> progress;
  CHECK(translate_text(m, d, kText, opt, &n, &progress) == want);
  CHECK(n == in.size());
  CHECK(progress.size() == in.size() + 1);  // after each chunk, and once at the end
  CHECK(progress.back() == in.size());
  opt.batches_per_chunk = 64;  // one chunk for all
  progress.clear();
  CHECK(translate_text(m, d, kText, opt, &n, &progress) == want);
  CHECK(progress == std::vector<uint64_t>{in.size()});
  CHECK(translate_text(m, d, "", opt, &n) == "");
  CHECK(n == 0);
}

TEST_CASE("translate_stream: invalid UTF-8 or a NUL byte stops at its line") {
  TmpDir d;
  const TranslationModel m(write_model(d));
  TranslateOptions opt;
  CHECK_THROWS_WITH_AS(translate_text(m, d, "ok\n\xff\n", opt), doctest::Contains("invalid UTF-8"), corpus::Error);
  try {
    translate_text(m, d, std::string("ok\nfine\na\0b\n", 12), opt);
    FAIL("no error");
  } catch (const corpus::Error& e) {
    CHECK(std::string(e.what()).find("NUL") != std::string::npos);
    CHECK(e.line() == 3);
  }
}

TEST_CASE("translate_stream: a model without SentencePiece is refused when loaded") {
  CHECK_THROWS_WITH_AS(TranslationModel(std::string(PARACORP_TEST_DATA) + "/nmt/parity-post-relu.safetensors"),
                       doctest::Contains("no SentencePiece model"), corpus::Error);
}

TEST_CASE("inspect: the JSON report and the vocabulary listing") {
  TmpDir d;
  const std::string path = write_model(d);
  {
    corpus::Output out(d.path("report.json"));
    inspect_model(path, false, out);
    out.commit();
  }
  const auto j = nlohmann::json::parse(raw_bytes(d.path("report.json")));
  CHECK(j["file"] == path);
  CHECK(j["format"] == "paracorp.nmt version 1");
  CHECK(j["trained_steps"] == 3);
  CHECK(j["weights_mapped"] == true);
  CHECK(j["config"]["dim"] == 8);
  CHECK(j["vocabularies"]["spm.joint"] == Tokenizer(spm_model()).vocab_size());
  CHECK(j["tensors"][0].get<std::string>().find(" F32 [") != std::string::npos);
  {
    corpus::Output out(d.path("vocab.tsv"));
    inspect_model(path, true, out);
    out.commit();
  }
  const auto v = lines_of(raw_bytes(d.path("vocab.tsv")));
  CHECK(static_cast<int>(v.size()) == Tokenizer(spm_model()).vocab_size());
  CHECK(v.at(3) == "joint\t3\t</s>\t0");
}
