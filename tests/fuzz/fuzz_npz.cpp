// .npz archives (Marian models for pc-nmt import-marian): the zip directory
// (zip64 included), local headers, stored and deflated members with their
// CRC, and each member's .npy header against its data. An archive that passes
// holds arrays whose bytes are what dtype and shape say, and is written back
// (stored) and must read back to the same arrays.
#include "libcorpus/core/error.h"
#include "libcorpus/core/npz.h"
#include "tests/fuzz/fuzz_input.h"
#include "tests/support/npz_write.h"

namespace npz = corpus::npz;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  npz::Archive a;
  try {
    a = npz::parse(fuzz::bytes(data, size), "fuzz.npz");
  } catch (const corpus::Error&) {
    return 0;
  }
  uint64_t total = 0;
  for (const auto& [name, arr] : a) {
    if (arr.item_size() == 0) fuzz::broken("an array of an unknown dtype was accepted");
    if (arr.elements() * arr.item_size() != arr.data.size()) fuzz::broken("array bytes differ from dtype x shape");
    total += arr.data.size();
    if (arr.descr == "<f4" || arr.descr == "<f2") {
      if (npz::floats(arr, "fuzz.npz", name).size() != arr.elements()) fuzz::broken("floats() gave another count");
    }
  }
  // deflate makes at most 1032 bytes of one; stored members are the input's.
  if (total > static_cast<uint64_t>(size) * 1032 + 1024 * (a.size() + 1))
    fuzz::broken("more array bytes than possible");
  try {
    const npz::Archive b = npz::parse(zip_of(a), "back.npz");
    if (b.size() != a.size()) fuzz::broken("written back with another member count");
    for (const auto& [name, arr] : a) {
      const auto it = b.find(name);
      if (it == b.end() || it->second.descr != arr.descr || it->second.shape != arr.shape ||
          it->second.data != arr.data)
        fuzz::broken("a member written back differs");
    }
  } catch (const corpus::Error&) {
    fuzz::broken("an archive the reader accepted cannot be written and read back");
  }
  return 0;
}
