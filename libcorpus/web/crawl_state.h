// The --state file of pc-crawl: the crawler's state (Crawler::state()) and
// the mark of the WARC written with it (warc_append.h), in one JSON object,
// saved atomically (a temporary file renamed over it). A crawl with a state
// file resumes from it when it exists, appending to the WARC it names.
#pragma once

#include <chrono>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "libcorpus/web/crawler.h"
#include "libcorpus/web/warc_append.h"

namespace corpus {

class CrawlStateFile {
 public:
  // Reads `state_path` if it exists and reopens the WARC it names, which
  // must be `warc_path` (Error otherwise, both files left as they are);
  // else starts `warc_path` afresh.
  CrawlStateFile(std::string state_path, const std::string& warc_path);

  bool resuming() const { return saved_.has_value(); }
  // The crawler's saved state, for Crawler::load_state (when resuming).
  const nlohmann::json& saved() const { return *saved_; }
  // Frontier URLs the saved state holds (when resuming).
  size_t saved_queued() const;
  WarcAppendFile& warc() { return *warc_; }

  // Saves the crawler's state with the WARC's mark after flushing the WARC
  // to disk. Unless `force`, only when a second has passed since the last
  // save: the crawler offers a checkpoint after every response.
  void save(const Crawler& crawler, bool force);

 private:
  std::string path_;
  std::optional<nlohmann::json> saved_;
  std::unique_ptr<WarcAppendFile> warc_;
  std::chrono::steady_clock::time_point last_save_{};
  bool saved_once_ = false;
};

}  // namespace corpus
