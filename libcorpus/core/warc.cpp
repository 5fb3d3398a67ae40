#include "libcorpus/core/warc.h"

#include "libcorpus/core/ascii.h"
#include "libcorpus/core/sysinfo.h"

#include <chrono>
#include <cstring>
#include <ctime>
#include <fstream>
#include <mutex>
#include <random>

#include <fmt/format.h>

#include "libcorpus/core/error.h"
#include "libcorpus/core/chunk_compress.h"
#include "libcorpus/core/sha1.h"

namespace corpus {

namespace {

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    char x = a[i], y = b[i];
    if (x >= 'A' && x <= 'Z') x = static_cast<char>(x + 32);
    if (y >= 'A' && y <= 'Z') y = static_cast<char>(y + 32);
    if (x != y) return false;
  }
  return true;
}

constexpr size_t kChunk = 1 << 20;

}  // namespace

std::string_view WarcRecord::header(std::string_view name) const {
  for (const auto& [k, v] : headers)
    if (iequals(k, name)) return v;
  return {};
}

WarcReader::WarcReader(ByteSource& src, uint64_t max_block) : src_(src), max_block_(max_block) {}

bool WarcReader::fill(size_t need) {
  // buf_ keeps its size; end_ marks the valid bytes, so refills do not
  // zero a fresh 1 MiB each time (std::string::resize does), which cost 3%
  // of pc-ingest on per-record gzip WARCs where each read returns one record.
  while (end_ - pos_ < need && !eof_) {
    if (pos_ > 0 && pos_ >= end_ / 2) {
      std::memmove(buf_.data(), buf_.data() + pos_, end_ - pos_);
      end_ -= pos_;
      consumed_ += pos_;
      pos_ = 0;
    }
    // Grow by what is missing, but at most by what is already held (and at
    // least a chunk): `need` may come from a Content-Length header, and a
    // 500-byte file that claims 10 GB must fail as truncated after reading
    // what is there, not allocate 10 GB first. Doubling keeps big blocks
    // linear.
    const size_t have = end_ - pos_;
    size_t want = std::max(kChunk, std::min(need - have, std::max(kChunk, have)));
    if (buf_.size() < end_ + want) buf_.resize(end_ + want);
    size_t got = src_.read(buf_.data() + end_, want);
    end_ += got;
    if (got == 0) eof_ = true;
  }
  return end_ - pos_ >= need;
}

bool WarcReader::read_line(std::string& line) {
  for (;;) {
    size_t nl = std::string_view(buf_.data(), end_).find('\n', pos_);
    if (nl != std::string::npos) {
      line.assign(buf_, pos_, nl - pos_);
      if (!line.empty() && line.back() == '\r') line.pop_back();
      pos_ = nl + 1;
      return true;
    }
    if (end_ - pos_ > (1 << 20)) throw Error("WARC header line longer than 1 MiB").at(name());
    size_t have = end_ - pos_;
    if (!fill(have + 1)) {
      if (have == 0) return false;
      line.assign(buf_, pos_, have);
      pos_ = end_;
      return true;
    }
  }
}

void WarcReader::skip(uint64_t n) {
  while (n > 0) {
    size_t have = end_ - pos_;
    if (have == 0 && !fill(1)) return;
    have = end_ - pos_;
    size_t k = static_cast<size_t>(std::min<uint64_t>(n, have));
    pos_ += k;
    n -= k;
  }
}

bool WarcReader::next(WarcRecord& rec) {
  std::string line;
  // Where this record starts, for resync(): set before anything can throw.
  record_start_ = consumed_ + pos_;
  // Records may be separated by extra blank lines in the wild.
  do {
    record_start_ = consumed_ + pos_;
    if (!read_line(line)) return false;
  } while (line.empty());
  rec = WarcRecord{};
  rec.number = ++number_;
  rec.offset = record_start_;
  if (line.rfind("WARC/", 0) != 0)
    throw Error(fmt::format("record {}: not a WARC record (starts with {})", rec.number, quote(line, 40)),
                "is this a WARC file? pc-ingest also reads tar, zip and folders")
        .at(name());
  rec.version = line;
  bool have_length = false;
  for (;;) {
    if (!read_line(line))
      throw Error(fmt::format("record {}: truncated in its header", rec.number)).at(name());
    if (line.empty()) break;
    size_t colon = line.find(':');
    if (colon == std::string::npos) {
      if ((line[0] == ' ' || line[0] == '\t') && !rec.headers.empty()) {  // folded line
        rec.headers.back().second.append(" ").append(trim_blanks(line));
        continue;
      }
      throw Error(fmt::format("record {}: bad header line {}", rec.number, quote(line, 40))).at(name());
    }
    rec.headers.emplace_back(std::string(trim_blanks(std::string_view(line).substr(0, colon))),
                             std::string(trim_blanks(std::string_view(line).substr(colon + 1))));
    if (iequals(rec.headers.back().first, "Content-Length")) {
      const std::string& v = rec.headers.back().second;
      char* end = nullptr;
      errno = 0;
      unsigned long long n = std::strtoull(v.c_str(), &end, 10);
      if (v.empty() || *end != 0 || errno != 0 || v[0] == '-')
        throw Error(fmt::format("record {}: bad Content-Length {}", rec.number, quote(v))).at(name());
      rec.content_length = n;
      have_length = true;
    }
  }
  if (!have_length) throw Error(fmt::format("record {}: no Content-Length header", rec.number)).at(name());
  if (rec.content_length > max_block_) {
    rec.oversize = true;
    skip(rec.content_length);
  } else {
    if (!fill(static_cast<size_t>(rec.content_length)))
      throw Error(fmt::format("record {}: truncated: Content-Length is {} but only {} bytes follow", rec.number,
                              rec.content_length, end_ - pos_))
          .at(name());
    rec.block.assign(buf_, pos_, static_cast<size_t>(rec.content_length));
    pos_ += static_cast<size_t>(rec.content_length);
  }
  if (!fill(4) && end_ - pos_ == 0)
    throw Error(fmt::format("record {}: truncated: the file ends right after the block", rec.number)).at(name());
  if (std::string_view(buf_.data(), end_).substr(pos_, 4) != "\r\n\r\n")
    throw Error(fmt::format("record {}: wrong Content-Length ({}): the block is not followed by CRLF CRLF",
                            rec.number, rec.content_length),
                "the WARC file is corrupt; --skip-bad skips to the next record")
        .at(name());
  pos_ += 4;
  return true;
}

