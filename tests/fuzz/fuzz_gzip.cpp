// gzip input (ISA-L's inflate behind open_input), checked against zlib: the
// same bytes must decode to the same text through both, or fail through both.
// zlib reads the members the way open_input's reader did before ISA-L:
// concatenated members, nothing but another member after one, and a
// member's CRC-32 and length checked.
#include <zlib.h>

#include <cstring>

#include "libcorpus/core/error.h"
#include "libcorpus/core/input.h"
#include "tests/fuzz/fuzz_input.h"

namespace {

// The decoded bytes, or false where zlib finds the stream broken.
bool zlib_decode(std::string_view in, std::string& out) {
  z_stream z;
  std::memset(&z, 0, sizeof z);
  if (inflateInit2(&z, 15 + 16) != Z_OK) std::abort();
  char buf[65536];
  size_t pos = 0;
  bool ok = true, between = false;
  while (true) {
    if (between) {
      if (pos == in.size()) break;
      if (static_cast<unsigned char>(in[pos]) != 0x1f) {
        ok = false;
        break;
      }
      inflateReset(&z);
      between = false;
    }
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data() + pos));
    z.avail_in = static_cast<uInt>(in.size() - pos);
    z.next_out = reinterpret_cast<Bytef*>(buf);
    z.avail_out = sizeof buf;
    const int rc = inflate(&z, Z_NO_FLUSH);
    pos = in.size() - z.avail_in;
    out.append(buf, sizeof buf - z.avail_out);
    if (rc == Z_STREAM_END) {
      between = true;
    } else if (rc != Z_OK || (z.avail_in == 0 && z.avail_out > 0)) {
      ok = false;  // an error, or the input ended inside a member
      break;
    }
  }
  inflateEnd(&z);
  return ok;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view in = fuzz::bytes(data, size);
  // open_input takes gzip by its magic bytes; other inputs are not this
  // target's subject.
  if (size < 2 || data[0] != 0x1f || data[1] != 0x8b) return 0;
  const std::string& path = fuzz::as_file(in, ".gz");
  std::string got;
  bool ok = true;
  try {
    auto src = corpus::open_input(path);
    if (src->compression() != corpus::Compression::kGzip) fuzz::broken("gzip magic not read as gzip");
    std::string buf(fuzz::chunk_for(in), '\0');
    for (size_t n; (n = src->read(buf.data(), buf.size())) > 0;) got.append(buf, 0, n);
  } catch (const corpus::Error& e) {
    if (std::getenv("FUZZ_GZIP_DEBUG")) std::fprintf(stderr, "%s\n", e.what());
    ok = false;
  }
  std::string want;
  const bool want_ok = zlib_decode(in, want);
  if (ok != want_ok) fuzz::broken(ok ? "ISA-L accepted what zlib refuses" : "ISA-L refused what zlib accepts");
  if (ok && got != want) fuzz::broken("ISA-L and zlib decoded different bytes");
  return 0;
}
