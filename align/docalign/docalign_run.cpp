#include "align/docalign/docalign_run.h"

#include <algorithm>
#include <map>

#include "align/docalign/content_score.h"
#include "align/docalign/doc_pair.h"
#include "align/docalign/url_key.h"
#include "libcorpus/core/error.h"

namespace align {
namespace {

constexpr uint32_t kFree = UINT32_MAX;

struct Pairing {
  std::vector<uint32_t> trg_of;  // per source document: its target, or kFree
  std::vector<uint32_t> src_of;  // per target document
  std::vector<double> score;
  std::vector<bool> by_url;
};

void url_match(const DocSide& src, const DocSide& trg, const DocAlignOptions& o, Pairing& p, DocAlignCounts& n) {
  const UrlKeyer k({src.lang, trg.lang}, o.iso_codes);
  // key -> (source docs, target docs)
  std::map<std::string, std::pair<std::vector<uint32_t>, std::vector<uint32_t>>> keys;
  for (uint32_t i = 0; i < src.docs.size(); ++i) keys[k.key(src.docs[i].url)].first.push_back(i);
  for (uint32_t j = 0; j < trg.docs.size(); ++j) keys[k.key(trg.docs[j].url)].second.push_back(j);
  for (const auto& [key, d] : keys) {
    if (d.first.empty() || d.second.empty()) continue;
    if (d.first.size() > 1 || d.second.size() > 1) {
      ++n.ambiguous_keys;
      continue;
    }
    p.trg_of[d.first[0]] = d.second[0];
    p.src_of[d.second[0]] = d.first[0];
    p.score[d.first[0]] = 1;
    p.by_url[d.first[0]] = true;
    ++n.url_pairs;
  }
}

void content_match(const DocSide& src, const DocSide& trg, const DocAlignOptions& o, Pairing& p, DocAlignCounts& n) {
  std::vector<const DocRecord*> s, t;
  std::vector<uint32_t> s_idx, t_idx;
  for (uint32_t i = 0; i < src.docs.size(); ++i)
    if (p.trg_of[i] == kFree) s.push_back(&src.docs[i]), s_idx.push_back(i);
  for (uint32_t j = 0; j < trg.docs.size(); ++j)
    if (p.src_of[j] == kFree) t.push_back(&trg.docs[j]), t_idx.push_back(j);
  if (s.empty() || t.empty()) return;
  std::vector<DocCandidate> c = o.content == ContentScore::kEmbed
                                    ? embed_candidates(s, t, *o.encoder, o.candidates)
                                    : tfidf_candidates(s, t, o.ibm1, o.candidates);
  std::sort(c.begin(), c.end(), [](const DocCandidate& a, const DocCandidate& b) {
    if (a.score != b.score) return a.score > b.score;
    return a.src != b.src ? a.src < b.src : a.trg < b.trg;
  });
  for (const DocCandidate& d : c) {
    const uint32_t i = s_idx[d.src], j = t_idx[d.trg];
    if (p.trg_of[i] != kFree || p.src_of[j] != kFree) continue;
    if (d.score < o.threshold) {
      ++n.below_threshold;  // a best free pair too weak to take
      continue;
    }
    p.trg_of[i] = j;
    p.src_of[j] = i;
    p.score[i] = d.score;
    ++n.content_pairs;
  }
}

}  // namespace

DocAlignCounts align_documents(const DocSide& src, const DocSide& trg, const DocAlignOptions& o,
                               const DocPairWriteFn& write) {
  if (o.match != DocMatch::kUrl && o.content == ContentScore::kEmbed && !o.encoder)
    throw corpus::ConfigError("content matching by embeddings needs a sentence encoder");
  DocAlignCounts n;
  Pairing p{std::vector<uint32_t>(src.docs.size(), kFree), std::vector<uint32_t>(trg.docs.size(), kFree),
            std::vector<double>(src.docs.size(), 0.0), std::vector<bool>(src.docs.size(), false)};
  if (o.match != DocMatch::kContent) url_match(src, trg, o, p, n);
  if (o.match != DocMatch::kUrl) content_match(src, trg, o, p, n);

  std::string line;
  for (uint32_t i = 0; i < src.docs.size(); ++i) {
    const uint32_t j = p.trg_of[i];
    if (j == kFree) {
      ++n.src_unpaired;
      continue;
    }
    DocPair dp{src.docs[i].url, trg.docs[j].url, src.lang, trg.lang, src.docs[i].sentences, trg.docs[j].sentences,
               p.score[i], p.by_url[i] ? "url" : "content"};
    line.clear();
    append_doc_pair(line, dp);
    line += '\n';
    write(line);
  }
  for (uint32_t j = 0; j < trg.docs.size(); ++j) n.trg_unpaired += p.src_of[j] == kFree;
  return n;
}

}  // namespace align
