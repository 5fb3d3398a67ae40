// The crawl loop of pc-crawl: frontier, robots.txt and sitemaps per host,
// politeness, retries, redirects with a scope check on every hop, limits,
// links (hreflang alternates first), WARC records, and a state that can be
// saved and loaded to resume.
//
// Fetching is sequential: one request at a time, so at most one connection
// per host. Before each request the crawler waits until `delay` seconds
// (or the host's robots.txt Crawl-delay, if larger) have passed since the
// previous request to that host ended.
#pragma once

#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "libcorpus/crawl_fetch.h"
#include "libcorpus/crawl_robots.h"
#include "libcorpus/crawl_scope.h"
#include "libcorpus/warc.h"

namespace corpus {

struct CrawlOptions {
  std::vector<std::string> seeds;
  std::string scope = "host";              // host, domain or prefix
  std::vector<std::string> include, exclude;
  std::string robots_agent = "pc-crawl";   // token matched against robots.txt user-agent lines
  double delay = 1.0;                      // seconds between requests to one host
  uint64_t max_pages = 0;                  // page responses to fetch; 0 = no limit
  uint64_t max_bytes = 0;                  // body bytes to download; 0 = no limit
  int max_depth = 10;                      // link hops from a seed or sitemap entry
  int retries = 2;                         // extra attempts after a 5xx or transport error
  double backoff = 1.0;                    // first retry waits this long, doubling after
  int max_redirects = 5;
  bool use_sitemaps = true;                // read Sitemap: lines of robots.txt
  std::vector<std::string> sitemaps;       // more sitemap URLs
  FetchOptions fetch;
};

struct CrawlCallbacks {
  std::function<void(const std::string&)> log;   // one line per fetch (-v)
  std::function<void(uint64_t pages, uint64_t bytes, size_t queued)> progress;
  std::function<void()> checkpoint;              // the state is consistent with the WARC written so far
};

class Crawler {
 public:
  Crawler(CrawlOptions o, WarcWriter& warc, CrawlCallbacks cb);
  ~Crawler();

  // Restores a state saved by state(); the WARC must hold exactly what was
  // written when it was saved.
  void load_state(const nlohmann::json& s);
  nlohmann::json state() const;

  // Crawls until the frontier is empty or a limit is reached.
  void run();

  // Counters by name ("pages", "robots disallowed", ...), in first-use order.
  const std::vector<std::pair<std::string, uint64_t>>& counts() const { return counts_; }

 private:
  struct Item {
    std::string url;
    int depth = 0;
  };
  struct Host {
    bool robots_done = false;
    RobotsRules rules;
    double delay = 0;
    std::chrono::steady_clock::time_point next_ok{};
  };

  void count(const std::string& k, uint64_t n = 1);
  Host& host_for(const std::string& url);
  void wait_polite(Host& h);
  FetchResult fetch(const std::string& url, Host& h, const FetchOptions& fo, const char* what);
  void write_exchange(const std::string& url, const FetchResult& r);
  void fetch_robots(const std::string& url, Host& h);
  void fetch_sitemap(const std::string& url, int level);
  void crawl_item(Item item);
  void enqueue(const std::string& url, int depth, bool alternate);
  bool limits_reached() const;

  CrawlOptions o_;
  WarcWriter& warc_;
  CrawlCallbacks cb_;
  CrawlScope scope_;
  Fetcher fetcher_;
  std::deque<Item> alt_, main_;
  std::set<std::string> seen_;
  std::map<std::string, Host> hosts_;
  std::set<std::string> sitemaps_seen_;
  uint64_t pages_ = 0, bytes_ = 0;
  bool started_ = false;
  std::vector<std::pair<std::string, uint64_t>> counts_;
};

}  // namespace corpus
