// safetensors reader and writer (libcorpus/safetensors.h).
#include <doctest/doctest.h>

#include <cstring>
#include <fstream>
#include <iterator>

#include "libcorpus/core/error.h"
#include "libcorpus/core/safetensors.h"
#include "support/tmpdir.h"

using namespace corpus::safetensors;

namespace {

// A file with a hand-made header: 8-byte length, JSON (padded with spaces to a
// multiple of 8, as writers do), data.
std::string st_bytes(std::string json, const std::string& data) {
  json.append((8 - json.size() % 8) % 8, ' ');
  std::string s(8, '\0');
  uint64_t n = json.size();
  for (int i = 0; i < 8; ++i) s[static_cast<size_t>(i)] = static_cast<char>((n >> (8 * i)) & 0xff);
  return s + json + data;
}

std::string open_error(const std::string& path) {
  try {
    File f(path);
  } catch (const corpus::Error& e) {
    return e.format("t");
  }
  return "";
}

// The whole message of the corpus::Error that `f` throws, hint included.
template <class F>
std::string thrown(F f) {
  try {
    f();
  } catch (const corpus::Error& e) {
    return e.format("t");
  }
  return "";
}

}  // namespace

TEST_CASE("safetensors: write and read back, aligned, with metadata") {
  TmpDir d;
  std::vector<uint8_t> b{1, 2, 3};
  std::vector<float> f{0.5f, -1.0f, 3.25f, 7.0f, 8.0f, 9.0f};
  std::vector<uint64_t> u{1, 1ull << 40};
  Writer w;
  w.metadata("format", "paracorp.test");
  w.metadata("version", "3");
  w.metadata("config", "{\"a\":1}");
  w.add<uint8_t>("bytes", b);
  w.add<float>("matrix", f, {2, 3});
  w.add<uint64_t>("big", u);
  w.add<float>("empty", std::span<const float>());
  w.write(d.path("t.safetensors"));
  const std::string all = raw_bytes(d.path("t.safetensors"));
  uint64_t n = 0;
  std::memcpy(&n, all.data(), 8);
  CHECK((8 + n) % 64 == 0);
  CHECK(all[8] == '{');
  File r(d.path("t.safetensors"));
  r.expect("paracorp.test", "3", "pc-test train");
  CHECK(r.file_size() == all.size());
  CHECK(r.meta("config") == "{\"a\":1}");
  CHECK(r.meta("absent").empty());
  auto m = r.get<float>("matrix", 2);
  CHECK(std::vector<float>(m.begin(), m.end()) == f);
  CHECK(r.tensors().at("matrix").shape == std::vector<uint64_t>{2, 3});
  CHECK(r.get_shaped<float>("matrix", {2, 3}).size() == 6);
  auto g = r.get<uint64_t>("big");
  CHECK(g[1] == (1ull << 40));
  CHECK(reinterpret_cast<uintptr_t>(g.data()) % 64 == 0);  // the first tensor: the buffer's start
  CHECK(reinterpret_cast<uintptr_t>(m.data()) % 4 == 0);
  CHECK(r.get<uint8_t>("bytes")[2] == 3);
  CHECK(r.get<float>("empty").empty());
  CHECK_THROWS_WITH(r.get<double>("matrix"), doctest::Contains("has dtype F32, expected F64"));
  CHECK_THROWS_WITH(r.get<float>("matrix", 1), doctest::Contains("2 dimensions, expected 1"));
  CHECK_THROWS_WITH(r.get_shaped<float>("matrix", {3, 2}), doctest::Contains("tensor 'matrix' has shape [2, 3], expected [3, 2]"));
  CHECK_THROWS_WITH(r.get_shaped<float>("matrix", {6}), doctest::Contains("has shape [2, 3], expected [6]"));
  CHECK_THROWS_WITH(r.get<float>("nope"), doctest::Contains("tensor 'nope' is missing"));
  CHECK_THROWS_WITH(r.bytes("matrix"), doctest::Contains("has dtype F32, expected U8"));
  CHECK_THROWS_WITH(r.expect("paracorp.ibm1", "1", "pc-ibm1 train"),
                    doctest::Contains("a 'paracorp.test' model, not a paracorp.ibm1 model"));
  CHECK(thrown([&] { r.expect("paracorp.ibm1", "1", "pc-ibm1 train"); }).ends_with("give a model made by pc-ibm1 train"));
  CHECK_THROWS_WITH(r.expect("paracorp.test", "1", "pc-test train"),
                    doctest::Contains("format version '3'; this program reads version '1'"));
  CHECK(thrown([&] { r.expect("paracorp.test", "1", "pc-test train"); }).ends_with("again with pc-test train"));
}

