// corpus::split_fields (libcorpus/core/split_fields.h): empty fields are kept,
// so a wratio=1.75::2 or a file name "a..html" keeps its positions.
#include <doctest/doctest.h>

#include <string_view>
#include <vector>

#include "libcorpus/core/split_fields.h"

using Views = std::vector<std::string_view>;

TEST_CASE("split_fields: fields between separators, empty ones kept") {
  CHECK(corpus::split_fields("1.75:1.5:2:1.5", ':') == Views{"1.75", "1.5", "2", "1.5"});
  CHECK(corpus::split_fields("1.75::2", ':') == Views{"1.75", "", "2"});
  CHECK(corpus::split_fields(":a:", ':') == Views{"", "a", ""});
  CHECK(corpus::split_fields("index.de.html", '.') == Views{"index", "de", "html"});
  CHECK(corpus::split_fields("plain", '.') == Views{"plain"});
  CHECK(corpus::split_fields("", '.') == Views{""});
}
