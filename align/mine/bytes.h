// Little helpers for the binary files of align/mine (index and top-k list
// files): a value's bytes appended to a string, and read back from one.
#pragma once

#include <cstddef>
#include <cstring>
#include <string>

namespace align::mine {

template <class T>
void put(std::string& s, T v) {
  char b[sizeof(T)];
  std::memcpy(b, &v, sizeof(T));
  s.append(b, sizeof(T));
}

template <class T>
T get(const std::string& s, size_t at) {
  T v;
  std::memcpy(&v, s.data() + at, sizeof(T));
  return v;
}

}  // namespace align::mine
