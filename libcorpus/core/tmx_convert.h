// TSV <-> TMX conversion, streaming in constant memory.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>

#include "libcorpus/core/input.h"
#include "libcorpus/core/tmx.h"
#include "libcorpus/core/tsv.h"

namespace corpus {

class Output;

struct ConvertStats {
  uint64_t rows_in = 0;    // data rows (TSV) or <tu>s (TMX) read
  uint64_t rows_out = 0;   // <tu>s or TSV rows written
  uint64_t skipped = 0;    // bad records skipped (--skip-bad)
  uint64_t replaced = 0;   // segments whose tabs/newlines became spaces
};

// Called after each chunk: compressed input bytes read, records so far.
using ProgressFn = std::function<void(uint64_t bytes, uint64_t records)>;

struct TsvToTmxOptions {
  std::string src_lang, trg_lang;  // required
  bool skip_bad = false;
  std::string tool_version;
  Props header_props;  // extra header <prop>s (provenance)
  size_t batch_bytes = size_t{1} << 20;
};

// Rows are converted on the oneTBB workers, written in input order.
ConvertStats tsv_to_tmx(BitextLines& in, Output& out, const TsvToTmxOptions& opt, const ProgressFn& progress);

struct TmxToTsvOptions {
  std::string src_lang, trg_lang;  // empty: from the header / first <tu>
  bool skip_bad = false;
};

ConvertStats tmx_to_tsv(ByteSource& in, Output& out, const TmxToTsvOptions& opt, const ProgressFn& progress);

// Language codes from a file name: "en-fr.tsv", "corpus.en-fr.tsv.gz",
// "wmt_de-en.tsv" give {en,fr}, {en,fr}, {de,en}; for Moses files
// "train.en" + "train.fr" use lang_from_suffix on each.
std::optional<std::pair<std::string, std::string>> langs_from_filename(const std::string& path);
std::string lang_from_suffix(const std::string& path);

// True when two language tags name the same language: equal ignoring case,
// or with the same primary subtag when one of them has no region ("en" ~ "en-GB").
bool same_language(std::string_view a, std::string_view b);

}  // namespace corpus
