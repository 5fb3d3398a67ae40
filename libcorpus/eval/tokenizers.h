// sacreBLEU's BLEU tokenisers, reimplemented: 13a (mteval-v13a), intl
// (mteval-v14 international), zh, char and none. Each turns one line into
// tokens exactly as sacreBLEU 2.x does (its regular expressions are emulated
// with scanners that follow re.sub's leftmost, non-overlapping matching).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace corpus::eval {

enum class Tokenizer { k13a, kIntl, kZh, kChar, kNone };

// "13a", "intl", "zh", "char", "none" (the signature's tok: value).
const char* tokenizer_name(Tokenizer t);
// Parses a name; throws corpus::ConfigError for an unknown one.
Tokenizer parse_tokenizer(std::string_view name);

// Tokenises `line` (valid UTF-8). The tokens are views into `buf`, which the
// function fills; they stay valid until `buf` changes.
void tokenize(Tokenizer t, std::string_view line, std::string& buf, std::vector<std::string_view>& tokens);

// The tokenised line as sacreBLEU's tokenizer returns it (tokens joined by
// single spaces), for tests and inspection.
std::string tokenize_to_string(Tokenizer t, std::string_view line);

}  // namespace corpus::eval
