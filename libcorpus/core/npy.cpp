#include "libcorpus/core/npy.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstring>
#include <limits>
#include <map>

#include "libcorpus/core/error.h"
#include "libcorpus/core/output.h"
#include "libcorpus/core/tempfiles.h"

namespace corpus::npy {

namespace {

constexpr char kMagic[] = "\x93NUMPY";
constexpr size_t kMagicSize = 6;
// numpy aligns the data to 64 bytes; so do we.
constexpr size_t kAlign = 64;
// A header is a short dict; anything longer is not one of ours or numpy's.
constexpr uint64_t kMaxHeader = 1 << 20;

const char* descr(Dtype d) { return d == Dtype::kF16 ? "<f2" : "<f4"; }
size_t item_size(Dtype d) { return d == Dtype::kF16 ? 2 : 4; }

std::string dict_text(uint64_t rows, size_t dim, Dtype dtype) {
  return std::string("{'descr': '") + descr(dtype) + "', 'fortran_order': False, 'shape': (" + std::to_string(rows) +
         ", " + std::to_string(dim) + "), }";
}

}  // namespace

const char* dtype_name(Dtype d) { return d == Dtype::kF16 ? "float16" : "float32"; }

Dtype parse_dtype(const std::string& s) {
  if (s == "float32" || s == "f32") return Dtype::kF32;
  if (s == "float16" || s == "f16") return Dtype::kF16;
  throw ConfigError("unknown vector type " + quote(s), "give float32 or float16");
}

uint16_t float_to_half(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  const uint32_t sign = (x >> 16) & 0x8000u;
  const uint32_t absx = x & 0x7fffffffu;
  if (absx >= 0x7f800000u) return static_cast<uint16_t>(sign | 0x7c00u | (absx > 0x7f800000u ? 0x200u : 0));
  if (absx >= 0x477ff000u) return static_cast<uint16_t>(sign | 0x7c00u);  // rounds to above 65504
  const int exp = static_cast<int>(absx >> 23) - 127;
  if (exp < -14) {
    // Subnormal half (or zero): the value in units of 2^-24, rounded to even.
    if (exp < -25) return static_cast<uint16_t>(sign);
    const uint32_t mant = (absx & 0x7fffffu) | 0x800000u;
    const int shift = -exp - 1;  // 14..24 for exp -15..-25
    uint32_t h = mant >> shift;
    const uint32_t rem = mant & ((1u << shift) - 1), half = 1u << (shift - 1);
    if (rem > half || (rem == half && (h & 1u))) ++h;
    return static_cast<uint16_t>(sign | h);
  }
  uint32_t h = (static_cast<uint32_t>(exp + 15) << 10) | ((absx >> 13) & 0x3ffu);
  const uint32_t rem = absx & 0x1fffu;
  if (rem > 0x1000u || (rem == 0x1000u && (h & 1u))) ++h;  // a carry into the exponent is right
  return static_cast<uint16_t>(sign | h);
}

float half_to_float(uint16_t h) {
  const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
  const uint32_t exp = (h >> 10) & 0x1fu, mant = h & 0x3ffu;
  uint32_t x;
  if (exp == 0x1f) {
    x = sign | 0x7f800000u | (mant << 13);
  } else if (exp != 0) {
    x = sign | ((exp + 112) << 23) | (mant << 13);
  } else if (mant == 0) {
    x = sign;
  } else {
    int e = -1;
    uint32_t m = mant;
    do {
      ++e;
      m <<= 1;
    } while ((m & 0x400u) == 0);
    x = sign | (static_cast<uint32_t>(112 - e) << 23) | ((m & 0x3ffu) << 13);
  }
  float f;
  std::memcpy(&f, &x, 4);
  return f;
}

std::string header(uint64_t rows, size_t dim, Dtype dtype, size_t size) {
  if (size == 0) {
    // Room for a 20-digit row count, so that the final header fits the same bytes.
    const size_t widest = kMagicSize + 4 + dict_text(std::numeric_limits<uint64_t>::max(), dim, dtype).size() + 1;
    size = (widest + kAlign - 1) / kAlign * kAlign;
  }
  std::string dict = dict_text(rows, dim, dtype);
  const size_t body = size - kMagicSize - 4;  // dict, spaces, '\n'
  if (dict.size() + 1 > body || body > 0xffff) throw Error("npy header does not fit its room");
  dict.append(body - dict.size() - 1, ' ');
  dict.push_back('\n');
  std::string h(kMagic, kMagicSize);
  h.push_back('\x01');
  h.push_back('\x00');
  h.push_back(static_cast<char>(body & 0xff));
  h.push_back(static_cast<char>(body >> 8));
  return h + dict;
}

// --- writer ---

Writer::Writer(const std::string& path, size_t dim, Dtype dtype) : path_(path), dim_(dim), dtype_(dtype) {
  if (path_.empty() || path_ == "-")
    throw ConfigError("a .npy file cannot go to stdout (its header is written last)", "give -o FILE.npy");
  if (compression_for_path(path_) != Compression::kNone) {
    ConfigError e("a .npy file cannot be compressed (its header is written last)", "give -o FILE.npy");
    e.at(path_);  // thrown by value: at() returns the base class
    throw e;
  }
  if (dim_ == 0) throw ConfigError("vectors of dimension 0");
  tempfiles::Target t = tempfiles::open_target(path_);
  dir_ = std::move(t.dir);
  base_ = std::move(t.base);
  tmp_path_ = std::move(t.tmp_path);
  fd_ = t.fd;
  temp_slot_ = t.slot;
  direct_ = t.direct;
  buf_ = header(0, dim_, dtype_);
  header_size_ = buf_.size();
}

Writer::~Writer() {
  if (fd_ < 0) return;
  ::close(fd_);
  if (!direct_ && !committed_) {
    ::unlink(tmp_path_.c_str());
    tempfiles::remove(temp_slot_);
  }
}

void Writer::write_fd(const char* p, size_t n) {
  while (n > 0) {
    const ssize_t w = ::write(fd_, p, n);
    if (w < 0) {
      if (errno == EINTR) continue;
      throw Error("write error (" + errno_text(errno) + ")").at(path_);
    }
    p += w;
    n -= static_cast<size_t>(w);
  }
}

void Writer::flush() {
  write_fd(buf_.data(), buf_.size());
  buf_.clear();
}

void Writer::write(std::span<const float> v) {
  if (v.size() % dim_ != 0) throw Error("npy rows of " + std::to_string(dim_) + " values were given a partial row");
  if (dtype_ == Dtype::kF32) {
    buf_.append(reinterpret_cast<const char*>(v.data()), v.size_bytes());  // little-endian hosts only (DESIGN §8)
  } else {
    const size_t at = buf_.size();
    buf_.resize(at + 2 * v.size());
    char* p = buf_.data() + at;
    for (float f : v) {
      const uint16_t h = float_to_half(f);
      p[0] = static_cast<char>(h & 0xff);
      p[1] = static_cast<char>(h >> 8);
      p += 2;
    }
  }
  rows_ += v.size() / dim_;
  if (buf_.size() >= (1u << 20)) flush();
}

void Writer::commit() {
  if (committed_) return;
  flush();
  const std::string h = header(rows_, dim_, dtype_, header_size_);
  if (::pwrite(fd_, h.data(), h.size(), 0) != static_cast<ssize_t>(h.size()))
    throw Error("cannot write the .npy header (" + errno_text(errno) + ")", "write to a regular file").at(path_);
  const int rc = ::close(fd_);
  fd_ = -1;
  committed_ = true;
  if (direct_) {
    if (rc != 0) throw Error("error closing output (" + errno_text(errno) + ")").at(path_);
    return;
  }
  if (rc != 0 || ::rename(tmp_path_.c_str(), path_.c_str()) != 0) {
    const int e = errno;
    ::unlink(tmp_path_.c_str());
    tempfiles::remove(temp_slot_);
    throw Error(std::string(rc != 0 ? "error closing output (" : "cannot rename temporary file into place (") +
                errno_text(e) + ")")
        .at(path_);
  }
  tempfiles::remove(temp_slot_);
  tempfiles::remove_stale(dir_, base_);
}

// --- reader ---

namespace {

// The header dict: {'key': value, ...} with string, True/False and tuple
// values, the subset of Python literals that numpy writes.
struct Value {
  enum { kStr, kBool, kTuple } kind;
  std::string str;
  bool b = false;
  std::vector<uint64_t> tuple;
};

class DictParser {
 public:
  DictParser(std::string_view s, const std::string& path) : s_(s), path_(path) {}

