// Checkpoint averaging (mt/train/average.h): the mean of the inputs' weights
// with the first one's config and vocabularies, refusals of files of another
// model, and the trainer's --keep-checkpoints files (the last N validation
// points, the older ones removed, resume-safe).
#include <doctest/doctest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "libcorpus/core/error.h"
#include "mt/model/model_file.h"
#include "mt/train/average.h"
#include "mt/train/trainer.h"
#include "support/small_config.h"
#include "support/tmpdir.h"

using namespace mt;

namespace {

void write_model(const std::string& path, const Config& cfg, const std::vector<float>& p, const Vocabs& v,
                 const std::string& steps) {
  ModelOffsets off;
  const ParamLayout layout = make_layout(cfg, off);
  ModelWrite w;
  w.config = &cfg;
  w.layout = &layout;
  w.params = p.data();
  w.vocabs = &v;
  w.metadata["trained_steps"] = steps;
  save_model(path, w);
}

std::vector<float> values(const Config& cfg, float base) {
  ModelOffsets off;
  std::vector<float> p(static_cast<size_t>(make_layout(cfg, off).total()));
  for (size_t i = 0; i < p.size(); ++i) p[i] = base + static_cast<float>(i % 97) * 0.125f;
  return p;
}

}  // namespace

TEST_CASE("average: the elementwise mean, with the first model's config and vocabularies") {
  TmpDir d;
  const Config cfg = small_config();
  const Vocabs v{"joint model bytes", "", ""};
  const auto a = values(cfg, 1.0f), b = values(cfg, -2.0f), c = values(cfg, 4.0f);
  write_model(d.path("a.safetensors"), cfg, a, v, "400");
  write_model(d.path("b.safetensors"), cfg, b, v, "800");
  write_model(d.path("c.safetensors"), cfg, c, v, "1200");
  const AverageSummary s = average_models({d.path("a.safetensors"), d.path("b.safetensors"), d.path("c.safetensors")},
                                          d.path("avg.safetensors"), {{"tool", "test"}});
  CHECK(s.models == 3);
  CHECK(s.steps == std::vector<int64_t>{400, 800, 1200});
  ModelFile m(d.path("avg.safetensors"));
  CHECK(m.config().to_json() == cfg.to_json());
  CHECK(m.vocabs().joint == v.joint);
  REQUIRE(static_cast<size_t>(m.layout().total()) == a.size());
  size_t off = 0;
  for (size_t i = 0; i < a.size(); ++i)
    if (m.params()[i] != static_cast<float>((static_cast<double>(a[i]) + b[i] + c[i]) / 3.0)) ++off;
  CHECK(off == 0);
  CHECK(m.params()[0] == doctest::Approx(1.0));  // (1 - 2 + 4) / 3
  CHECK(m.file().meta("averaged_from").find("\"trained_steps\":800") != std::string::npos);

  // One model averages to itself, bit for bit.
  average_models({d.path("b.safetensors")}, d.path("one.safetensors"), {});
  ModelFile one(d.path("one.safetensors"));
  CHECK(std::memcmp(one.params(), b.data(), b.size() * sizeof(float)) == 0);
}

TEST_CASE("average: models of another config, vocabulary or format are refused, naming the file") {
  TmpDir d;
  const Config cfg = small_config();
  Config wider = cfg;
  wider.ffn_dim += 8;
  const Vocabs v{"joint", "", ""}, v2{"other joint", "", ""};
  write_model(d.path("a.safetensors"), cfg, values(cfg, 0), v, "1");
  write_model(d.path("w.safetensors"), wider, values(wider, 0), v, "2");
  write_model(d.path("v.safetensors"), cfg, values(cfg, 0), v2, "3");
  CHECK_THROWS_WITH_AS(average_models({d.path("a.safetensors"), d.path("w.safetensors")}, d.path("o.safetensors"), {}),
                       doctest::Contains("config differs"), corpus::Error);
  CHECK_THROWS_WITH_AS(average_models({d.path("a.safetensors"), d.path("v.safetensors")}, d.path("o.safetensors"), {}),
                       doctest::Contains("SentencePiece models differ"), corpus::Error);
  {
    std::ofstream f(d.path("junk.safetensors"));
    f << "not a model";
  }
  CHECK_THROWS_AS(average_models({d.path("a.safetensors"), d.path("junk.safetensors")}, d.path("o.safetensors"), {}),
                  corpus::Error);
  CHECK_THROWS_AS(average_models({}, d.path("o.safetensors"), {}), corpus::Error);
  CHECK_FALSE(std::filesystem::exists(d.path("o.safetensors")));
}

TEST_CASE("average: the step file names") {
  CHECK(step_model_path("out/en-es.safetensors", 6000) == "out/en-es.step-6000.safetensors");
  CHECK(step_model_path("model", 400) == "model.step-400");
  CHECK(step_model_path("dir.v2/model", 400) == "dir.v2/model.step-400");
  CHECK(step_model_path(".hidden", 8) == ".hidden.step-8");
}

TEST_CASE("train --keep-checkpoints: the weights of the last N validation points, older ones removed") {
  TmpDir tmp;
  Config cfg = Config::from_preset("tiny");
  cfg.src_vocab = cfg.trg_vocab = 16;
  cfg.dim = 32, cfg.heads = 2, cfg.ffn_dim = 64, cfg.enc_layers = 1, cfg.dec_layers = 1, cfg.max_len = 12;
  Corpus train;
  std::mt19937_64 g(7);
  for (int i = 0; i < 300; ++i) {
    std::vector<int32_t> s(3 + g() % 4);
    for (auto& x : s) x = 4 + static_cast<int32_t>(g() % 10);
    train.src.push_back(s);
    train.trg.emplace_back(s.rbegin(), s.rend());
  }
  ValidSet valid;  // no validation set: the points still come every valid_every steps
  TrainOptions opt;
  opt.batch_tokens = 128;
  opt.warmup = 5;
  opt.valid_every = 5;
  opt.keep_checkpoints = 2;
  const Vocabs vocabs;
  const std::string model = tmp.path("m.safetensors");
  auto run = [&](int64_t steps, bool resume) {
    TrainOptions o = opt;
    o.max_steps = steps;
    Trainer tr(cfg, o, train, valid, vocabs, [](const std::vector<int32_t>&) { return std::string(); }, model, {});
    if (resume)
      tr.resume(model + ".ckpt");
    else
      tr.init_weights();
    tr.run({});
    return tr.params();
  };
  run(15, false);
  CHECK_FALSE(std::filesystem::exists(step_model_path(model, 5)));
  CHECK(std::filesystem::exists(step_model_path(model, 10)));
  CHECK(std::filesystem::exists(step_model_path(model, 15)));
  const auto last = run(25, true);
  for (int s : {5, 10, 15}) CHECK_FALSE(std::filesystem::exists(step_model_path(model, s)));
  CHECK(std::filesystem::exists(step_model_path(model, 20)));
  ModelFile at25(step_model_path(model, 25));
  CHECK(at25.file().meta("trained_steps") == "25");
  CHECK(std::memcmp(at25.params(), last.data(), last.size() * sizeof(float)) == 0);
}
