// .npy sentence vectors (pc-embed encode's output, pc-mine's input): the
// header check (magic, version, dict keys, descr, fortran_order, a 2-D shape
// whose byte size the file holds), then the properties a reader of vectors
// relies on. A file that passes is written back with the writer and must read
// back to the same matrix, bit for bit.
#include <cstring>

#include "libcorpus/core/error.h"
#include "libcorpus/core/npy.h"
#include "tests/fuzz/fuzz_input.h"

namespace npy = corpus::npy;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string& path = fuzz::as_file(fuzz::bytes(data, size), ".npy");
  npy::Matrix m;
  try {
    m = npy::read(path);
  } catch (const corpus::Error&) {
    return 0;
  }
  if (m.data.size() != m.rows * m.dim) fuzz::broken("data size is not rows x dim");
  const size_t elem = m.dtype == npy::Dtype::kF32 ? 4 : 2;
  if (m.rows * m.dim * elem > size) fuzz::broken("more vector bytes than the file holds");
  if (m.dim == 0) return 0;  // the writer refuses what it cannot frame
  const std::string back = path + ".back.npy";
  try {
    npy::Writer w(back, m.dim, m.dtype);
    w.write(m.data);
    w.commit();
    const npy::Matrix r = npy::read(back);
    if (r.rows != m.rows || r.dim != m.dim || r.dtype != m.dtype) fuzz::broken("written back with another shape");
    // Bit for bit, but a NaN may come back as another NaN (float16 NaN
    // payloads are not kept through float).
    for (size_t i = 0; i < m.data.size(); ++i) {
      const float a = m.data[i], b = r.data[i];
      if (a != a && b != b) continue;
      if (std::memcmp(&a, &b, sizeof a) != 0) fuzz::broken("vectors written back differ");
    }
  } catch (const corpus::Error&) {
    fuzz::broken("a matrix the reader accepted cannot be written and read back");
  }
  return 0;
}
