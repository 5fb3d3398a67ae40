// run_line_pipeline: the consumer sees every line once, in input order,
// whatever the thread count and batch size.
#include <doctest/doctest.h>

#include <tbb/task_arena.h>

#include <string>
#include <vector>

#include "libcorpus/core/line_pipeline.h"

using namespace corpus;

namespace {

struct Run {
  std::string out;                 // what the consumer wrote, in its order
  std::vector<uint64_t> first_rows;  // of each batch, in consumer order
  uint64_t lines = 0;
};

// Lines of varied length; the transform does work that varies per batch, so
// the batches finish out of order on several threads.
Run run(const std::vector<std::string>& lines, int threads, size_t batch_bytes) {
  size_t next = 0;
  LinePipelineSource src;
  src.next = [&](std::string& out) {
    if (next == lines.size()) return false;
    out.append(lines[next++]);
    return true;
  };
  src.line_number = [&] { return static_cast<uint64_t>(next); };
  Run r;
  tbb::task_arena arena(threads);
  arena.execute([&] {
    run_line_pipeline(
        src, batch_bytes,
        [](LineBatch& b) {
          uint64_t spin = 0;
          for (size_t i = 0; i < b.size(); ++i) {
            std::string_view l = b.line(i);
            for (size_t k = 0; k < (b.first_row % 7) * 2000; ++k) spin += k ^ l.size();
            b.out += std::to_string(b.first_line + i) + ':' + std::string(l) + '\n';
          }
          b.rows_out = b.size() + (spin == 1);  // keeps the spin from being optimised away
        },
        [&](LineBatch& b) {
          r.out += b.out;
          r.first_rows.push_back(b.first_row);
          r.lines += b.size();
        });
  });
  return r;
}

}  // namespace

TEST_CASE("line pipeline: output order does not depend on threads or batch size") {
  std::vector<std::string> lines;
  std::string expected;
  for (int i = 0; i < 3000; ++i) {
    lines.push_back("line " + std::to_string(i) + std::string(static_cast<size_t>(i * 37 % 90), 'x'));
    expected += std::to_string(i + 1) + ':' + lines.back() + '\n';
  }
  for (int threads : {1, 2, 4})
    for (size_t batch : {size_t{1}, size_t{100}, size_t{4096}, size_t{1} << 20}) {
      INFO("threads " << threads << ", batch bytes " << batch);
      Run r = run(lines, threads, batch);
      CHECK(r.lines == lines.size());
      CHECK(r.out == expected);
      for (size_t k = 1; k < r.first_rows.size(); ++k) REQUIRE(r.first_rows[k] > r.first_rows[k - 1]);
      if (batch == 1) CHECK(r.first_rows.size() == lines.size());  // a line per batch at least
    }
}

TEST_CASE("line pipeline: empty input and empty lines") {
  Run none = run({}, 2, 100);
  CHECK(none.lines == 0);
  CHECK(none.out.empty());
  Run blanks = run({"", "", "a", ""}, 2, 1);
  CHECK(blanks.out == "1:\n2:\n3:a\n4:\n");
}

TEST_CASE("line pipeline: an exception in the transform reaches the caller") {
  std::vector<std::string> lines(500, "some line");
  lines[321] = "boom";
  size_t next = 0;
  LinePipelineSource src;
  src.next = [&](std::string& out) {
    if (next == lines.size()) return false;
    out.append(lines[next++]);
    return true;
  };
  src.line_number = [&] { return static_cast<uint64_t>(next); };
  tbb::task_arena arena(4);
  arena.execute([&] {
    CHECK_THROWS_WITH(run_line_pipeline(
                          src, 64,
                          [](LineBatch& b) {
                            for (size_t i = 0; i < b.size(); ++i)
                              if (b.line(i) == "boom") throw std::runtime_error("boom at " + std::to_string(b.first_line + i));
                          },
                          [](LineBatch&) {}),
                      "boom at 322");
  });
}
