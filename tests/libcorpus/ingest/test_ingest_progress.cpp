// run_ingest's progress: each record's position is where the input stage
// stood when it read that record, not wherever it has got to since (it runs
// ahead on another thread, and reading its source from the last stage was a
// race that crashed when the source was reset).
#include <doctest/doctest.h>

#include <tbb/task_arena.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "libcorpus/ingest/ingest.h"

using namespace corpus;
namespace fs = std::filesystem;

TEST_CASE("ingest: progress gives each record the position it was read at, on any thread count") {
  fs::path dir = fs::temp_directory_path() / ("pc-ingest-progress-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::vector<std::string> inputs;
  std::vector<uint64_t> expected;  // bytes of all inputs up to and including each
  uint64_t total = 0;
  for (int i = 0; i < 40; ++i) {
    std::string path = (dir / ("p" + std::to_string(i) + ".html")).string();
    std::ofstream(path) << "<p>Le renard brun rapide saute par-dessus le chien paresseux, page " << i << ". "
                        << std::string(static_cast<size_t>(i * 97 % 500), 'x') << "</p>\n";
    inputs.push_back(path);
    total += fs::file_size(path);
    expected.push_back(total);
  }
  for (int threads : {1, 2, 4}) {
    INFO("threads " << threads);
    std::vector<std::pair<uint64_t, uint64_t>> seen;
    IngestCallbacks cb;
    cb.write = [](const std::string&, std::string_view) {};
    cb.progress = [&](uint64_t bytes, uint64_t records) { seen.emplace_back(bytes, records); };
    IngestOptions o;
    o.dedup = false;
    tbb::task_arena arena(threads);
    IngestStats st;
    arena.execute([&] { st = run_ingest(inputs, o, cb); });
    CHECK(st.records == inputs.size());
    REQUIRE(seen.size() == inputs.size());
    for (size_t k = 0; k < seen.size(); ++k) {
      CHECK(seen[k].second == k + 1);
      CHECK(seen[k].first == expected[k]);
    }
  }
  fs::remove_all(dir);
}

TEST_CASE("ingest: outcomes are counted in first-seen order") {
  fs::path dir = fs::temp_directory_path() / ("pc-ingest-outcomes-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::vector<std::string> inputs;
  const char* doc = "<p>Le renard brun rapide saute par-dessus le chien paresseux.</p>";
  for (const char* body : {"<p> </p>", doc, doc, "<div></div>"}) {
    std::string path = (dir / ("f" + std::to_string(inputs.size()) + ".html")).string();
    std::ofstream(path) << body;
    inputs.push_back(path);
  }
  IngestCallbacks cb;
  cb.write = [](const std::string&, std::string_view) {};
  IngestStats st = run_ingest(inputs, IngestOptions{}, cb);
  REQUIRE(st.outcomes.entries().size() == 2);
  CHECK(st.outcomes.entries()[0].first == "no text");
  CHECK(st.outcomes.get("no text") == 2);
  CHECK(st.outcomes.entries()[1].first == "duplicate");
  CHECK(st.docs == 1);
  fs::remove_all(dir);
}
