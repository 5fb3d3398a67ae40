#include "mt/model/config_fields.h"

#include <fmt/format.h>

#include <utility>

#include "libcorpus/core/error.h"

namespace mt {

ConfigFields::ConfigFields(const nlohmann::json& j, std::string what) : j_(j), what_(std::move(what)) {
  if (!j_.is_object()) throw corpus::Error(fmt::format("bad {}: not a JSON object", what_));
}

void ConfigFields::bad_key(const std::string& key, const nlohmann::json& v, const std::string& want) const {
  std::string shown = v.dump();
  if (shown.size() > 60) shown = shown.substr(0, 57) + "...";
  throw corpus::Error(fmt::format("bad {}: '{}' is {}, expected {}", what_, key, shown, want));
}

const nlohmann::json& ConfigFields::field(const std::string& key) const {
  auto it = j_.find(key);
  if (it == j_.end()) throw corpus::Error(fmt::format("bad {}: '{}' is missing", what_, key));
  return *it;
}

int ConfigFields::int_field(const std::string& key, uint64_t lo, uint64_t hi) const {
  const nlohmann::json& v = field(key);
  const bool negative = v.is_number_integer() && !v.is_number_unsigned() && v.get<int64_t>() < 0;
  if (!v.is_number_integer() || negative || v.get<uint64_t>() < lo || v.get<uint64_t>() > hi)
    bad_key(key, v, fmt::format("an integer from {} to {}", lo, hi));
  return static_cast<int>(v.get<uint64_t>());
}

bool ConfigFields::bool_field(const std::string& key) const {
  const nlohmann::json& v = field(key);
  if (!v.is_boolean()) bad_key(key, v, "true or false");
  return v.get<bool>();
}

std::string ConfigFields::string_field(const std::string& key, const std::string& want) const {
  const nlohmann::json& v = field(key);
  if (!v.is_string()) bad_key(key, v, want);
  return v.get<std::string>();
}

}  // namespace mt
