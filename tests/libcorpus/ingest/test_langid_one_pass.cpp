// One CLD2 pass per document (identify_document + chunk_language) against a
// call per paragraph.
#include <doctest/doctest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "libcorpus/ingest/ingest.h"
#include "libcorpus/ingest/langid.h"

using namespace corpus;
namespace fs = std::filesystem;

namespace {

const std::string kFr =
    "Le renard brun rapide saute par-dessus le chien paresseux, puis il traverse la rivière pour rejoindre la forêt "
    "où vivent ses amis les écureuils et les hiboux.";
const std::string kEn =
    "The quick brown fox jumps over the lazy dog, then crosses the river to reach the forest where its friends the "
    "squirrels and the owls live.";

}  // namespace

TEST_CASE("langid: identify_document labels the document as identify_language does") {
  for (const std::string& t : {kFr, kEn, kFr + "\n" + kFr + "\n" + kEn, std::string("ls -l /usr/bin | wc -l"),
                               std::string(), std::string("12345 67890")}) {
    INFO(t);
    DocumentLanguages dl;
    identify_document(t, 50, dl);
    CHECK(dl.doc.lang == identify_language(t, 50).lang);
    size_t covered = 0;
    for (const LangChunk& c : dl.chunks) covered += c.bytes;
    CHECK(covered <= t.size());
  }
}

TEST_CASE("langid: chunk_language takes one language covering half a long paragraph, else none") {
  const char* fr = "fr";
  const char* en = "en";
  std::vector<LangChunk> chunks{{0, 100, fr}, {100, 10, nullptr}, {110, 90, fr}, {200, 100, en}};
  size_t cursor = 0;
  CHECK(chunk_language(chunks, cursor, 0, 80) == fr);  // inside one French chunk
  CHECK(chunk_language(chunks, cursor, 60, 180) == fr);      // French, a stretch of no language between
  CHECK(chunk_language(chunks, cursor, 150, 250) == nullptr);  // French and English
  CHECK(chunk_language(chunks, cursor, 250, 250 + kChunkMinBytes - 1) == nullptr);  // too short to trust
  CHECK(chunk_language(chunks, cursor, 210, 290) == en);
  CHECK(cursor == 3);
  std::vector<LangChunk> none{{0, 100, nullptr}};
  cursor = 0;
  CHECK(chunk_language(none, cursor, 0, 100) == nullptr);
  std::vector<LangChunk> thin{{0, 30, fr}, {30, 70, nullptr}};  // under half of the paragraph in a language
  cursor = 0;
  CHECK(chunk_language(thin, cursor, 0, 100) == nullptr);
}

TEST_CASE("ingest: one pass labels a page's foreign paragraph as two passes do") {
  fs::path dir = fs::temp_directory_path() / ("pc-ingest-onepass-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::ofstream(dir / "p.html") << "<p>" << kFr << "</p><p>" << kFr << " Encore une fois.</p><p>" << kEn
                                << "</p><p>" << kFr << " Et la fin.</p>";
  std::vector<std::string> labels[2];
  for (bool one : {true, false}) {
    IngestOptions o;
    o.one_pass_langid = one;
    IngestCallbacks cb;
    cb.write = [&](const std::string&, std::string_view line) {
      const auto doc = nlohmann::json::parse(line);
      for (const auto& l : doc["para_langs"]) labels[one].push_back(l.get<std::string>());
    };
    run_ingest({(dir / "p.html").string()}, o, cb);
  }
  fs::remove_all(dir);
  INFO(nlohmann::json(labels[1]).dump() << " " << nlohmann::json(labels[0]).dump());
  CHECK(labels[1] == std::vector<std::string>{"fr", "fr", "en", "fr"});
  CHECK(labels[0] == labels[1]);
}
