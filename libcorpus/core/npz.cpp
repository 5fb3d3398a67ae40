#include "libcorpus/core/npz.h"

#include <zlib.h>

#include <cstring>
#include <fstream>
#include <iterator>
#include <limits>

#include "libcorpus/core/error.h"
#include "libcorpus/core/npy.h"

namespace corpus::npz {

namespace {

const char* kHint = "the .npz file is cut off or damaged: copy it again";

// deflate turns at most 1032 bytes into one compressed byte (zlib's
// technical notes); a member claiming more is refused before its buffer is
// allocated.
constexpr uint64_t kMaxDeflateRatio = 1032;

uint64_t le(std::string_view b, size_t at, int n) {
  uint64_t v = 0;
  for (int i = n - 1; i >= 0; --i) v = v << 8 | static_cast<unsigned char>(b[at + static_cast<size_t>(i)]);
  return v;
}

struct Reader {
  std::string_view b;
  const std::string& name;

  [[noreturn]] void fail(const std::string& what) const { throw Error(what, kHint).at(name); }
  void need(uint64_t at, uint64_t n, const char* what) const {
    if (at > b.size() || n > b.size() - at) fail(std::string("the archive ends inside ") + what);
  }
  uint64_t u(uint64_t at, int n, const char* what) const {
    need(at, static_cast<uint64_t>(n), what);
    return le(b, static_cast<size_t>(at), n);
  }
};

struct Entry {
  std::string name;
  uint64_t method = 0, flags = 0, crc = 0, csize = 0, usize = 0, offset = 0;
};

// The zip64 extended information extra field (id 1) replaces, in this order,
// each of usize, csize and offset that the fixed header holds as 0xFFFFFFFF.
void zip64_fields(const Reader& r, uint64_t at, uint64_t len, Entry& e) {
  const uint64_t end = at + len;
  while (at + 4 <= end) {
    const uint64_t id = r.u(at, 2, "an extra field"), n = r.u(at + 2, 2, "an extra field");
    at += 4;
    if (n > end - at) r.fail("member " + quote(e.name) + ": an extra field runs past its header");
    if (id == 1) {
      uint64_t p = at;
      for (uint64_t* f : {&e.usize, &e.csize, &e.offset}) {
        if (*f != 0xFFFFFFFFu) continue;
        if (p + 8 > at + n) r.fail("member " + quote(e.name) + ": the zip64 field is too short");
        *f = r.u(p, 8, "a zip64 field");
        p += 8;
      }
    }
    at += n;
  }
}

std::vector<Entry> central_directory(const Reader& r) {
  const std::string_view b = r.b;
  if (b.size() < 22) r.fail("too short for a zip archive (" + std::to_string(b.size()) + " bytes)");
  // The end record sits in the last 22 + 65535 (comment) bytes.
  size_t eocd = std::string_view::npos;
  const size_t lowest = b.size() > 22 + 65535 ? b.size() - 22 - 65535 : 0;
  for (size_t i = b.size() - 22 + 1; i-- > lowest;)
    if (le(b, i, 4) == 0x06054b50) {
      eocd = i;
      break;
    }
  if (eocd == std::string_view::npos) r.fail("not a zip archive (no end of central directory record)");
  uint64_t entries = le(b, eocd + 10, 2), cd_size = le(b, eocd + 12, 4), cd_offset = le(b, eocd + 16, 4);
  if (entries == 0xFFFF || cd_size == 0xFFFFFFFFu || cd_offset == 0xFFFFFFFFu) {
    if (eocd < 20 || le(b, eocd - 20, 4) != 0x07064b50) r.fail("a zip64 archive without its end record locator");
    const uint64_t z = le(b, eocd - 20 + 8, 8);
    if (r.u(z, 4, "the zip64 end record") != 0x06064b50) r.fail("the zip64 end record is not where its locator says");
    entries = r.u(z + 32, 8, "the zip64 end record");
    cd_size = r.u(z + 40, 8, "the zip64 end record");
    cd_offset = r.u(z + 48, 8, "the zip64 end record");
  }
  r.need(cd_offset, cd_size, "the central directory");
  if (entries > cd_size / 46)
    r.fail(std::to_string(entries) + " members do not fit a central directory of " + std::to_string(cd_size) +
           " bytes");
  std::vector<Entry> out;
  uint64_t at = cd_offset;
  for (uint64_t i = 0; i < entries; ++i) {
    if (r.u(at, 4, "the central directory") != 0x02014b50) r.fail("a damaged central directory entry");
    Entry e;
    e.flags = r.u(at + 8, 2, "the central directory");
    e.method = r.u(at + 10, 2, "the central directory");
    e.crc = r.u(at + 16, 4, "the central directory");
    e.csize = r.u(at + 20, 4, "the central directory");
    e.usize = r.u(at + 24, 4, "the central directory");
    const uint64_t nlen = r.u(at + 28, 2, "the central directory"), xlen = r.u(at + 30, 2, "the central directory"),
                   clen = r.u(at + 32, 2, "the central directory");
    e.offset = r.u(at + 42, 4, "the central directory");
    r.need(at + 46, nlen + xlen + clen, "the central directory");
    e.name = std::string(b.substr(static_cast<size_t>(at + 46), static_cast<size_t>(nlen)));
    zip64_fields(r, at + 46 + nlen, xlen, e);
    out.push_back(std::move(e));
    at += 46 + nlen + xlen + clen;
  }
  return out;
}

std::string member_bytes(const Reader& r, const Entry& e) {
  const std::string m = "member " + quote(e.name);
  if (e.flags & 1) r.fail(m + " is encrypted");
  if (e.method != 0 && e.method != 8)
    throw Error(m + " is compressed with method " + std::to_string(e.method) + " (only stored and deflate are read)",
                "write the archive with numpy.savez or numpy.savez_compressed")
        .at(r.name);
  if (r.u(e.offset, 4, "a local header") != 0x04034b50) r.fail(m + ": no local header where the directory says");
  const uint64_t nlen = r.u(e.offset + 26, 2, "a local header"), xlen = r.u(e.offset + 28, 2, "a local header");
  const uint64_t data = e.offset + 30 + nlen + xlen;
  r.need(data, e.csize, ("the data of " + m).c_str());
  const std::string_view in = r.b.substr(static_cast<size_t>(data), static_cast<size_t>(e.csize));
  std::string out;
  if (e.method == 0) {
    if (e.csize != e.usize) r.fail(m + " is stored with two different sizes");
    out.assign(in);
  } else {
    if (e.usize > e.csize * kMaxDeflateRatio + 1024)
      r.fail(m + " claims " + std::to_string(e.usize) + " bytes from " + std::to_string(e.csize) +
             " deflated bytes, more than deflate can make");
    out.resize(static_cast<size_t>(e.usize));
    z_stream z{};
    if (inflateInit2(&z, -MAX_WBITS) != Z_OK) throw Error("zlib: cannot start inflating").at(r.name);
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
    z.avail_in = static_cast<uInt>(in.size());
    z.next_out = reinterpret_cast<Bytef*>(out.data());
    z.avail_out = static_cast<uInt>(out.size());
    const int rc = inflate(&z, Z_FINISH);
    const uint64_t got = z.total_out;
    inflateEnd(&z);
    if (rc != Z_STREAM_END || got != e.usize) r.fail(m + ": the deflated data is damaged or not of its stated size");
  }
  const uLong crc = crc32_z(crc32(0L, Z_NULL, 0), reinterpret_cast<const Bytef*>(out.data()), out.size());
  if (crc != e.crc) r.fail(m + ": CRC-32 mismatch (the data is damaged)");
  return out;
}

size_t descr_item_size(const std::string& d) {
  if (d.size() < 3 || std::string_view("<>|=").find(d[0]) == std::string_view::npos ||
      std::string_view("fiub").find(d[1]) == std::string_view::npos)
    return 0;
  const std::string n = d.substr(2);
  if (n != "1" && n != "2" && n != "4" && n != "8") return 0;
  const size_t s = static_cast<size_t>(n[0] - '0');
  if (d[0] == '>' && s > 1) return 0;  // big-endian
  if (d[1] == 'f' && s == 1) return 0;
  return s;
}

}  // namespace

uint64_t Array::elements() const {
  uint64_t n = 1;
  for (uint64_t d : shape) n *= d;
  return n;
}

size_t Array::item_size() const { return descr_item_size(descr); }

Archive parse(std::string_view bytes, const std::string& name) {
  const Reader r{bytes, name};
  Archive out;
  for (const Entry& e : central_directory(r)) {
    if (e.name.size() < 5 || e.name.compare(e.name.size() - 4, 4, ".npy") != 0)
      r.fail("member " + quote(e.name) + " is no .npy array");
    const std::string key = e.name.substr(0, e.name.size() - 4);
    if (out.count(key)) r.fail("member " + quote(e.name) + " twice");
    std::string raw = member_bytes(r, e);
    const std::string where = name + ": " + e.name;
    const npy::Header h = npy::parse_header(raw, where);
    Array a;
    a.descr = h.descr;
    a.shape = h.shape;
    const size_t item = a.item_size();
    if (item == 0)
      throw Error("member " + quote(e.name) + " holds dtype " + quote(h.descr) +
                      ", not a little-endian number type ('<f4', '<i8', '|i1', ...)",
                  "save the array as numbers")
          .at(name);
    if (h.fortran_order && h.shape.size() > 1) r.fail("member " + quote(e.name) + " is in Fortran order");
    uint64_t n = item;
    for (uint64_t d : h.shape) {
      if (d != 0 && n > std::numeric_limits<uint64_t>::max() / d) {
        n = std::numeric_limits<uint64_t>::max();
        break;
      }
      n *= d;
    }
    if (n != raw.size() - h.data_offset) {
      std::string s;
      for (uint64_t d : h.shape) s += (s.empty() ? "" : ", ") + std::to_string(d);
      r.fail("member " + quote(e.name) + ": shape (" + s + ") of " + h.descr + " does not match its " +
             std::to_string(raw.size() - h.data_offset) + " data bytes");
    }
    a.data = raw.substr(h.data_offset);
    out.emplace(key, std::move(a));
  }
  return out;
}

Archive read(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw Error("cannot open the .npz file").at(path);
  const std::string bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  if (f.bad()) throw Error("read error").at(path);
  return parse(bytes, path);
}

std::vector<float> floats(const Array& a, const std::string& file, const std::string& member) {
  std::vector<float> v(static_cast<size_t>(a.elements()));
  if (a.descr == "<f4") {
    std::memcpy(v.data(), a.data.data(), v.size() * 4);
  } else if (a.descr == "<f2") {
    for (size_t i = 0; i < v.size(); ++i) v[i] = npy::half_to_float(static_cast<uint16_t>(le(a.data, 2 * i, 2)));
  } else {
    throw Error("tensor " + quote(member) + " holds " + quote(a.descr) + ", not float32 or float16").at(file);
  }
  return v;
}

}  // namespace corpus::npz
