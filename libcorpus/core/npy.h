// NumPy .npy files of sentence vectors (DESIGN.md §4): a 2-D array (rows,
// dim), float32 or float16, little-endian, C order; row i = input line i.
//
// The writer streams: rows go to disk as they come, and the header, written
// first with room for the largest row count, is fixed at commit() with the
// count actually written (numpy pads its own headers with spaces the same
// way). Like corpus::Output it writes under a temporary name beside the real
// one (".NAME.tmp-HOST-PID-XXXXXX", registered for the signal handler) and
// renames on commit, so a killed run never leaves a half file under the real
// name. It does its own file handling rather than going through Output
// because Output has no positioned write for the final header, and a .npy
// cannot go to a pipe or be compressed for the same reason: "-" and a
// compression suffix are ConfigErrors. An existing device (/dev/null) is
// written directly.
//
// The reader checks a header from anywhere: the magic and version, a dict
// with exactly descr, fortran_order and shape, descr '<f4' or '<f2',
// fortran_order False, a 2-D shape whose byte size is what the file holds. Every refusal is a corpus::Error naming
// the file and what was found.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace corpus::npy {

enum class Dtype { kF32, kF16 };

// "float32" / "float16" and back; parse throws ConfigError on anything else.
const char* dtype_name(Dtype d);
Dtype parse_dtype(const std::string& s);

// IEEE binary16 conversions, round to nearest even (NaN stays NaN, overflow
// becomes infinity), as numpy's astype(float16) does.
uint16_t float_to_half(float f);
float half_to_float(uint16_t h);

class Writer {
 public:
  Writer(const std::string& path, size_t dim, Dtype dtype);
  ~Writer();  // removes the temporary when commit() was not reached
  Writer(const Writer&) = delete;
  Writer& operator=(const Writer&) = delete;

  // Appends rows: `v.size()` must be a multiple of dim().
  void write(std::span<const float> v);
  // Fixes the header's row count, closes and renames into place.
  void commit();

  size_t dim() const { return dim_; }
  uint64_t rows() const { return rows_; }
  const std::string& name() const { return path_; }

 private:
  void flush();
  void write_fd(const char* p, size_t n);
  std::string path_, dir_, base_, tmp_path_;
  size_t dim_;
  Dtype dtype_;
  int fd_ = -1;
  int temp_slot_ = -1;
  bool direct_ = false, committed_ = false;
  uint64_t rows_ = 0;
  size_t header_size_ = 0;
  std::string buf_;
};

// The header for (rows, dim), padded to `size` bytes (0: the smallest
// multiple of 64 that also fits any row count). Exposed for tests.
std::string header(uint64_t rows, size_t dim, Dtype dtype, size_t size = 0);

struct Matrix {
  uint64_t rows = 0;
  size_t dim = 0;
  Dtype dtype = Dtype::kF32;  // as stored; data is always float
  std::vector<float> data;    // rows × dim, row-major
  std::span<const float> row(uint64_t r) const { return {data.data() + r * dim, dim}; }
};

// Reads and validates a whole file.
Matrix read(const std::string& path);

// The header of an array of any dtype and rank held in memory (a .npz
// member): the magic, version and dict checked as read() checks them, the
// descr and shape left to the caller. `data_offset` is where the array's bytes
// begin. Errors are corpus::Errors at `name`.
struct Header {
  std::string descr;
  bool fortran_order = false;
  std::vector<uint64_t> shape;
  size_t data_offset = 0;
};
Header parse_header(std::string_view bytes, const std::string& name);

}  // namespace corpus::npy
