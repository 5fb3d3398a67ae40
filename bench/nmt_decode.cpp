// Batched greedy or beam decoding throughput of pc-nmt's engine, in target
// tokens per second, timed inside the process: what bench/nmt_torch_decode.py
// times for PyTorch on the same token ids.
//   bench_nmt_decode MODEL SOURCES MODE BATCH THREADS REPS IDS_OUT HYP_OUT
// SOURCES: text, one sentence a line (empty lines are skipped), encoded with
// the model's SentencePiece and cut to max_len - 1 tokens; IDS_OUT gets those
// ids for the PyTorch side. MODE: greedy or beamK (beam4). The last two
// batches' (longest) sentences are decoded once untimed (warm-up), then all sentences
// REPS times through mt::greedy_translate / mt::beam_translate (what pc-nmt
// translate runs: batches sorted by length, BATCH sentences each, on THREADS
// threads with one-threaded products), and each repetition prints
//   rep R: <target tokens/s> target tokens/s (S s, CPU C s, T tokens)
// where a sentence's tokens are its output's plus EOS (--stats's count).
// HYP_OUT gets the last repetition's output ids, one line a sentence.
// Built by bench/CMakeLists.txt; run by bench/nmt-decode-throughput.sh.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <string>
#include <vector>

#include "libcorpus/core/threads.h"
#include "mt/decode/beam.h"
#include "mt/decode/greedy.h"
#include "mt/decode/translate_stream.h"
#include "mt/tensor/tensor.h"

namespace {

double process_cpu_seconds() {
  timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

void write_ids(const std::string& path, const std::vector<std::vector<int32_t>>& rows) {
  std::ofstream f(path);
  for (const auto& r : rows) {
    for (size_t i = 0; i < r.size(); ++i) f << (i ? " " : "") << r[i];
    f << '\n';
  }
  if (!f) {
    std::fprintf(stderr, "bench_nmt_decode: cannot write %s\n", path.c_str());
    std::exit(1);
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 9) {
    std::fprintf(stderr, "usage: bench_nmt_decode MODEL SOURCES MODE BATCH THREADS REPS IDS_OUT HYP_OUT\n");
    return 2;
  }
  const std::string mode = argv[3];
  const int batch = std::atoi(argv[4]), threads = std::atoi(argv[5]), reps = std::atoi(argv[6]);
  const int beam = mode == "greedy" ? 1 : mode.rfind("beam", 0) == 0 ? std::atoi(mode.c_str() + 4) : 0;
  if (beam < 1 || batch < 1 || threads < 1 || reps < 1) {
    std::fprintf(stderr, "bench_nmt_decode: MODE is greedy or beamK; BATCH, THREADS, REPS at least 1\n");
    return 2;
  }
  const corpus::threads::Scope scope(threads);
  mt::use_single_threaded_blas();
  const mt::TranslationModel model(argv[1]);
  const mt::Config& cfg = model.file.config();
  std::vector<std::vector<int32_t>> src;
  std::ifstream in(argv[2]);
  for (std::string line; std::getline(in, line);) {
    if (line.empty()) continue;
    std::vector<int32_t> ids = model.src.encode(line);
    if (static_cast<int>(ids.size()) >= cfg.max_len) ids.resize(static_cast<size_t>(cfg.max_len - 1));
    if (!ids.empty()) src.push_back(std::move(ids));
  }
  write_ids(argv[7], src);
  mt::DecodeOptions opt;
  opt.batch_size = batch;
  mt::BeamOptions bo;
  bo.beam = beam;
  auto decode = [&](const std::vector<std::vector<int32_t>>& s, std::vector<std::vector<int32_t>>& out) {
    std::vector<mt::SentenceStats> st;
    if (beam == 1) {
      out = mt::greedy_translate(cfg, model.file.params(), s, opt, &st);
    } else {
      const auto hyps = mt::beam_translate(cfg, model.file.params(), s, opt, bo, &st);
      out.clear();
      for (const auto& h : hyps) out.push_back(h.front().tokens);
    }
    long tokens = 0;
    for (const auto& x : st) tokens += x.tokens;
    return tokens;
  };
  std::vector<std::vector<int32_t>> out;
  // Warm-up: what the PyTorch side decodes untimed (its last two batches
  // of the length-sorted order), here as the longest 2 x BATCH sentences, so
  // that both sides' buffers (pc-nmt's per-thread workspaces, PyTorch's
  // allocations) reach the timed loop's largest sizes before it starts.
  {
    std::vector<size_t> order(src.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return src[a].size() < src[b].size(); });
    std::vector<std::vector<int32_t>> warm;
    const size_t n = std::min(order.size(), static_cast<size_t>(2 * batch));
    for (size_t i = order.size() - n; i < order.size(); ++i) warm.push_back(src[order[i]]);
    decode(warm, out);
  }
  for (int r = 0; r < reps; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    const double c0 = process_cpu_seconds();
    const long tokens = decode(src, out);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("rep %d: %.1f target tokens/s (%.3f s, CPU %.3f s, %ld tokens)\n", r, static_cast<double>(tokens) / s,
                s, process_cpu_seconds() - c0, tokens);
    std::fflush(stdout);
  }
  write_ids(argv[8], out);
  std::fprintf(stderr, "pc-nmt engine: %zu sentences, batch %d, %d threads; products: %s\n", src.size(), batch, threads,
               mt::gemm_backend_name());
}
