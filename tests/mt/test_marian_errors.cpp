// Bad input to pc-nmt import-marian: each is a corpus::Error naming the file
// at fault and what is wrong, never a crash or a model that decodes otherwise.
#include <doctest/doctest.h>

#include <filesystem>
#include <functional>
#include <string>

#include "libcorpus/core/error.h"
#include "libcorpus/core/npz.h"
#include "mt/model/marian_import.h"
#include "support/npz_write.h"
#include "support/tmpdir.h"
#include "support/test_data.h"

namespace fs = std::filesystem;

namespace {

// A copy of the fixture folder, with model.npz rewritten by `edit`.
struct Broken {
  TmpDir d;
  mt::MarianSources src;
  explicit Broken(const std::function<void(corpus::npz::Archive&)>& edit = {}) {
    for (const char* f : {"model.npz", "source.spm", "target.spm", "vocab.yml"})
      fs::copy_file(marian_data(f), d.path(f));
    src = mt::marian_sources({d.dir});
    if (!edit) return;
    corpus::npz::Archive a = corpus::npz::read(src.npz);
    edit(a);
    write_file(src.npz, zip_of(a));
  }
};

// The model's YAML with `from` replaced by `to`.
std::function<void(corpus::npz::Archive&)> yaml_edit(const std::string& from, const std::string& to) {
  return [=](corpus::npz::Archive& a) {
    std::string& y = a.at("special:model.yml").data;
    const size_t at = y.find(from);
    REQUIRE(at != std::string::npos);
    y.replace(at, from.size(), to);
    a.at("special:model.yml").shape = {y.size()};
  };
}

corpus::Error error_of(const mt::MarianSources& s) {
  try {
    mt::convert_marian(s);
  } catch (const corpus::Error& e) {
    return e;
  }
  FAIL("convert_marian did not throw");
  return corpus::Error("");
}

bool has(const corpus::Error& e, const std::string& text) {
  return std::string(e.what()).find(text) != std::string::npos;
}

}  // namespace

TEST_CASE("marian errors: the fixture itself converts") {
  Broken b([](corpus::npz::Archive&) {});  // read and rewritten by the test's own writer
  CHECK(mt::convert_marian(b.src).config.dim == 16);
}

TEST_CASE("marian errors: a cut or damaged .npz names the .npz") {
  for (size_t keep : {size_t(0), size_t(100), size_t(20000), size_t(40000)}) {
    Broken b;
    write_file(b.src.npz, raw_bytes(b.src.npz).substr(0, keep));
    const corpus::Error e = error_of(b.src);
    CHECK_MESSAGE(e.file() == b.src.npz, keep, ": ", e.what());
  }
  Broken b;
  std::string z = raw_bytes(b.src.npz);
  z[z.size() / 2] ^= 0x40;
  write_file(b.src.npz, z);
  const corpus::Error e = error_of(b.src);
  CHECK(e.file() == b.src.npz);
  CHECK(has(e, "CRC-32"));
}

TEST_CASE("marian errors: a member with a hostile shape is refused by the reader") {
  Broken b([](corpus::npz::Archive& a) { a.at("Wemb").shape = {uint64_t(1) << 62, uint64_t(1) << 62}; });
  const corpus::Error e = error_of(b.src);
  CHECK(e.file() == b.src.npz);
  CHECK(has(e, "does not match"));
}

TEST_CASE("marian errors: missing, misshapen, wrongly typed and unknown tensors") {
  {
    Broken b([](corpus::npz::Archive& a) { a.erase("decoder_l1_ffn_W2"); });
    const corpus::Error e = error_of(b.src);
    CHECK(e.file() == b.src.npz);
    CHECK(has(e, "tensor 'decoder_l1_ffn_W2' is missing"));
  }
  {
    Broken b([](corpus::npz::Archive& a) {
      auto& w = a.at("encoder_l1_self_Wq");
      w.shape = {16, 8};
      w.data.resize(16 * 8 * 4);
    });
    CHECK(has(error_of(b.src), "tensor 'encoder_l1_self_Wq' has shape (16, 8), expected (16, 16)"));
  }
  {
    Broken b([](corpus::npz::Archive& a) {
      auto& w = a.at("decoder_l1_self_bq");
      w.descr = "<i4";
    });
    CHECK(has(error_of(b.src), "'decoder_l1_self_bq' holds '<i4'"));
  }
  {
    Broken b([](corpus::npz::Archive& a) { a["decoder_l1_rnn_W"] = a.at("encoder_l1_self_Wq"); });
    CHECK(has(error_of(b.src), "tensor 'decoder_l1_rnn_W' belongs to no part"));
  }
  {
    Broken b(yaml_edit("enc-depth: 1", "enc-depth: 2"));
    CHECK(has(error_of(b.src), "tensor 'encoder_l2_self_Wq' is missing"));
  }
}