// The exact bytes both model writers (IBM1, NMT) have always produced: models
// written before the two implementations were merged must stay identical.
TEST_CASE("safetensors: the byte layout is fixed (size classes, order added, padding)") {
  TmpDir d;
  std::vector<uint8_t> b{7, 8, 9};
  std::vector<float> w1{1, 2}, w0{3};
  std::vector<uint64_t> n{5};
  Writer w;
  w.metadata("version", "1");
  w.metadata("format", "x");
  w.add<uint8_t>("b", b);
  w.add<float>("w1", w1, {1, 2});
  w.add<float>("w0", w0);
  w.add<uint64_t>("n", n);
  const std::string json =
      R"({"__metadata__":{"format":"x","version":"1"},"n":{"dtype":"U64","shape":[1],"data_offsets":[0,8]},)"
      R"("w1":{"dtype":"F32","shape":[1,2],"data_offsets":[8,16]},"w0":{"dtype":"F32","shape":[1],"data_offsets":[16,20]},)"
      R"("b":{"dtype":"U8","shape":[3],"data_offsets":[20,23]}})";
  CHECK(w.header() == json + std::string((64 - (8 + json.size()) % 64) % 64, ' '));
  w.write(d.path("x.safetensors"));
  std::string data(23, '\0');
  std::memcpy(&data[0], n.data(), 8);
  std::memcpy(&data[8], w1.data(), 8);
  std::memcpy(&data[16], w0.data(), 4);
  std::memcpy(&data[20], b.data(), 3);
  CHECK(raw_bytes(d.path("x.safetensors")) == st_bytes(w.header(), data));
  // Without metadata there is no __metadata__ key.
  Writer plain;
  plain.add<float>("w0", w0);
  const std::string one = R"({"w0":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}})";
  CHECK(plain.header() == one + " ");  // 55 bytes + 1
}

TEST_CASE("safetensors: U8 tensors as text (embedded tokenizer models)") {
  TmpDir d;
  const std::string spm("a\0b\xff", 4);
  std::vector<float> f{1};
  Writer w;
  w.add_bytes("spm", spm);
  w.add<float>("f", f);
  w.write(d.path("t.safetensors"));
  File r(d.path("t.safetensors"));
  CHECK(r.bytes("spm") == spm);
  CHECK(r.tensors().at("spm").shape == std::vector<uint64_t>{4});
  CHECK(r.tensors().at("spm").begin == 4);  // after the F32 tensor
}

TEST_CASE("safetensors: the writer refuses inconsistent tensors") {
  Writer w;
  std::vector<float> f{1, 2, 3};
  CHECK_THROWS(w.add<float>("x", f, {2, 2}));
  w.add<float>("x", f);
  CHECK_THROWS(w.add<float>("x", f));
}