bool WarcReader::resync() {
  // Search from one byte past the start of the record that failed: a
  // Content-Length that is too long swallowed the next header, so the next
  // record may start inside the bad one's block; and starting past the bad
  // record's first byte means each resync moves forward, so a record that
  // fails again is skipped and never found a second time.
  const uint64_t from = record_start_ + 1;
  if (from < consumed_) pos_ = 0;  // already dropped from the buffer: all held bytes lie after it
  else if (from - consumed_ <= end_) pos_ = static_cast<size_t>(from - consumed_);
  else throw Error("cannot resynchronise: the record start is past the data read").at(name());
  for (;;) {
    // The byte before pos_ belongs to the failed record or later, so a "\n"
    // there may begin the marker; a "W" at record_start_ itself cannot match.
    size_t hit = std::string_view(buf_.data(), end_).find("\nWARC/1.", pos_ == 0 ? 0 : pos_ - 1);
    if (hit != std::string::npos) {
      pos_ = hit + 1;
      return true;
    }
    // Keep the last bytes: the marker may straddle the refill.
    size_t keep = std::min<size_t>(end_ - pos_, 8);
    pos_ = end_ - keep;
    size_t have = end_ - pos_;
    if (!fill(have + 1)) {
      pos_ = end_;
      return false;
    }
  }
}

WarcCompression warc_compression_for(std::string_view path) {
  auto ends = [&](std::string_view s) { return path.size() >= s.size() && path.substr(path.size() - s.size()) == s; };
  if (ends(".gz")) return WarcCompression::kGzip;
  if (ends(".zst")) return WarcCompression::kZstd;
  return WarcCompression::kNone;
}

std::string WarcWriter::write(std::string_view type, std::vector<std::pair<std::string, std::string>> headers,
                              std::string_view block) {
  std::string id = warc_record_id();
  std::string rec = "WARC/1.1\r\n";
  rec += fmt::format("WARC-Type: {}\r\nWARC-Record-ID: {}\r\n", type, id);
  bool have_date = false;
  for (const auto& h : headers) have_date = have_date || iequals(h.first, "WARC-Date");
  if (!have_date) rec += "WARC-Date: " + sysinfo::utc_now() + "\r\n";
  for (const auto& [k, v] : headers) rec += k + ": " + v + "\r\n";
  rec += "WARC-Block-Digest: " + warc_sha1_digest(block) + "\r\n";
  rec += fmt::format("Content-Length: {}\r\n\r\n", block.size());
  rec.append(block);
  rec += "\r\n\r\n";
  switch (comp_) {
    case WarcCompression::kNone: sink_(rec); break;
    case WarcCompression::kGzip: sink_(gzip_member(rec)); break;
    case WarcCompression::kZstd: sink_(zstd_frame(rec)); break;
  }
  return id;
}

std::string warc_record_id() {
  static std::mutex mu;
  static std::mt19937_64 rng = [] {
    std::random_device rd;
    std::seed_seq seq{rd(), rd(), rd(), rd()};
    return std::mt19937_64(seq);
  }();
  uint64_t a, b;
  {
    std::lock_guard<std::mutex> lock(mu);
    a = rng();
    b = rng();
  }
  a = (a & ~0xF000ULL) | 0x4000ULL;                             // version 4
  b = (b & 0x3FFFFFFFFFFFFFFFULL) | 0x8000000000000000ULL;     // variant
  return fmt::format("<urn:uuid:{:08x}-{:04x}-{:04x}-{:04x}-{:012x}>", a >> 32, (a >> 16) & 0xFFFF, a & 0xFFFF,
                     b >> 48, b & 0xFFFFFFFFFFFFULL);
}

std::string warc_sha1_digest(std::string_view data) {
  auto d = sha1(data);
  return "sha1:" + base32(d.data(), d.size());
}

}  // namespace corpus