  std::map<std::string, Value> parse() {
    std::map<std::string, Value> d;
    expect('{');
    for (;;) {
      skip();
      if (peek() == '}') break;
      const std::string key = string();
      expect(':');
      if (!d.emplace(key, value()).second) fail("the key '" + key + "' twice");
      skip();
      if (peek() == ',') {
        ++i_;
        continue;
      }
      if (peek() != '}') fail("no ',' or '}' after a value");
    }
    ++i_;
    for (; i_ < s_.size(); ++i_)
      if (s_[i_] != ' ' && s_[i_] != '\n') fail("bytes after the dict");
    return d;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw Error("not a valid .npy header: " + what, "write the file with numpy.save or pc-embed encode").at(path_);
  }
  void skip() {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\n' || s_[i_] == '\t')) ++i_;
  }
  char peek() const { return i_ < s_.size() ? s_[i_] : '\0'; }
  void expect(char c) {
    skip();
    if (peek() != c) fail(std::string("'") + c + "' expected");
    ++i_;
  }
  std::string string() {
    skip();
    const char q = peek();
    if (q != '\'' && q != '"') fail("a quoted key or string expected");
    const size_t end = s_.find(q, i_ + 1);
    if (end == std::string_view::npos) fail("an unterminated string");
    std::string r(s_.substr(i_ + 1, end - i_ - 1));
    i_ = end + 1;
    return r;
  }
  uint64_t number() {
    skip();
    if (!std::isdigit(static_cast<unsigned char>(peek()))) fail("a dimension that is not a number");
    uint64_t n = 0;
    while (std::isdigit(static_cast<unsigned char>(peek()))) {
      const uint64_t d = static_cast<uint64_t>(s_[i_++] - '0');
      if (n > (std::numeric_limits<uint64_t>::max() - d) / 10) fail("a dimension too large");
      n = n * 10 + d;
    }
    return n;
  }
  Value value() {
    skip();
    Value v{};
    if (peek() == '\'' || peek() == '"') {
      v.kind = Value::kStr;
      v.str = string();
    } else if (s_.substr(i_, 4) == "True" || s_.substr(i_, 5) == "False") {
      v.kind = Value::kBool;
      v.b = s_[i_] == 'T';
      i_ += v.b ? 4 : 5;
    } else if (peek() == '(') {
      v.kind = Value::kTuple;
      ++i_;
      for (;;) {
        skip();
        if (peek() == ')') break;
        v.tuple.push_back(number());
        skip();
        if (peek() == ',') ++i_;
        else if (peek() != ')') fail("a shape that is not a tuple of numbers");
      }
      ++i_;
    } else {
      fail("a value that is not a string, True/False or a tuple");
    }
    return v;
  }

