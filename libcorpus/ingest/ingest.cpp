#include "libcorpus/ingest/ingest.h"

#include <tbb/parallel_pipeline.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <memory>

#include <fmt/format.h>

#include "libcorpus/core/digest.h"
#include "libcorpus/core/error.h"
#include "libcorpus/ingest/ingest_extract.h"
#include "libcorpus/ingest/ingest_source.h"
#include "libcorpus/ingest/ingest_spool.h"
#include "libcorpus/core/json_write.h"
#include "libcorpus/ingest/langid.h"
#include "libcorpus/core/line_pipeline.h"
#include "libcorpus/core/line_reader.h"
#include "libcorpus/core/url_host.h"

namespace corpus {

std::string url_host(std::string_view url) { return url_host_port(url); }

namespace {

// The spool between the passes: an unnamed temporary file in TMPDIR
// (open_spool_file), gone when closed, also after a crash.
class Spool : public ByteSource {
 public:
  Spool() : f_(open_spool_file()) {}
  ~Spool() override { std::fclose(f_); }
  void write(std::string_view s) {
    if (std::fwrite(s.data(), 1, s.size(), f_) != s.size())
      throw Error("cannot write the temporary file: " + errno_text(errno), "is TMPDIR full?");
  }
  void rewind() {
    if (std::fflush(f_) != 0) throw Error("cannot write the temporary file: " + errno_text(errno));
    std::rewind(f_);
  }
  size_t read(char* buf, size_t n) override {
    size_t got = std::fread(buf, 1, n, f_);
    if (got == 0 && std::ferror(f_)) throw Error("cannot read the temporary file: " + errno_text(errno));
    read_ += got;
    return got;
  }
  const std::string& name() const override { return name_; }
  Compression compression() const override { return Compression::kNone; }
  uint64_t raw_bytes_read() const override { return read_; }
  std::optional<uint64_t> raw_size() const override { return std::nullopt; }

 private:
  std::FILE* f_;
  std::string name_ = "(spool)";
  uint64_t read_ = 0;
};

struct Work {
  IngestItem item;
  // Bytes read from all inputs when the item was read. Taken in the input
  // stage: the last stage runs on another thread while the input stage moves
  // on, resets the source and opens the next input, so it must not read them.
  uint64_t position = 0;
  Extracted x;
  std::string spool_line;  // a candidate's spool line, encoded on the worker thread
};

// A counter keyed by 64-bit hashes: open addressing with linear probing in
// one flat array (a node per key, as in std::unordered_map, made the lookups
// of every paragraph a cache miss each). Key 0 stands for "empty", so a key
// of 0 is stored as 1.
class HashCounter {
 public:
  uint32_t get(uint64_t key) const {
    if (slots_.empty()) return 0;
    key = key ? key : 1;
    for (size_t i = key & mask_;; i = (i + 1) & mask_) {
      if (slots_[i].key == key) return slots_[i].count;
      if (slots_[i].key == 0) return 0;
    }
  }
  // A hint that get(key) comes soon: the slot is a cache miss (a table of
  // every paragraph of a run), and a lookup waits for it.
  void prefetch(uint64_t key) const {
    if (!slots_.empty()) __builtin_prefetch(&slots_[(key ? key : 1) & mask_]);
  }
  // Adds one; returns the new count.
  uint32_t add(uint64_t key) {
    if ((used_ + 1) * 4 > slots_.size() * 3) grow();
    key = key ? key : 1;
    for (size_t i = key & mask_;; i = (i + 1) & mask_) {
      if (slots_[i].key == key) return ++slots_[i].count;
      if (slots_[i].key == 0) {
        slots_[i] = {key, 1};
        ++used_;
        return 1;
      }
    }
  }
  void clear() {
    if (used_ == 0) return;
    std::fill(slots_.begin(), slots_.end(), Slot{});
    used_ = 0;
  }

