#include "libcorpus/web/crawl_state.h"

#include <cerrno>
#include <cstdio>
#include <fstream>

#include "libcorpus/core/error.h"
#include "libcorpus/core/output.h"

namespace corpus {

namespace {

// The key of the WARC's mark; the crawler's own keys sit beside it.
constexpr const char* kWarcKey = "warc";

WarcMark mark_from(const nlohmann::json& s, const std::string& state_path) {
  if (!s.is_object() || !s.contains(kWarcKey))
    throw Error("the state file names no WARC (written by an older pc-crawl?)", "delete it to start afresh")
        .at(state_path);
  try {
    const auto& w = s.at(kWarcKey);
    return {w.at("path").get<std::string>(), w.at("bytes").get<uint64_t>(), w.at("tail_digest").get<std::string>()};
  } catch (const nlohmann::json::exception& e) {
    throw Error(std::string("bad WARC entry in the state file: ") + e.what(), "delete it to start afresh")
        .at(state_path);
  }
}

}  // namespace

CrawlStateFile::CrawlStateFile(std::string state_path, const std::string& warc_path) : path_(std::move(state_path)) {
  std::ifstream in(path_);
  if (!in) {
    warc_ = std::make_unique<WarcAppendFile>(warc_path);
    return;
  }
  try {
    saved_ = nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception& e) {
    throw Error(std::string("not a pc-crawl state file: ") + e.what(), "delete it to start afresh").at(path_);
  }
  warc_ = std::make_unique<WarcAppendFile>(warc_path, mark_from(*saved_, path_));
}

size_t CrawlStateFile::saved_queued() const {
  return saved_->value("alt", nlohmann::json::array()).size() + saved_->value("main", nlohmann::json::array()).size();
}

void CrawlStateFile::save(const Crawler& crawler, bool force) {
  const auto now = std::chrono::steady_clock::now();
  if (!force && saved_once_ && now - last_save_ < std::chrono::seconds(1)) return;
  saved_once_ = true;
  last_save_ = now;
  const WarcMark m = warc_->sync();
  nlohmann::json s = crawler.state();
  s[kWarcKey] = {{"path", m.path}, {"bytes", m.bytes}, {"tail_digest", m.tail_digest}};
  // Written as every output is (core/output.h): under a temporary of its own
  // that only a complete write renames, so a kill leaves the previous state.
  Output out(path_, Compression::kNone);
  out.write(s.dump() + "\n");
  out.commit();
}

}  // namespace corpus
