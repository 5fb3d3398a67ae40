// bench_linecount: counts lines with corpus::LineReader, for comparison with
// `wc -l` in bench/bench-io.sh. Usage: bench_linecount FILE
#include <cstdio>

#include "libcorpus/core/error.h"
#include "libcorpus/core/input.h"
#include "libcorpus/core/line_reader.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: bench_linecount FILE\n");
    return 2;
  }
  try {
    auto in = corpus::open_input(argv[1]);
    corpus::LineReader r(*in);
    std::string_view line;
    uint64_t n = 0, bytes = 0;
    while (r.next(line)) {
      ++n;
      bytes += line.size();
    }
    std::printf("%llu %llu\n", static_cast<unsigned long long>(n), static_cast<unsigned long long>(bytes));
  } catch (const corpus::Error& e) {
    std::fprintf(stderr, "%s\n", e.format("bench_linecount").c_str());
    return 1;
  }
  return 0;
}
