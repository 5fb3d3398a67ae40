// page_language's sample: the longest paragraphs first, equal lengths in page
// order, until 1 KiB. It picks them from a heap; the reference below is the
// stable sort it replaced, so a different pick changes a label here.
#include <doctest/doctest.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "libcorpus/ingest/langid.h"

using namespace corpus;

namespace {

std::string page_sample_reference(const std::vector<std::string>& paras) {
  constexpr size_t kSample = 1024;
  std::vector<size_t> order(paras.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return paras[a].size() > paras[b].size(); });
  std::string sample;
  for (size_t i : order) {
    if (sample.size() >= kSample) break;
    std::string_view p = paras[i];
    if (p.size() > kSample) {
      size_t n = kSample;
      while (n > 0 && (static_cast<unsigned char>(p[n]) & 0xC0) == 0x80) --n;
      p = p.substr(0, n);
    }
    if (!sample.empty()) sample += '\n';
    sample += p;
  }
  return sample;
}

const char* const kSentences[] = {
    "Le renard brun rapide saute par-dessus le chien paresseux et traverse la rivière. ",
    "The quick brown fox jumps over the lazy dog and then crosses the river. ",
    "Der schnelle braune Fuchs springt über den faulen Hund und überquert den Fluss. ",
    "El rápido zorro marrón salta sobre el perro perezoso y cruza el río. ",
    "素早い茶色の狐がのろまな犬を飛び越えて川を渡る。",
};

}  // namespace

TEST_CASE("langid: page_language takes the longest paragraphs first, ties in page order") {
  std::string fr, en;
  while (fr.size() < 1100) fr += kSentences[0];
  while (en.size() < 1100) en += kSentences[1];
  en.resize(fr.size(), ' ');
  CHECK(page_language({"short", en, fr}) == "en");
  CHECK(page_language({"short", fr, en}) == "fr");
  CHECK(page_language({}) == "und");
  // Random pages: paragraphs of 1-12 sentences, many of equal length.
  std::mt19937 rng(20);
  int checked = 0;
  for (int page = 0; page < 300; ++page) {
    std::vector<std::string> paras(1 + rng() % 30);
    for (std::string& p : paras) {
      const char* s = kSentences[rng() % 5];
      for (unsigned k = 1 + rng() % 12; k-- > 0;) p += s;
    }
    CAPTURE(page);
    CHECK(page_language(paras) == identify_language(page_sample_reference(paras)).lang);
    ++checked;
  }
  CHECK(checked == 300);
}
