// The config of an IBM1 model file (the JSON in its "config" metadata) and
// its check on load.
//
// pc-ibm1 train writes these keys; a model file is read only if each one that
// is present has the right type (and tokenize a known mode):
//   tokenize     "icu" or "whitespace"      lowercase    true or false
//   iterations   integer >= 0                variational  true or false
//   alpha        number                      prune        number
//   max_len      integer >= 0                src_lang, trg_lang  strings
//   pairs        integer >= 0                perplexity_fwd, perplexity_rev  number or null
// (null: JSON has no NaN or infinity). A missing key takes the default of the
// setting (icu, no lowercasing), so files written before a key existed still
// load; keys this version does not know are left alone, as nothing reads them.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "align/tokenize.h"

namespace align {

// Checks `config` as above and returns its tokenisation settings. A wrong key
// is a corpus::Error (a data error: the file is damaged or was edited) at
// `path` that names the key, the expected type and the value found.
TokenizerOptions check_ibm1_config(const nlohmann::ordered_json& config, const std::string& path);

}  // namespace align
