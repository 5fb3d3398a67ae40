// A cheap walk over a serialised SentencePiece ModelProto before
// libsentencepiece loads it.
//
// libsentencepiece checks little of what it reads: it hands the pieces to its
// Darts trie as C strings, so a piece that is empty or starts with NUL throws
// Darts::Details::Exception ("zero-length key") and one with a NUL inside
// breaks the trie's key order, none of it a sentencepiece::util::Status. This
// walk reads only the protobuf framing and the pieces, in one pass over the
// bytes, and allocates nothing.
#pragma once

#include <string>
#include <string_view>

namespace mt {

// "" when the framing holds and every piece is a non-empty string without
// NUL; else what is wrong, for the error message.
std::string spm_proto_problem(std::string_view model);

}  // namespace mt