TEST_CASE("safetensors: damaged and foreign files get clear errors") {
  TmpDir d;
  put_bytes(d.path("short"), "abc");
  CHECK(open_error(d.path("short")).find("not a safetensors model file (only 3 bytes)") != std::string::npos);
  put_bytes(d.path("text"), "this is plain text, no model here");
  CHECK(open_error(d.path("text")).find("not a safetensors model file") != std::string::npos);
  put_bytes(d.path("json"), st_bytes("[1,2]   ", ""));
  CHECK(open_error(d.path("json")).find("header is not JSON") != std::string::npos);
  put_bytes(d.path("badjson"), st_bytes("{\"a\":   ", ""));
  CHECK(open_error(d.path("badjson")).find("not valid JSON") != std::string::npos);
  put_bytes(d.path("dtype"), st_bytes(R"({"x":{"dtype":"Q7","shape":[1],"data_offsets":[0,1]}})", "a"));
  CHECK(open_error(d.path("dtype")).find("unknown dtype 'Q7'") != std::string::npos);
  put_bytes(d.path("shape"), st_bytes(R"({"x":{"dtype":"F32","shape":[3],"data_offsets":[0,8]}})", std::string(8, 'a')));
  CHECK(open_error(d.path("shape")).find("shape and data_offsets disagree") != std::string::npos);
  put_bytes(d.path("cut"), st_bytes(R"({"x":{"dtype":"U8","shape":[16],"data_offsets":[0,16]}})", std::string(10, 'a')));
  CHECK(open_error(d.path("cut")).find("truncated safetensors file") != std::string::npos);
  put_bytes(d.path("tail"), st_bytes(R"({"x":{"dtype":"U8","shape":[2],"data_offsets":[0,2]}})", std::string(5, 'a')));
  CHECK(open_error(d.path("tail")).find("bytes after the last tensor") != std::string::npos);
  std::string h = st_bytes("{}", "");
  h[5] = 1;  // an absurd header length
  put_bytes(d.path("len"), h);
  CHECK(open_error(d.path("len")).find("not a safetensors model file (no valid header length)") != std::string::npos);
  h = st_bytes(R"({"x":{"dtype":"U8","shape":[2],"data_offsets":[0,2]}})", "ab");
  h[1] = 1;  // a header length beyond the end of the file (a model cut inside its header)
  put_bytes(d.path("cuthead"), h);
  CHECK(open_error(d.path("cuthead")).find("truncated safetensors file: header of 312 bytes but the file has 66 bytes") !=
        std::string::npos);
  put_bytes(d.path("neg"), st_bytes(R"({"x":{"dtype":"U8","shape":[-2],"data_offsets":[0,2]}})", "ab"));
  CHECK(open_error(d.path("neg")).find("tensor 'x' has a bad shape") != std::string::npos);
  put_bytes(d.path("offsets"), st_bytes(R"({"x":{"dtype":"U8","shape":[2],"data_offsets":[2]}})", "ab"));
  CHECK(open_error(d.path("offsets")).find("tensor 'x' has no valid dtype/shape/data_offsets") != std::string::npos);
  put_bytes(d.path("align"), st_bytes(R"({"b":{"dtype":"U8","shape":[1],"data_offsets":[0,1]},)"
                           R"("f":{"dtype":"F32","shape":[1],"data_offsets":[1,5]}})",
                           std::string(5, 'a')));
  CHECK(open_error(d.path("align")).find("tensor 'f' is not aligned to its element size") != std::string::npos);
  put_bytes(d.path("meta"), st_bytes(R"({"__metadata__":{"format":3}})", ""));
  CHECK(open_error(d.path("meta")).find("__metadata__ value 'format' is not a string") != std::string::npos);
  put_bytes(d.path("utf8"), st_bytes("{\"__metadata__\":{\"format\":\"caf\xe9\"}}", ""));  // JSON must be UTF-8
  CHECK(open_error(d.path("utf8")).find("not valid JSON") != std::string::npos);
  put_bytes(d.path("nul"), st_bytes(std::string("{\"__metadata__\":{\"format\":\"a\0b\"}}", 33), ""));
  CHECK(open_error(d.path("nul")).find("not valid JSON") != std::string::npos);
  CHECK(open_error(d.path("missing")).find("No such file") != std::string::npos);
  CHECK(open_error(d.dir).find("is a directory") != std::string::npos);
  // A safetensors file without paracorp metadata (e.g. from Hugging Face).
  put_bytes(d.path("hf"), st_bytes(R"({"x":{"dtype":"U8","shape":[2],"data_offsets":[0,2]}})", "ab"));
  File hf(d.path("hf"));
  CHECK_THROWS_WITH(hf.expect("paracorp.ibm1", "1", "pc-ibm1 train"), doctest::Contains("without a paracorp format"));
}
