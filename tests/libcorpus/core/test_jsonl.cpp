// Document lines: nesting is bounded when read, and the writer takes any depth.
#include <doctest/doctest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "libcorpus/core/json_write.h"
#include "libcorpus/core/jsonl.h"

using namespace corpus;

namespace {

// {"url":"u","lang":"en","text":"Hi.","x":[[[...]]]} with the document at
// level 1, so the deepest array is at level `depth`.
std::string nested_doc(size_t depth) {
  return R"({"url":"u","lang":"en","text":"Hi.","x":)" + std::string(depth - 1, '[') + std::string(depth - 1, ']') +
         "}";
}

}  // namespace

TEST_CASE("json_nesting_depth counts brackets outside strings only") {
  CHECK(json_nesting_depth("{}") == 1);
  CHECK(json_nesting_depth(R"({"a":[1,{"b":[]}]})") == 4);
  CHECK(json_nesting_depth(R"({"a":"[[[[{{{{","b":"\"[[["})") == 1);
  CHECK(json_nesting_depth(R"({"a":"\\"}[[[)") == 3);  // an escaped backslash ends the string
  CHECK(json_nesting_depth("3") == 0);
  CHECK(json_nesting_depth(std::string(5000, '['), 10) == 11);  // stops once past the limit
}

TEST_CASE("a document nested past the limit is a bad line, one at the limit parses") {
  Document d;
  CHECK(parse_document(nested_doc(kMaxJsonDepth), d) == "");
  CHECK(d.text() == "Hi.");
  CHECK(parse_document(nested_doc(kMaxJsonDepth + 1), d) ==
        "JSON nested more than " + std::to_string(kMaxJsonDepth) + " levels deep");
  CHECK(parse_document(nested_doc(10'000), d) != "");
}

TEST_CASE("a document at the depth limit writes back byte for byte") {
  Document d;
  const std::string line = nested_doc(kMaxJsonDepth);
  REQUIRE(parse_document(line, d) == "");
  CHECK(serialize_document(d) == line);
}

TEST_CASE("append_json writes a value nested 100,000 levels deep without recursion") {
  // Built bottom-up: nlohmann's parser and destructor take any depth.
  nlohmann::ordered_json j = nlohmann::ordered_json::array();
  for (int i = 0; i < 100'000; ++i) {
    nlohmann::ordered_json outer = nlohmann::ordered_json::array();
    outer.push_back(std::move(j));
    j = std::move(outer);
  }
  std::string out;
  append_json(out, j);
  CHECK(out == std::string(100'001, '[') + std::string(100'001, ']'));
  nlohmann::ordered_json obj = {{"k", nlohmann::ordered_json::array({1, "s", nullptr})}, {"e", nlohmann::ordered_json::object()}};
  out.clear();
  append_json(out, obj);
  CHECK(out == obj.dump());
}