 private:
  struct Slot {
    uint64_t key = 0;
    uint32_t count = 0;
  };
  void grow() {
    std::vector<Slot> old = std::move(slots_);
    slots_.assign(old.empty() ? 64 : old.size() * 2, Slot{});
    mask_ = slots_.size() - 1;
    used_ = 0;
    for (const Slot& s : old)
      if (s.key) {
        size_t i = s.key & mask_;
        while (slots_[i].key) i = (i + 1) & mask_;
        slots_[i] = s;
        ++used_;
      }
  }
  std::vector<Slot> slots_;
  size_t mask_ = 0, used_ = 0;
};

// The pages a paragraph is counted over: those of one host in one language
// (page_language). Counted per host alone, lines the translations of a page
// share (a "Password:" prompt in a login example, a command, a table's
// header) were on enough pages to be taken for navigation; navigation repeats
// within each language.
uint64_t repeat_scope(const std::string& host, const std::string& page_lang) {
  return hash64(host) ^ (hash64(page_lang) * 0xD6E8FEB86659FD93ULL);
}

// Counts, per scope (repeat_scope), the pages that carry each paragraph.
class RepeatTable {
 public:
  void add_page(uint64_t hh, const std::vector<uint64_t>& hashes) {
    pages_.add(hh);
    seen_.clear();
    for (uint64_t h : hashes)
      if (seen_.add(h) == 1) count_.add(key(hh, h));
  }
  // How many pages of the scope must carry a paragraph for it to count as
  // repeated (infinity for an unknown scope). Once per document.
  double threshold(uint64_t hh, uint32_t min_pages, double fraction) const {
    uint32_t pages = pages_.get(hh);
    if (pages == 0) return std::numeric_limits<double>::infinity();
    return std::max<double>(min_pages, std::ceil(fraction * pages));
  }
  // True when the paragraph (hash h) is on at least `need` pages of the scope.
  void prefetch(uint64_t host_hash, uint64_t h) const { count_.prefetch(key(host_hash, h)); }
  bool repeated(uint64_t host_hash, uint64_t h, double need) const {
    uint32_t c = count_.get(key(host_hash, h));
    return c != 0 && c >= need;
  }

 private:
  static uint64_t key(uint64_t host, uint64_t h) { return h ^ (host * 0x9E3779B97F4A7C15ULL + 0x632BE59BD9B4E019ULL); }
  HashCounter pages_, count_, seen_;
};

// Per-paragraph language ID is a pure function of the paragraph, and short
// paragraphs repeat a lot (table cells, command lines, menu entries across
// the pages of a site): a per-thread cache of short paragraphs saves CLD2
// calls without changing any result. Open addressing on the paragraph's
// hash64 (already computed for the repeat table), the text compared on a
// hash match; a node-based map made each lookup a chain of cache misses.
class ParagraphLanguages {
 public:
  // A hint that get(p, h, ...) comes soon (its slot is a cache miss).
  void prefetch(size_t bytes, uint64_t h) const {
    if (bytes <= kMaxBytes && !slots_.empty()) __builtin_prefetch(&slots_[h & mask_]);
  }
  // The reference is valid until the next call.
  const LangGuess& get(const std::string& p, uint64_t h, int min_percent) {
    if (p.size() > kMaxBytes) return scratch_ = identify_language(p, min_percent);
    if (min_percent != min_percent_ || entries_.size() >= kMaxEntries) {
      slots_.assign(slots_.size(), Slot{});
      entries_.clear();
      min_percent_ = min_percent;
    }
    if ((entries_.size() + 1) * 2 > slots_.size()) grow();
    for (size_t i = h & mask_;; i = (i + 1) & mask_) {
      const Slot& s = slots_[i];
      if (s.entry == 0) {
        entries_.push_back({p, identify_language(p, min_percent)});
        slots_[i] = {h, static_cast<uint32_t>(entries_.size())};
        return entries_.back().guess;
      }
      if (s.hash == h && entries_[s.entry - 1].text == p) return entries_[s.entry - 1].guess;
    }
  }

