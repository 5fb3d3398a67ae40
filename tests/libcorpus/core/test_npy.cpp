// .npy writer and reader (libcorpus/core/npy.h).
#include <doctest/doctest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <vector>

#include "libcorpus/core/error.h"
#include "libcorpus/core/npy.h"
#include "support/tmpdir.h"

using namespace corpus;

namespace {

std::string read_error(const std::string& path) {
  try {
    npy::read(path);
  } catch (const Error& e) {
    return e.format("t");
  }
  return "";
}

// A hand-made v1.0 file: magic, version, header length, dict, data.
std::string npy_bytes(const std::string& dict, const std::string& data, char major = 1) {
  std::string h = "\x93NUMPY";
  h.push_back(major);
  h.push_back('\0');
  h.push_back(static_cast<char>(dict.size() & 0xff));
  h.push_back(static_cast<char>(dict.size() >> 8));
  return h + dict + data;
}

bool have_numpy() { return std::system("/usr/bin/python3 -c 'import numpy' >/dev/null 2>&1") == 0; }

}  // namespace

TEST_CASE("npy: rows written stream to a file that reads back, the header fixed at commit") {
  TmpDir d;
  const std::string p = d.path("v.npy");
  {
    npy::Writer w(p, 3, npy::Dtype::kF32);
    w.write(std::vector<float>{1, 2, 3});
    w.write(std::vector<float>{4, 5, 6, -0.5f, 1e-30f, 7});
    CHECK(d.count() == 1);             // only the temporary so far
    CHECK(!std::ifstream(p).good());  // not under the real name
    w.commit();
  }
  const std::string bytes = raw_bytes(p);
  CHECK(bytes.size() == 128 + 9 * 4);  // a header of 128 bytes: room for a 20-digit row count
  CHECK(bytes.find("{'descr': '<f4', 'fortran_order': False, 'shape': (3, 3), }   ") == 10);
  CHECK(bytes[127] == '\n');
  const npy::Matrix m = npy::read(p);
  CHECK(m.rows == 3);
  CHECK(m.dim == 3);
  CHECK(m.data == std::vector<float>{1, 2, 3, 4, 5, 6, -0.5f, 1e-30f, 7});
  CHECK(d.count() == 1);
}

TEST_CASE("npy: a writer not committed leaves nothing, and stdout and compression are refused") {
  TmpDir d;
  {
    npy::Writer w(d.path("x.npy"), 2, npy::Dtype::kF16);
    w.write(std::vector<float>{1, 2});
  }
  CHECK(d.count() == 0);
  CHECK_THROWS_AS(npy::Writer("-", 2, npy::Dtype::kF32), ConfigError);
  CHECK_THROWS_AS(npy::Writer(d.path("x.npy.gz"), 2, npy::Dtype::kF32), ConfigError);
  npy::Writer w(d.path("y.npy"), 2, npy::Dtype::kF32);
  CHECK_THROWS_AS(w.write(std::vector<float>{1, 2, 3}), Error);
}

TEST_CASE("npy: float16 conversions round to nearest even and every half survives a round trip") {
  for (uint32_t h = 0; h < 0x10000; ++h) {
    const float f = npy::half_to_float(static_cast<uint16_t>(h));
    if (std::isnan(f)) {
      CHECK(std::isnan(npy::half_to_float(npy::float_to_half(f))));
      continue;
    }
    REQUIRE(npy::float_to_half(f) == h);
  }
  CHECK(npy::half_to_float(0x3c00) == 1.0f);
  CHECK(npy::half_to_float(0x0001) == std::ldexp(1.0f, -24));
  CHECK(npy::float_to_half(65504.0f) == 0x7bff);
  CHECK(npy::float_to_half(65520.0f) == 0x7c00);              // halfway to 65536: to infinity (even)
  CHECK(npy::float_to_half(1.0f + std::ldexp(1.0f, -11)) == 0x3c00);  // a tie: to the even 1.0
  CHECK(npy::float_to_half(std::ldexp(1.0f, -25)) == 0);      // a tie with the smallest subnormal
}

