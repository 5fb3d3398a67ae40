// Writing .npz archives in tests: stored zip members of .npy arrays, so a
// test can build a damaged or hostile archive byte by byte.
#pragma once

#include <zlib.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "libcorpus/core/npz.h"

inline void npz_put_le(std::string& s, uint64_t v, int n) {
  for (int i = 0; i < n; ++i) s += static_cast<char>(v >> (8 * i) & 0xFF);
}

// A zip of stored members (no zip64), the smallest archive the reader takes.
inline std::string zip_of(const std::vector<std::pair<std::string, std::string>>& members) {
  std::string body, cd;
  auto le = [](std::string& s, uint64_t v, int n) { npz_put_le(s, v, n); };
  for (const auto& [name, data] : members) {
    const uint64_t crc = crc32(0, reinterpret_cast<const Bytef*>(data.data()), static_cast<uInt>(data.size()));
    const uint64_t offset = body.size();
    body += "PK\x03\x04";
    le(body, 20, 2), le(body, 0, 2), le(body, 0, 2), le(body, 0, 4);
    le(body, crc, 4), le(body, data.size(), 4), le(body, data.size(), 4);
    le(body, name.size(), 2), le(body, 0, 2);
    body += name + data;
    cd += "PK\x01\x02";
    le(cd, 20, 2), le(cd, 20, 2), le(cd, 0, 2), le(cd, 0, 2), le(cd, 0, 4);
    le(cd, crc, 4), le(cd, data.size(), 4), le(cd, data.size(), 4);
    le(cd, name.size(), 2), le(cd, 0, 2), le(cd, 0, 2), le(cd, 0, 2), le(cd, 0, 2);
    le(cd, 0, 4), le(cd, offset, 4);
    cd += name;
  }
  std::string end = "PK\x05\x06";
  le(end, 0, 4), le(end, members.size(), 2), le(end, members.size(), 2);
  le(end, cd.size(), 4), le(end, body.size(), 4), le(end, 0, 2);
  return body + cd + end;
}

// A version 1.0 .npy: `dict` is the header's Python dict literal.
inline std::string npy_of(const std::string& dict, const std::string& data) {
  std::string h = dict;
  while ((10 + h.size() + 1) % 64) h += ' ';
  h += '\n';
  std::string s("\x93NUMPY\x01\x00", 8);
  npz_put_le(s, h.size(), 2);
  return s + h + data;
}

inline std::string npy_of(const corpus::npz::Array& a) {
  std::string shape;
  for (uint64_t d : a.shape) shape += std::to_string(d) + ", ";
  return npy_of("{'descr': '" + a.descr + "', 'fortran_order': False, 'shape': (" + shape + "), }", a.data);
}

inline std::string zip_of(const corpus::npz::Archive& a) {
  std::vector<std::pair<std::string, std::string>> m;
  for (const auto& [name, arr] : a) m.emplace_back(name + ".npy", npy_of(arr));
  return zip_of(m);
}
