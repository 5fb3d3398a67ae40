// TMX 1.4b: a streaming writer and a streaming reader (expat).
//
// Layout written (one <tu> per bitext row):
//   <tu tuid="ROW">
//     <prop type="COLUMN">VALUE</prop>            one per extra TSV column
//     <tuv xml:lang="SRC">
//       <prop type="source-document">URL</prop>   when there is a src_url column
//       <seg>TEXT</seg>
//     </tuv>
//     <tuv xml:lang="TRG"> ... </tuv>
//   </tu>
// The header records the TSV columns (x-paracorp-columns) and whether the TSV
// had a header line (x-paracorp-tsv-header), so TMX -> TSV restores the file.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "libcorpus/core/input.h"

namespace corpus {

using Props = std::vector<std::pair<std::string, std::string>>;

struct TmxHeader {
  std::string creationtool = "paracorp";
  std::string creationtoolversion;
  std::string segtype = "sentence";
  std::string o_tmf = "paracorp-tsv";
  std::string adminlang = "en";
  std::string srclang;
  std::string datatype = "plaintext";
  Props props;  // header-level <prop>s, in order
};

// Writes "<?xml ...?><tmx version=\"1.4\"><header .../><body>" into `out`.
void append_tmx_start(std::string& out, const TmxHeader& h);
// Writes "</body></tmx>".
void append_tmx_end(std::string& out);

// Where each TSV column goes in a <tu>.
struct TmxLayout {
  std::string src_lang, trg_lang;
  int src_text = -1, trg_text = -1, src_url = -1, trg_url = -1;
  std::vector<std::pair<int, std::string>> tu_props;  // column index, prop type

  static TmxLayout from_columns(const std::vector<std::string>& names, std::string src_lang, std::string trg_lang);
};

// Appends one <tu>. Returns "" or what is wrong (a character XML cannot hold).
std::string append_tmx_unit(std::string& out, const TmxLayout& layout, const std::vector<std::string_view>& fields,
                            uint64_t tuid);

// ---- reading ----

struct TmxVariant {
  std::string lang;  // xml:lang (or TMX 1.1 lang)
  std::string seg;   // text of <seg>, inline codes (bpt/ept/ph/it/ut) left out
  Props props;
};

struct TmxUnit {
  std::string tuid;
  Props props;
  std::vector<TmxVariant> variants;
  uint64_t line = 0;  // line of the <tu> start tag
  // Not empty when the unit is malformed (a misplaced element inside it, or a
  // misplaced element outside any <tu>, which comes as a unit of its own):
  // what is wrong, and the line where. The rest of the unit is still read, so
  // a caller may skip it and go on.
  std::string error;
  uint64_t error_line = 0;
};

// Elements nested deeper than this end the run with an Error (the XML parser's
// memory grows with the depth; real TMX nests fewer than ten levels).
inline constexpr size_t kMaxTmxDepth = 1000;

// Pulls <tu>s one at a time, parsing the input in 64 KiB chunks: memory stays
// bounded by the chunk plus the longest unit.
class TmxReader {
 public:
  explicit TmxReader(ByteSource& src);
  ~TmxReader();
  TmxReader(const TmxReader&) = delete;
  TmxReader& operator=(const TmxReader&) = delete;

  // The <header>; parses until it has been seen. Error if the input is not TMX.
  const TmxHeader& header();
  // The next unit, malformed ones included (see TmxUnit::error); false at the
  // end of the body.
  bool next(TmxUnit& unit);

  struct State;

 private:
  bool feed();  // parses one more chunk; false at end of input

  ByteSource& src_;
  uint64_t bytes_ = 0;
  std::unique_ptr<State> st_;
};

}  // namespace corpus
