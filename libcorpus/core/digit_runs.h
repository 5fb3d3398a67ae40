// The numbers of a text as two translations of it share them: the runs of
// ASCII digits ("v1.2, 30%" -> 1 2 30). pc-clean's numbers rule compares
// them; pc-mine's number prior lowers candidates whose runs differ.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

namespace corpus {

// The digit runs of `s`, sorted (views into s). Replaces `out`.
void digit_runs(std::string_view s, std::vector<std::string_view>& out);

// 0 when `s` has no digit; otherwise a 64-bit hash of its sorted digit runs
// (never 0), equal for two texts exactly when their runs are equal, bar
// hash collisions.
uint64_t digit_runs_key(std::string_view s);

}  // namespace corpus
