#include "align/ibm1_config.h"

#include "libcorpus/core/error.h"

namespace align {

namespace {

using Json = nlohmann::ordered_json;

enum class Kind { kString, kBool, kCount, kNumber, kNumberOrNull };

const char* kind_name(Kind k) {
  switch (k) {
    case Kind::kString: return "a string";
    case Kind::kBool: return "true or false";
    case Kind::kCount: return "an integer >= 0";
    case Kind::kNumber: return "a number";
    case Kind::kNumberOrNull: return "a number or null";
  }
  return "";
}

bool fits(const Json& v, Kind k) {
  switch (k) {
    case Kind::kString: return v.is_string();
    case Kind::kBool: return v.is_boolean();
    case Kind::kCount: return v.is_number_unsigned() || (v.is_number_integer() && v.get<int64_t>() >= 0);
    case Kind::kNumber: return v.is_number();
    case Kind::kNumberOrNull: return v.is_number() || v.is_null();
  }
  return false;
}

struct Key {
  const char* name;
  Kind kind;
};

// Every key pc-ibm1 train writes (align/ibm1_run.cpp), in its order.
constexpr Key kKeys[] = {
    {"tokenize", Kind::kString},       {"lowercase", Kind::kBool},       {"iterations", Kind::kCount},
    {"variational", Kind::kBool},      {"alpha", Kind::kNumber},         {"prune", Kind::kNumber},
    {"max_len", Kind::kCount},         {"src_lang", Kind::kString},      {"trg_lang", Kind::kString},
    {"pairs", Kind::kCount},           {"perplexity_fwd", Kind::kNumberOrNull},
    {"perplexity_rev", Kind::kNumberOrNull},
};

[[noreturn]] void bad_key(const std::string& path, const std::string& key, const std::string& expected,
                          const Json& v) {
  throw corpus::Error("model config key '" + key + "' must be " + expected + ", not " + corpus::quote(v.dump()),
                      "the file is damaged or was edited; train the model again with pc-ibm1 train")
      .at(path);
}

}  // namespace

TokenizerOptions check_ibm1_config(const Json& config, const std::string& path) {
  if (!config.is_object())
    throw corpus::Error("inconsistent IBM1 model: the config metadata is not a JSON object",
                        "the file is damaged; train the model again")
        .at(path);
  for (const Key& k : kKeys) {
    auto it = config.find(k.name);
    if (it != config.end() && !fits(*it, k.kind)) bad_key(path, k.name, kind_name(k.kind), *it);
  }
  TokenizerOptions o;
  if (auto it = config.find("tokenize"); it != config.end()) {
    const std::string& mode = it->get_ref<const std::string&>();
    if (mode == token_mode_name(TokenMode::kIcu)) o.mode = TokenMode::kIcu;
    else if (mode == token_mode_name(TokenMode::kWhitespace)) o.mode = TokenMode::kWhitespace;
    else bad_key(path, "tokenize", "\"icu\" or \"whitespace\"", *it);
  }
  if (auto it = config.find("lowercase"); it != config.end()) o.lowercase = it->get<bool>();
  return o;
}

}  // namespace align
