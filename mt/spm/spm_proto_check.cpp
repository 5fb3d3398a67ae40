#include "mt/spm/spm_proto_check.h"

#include <fmt/format.h>

#include <cstdint>

namespace mt {

namespace {

// The protobuf wire format: a field is a varint key (number << 3 | type),
// then a varint (0), 8 bytes (1), a varint length and that many bytes (2) or
// 4 bytes (5). Groups (3, 4) never occur in a ModelProto.
class Wire {
 public:
  explicit Wire(std::string_view b) : b_(b) {}
  bool done() const { return p_ == b_.size(); }

  bool varint(uint64_t& v) {
    v = 0;
    for (int shift = 0; shift < 64 && p_ < b_.size(); shift += 7) {
      auto c = static_cast<unsigned char>(b_[p_++]);
      v |= uint64_t{c & 0x7Fu} << shift;
      if (c < 0x80) return true;
    }
    return false;
  }

  // Reads one field; `bytes` receives the payload of a length-delimited one.
  bool field(uint64_t& number, uint64_t& type, std::string_view& bytes) {
    uint64_t key = 0, v = 0;
    if (!varint(key)) return false;
    number = key >> 3;
    type = key & 7;
    switch (type) {
      case 0: return varint(v);
      case 1: return skip(8);
      case 5: return skip(4);
      case 2:
        if (!varint(v) || v > b_.size() - p_) return false;
        bytes = b_.substr(p_, v);
        p_ += v;
        return true;
      default: return false;
    }
  }

 private:
  bool skip(size_t n) {
    if (n > b_.size() - p_) return false;
    p_ += n;
    return true;
  }
  std::string_view b_;
  size_t p_ = 0;
};

constexpr uint64_t kPieces = 1;      // ModelProto.pieces (repeated SentencePiece)
constexpr uint64_t kPieceText = 1;   // SentencePiece.piece (string)

}  // namespace

std::string spm_proto_problem(std::string_view model) {
  Wire top(model);
  size_t index = 0;
  while (!top.done()) {
    uint64_t number = 0, type = 0;
    std::string_view sub;
    if (!top.field(number, type, sub)) return "broken protobuf framing";
    if (number != kPieces) continue;
    if (type != 2) return fmt::format("piece {} is not a message", index);
    Wire w(sub);
    std::string_view text;
    while (!w.done()) {
      uint64_t n = 0, t = 0;
      std::string_view bytes;
      if (!w.field(n, t, bytes)) return fmt::format("piece {}: broken protobuf framing", index);
      if (n == kPieceText && t == 2) text = bytes;
    }
    if (text.empty()) return fmt::format("piece {} is empty", index);
    if (text.find('\0') != std::string_view::npos) return fmt::format("piece {} holds a NUL byte", index);
    ++index;
  }
  return {};
}

}  // namespace mt
