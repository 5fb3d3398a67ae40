#include "libcorpus/ingest/langid.h"

#include <cld2/public/compact_lang_det.h>

#include <algorithm>
#include <cstring>
#include <utility>
#include <vector>

namespace corpus {

namespace {

constexpr int kRecheckPercent = 55;

// The rules of identify_language on CLD2's answer.
LangGuess decide(CLD2::Language top, const CLD2::Language* lang3, const int* percent3, bool reliable,
                 int min_percent) {
  LangGuess g;
  if (top == CLD2::UNKNOWN_LANGUAGE || top == CLD2::TG_UNKNOWN_LANGUAGE) return g;
  int pct = lang3[0] == top ? percent3[0] : 0;
  if (pct < min_percent) return g;
  // CLD2 also calls a result unreliable when over 20% of the bytes are in no
  // language at all (commands, numbers, product names in a technical text),
  // even when it found one language only. Such a result is kept unless a
  // second language also covers 20% of the text (CLD2's own threshold).
  const bool alone = lang3[1] == CLD2::UNKNOWN_LANGUAGE || percent3[1] < 20;
  if (!reliable && !alone) return g;
  g.lang = CLD2::LanguageCode(top);
  g.score = pct / 100.0;
  return g;
}

}  // namespace

bool cld2_interchange_valid(std::string_view text) {
  const auto* s = reinterpret_cast<const unsigned char*>(text.data());
  const size_t n = text.size();
  for (size_t i = 0; i < n;) {
    // Eight bytes at a time while none can start a refused code point: no
    // byte under 0x20, none 0x7F, 0xC2, 0xEF or 0xF0 and up. Continuation
    // bytes and other lead bytes (Latin, CJK) pass; a word with a candidate
    // goes to the byte loop.
    if (i + 8 <= n) {
      uint64_t w;
      std::memcpy(&w, s + i, 8);
      constexpr uint64_t kOnes = 0x0101010101010101ULL, kHigh = 0x8080808080808080ULL;
      auto has_zero = [](uint64_t x) { return (x - kOnes) & ~x & kHigh; };
      const uint64_t under_space = (w - 0x20 * kOnes) & ~w & kHigh;
      if (!(under_space | has_zero(w ^ (0x7F * kOnes)) | has_zero(w ^ (0xC2 * kOnes)) |
            has_zero(w ^ (0xEF * kOnes)) | has_zero((w & (0xF0 * kOnes)) ^ (0xF0 * kOnes)))) {
        i += 8;
        continue;
      }
    }
    for (const size_t stop = std::min(n, i + 8); i < stop; ++i) {
      const unsigned c = s[i];
      if (c >= 0x20 && c < 0x7F) continue;
      if (c < 0x20) {
        if (c == '\t' || c == '\n' || c == '\f' || c == '\r') continue;
        return false;
      }
      if (c == 0x7F) return false;
      // Valid UTF-8 is assumed: only the lead bytes of the refused code
      // points are looked at; a sequence cut short at the end is refused.
      if (c == 0xC2) {  // U+0080..U+009F
        if (i + 1 >= n || s[i + 1] < 0xA0) return false;
      } else if (c == 0xEF) {  // U+FDD0..U+FDEF, U+FFFE, U+FFFF
        if (i + 2 >= n) return false;
        if (s[i + 1] == 0xB7 && s[i + 2] >= 0x90 && s[i + 2] <= 0xAF) return false;
        if (s[i + 1] == 0xBF && s[i + 2] >= 0xBE) return false;
      } else if (c >= 0xF0) {  // U+xFFFE, U+xFFFF of planes 1..16
        if (i + 3 >= n) return false;
        if ((s[i + 1] & 0x0F) == 0x0F && s[i + 2] == 0xBF && s[i + 3] >= 0xBE) return false;
      }
    }
  }
  return true;
}

LangGuess identify_language(std::string_view text, int min_percent) {
  if (text.empty()) return LangGuess{};
  CLD2::Language lang3[3];
  int percent3[3];
  int text_bytes = 0;
  bool reliable = false;
  CLD2::Language top = CLD2::ExtDetectLanguageSummary(text.data(), static_cast<int>(text.size()), true, lang3,
                                                       percent3, &text_bytes, &reliable);
  return decide(top, lang3, percent3, reliable, min_percent);
}

void identify_document(std::string_view text, int min_percent, DocumentLanguages& out) {
  out.doc = LangGuess{};
  out.chunks.clear();
  if (text.empty()) return;
  CLD2::Language lang3[3];
  int percent3[3];
  double scores3[3];
  thread_local CLD2::ResultChunkVector chunks;
  chunks.clear();
  int text_bytes = 0;
  bool reliable = false;
  // What ExtDetectLanguageSummaryCheckUTF8 did before (it refuses a text that
  // is not interchange valid: no chunks, and the document gets
  // identify_language's answer), without CLD2's slower scan.
  if (!cld2_interchange_valid(text)) {
    out.doc = identify_language(text, min_percent);
    return;
  }
  // The same cascade ExtDetectLanguageSummary runs (no hints, no flags), with
  // the chunk vector asked for: the document's result is unchanged.
  CLD2::Language top = CLD2::ExtDetectLanguageSummary(text.data(), static_cast<int>(text.size()), true, nullptr, 0,
                                                       lang3, percent3, scores3, &chunks, &text_bytes, &reliable);
  out.doc = decide(top, lang3, percent3, reliable, min_percent);
  // With a chunk vector CLD2 blanks repetitive text instead of cutting it out
  // (CheapSqueezeInplaceOverwrite, CheapRepWordsInplaceOverwrite), which
  // moves its percentages a little. That decides the label only near the
  // thresholds: a result that is und, unreliable or under 55% is asked again
  // without the vector, so the document gets identify_language's answer (on
  // the bench pages 28% of documents; docs/ingest.md).
  if (out.doc.lang == "und" || !reliable || (lang3[0] == top ? percent3[0] : 0) < kRecheckPercent)
    out.doc = identify_language(text, min_percent);
  for (const CLD2::ResultChunk& c : chunks) {
    const auto l = static_cast<CLD2::Language>(c.lang1);
    const bool known = l != CLD2::UNKNOWN_LANGUAGE && l != CLD2::TG_UNKNOWN_LANGUAGE;
    out.chunks.push_back(
        {static_cast<uint32_t>(c.offset), static_cast<uint32_t>(c.bytes), known ? CLD2::LanguageCode(l) : nullptr});
  }
}

const char* chunk_language(const std::vector<LangChunk>& chunks, size_t& cursor, size_t begin, size_t end) {
  while (cursor < chunks.size() && size_t{chunks[cursor].offset} + chunks[cursor].bytes <= begin) ++cursor;
  if (end - begin < kChunkMinBytes) return nullptr;
  const char* lang = nullptr;
  size_t bytes = 0;
  for (size_t j = cursor; j < chunks.size() && chunks[j].offset < end; ++j) {
    const LangChunk& c = chunks[j];
    const size_t lo = std::max<size_t>(c.offset, begin), hi = std::min<size_t>(size_t{c.offset} + c.bytes, end);
    if (hi <= lo || !c.lang) continue;
    if (lang && lang != c.lang && std::strcmp(lang, c.lang) != 0) return nullptr;  // two languages
    lang = c.lang;
    bytes += hi - lo;
  }
  return lang && bytes * 2 >= end - begin ? lang : nullptr;
}

LangGuess majority_language(const std::vector<std::pair<std::string, size_t>>& lang_bytes, size_t total,
                            int min_percent) {
  LangGuess best;
  size_t best_bytes = 0;
  for (const auto& [lang, bytes] : lang_bytes)
    if (lang != "und" && bytes > best_bytes) {
      best_bytes = bytes;
      best.lang = lang;
    }
  if (total == 0 || best_bytes * 100 < static_cast<size_t>(min_percent) * total) return LangGuess{};
  best.score = static_cast<double>(best_bytes) / static_cast<double>(total);
  return best;
}

std::string page_language(const std::vector<std::string>& paras) {
  constexpr size_t kSample = 1024;
  // The paragraphs longest first, equal lengths in page order (so the sample
  // is a function of the page), taken until the sample is full: a heap, as
  // only the first few are ever taken (a stable sort of all the paragraphs
  // cost more than CLD2's call on the sample).
  std::vector<std::pair<size_t, size_t>> order(paras.size());  // (length, index)
  for (size_t i = 0; i < paras.size(); ++i) order[i] = {paras[i].size(), i};
  auto after = [](const std::pair<size_t, size_t>& a, const std::pair<size_t, size_t>& b) {
    return a.first != b.first ? a.first < b.first : a.second > b.second;
  };
  std::make_heap(order.begin(), order.end(), after);
  std::string sample;
  for (auto end = order.end(); end != order.begin() && sample.size() < kSample; --end) {
    std::pop_heap(order.begin(), end, after);
    std::string_view p = paras[(end - 1)->second];
    if (p.size() > kSample) {  // cut at a code point boundary
      size_t n = kSample;
      while (n > 0 && (static_cast<unsigned char>(p[n]) & 0xC0) == 0x80) --n;
      p = p.substr(0, n);
    }
    if (!sample.empty()) sample += '\n';
    sample += p;
  }
  return identify_language(sample).lang;
}

}  // namespace corpus
