// The .npz reader: numpy's stored and deflated archives read back, and cut,
// damaged or hostile archives refused with an Error naming the file.
#include <doctest/doctest.h>

#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "libcorpus/core/error.h"
#include "libcorpus/core/npz.h"
#include "support/npz_write.h"
#include "support/tmpdir.h"

namespace {

std::string seed(const std::string& name) { return std::string(PARACORP_TEST_DATA) + "/../fuzz/corpus/npz/" + name; }

std::string parse_error(const std::string& bytes, std::string* file = nullptr) {
  try {
    corpus::npz::parse(bytes, "x.npz");
  } catch (const corpus::Error& e) {
    if (file) *file = e.file();
    return e.what();
  }
  return "";
}

void check_seed_arrays(const corpus::npz::Archive& a) {
  REQUIRE(a.size() == 3);
  const auto& m = a.at("a");
  CHECK(m.descr == "<f4");
  CHECK(m.shape == std::vector<uint64_t>{2, 3});
  CHECK(corpus::npz::floats(m, "f", "a") == std::vector<float>{0, 0.5f, 1, 1.5f, 2, 2.5f});
  const auto& b = a.at("b");
  CHECK(b.descr == "|i1");
  CHECK(b.data == std::string("\x01\xfe\x03", 3));
  const auto& c = a.at("c");
  CHECK(c.shape.empty());
  CHECK(c.elements() == 1);
  CHECK(corpus::npz::floats(c, "f", "c") == std::vector<float>{1.5f});
}

}  // namespace

TEST_CASE("npz: numpy.savez and savez_compressed archives read back") {
  check_seed_arrays(corpus::npz::read(seed("stored.npz")));
  check_seed_arrays(corpus::npz::read(seed("deflated.npz")));
  CHECK(corpus::npz::read(seed("empty.npz")).empty());
  const auto m = corpus::npz::read(seed("marian-config.npz"));
  CHECK(m.count("special:model.yml") == 1);
}

TEST_CASE("npz: every cut of an archive is an Error naming the file") {
  for (const char* name : {"stored.npz", "deflated.npz"}) {
    const std::string whole = raw_bytes(seed(name));
    for (size_t n = 0; n < whole.size(); ++n) {
      std::string file;
      CHECK_MESSAGE(!parse_error(whole.substr(0, n), &file).empty(), name, " cut at ", n);
      CHECK(file == "x.npz");
    }
  }
}

TEST_CASE("npz: a flipped data byte fails the CRC") {
  for (const char* name : {"stored.npz", "deflated.npz"}) {
    std::string z = raw_bytes(seed(name));
    // Flip a byte of the first member's data: 60 bytes in is past its local
    // header (30 bytes, "a.npy" and numpy's 20-byte zip64 field).
    z[60] = static_cast<char>(z[60] ^ 0x55);
    CHECK(!parse_error(z).empty());
  }
  std::string z = raw_bytes(seed("stored.npz"));
  z[z.find("NUMPY") + 40] ^= 1;
  CHECK(parse_error(z).find("CRC-32") != std::string::npos);
}

TEST_CASE("npz: hostile members are refused before anything is sized by them") {
  const std::string f4 = "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }";
  CHECK(parse_error(zip_of({{"x.npy", npy_of(f4, std::string(8, '\0'))}})).empty());
  // A shape whose size overflows, and one that claims more than the data.
  CHECK(parse_error(zip_of({{"x.npy", npy_of("{'descr': '<f4', 'fortran_order': False, 'shape': (4611686018427387904, "
                                          "4611686018427387904), }",
                                          std::string(8, '\0'))}}))
            .find("does not match") != std::string::npos);
  CHECK(parse_error(zip_of({{"x.npy",
                          npy_of("{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }", std::string(8, '\0'))}}))
            .find("does not match its 8 data bytes") != std::string::npos);
  CHECK(parse_error(zip_of({{"x.npy",
                          npy_of("{'descr': '|O', 'fortran_order': False, 'shape': (1,), }", std::string(8, '\0'))}}))
            .find("dtype") != std::string::npos);
  CHECK(parse_error(zip_of({{"x.npy",
                          npy_of("{'descr': '>f4', 'fortran_order': False, 'shape': (2,), }", std::string(8, '\0'))}}))
            .find("dtype") != std::string::npos);
  CHECK(parse_error(zip_of({{"x.txt", "hello"}})).find("no .npy array") != std::string::npos);
  CHECK(parse_error(zip_of({{"x.npy", "hello"}})).find("magic") != std::string::npos);
  CHECK(parse_error(zip_of({{"x.npy", npy_of(f4, std::string(8, '\0'))}, {"x.npy", npy_of(f4, std::string(8, '\0'))}}))
            .find("twice") != std::string::npos);
  CHECK(parse_error("not a zip at all, just text").find("zip") != std::string::npos);
}