 private:
  static constexpr size_t kMaxBytes = 200, kMaxEntries = 100000;
  struct Slot {
    uint64_t hash = 0;
    uint32_t entry = 0;  // 1 + index in entries_; 0: empty
  };
  struct Entry {
    std::string text;
    LangGuess guess;
  };
  void grow() {
    std::vector<Slot> old = std::move(slots_);
    slots_.assign(old.empty() ? 1024 : old.size() * 2, Slot{});
    mask_ = slots_.size() - 1;
    for (const Slot& s : old)
      if (s.entry) {
        size_t i = s.hash & mask_;
        while (slots_[i].entry) i = (i + 1) & mask_;
        slots_[i] = s;
      }
  }
  std::vector<Slot> slots_;
  std::vector<Entry> entries_;
  size_t mask_ = 0;
  int min_percent_ = -1;
  LangGuess scratch_;
};

// Pass 2 for one spooled document: a line "D\toutcome" (dropped) or
// "K\tlang\tdigest\tjson".
void finish_document(std::string_view line, const RepeatTable& rep, const IngestOptions& o, std::string& out) {
  thread_local SpoolDoc in;
  spool_decode(line, in);
  std::string text;
  thread_local std::string para_langs;  // the JSON array's items, comma-separated
  para_langs.clear();
  const uint64_t host_hash = repeat_scope(in.host, in.page_lang);
  const double need = o.boilerplate ? rep.threshold(host_hash, o.repeat_min_pages, o.repeat_fraction) : 0;
  thread_local std::vector<std::pair<std::string, size_t>> lang_bytes;  // paragraph language -> bytes
  lang_bytes.clear();
  size_t kept = 0;
  thread_local ParagraphLanguages languages;
  // A repeated paragraph is boilerplate only outside the page's content
  // (before its first or after its last paragraph that is neither repeated nor
  // short) or next to a block the page-level rules dropped (the heading of a
  // table of contents). Navigation, headers and footers sit there; a repeated
  // line inside the content is the page's own (an admonition's "Tip", a
  // table's "popcon" header or "V:0, I:0" cell, a command every chapter shows).
  thread_local std::vector<uint64_t> hashes;
  thread_local std::vector<char> repeated;
  const size_t n = in.paras.size();
  hashes.resize(n);
  repeated.assign(n, 0);
  size_t first = n, last = 0;  // the content span [first, last]; empty when first > last
  // Lookups run kPrefetch paragraphs behind the prefetches of their slots.
  constexpr size_t kPrefetch = 8;
  for (size_t i = 0; i < n; ++i) hashes[i] = hash64(in.paras[i]);
  if (o.boilerplate)
    for (size_t i = 0; i < n + kPrefetch; ++i) {
      if (i < n) rep.prefetch(host_hash, hashes[i]);
      if (i >= kPrefetch) repeated[i - kPrefetch] = rep.repeated(host_hash, hashes[i - kPrefetch], need);
    }
  if (o.boilerplate) {
    for (size_t i = 0; i < n && first == n; ++i)
      if (!repeated[i] && !is_short_text(in.paras[i], o.bp)) first = i;
    for (size_t i = n; i-- > first && last == 0;)
      if (!repeated[i] && !is_short_text(in.paras[i], o.bp)) last = i;
  }
  thread_local std::vector<size_t> kept_paras;  // indexes into in.paras
  kept_paras.clear();
  for (size_t i = 0; i < n; ++i) {
    const bool beside_dropped = i < in.beside_dropped.size() && in.beside_dropped[i] == '1';
    if (repeated[i] && (!(first < i && i < last) || beside_dropped)) continue;
    if (!text.empty()) text += '\n';
    text += in.paras[i];
    kept_paras.push_back(i);
  }
  if (text.empty()) {
    out += "D\tboilerplate only\n";
    return;
  }
  // The document's language, and with one pass each paragraph's from the
  // chunks of the same CLD2 call; paragraphs the chunks leave ambiguous (and
  // all of them with two passes) are identified on their own.
  thread_local DocumentLanguages dl;
  LangGuess g;
  if (o.one_pass_langid) {
    identify_document(text, o.min_lang_percent, dl);
    g = dl.doc;
  } else {
    g = identify_language(text, o.min_lang_percent);
  }
  size_t pos = 0, cursor = 0;
  for (size_t k = 0; k < kept_paras.size(); ++k) {
    const size_t i = kept_paras[k];
    if (k + kPrefetch < kept_paras.size()) {
      const size_t ahead = kept_paras[k + kPrefetch];
      languages.prefetch(in.paras[ahead].size(), hashes[ahead]);
    }
    const std::string& p = in.paras[i];
    // Only the document's own language is taken from the chunks: a chunk in
    // another language may have run over from a neighbouring paragraph (a
    // French sentence after an English command came out English).
    const char* from_chunks = o.one_pass_langid ? chunk_language(dl.chunks, cursor, pos, pos + p.size()) : nullptr;
    if (from_chunks && g.lang != from_chunks) from_chunks = nullptr;
    pos += p.size() + 1;
    const std::string_view pl = from_chunks ? std::string_view(from_chunks)
                                            : std::string_view(languages.get(p, hashes[i], o.min_lang_percent).lang);
    if (kept++ > 0) para_langs += ',';
    append_json_string(para_langs, pl);
    auto it = std::find_if(lang_bytes.begin(), lang_bytes.end(), [&](const auto& e) { return e.first == pl; });
    if (it == lang_bytes.end()) lang_bytes.emplace_back(pl, p.size());
    else it->second += p.size();
  }
  if (g.lang == "und") g = majority_language(lang_bytes, text.size() - (kept - 1), o.min_lang_percent);
  Digest128 d = digest128(text);
  out += "K\t";
  out += g.lang;
  out += '\t';
  out += fmt::format("{:016x}{:016x}", d.hi, d.lo);
  out += '\t';
  JsonObjectWriter doc(out);
  doc.str("url", in.url).str("lang", g.lang).hundredths("lang_score", static_cast<int>(std::lround(g.score * 100)));
  if (!in.title.empty()) doc.str("title", in.title);
  doc.str("text", text);
  doc.value("para_langs").append("[").append(para_langs).append("]");
  doc.str("mime", in.mime).str("charset", in.charset);
  if (!in.date.empty()) doc.str("date", in.date);
  doc.str("digest", digest_text(d));
  if (in.is_warc) {
    JsonObjectWriter warc(doc.value("warc"));
    warc.str("file", in.input).num("offset", in.offset).num("length", in.length);
    warc.close();
  }
  doc.close();
  out += '\n';
}

}  // namespace

IngestStats run_ingest(const std::vector<std::string>& inputs, const IngestOptions& o, const IngestCallbacks& cb) {
  IngestStats st;
  Spool spool;
  RepeatTable rep;
  const size_t tokens = static_cast<size_t>(std::max(2, 4 * tbb::this_task_arena::max_concurrency()));

  // ---- pass 1 ----
  size_t next_input = 0;
  std::unique_ptr<ItemSource> src;
  uint64_t done_bytes = 0;
  uint64_t candidates = 0;
  tbb::parallel_pipeline(
      tokens,
      tbb::make_filter<void, std::shared_ptr<Work>>(
          tbb::filter_mode::serial_in_order,
          [&](tbb::flow_control& fc) -> std::shared_ptr<Work> {
            auto w = std::make_shared<Work>();
            for (;;) {
              if (!src) {
                if (next_input == inputs.size()) {
                  fc.stop();
                  return nullptr;
                }
                src = open_items(inputs[next_input++], o.max_size, o.follow_symlinks);
              }
              if (src->next(w->item)) {
                w->position = done_bytes + src->position();
                return w;
              }
              done_bytes += src->position();
              src.reset();
            }
          }) &
          tbb::make_filter<std::shared_ptr<Work>, std::shared_ptr<Work>>(
              tbb::filter_mode::parallel,
              [&](std::shared_ptr<Work> w) {
                w->x = extract_item(w->item, o);
                w->item.data = std::string();
                if (!w->x.bad && w->x.outcome.empty()) {
                  spool_encode(w->x, w->spool_line);
                  w->x.paras = std::vector<std::string>();  // in the spool line now
                }
                return w;
              }) &
          tbb::make_filter<std::shared_ptr<Work>, void>(
              tbb::filter_mode::serial_in_order, [&](std::shared_ptr<Work> w) {
                ++st.records;
                const Extracted& x = w->x;
                if (x.bad) {
                  if (!o.skip_bad)
                    throw Error(x.message, "--skip-bad skips bad records and counts them").at(x.input);
                  st.outcomes.add("bad (skipped)");
                  if (cb.skipped) cb.skipped(x.input + ": " + x.message);
                } else if (!x.outcome.empty()) {
                  st.outcomes.add(x.outcome);
                } else {
                  if (o.boilerplate) rep.add_page(repeat_scope(x.host, x.page_lang), x.hashes);
                  spool.write(w->spool_line);
                  ++candidates;
                }
                if (cb.progress) cb.progress(w->position, st.records);
              }));

  // ---- pass 2 ----
  spool.rewind();
  LineReader reader(spool);
  LinePipelineSource lsrc;
  lsrc.next = [&](std::string& out) {
    std::string_view line;
    if (!reader.next(line)) return false;
    out.append(line);
    return true;
  };
  lsrc.line_number = [&] { return reader.line_number(); };
  DigestSet seen;
  std::map<std::string, uint64_t> per_lang;
  // Batches of 128 KiB: the spool of a 20 MB WARC is only a few MB, and 1 MiB
  // batches left one thread alone with the last of them (and held 6-7 MB more).
  run_line_pipeline(
      lsrc, 1 << 17,
      [&](LineBatch& b) {
        for (size_t i = 0; i < b.size(); ++i) finish_document(b.line(i), rep, o, b.out);
      },
      [&](LineBatch& b) {
        std::string_view all = b.out;
        while (!all.empty()) {
          size_t nl = all.find('\n');
          std::string_view line = all.substr(0, nl);
          all.remove_prefix(nl + 1);
          if (line[0] == 'D') {
            st.outcomes.add(line.substr(2));
            continue;
          }
          size_t t1 = line.find('\t', 2), t2 = line.find('\t', t1 + 1);
          std::string lang(line.substr(2, t1 - 2));
          std::string_view hex = line.substr(t1 + 1, t2 - t1 - 1);
          Digest128 d{std::stoull(std::string(hex.substr(16, 16)), nullptr, 16),
                      std::stoull(std::string(hex.substr(0, 16)), nullptr, 16)};
          if (o.dedup && !seen.insert(d)) {
            st.outcomes.add("duplicate");
            continue;
          }
          if (!o.langs.empty() && std::find(o.langs.begin(), o.langs.end(), lang) == o.langs.end()) {
            st.outcomes.add("language not kept");
            continue;
          }
          ++st.docs;
          ++per_lang[lang];
          cb.write(lang, line.substr(t2 + 1));
        }
      });
  st.langs.assign(per_lang.begin(), per_lang.end());
  return st;
}

}  // namespace corpus
