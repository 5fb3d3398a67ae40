// SHA-1 (FIPS 180-4), for WARC-Block-Digest / WARC-Payload-Digest only (the
// digests WARC readers expect), and base32 (RFC 4648) to print them.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace corpus {

std::array<uint8_t, 20> sha1(std::string_view data);
std::string base32(const uint8_t* p, size_t n);

}  // namespace corpus
