// The crawl loop of pc-crawl: frontier, robots.txt and sitemaps per host,
// politeness, retries, redirects with a scope check on every hop, limits,
// links (hreflang alternates first), WARC records, and a state that can be
// saved and loaded to resume.
//
// Fetching is concurrent (libcurl multi, one thread): up to `connections`
// requests at once, at most `host_connections` of them to one host (scheme,
// host and port). A request to a host starts only when `delay` seconds (or
// the host's robots.txt Crawl-delay, if larger) have passed since the
// previous request to that host started and since the last one ended. A
// host's robots.txt comes first, then its sitemaps, retries and redirect
// hops, then pages from the frontier (hreflang alternates first, then in
// discovery order).
//
// Determinism: with one host and host_connections 1 (the default), requests
// and WARC records come in the same order on every run. Otherwise records
// are written in the order responses complete, which depends on timing; the
// set of URLs fetched is the same (without --max-pages/--max-bytes, which
// stop at a timing-dependent point), though a URL reachable by two paths may
// get either depth. The saved state holds queued and in-flight URLs, so a
// resumed crawl fetches every URL once, except requests in flight when the
// crawl was killed (their records were not written; they are fetched again).
#pragma once

#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <optional>
#include <string_view>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "libcorpus/core/counts.h"
#include "libcorpus/web/crawl_fetch.h"
#include "libcorpus/web/crawl_robots.h"
#include "libcorpus/web/crawl_scope.h"
#include "libcorpus/core/warc.h"

namespace corpus {

struct CrawlOptions {
  std::vector<std::string> seeds;
  std::string scope = "host";              // host, domain or prefix
  std::vector<std::string> include, exclude;
  std::string robots_agent = "pc-crawl";   // token matched against robots.txt user-agent lines
  double delay = 1.0;                      // seconds between requests to one host
  int host_connections = 1;                // concurrent requests to one host
  int connections = 16;                    // concurrent requests in all
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

// The links of one HTML page, as the crawler follows them. The web part does
// not parse HTML itself: the tool hands it a LinkExtractor (pc-crawl wires
// the ingest part's HTML parser), so crawling never links an HTML parser.
struct PageLink {
  std::string href;       // as written in the page
  bool preferred = false; // an hreflang alternate: fetched before other links
};
struct PageLinks {
  bool too_deep = false;  // nested too deep to parse: no links
  std::string base;       // <base href>, "" when none
  std::vector<PageLink> links;
};
// Body and Content-Type of a 200 text/html or XHTML response -> its links;
// nullopt when the body cannot be decoded (no links, nothing counted).
using LinkExtractor = std::function<std::optional<PageLinks>(std::string_view body, std::string_view content_type)>;

struct CrawlCallbacks {
  std::function<void(const std::string&)> log;   // one line per fetch (-v)
  std::function<void(uint64_t pages, uint64_t bytes, size_t queued)> progress;
  std::function<void()> checkpoint;              // the state is consistent with the WARC written so far
};

class Crawler {
 public:
  Crawler(CrawlOptions o, WarcWriter& warc, LinkExtractor links, CrawlCallbacks cb);
  ~Crawler();

  // Restores a state saved by state(); the WARC must hold exactly what was
  // written when it was saved.
  void load_state(const nlohmann::json& s);
  nlohmann::json state() const;

  // Crawls until the frontier is empty or a limit is reached.
  void run();

  // Counters by name ("pages", "robots disallowed", ...), in first-use order.
  const OrderedCounts& counts() const { return counts_; }

 private:
  struct Item {
    std::string url;
    int depth = 0;
    std::string origin;  // of url: the key of hosts_
  };
  // A request to make: robots.txt, a sitemap, or a page (with its redirect
  // hop and retry attempt).
  struct Job {
    enum Kind { kRobots, kSitemap, kPage } kind = kPage;
    std::string url;
    int depth = 0;   // pages: link hops; sitemaps: index level
    int hops = 0;    // redirects followed to get here
    std::string rules_for;  // robots: the origin whose rules a redirected robots.txt sets ("" = its own)
    int attempt = 0;
    std::chrono::steady_clock::time_point not_before{};
  };
  struct Host {
    enum { kNone, kQueued, kDone } robots = kNone;
    RobotsRules rules;
    double delay = 0;
    int active = 0;                                 // requests in flight
    std::chrono::steady_clock::time_point next_ok{};  // earliest next start
    std::deque<Job> urgent;                         // before frontier pages: robots, sitemaps, retries, redirects
  };

  void count(std::string_view k, uint64_t n = 1) { counts_.add(k, n); }
  static std::string origin_of(const std::string& url);
  Host& host_for(const std::string& url);
  void ensure_robots(const std::string& url, Host& h);
  void add_sitemap(const std::string& url, int level, bool front);
  void enqueue(const std::string& url, int depth, bool alternate);
  bool limits_reached() const;
  size_t queued() const;
  // Starts what politeness and the limits allow; returns when to look again.
  std::chrono::steady_clock::time_point dispatch();
  bool start(Job job, Host& h);
  void finished(Job job, FetchResult r);
  void write_exchange(const std::string& url, const FetchResult& r);
  void robots_done(const Job& job, Host& h, const FetchResult& r);
  void sitemap_done(const Job& job, const FetchResult& r);
  void page_done(const Job& job, const FetchResult& r);

  CrawlOptions o_;
  WarcWriter& warc_;
  LinkExtractor links_;
  CrawlCallbacks cb_;
  CrawlScope scope_;
  Fetcher fetcher_;
  std::deque<Item> alt_, main_;
  std::set<std::string> seen_;
  std::map<std::string, Host> hosts_;
  std::set<std::string> sitemaps_seen_;
  std::map<uint64_t, Job> in_flight_;
  uint64_t next_id_ = 0;
  uint64_t pages_ = 0, bytes_ = 0, pages_in_flight_ = 0;
  bool started_ = false;
  OrderedCounts counts_;
};

}  // namespace corpus
