// Pass 1 of ingest.h for one item: checks, decoding, HTML -> blocks,
// boilerplate blocks out. Pure function of the item and the options, so it
// runs on any worker thread.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "libcorpus/ingest/ingest.h"
#include "libcorpus/ingest/ingest_source.h"

namespace corpus {

struct Extracted {
  std::string outcome;        // "" = a candidate document; else why the record is dropped
  bool bad = false;           // the record is bad input (stops the run unless --skip-bad)
  std::string message;        // for bad records: what is wrong, with the record's location
  std::string url, title, mime, charset, date, host;
  std::string page_lang;         // page_language() of the kept paragraphs: repeats are counted per host and this
  std::vector<std::string> paras;
  std::vector<uint64_t> hashes;  // hash64 of each paragraph
  std::string beside_dropped;    // per paragraph: '1' when a block next to it on the page was boilerplate, else '0'
  std::string input;
  uint64_t number = 0, offset = 0, length = 0;
  bool is_warc = false;
};

Extracted extract_item(IngestItem& item, const IngestOptions& o);

}  // namespace corpus