TEST_CASE("marian errors: no special:model.yml") {
  Broken b([](corpus::npz::Archive& a) { a.erase("special:model.yml"); });
  const corpus::Error e = error_of(b.src);
  CHECK(e.file() == b.src.npz);
  CHECK(has(e, "no special:model.yml inside"));
}

TEST_CASE("marian errors: options the import cannot express are named") {
  const std::pair<const char*, const char*> cases[][2] = {
      {{"type: transformer", "type: s2s"}, {"type: s2s", ""}},
      {{"transformer-postprocess: dan", "transformer-postprocess: da"}, {"transformer-postprocess: da", ""}},
      {{"transformer-preprocess: \"\"", "transformer-preprocess: n"}, {"transformer-preprocess: n", ""}},
      {{"transformer-ffn-activation: swish", "transformer-ffn-activation: gelu"}, {"activation: gelu", ""}},
      {{"transformer-ffn-depth: 2", "transformer-ffn-depth: 3"}, {"transformer-ffn-depth: 3", ""}},
      {{"right-left: false", "right-left: true"}, {"right-left: true", ""}},
      {{"transformer-train-position-embeddings: false", "transformer-train-position-embeddings: true"},
       {"position-embeddings: true", ""}},
      {{"transformer-tied-layers:\n  []", "transformer-tied-layers:\n  - 1"}, {"tied-layers: 1", ""}},
      {{"dim-emb: 16", "dim-emb: 15"}, {"dim-emb 15 is odd", ""}},
      {{"dim-emb: 16", "dim-emb: x"}, {"dim-emb: x is not a number", ""}},
  };
  for (const auto& c : cases) {
    Broken b(yaml_edit(c[0].first, c[0].second));
    const corpus::Error e = error_of(b.src);
    CHECK_MESSAGE(has(e, c[1].first), e.what());
    CHECK(e.file().find(b.src.npz) == 0);
  }
}

TEST_CASE("marian errors: vocabulary and SentencePiece files are named when bad") {
  {
    Broken b;
    write_file(b.src.vocab, "\"<unk>\": 1\n\"a\": 2\n");
    const corpus::Error e = error_of(b.src);
    CHECK(e.file() == b.src.vocab);
    CHECK(has(e, "no </s>"));
  }
  {
    Broken b;
    write_file(b.src.vocab, raw_bytes(b.src.vocab) + "zzz: 5000\n");
    const corpus::Error e = error_of(b.src);
    CHECK(e.file() == b.src.vocab);
    CHECK(has(e, "outside the model's"));
  }
  {
    Broken b;
    write_file(b.src.vocab, raw_bytes(b.src.vocab) + "\"unterminated: 99\n");
    CHECK(error_of(b.src).file() == b.src.vocab);
  }
  {
    Broken b;
    write_file(b.src.trg_spm, "not a SentencePiece model");
    CHECK(error_of(b.src).file() == b.src.trg_spm);
  }
  {
    Broken b;
    fs::remove(b.src.src_spm);
    CHECK(error_of(b.src).file() == b.src.src_spm);
  }
}

TEST_CASE("marian errors: a folder without one model or vocabulary is named") {
  TmpDir d;
  fs::copy_file(marian_data("source.spm"), d.path("source.spm"));
  fs::copy_file(marian_data("target.spm"), d.path("target.spm"));
  write_file(d.path("opus.spm32k-spm32k.vocab.yml"), "\"</s>\": 0\n");
  try {
    mt::marian_sources({d.dir});
    FAIL("no error");
  } catch (const corpus::Error& e) {
    CHECK(e.file() == d.dir);
    CHECK(has(e, "no model (.npz)"));
  }
  write_file(d.path("a.npz"), "");
  write_file(d.path("b.npz"), "");
  try {
    mt::marian_sources({d.dir});
    FAIL("no error");
  } catch (const corpus::Error& e) {
    CHECK(has(e, "2 files end in .npz: a.npz, b.npz"));
  }
  fs::remove(d.path("b.npz"));
  const mt::MarianSources s = mt::marian_sources({d.dir});
  CHECK(s.vocab == d.path("opus.spm32k-spm32k.vocab.yml"));
  CHECK(s.npz == d.path("a.npz"));
}