TEST_CASE("npy: numpy reads what we write, float32 and float16, and agrees on the float16 rounding") {
  if (!have_numpy()) {
    MESSAGE("skipped: /usr/bin/python3 has no numpy");
    return;
  }
  TmpDir d;
  std::vector<float> v;
  uint32_t x = 12345;
  for (int i = 0; i < 4000; ++i) {
    x = x * 1664525u + 1013904223u;
    float f;
    uint32_t bits = (x & 0x8fffffffu) | 0x30000000u;  // magnitudes from 2^-31 to 2: half subnormals and normals
    std::memcpy(&f, &bits, 4);
    v.push_back(f);
  }
  for (float f : {0.0f, -0.0f, 65504.0f, 65520.0f, 1e-8f, 6e-8f, 3e-5f}) v.push_back(f);
  v.resize(v.size() / 7 * 7);
  for (auto dt : {npy::Dtype::kF32, npy::Dtype::kF16}) {
    npy::Writer w(d.path(std::string(npy::dtype_name(dt)) + ".npy"), 7, dt);
    w.write(v);
    w.commit();
  }
  {
    npy::Writer w(d.path("empty.npy"), 5, npy::Dtype::kF32);
    w.commit();
  }
  npy::Writer ref(d.path("ref.npy"), 7, npy::Dtype::kF32);
  ref.write(v);
  ref.commit();
  const std::string script = d.path("check.py");
  put_bytes(script,
      "import numpy as np, sys\n"
      "d = sys.argv[1]\n"
      "a = np.load(d + '/float32.npy'); h = np.load(d + '/float16.npy'); e = np.load(d + '/empty.npy')\n"
      "assert a.dtype == np.float32 and h.dtype == np.float16 and a.shape == h.shape, (a.shape, h.shape)\n"
      "assert a.shape[1] == 7 and e.shape == (0, 5), e.shape\n"
      "with np.errstate(over='ignore'): a16 = a.astype(np.float16)\n"
      "assert (a16.view(np.uint16) == h.view(np.uint16)).all()\n"
      "np.save(d + '/from_numpy.npy', a)\n");
  REQUIRE(std::system(("/usr/bin/python3 " + script + " " + d.dir).c_str()) == 0);
  const npy::Matrix m = npy::read(d.path("from_numpy.npy"));
  CHECK(m.data == v);
  const npy::Matrix h = npy::read(d.path("float16.npy"));
  CHECK(h.dtype == npy::Dtype::kF16);
  CHECK(h.rows == v.size() / 7);
}

TEST_CASE("npy: hostile headers are refused with what is wrong") {
  TmpDir d;
  const std::string p = d.path("bad.npy");
  const std::string ok = "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 2), }\n";
  const std::string data(16, '\0');
  put_bytes(p, npy_bytes(ok, data));
  CHECK(read_error(p).empty());

  put_bytes(p, "PK\x03\x04 not numpy at all");
  CHECK(read_error(p).find("no \\x93NUMPY magic") != std::string::npos);
  put_bytes(p, npy_bytes(ok, data, 9));
  CHECK(read_error(p).find("version 9") != std::string::npos);
  put_bytes(p, npy_bytes(ok, data.substr(0, 12)));
  CHECK(read_error(p).find("shape (2, 2) of float32 does not match the 12 data bytes") != std::string::npos);
  put_bytes(p, npy_bytes("{'descr': '<f8', 'fortran_order': False, 'shape': (2, 1), }\n", data));
  CHECK(read_error(p).find("holds '<f8', not float32") != std::string::npos);
  put_bytes(p, npy_bytes("{'descr': '>f4', 'fortran_order': False, 'shape': (2, 2), }\n", data));
  CHECK(read_error(p).find("holds '>f4'") != std::string::npos);
  put_bytes(p, npy_bytes("{'descr': '<f4', 'fortran_order': True, 'shape': (2, 2), }\n", data));
  CHECK(read_error(p).find("Fortran order") != std::string::npos);
  put_bytes(p, npy_bytes("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 1, 2), }\n", data));
  CHECK(read_error(p).find("3 dimensions, not 2") != std::string::npos);
  put_bytes(p, npy_bytes("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 2), 'x': 1}\n", data));
  CHECK(read_error(p).find("not a valid .npy header") != std::string::npos);
  put_bytes(p, npy_bytes("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 2), 'x': 'y'}\n", data));
  CHECK(read_error(p).find("keys other than") != std::string::npos);
  put_bytes(p, npy_bytes("{'descr': '<f4', 'shape': (2, 2), }\n", data));
  CHECK(read_error(p).find("no 'fortran_order'") != std::string::npos);
  // A shape whose byte size overflows 64 bits, and one of 2^62 rows.
  put_bytes(p, npy_bytes("{'descr': '<f4', 'fortran_order': False, 'shape': (4611686018427387904, 4), }\n", data));
  CHECK(read_error(p).find("does not match") != std::string::npos);
  put_bytes(p, npy_bytes("{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999999, 4), }\n", data));
  CHECK(read_error(p).find("too large") != std::string::npos);
  // A header length that runs past the end of the file.
  std::string cut = npy_bytes(ok, "");
  cut[8] = '\xff';
  cut[9] = '\xff';
  put_bytes(p, cut);
  CHECK(read_error(p).find("runs past the file") != std::string::npos);
  put_bytes(p, "\x93NUM");
  CHECK(read_error(p).find("too short") != std::string::npos);
  CHECK(read_error(p).find(p) != std::string::npos);  // every message names the file
}
