// Shows that the tsan build sees what it must and only that:
//   probe race     two threads of a tbb::parallel_for bump one counter
//                  without synchronisation: ThreadSanitizer must report it
//                  (a build that cannot see races would pass every test)
//   probe handoff  a parallel_pipeline hands heap records from a serial
//                  stage to parallel ones and back, as pc-split and pc-ingest
//                  do: with oneTBB instrumented this is clean, while with
//                  Debian's uninstrumented libtbb ThreadSanitizer reported
//                  such handoffs as races
#include <tbb/global_control.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_pipeline.h>

#include <chrono>
#include <cstdio>
#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace {

int race() {
  long counter = 0;
  tbb::parallel_for(0, 64, [&](int) {
    std::this_thread::sleep_for(std::chrono::milliseconds(2));  // lets the second thread steal
    ++counter;                                                  // the race
  });
  std::printf("%ld\n", counter);
  return 0;
}

int handoff() {
  int next = 0;
  long sum = 0;
  tbb::parallel_pipeline(
      4, tbb::make_filter<void, std::vector<int>*>(tbb::filter_mode::serial_in_order,
                                                   [&](tbb::flow_control& fc) -> std::vector<int>* {
                                                     if (next == 2000) {
                                                       fc.stop();
                                                       return nullptr;
                                                     }
                                                     auto* v = new std::vector<int>(64, next++);
                                                     return v;
                                                   }) &
             tbb::make_filter<std::vector<int>*, std::vector<int>*>(tbb::filter_mode::parallel,
                                                                    [](std::vector<int>* v) {
                                                                      for (int& x : *v) x = x * 2 + 1;
                                                                      return v;
                                                                    }) &
             tbb::make_filter<std::vector<int>*, void>(tbb::filter_mode::serial_in_order, [&](std::vector<int>* v) {
               for (int x : *v) sum += x;
               delete v;
             }));
  const long want = 64L * (2L * (1999L * 2000L / 2) + 2000L);
  std::printf("%ld\n", sum);
  return sum == want ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  tbb::global_control threads(tbb::global_control::max_allowed_parallelism, 2);
  const std::string mode = argc > 1 ? argv[1] : "";
  if (mode == "race") return race();
  if (mode == "handoff") return handoff();
  std::fprintf(stderr, "usage: probe race|handoff\n");
  return 2;
}