  std::string_view s_;
  const std::string& path_;
  size_t i_ = 0;
};

struct Fd {
  int fd;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

void read_exact(int fd, char* p, size_t n, uint64_t at, const std::string& path) {
  while (n > 0) {
    const ssize_t r = ::pread(fd, p, n, static_cast<off_t>(at));
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) throw Error(r < 0 ? "read error (" + errno_text(errno) + ")" : "the file ends early").at(path);
    p += r;
    n -= static_cast<size_t>(r);
    at += static_cast<uint64_t>(r);
  }
}

}  // namespace

Header parse_header(std::string_view bytes, const std::string& name) {
  const std::string hint = "write the array with numpy.save or numpy.savez";
  if (bytes.size() < 10 || std::memcmp(bytes.data(), kMagic, kMagicSize) != 0)
    throw Error("not a .npy array (no \\x93NUMPY magic)", hint).at(name);
  const int major = static_cast<unsigned char>(bytes[6]);
  if (major < 1 || major > 3)
    throw Error(".npy format version " + std::to_string(major) + " is not known (1, 2 and 3 are)", hint).at(name);
  uint64_t hlen = 0, hstart = 10;
  if (major == 1) {
    hlen = static_cast<unsigned char>(bytes[8]) | static_cast<uint64_t>(static_cast<unsigned char>(bytes[9])) << 8;
  } else {
    if (bytes.size() < 12) throw Error("the .npy header is cut off", hint).at(name);
    for (int i = 3; i >= 0; --i) hlen = hlen << 8 | static_cast<unsigned char>(bytes[8 + i]);
    hstart = 12;
  }
  if (hlen > kMaxHeader || hstart + hlen > bytes.size())
    throw Error("the .npy header length (" + std::to_string(hlen) + " bytes) runs past the array (" +
                    std::to_string(bytes.size()) + " bytes)",
                hint)
        .at(name);
  const auto dict = DictParser(bytes.substr(hstart, hlen), name).parse();
  for (const char* k : {"descr", "fortran_order", "shape"})
    if (!dict.count(k)) throw Error(std::string("the .npy header has no '") + k + "'", hint).at(name);
  const Value& d = dict.at("descr");
  const Value& fo = dict.at("fortran_order");
  const Value& sh = dict.at("shape");
  if (dict.size() != 3 || d.kind != Value::kStr || fo.kind != Value::kBool || sh.kind != Value::kTuple)
    throw Error("the .npy header is not {'descr': STRING, 'fortran_order': BOOL, 'shape': TUPLE}", hint).at(name);
  return Header{d.str, fo.b, sh.tuple, static_cast<size_t>(hstart + hlen)};
}

Matrix read(const std::string& path) {
  Fd f{::open(path.c_str(), O_RDONLY | O_CLOEXEC)};
  if (f.fd < 0) throw Error("cannot open (" + errno_text(errno) + ")").at(path);
  struct stat st;
  if (::fstat(f.fd, &st) != 0 || !S_ISREG(st.st_mode)) throw Error("not a regular file").at(path);
  const uint64_t size = static_cast<uint64_t>(st.st_size);
  const std::string hint = "give a .npy file written by numpy.save or pc-embed encode";
  char pre[12];
  if (size < 10) throw Error("too short for a .npy file (" + std::to_string(size) + " bytes)", hint).at(path);
  read_exact(f.fd, pre, 10, 0, path);
  if (std::memcmp(pre, kMagic, kMagicSize) != 0) throw Error("not a .npy file (no \\x93NUMPY magic)", hint).at(path);
  const int major = static_cast<unsigned char>(pre[6]);
  if (major < 1 || major > 3)
    throw Error(".npy format version " + std::to_string(major) + " is not known (1, 2 and 3 are)", hint).at(path);
  uint64_t hlen = 0, hstart = 10;
  if (major == 1) {
    hlen = static_cast<unsigned char>(pre[8]) | static_cast<uint64_t>(static_cast<unsigned char>(pre[9])) << 8;
  } else {
    if (size < 12) throw Error("the .npy header is cut off", hint).at(path);
    read_exact(f.fd, pre + 10, 2, 10, path);
    for (int i = 3; i >= 0; --i) hlen = hlen << 8 | static_cast<unsigned char>(pre[8 + i]);
    hstart = 12;
  }
  if (hlen > kMaxHeader || hstart + hlen > size)
    throw Error("the .npy header length (" + std::to_string(hlen) + " bytes) runs past the file (" +
                    std::to_string(size) + " bytes)",
                hint)
        .at(path);
  std::string text(hlen, '\0');
  read_exact(f.fd, text.data(), hlen, hstart, path);
  const auto dict = DictParser(text, path).parse();
  for (const char* k : {"descr", "fortran_order", "shape"})
    if (!dict.count(k)) throw Error(std::string("the .npy header has no '") + k + "'", hint).at(path);
  if (dict.size() != 3) throw Error("the .npy header has keys other than descr, fortran_order and shape", hint).at(path);
  const Value& d = dict.at("descr");
  const Value& fo = dict.at("fortran_order");
  const Value& sh = dict.at("shape");
  Matrix m;
  if (d.kind != Value::kStr || (d.str != "<f4" && d.str != "<f2"))
    throw Error("the .npy array holds " + (d.kind == Value::kStr ? quote(d.str) : std::string("a non-string descr")) +
                    ", not float32 ('<f4') or float16 ('<f2')",
                "convert it with numpy: a.astype('<f4')")
        .at(path);
  m.dtype = d.str == "<f2" ? Dtype::kF16 : Dtype::kF32;
  if (fo.kind != Value::kBool || fo.b)
    throw Error("the .npy array is in Fortran order", "save it in C order: numpy.ascontiguousarray(a)").at(path);
  if (sh.kind != Value::kTuple || sh.tuple.size() != 2)
    throw Error("the .npy array has " + std::to_string(sh.tuple.size()) + " dimensions, not 2 (rows, dim)", hint)
        .at(path);
  m.rows = sh.tuple[0];
  const uint64_t dim = sh.tuple[1];
  const uint64_t data = size - hstart - hlen, item = item_size(m.dtype);
  const bool fits = dim == 0 || m.rows <= std::numeric_limits<uint64_t>::max() / dim / item;
  if (!fits || m.rows * dim * item != data)
    throw Error("the .npy shape (" + std::to_string(m.rows) + ", " + std::to_string(dim) + ") of " +
                    dtype_name(m.dtype) + " does not match the " + std::to_string(data) + " data bytes of the file",
                "the file is cut off or damaged: write it again")
        .at(path);
  m.dim = static_cast<size_t>(dim);
  m.data.resize(static_cast<size_t>(m.rows * dim));
  if (m.dtype == Dtype::kF32) {
    read_exact(f.fd, reinterpret_cast<char*>(m.data.data()), static_cast<size_t>(data), hstart + hlen, path);
  } else {
    std::vector<uint16_t> h(m.data.size());
    read_exact(f.fd, reinterpret_cast<char*>(h.data()), static_cast<size_t>(data), hstart + hlen, path);
    for (size_t i = 0; i < h.size(); ++i) m.data[i] = half_to_float(h[i]);
  }
  return m;
}

}  // namespace corpus::npy
