// Reading the config object of a model file (an NMT model's, a neural
// encoder's): every value is checked for its type and range here, by key,
// before anything is sized by it, so a damaged or hand-edited file is an Error
// naming the key and the value (nlohmann's get<int>() would take 4294967312
// as 16, and a huge layer count would be allocated before anything noticed).
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>

namespace mt {

class ConfigFields {
 public:
  // `what` names the config in errors ("model config", "encoder config").
  // Not an object: an Error.
  ConfigFields(const nlohmann::json& j, std::string what);

  const nlohmann::json& field(const std::string& key) const;
  int int_field(const std::string& key, uint64_t lo, uint64_t hi) const;
  bool bool_field(const std::string& key) const;
  std::string string_field(const std::string& key, const std::string& want) const;
  [[noreturn]] void bad_key(const std::string& key, const nlohmann::json& v, const std::string& want) const;

 private:
  const nlohmann::json& j_;
  std::string what_;
};

}  // namespace mt