TEST_CASE("npz: a deflated member claiming more than deflate can make is refused") {
  std::string z = raw_bytes(seed("deflated.npz"));
  const size_t cd = z.find("PK\x01\x02");
  REQUIRE(cd != std::string::npos);
  // The first central entry's uncompressed size (offset 24) becomes 2 GB.
  for (int i = 0; i < 4; ++i) z[cd + 24 + i] = i == 3 ? '\x7f' : '\xff';
  CHECK(parse_error(z).find("more than deflate can make") != std::string::npos);
}

TEST_CASE("npz: read names a missing file") {
  try {
    corpus::npz::read("/nonexistent/model.npz");
    FAIL("no error");
  } catch (const corpus::Error& e) {
    CHECK(e.file() == "/nonexistent/model.npz");
  }
}

TEST_CASE("npz: zip64 sizes, offsets and end records are followed") {
  // One stored member in zip64 form throughout: the directory entry's sizes
  // and offset in its zip64 field, the counts in the zip64 end record.
  const std::string data = npy_of("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }", std::string(8, '\0'));
  const std::string name = "x.npy";
  const uint64_t crc = crc32(0, reinterpret_cast<const Bytef*>(data.data()), static_cast<uInt>(data.size()));
  std::string z = "PK\x03\x04";
  npz_put_le(z, 45, 2), npz_put_le(z, 0, 2), npz_put_le(z, 0, 2), npz_put_le(z, 0, 4), npz_put_le(z, crc, 4);
  npz_put_le(z, 0xFFFFFFFF, 4), npz_put_le(z, 0xFFFFFFFF, 4), npz_put_le(z, name.size(), 2), npz_put_le(z, 20, 2);
  z += name;
  npz_put_le(z, 1, 2), npz_put_le(z, 16, 2), npz_put_le(z, data.size(), 8), npz_put_le(z, data.size(), 8);
  z += data;
  const uint64_t cd_at = z.size();
  z += "PK\x01\x02";
  npz_put_le(z, 45, 2), npz_put_le(z, 45, 2), npz_put_le(z, 0, 2), npz_put_le(z, 0, 2), npz_put_le(z, 0, 4);
  npz_put_le(z, crc, 4), npz_put_le(z, 0xFFFFFFFF, 4), npz_put_le(z, 0xFFFFFFFF, 4), npz_put_le(z, name.size(), 2);
  npz_put_le(z, 28, 2), npz_put_le(z, 0, 2), npz_put_le(z, 0, 2), npz_put_le(z, 0, 2), npz_put_le(z, 0, 4);
  npz_put_le(z, 0xFFFFFFFF, 4);
  z += name;
  npz_put_le(z, 1, 2), npz_put_le(z, 24, 2), npz_put_le(z, data.size(), 8), npz_put_le(z, data.size(), 8);
  npz_put_le(z, 0, 8);
  const uint64_t cd_size = z.size() - cd_at, z64_at = z.size();
  z += "PK\x06\x06";
  npz_put_le(z, 44, 8), npz_put_le(z, 45, 2), npz_put_le(z, 45, 2), npz_put_le(z, 0, 4), npz_put_le(z, 0, 4);
  npz_put_le(z, 1, 8), npz_put_le(z, 1, 8), npz_put_le(z, cd_size, 8), npz_put_le(z, cd_at, 8);
  z += "PK\x06\x07";
  npz_put_le(z, 0, 4), npz_put_le(z, z64_at, 8), npz_put_le(z, 1, 4);
  z += "PK\x05\x06";
  npz_put_le(z, 0, 4), npz_put_le(z, 0xFFFF, 2), npz_put_le(z, 0xFFFF, 2), npz_put_le(z, 0xFFFFFFFF, 4);
  npz_put_le(z, 0xFFFFFFFF, 4), npz_put_le(z, 0, 2);
  const corpus::npz::Archive a = corpus::npz::parse(z, "z64.npz");
  REQUIRE(a.count("x") == 1);
  CHECK(a.at("x").shape == std::vector<uint64_t>{2});
  // The locator pointing elsewhere is refused.
  std::string bad = z;
  bad[bad.size() - 22 - 20 + 8] ^= 1;
  CHECK(parse_error(bad).find("zip64") != std::string::npos);
}
