// NumPy .npz archives (numpy.savez, Marian's model files): a zip archive
// whose members NAME.npy are .npy arrays, stored or deflated.
//
// The reader takes the archive from the central directory (zip64 sizes and
// offsets included, as numpy writes them), checks each member's local header,
// sizes and CRC-32, and each array's header and byte count against its dtype
// and shape, so that a cut, damaged or hostile file is a corpus::Error naming
// the file and the member before anything is sized by it. A deflated member
// may not claim more than deflate can make of its compressed bytes.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace corpus::npz {

struct Array {
  std::string descr;            // numpy's dtype string: '<f4', '|i1', ...
  std::vector<uint64_t> shape;  // C order
  std::string data;             // the array's bytes, little-endian as stored
  uint64_t elements() const;
  size_t item_size() const;  // bytes per element (from descr)
};

// Members by name without ".npy" (Marian's "special:model.yml" included).
using Archive = std::map<std::string, Array>;

// Reads a whole file / archive bytes held in memory (`name` names it in
// errors). Members that do not end in ".npy" are refused.
Archive read(const std::string& path);
Archive parse(std::string_view bytes, const std::string& name);

// The values of a float32 or float16 array as float; an Error naming `file`
// and `member` for another dtype.
std::vector<float> floats(const Array& a, const std::string& file, const std::string& member);

}  // namespace corpus::npz
