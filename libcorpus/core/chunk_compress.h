// One self-contained compressed chunk: a gzip member or a zstd frame.
// Concatenated chunks are a valid stream for every reader (and for
// corpus::open_input), which lets a writer append record by record.
#pragma once

#include <string>
#include <string_view>

namespace corpus {

std::string gzip_member(std::string_view data);
std::string zstd_frame(std::string_view data);

}  // namespace corpus
