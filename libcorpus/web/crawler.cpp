#include "libcorpus/web/crawler.h"

#include "libcorpus/core/sysinfo.h"

#include <algorithm>
#include <cmath>
#include <unordered_set>

#include <fmt/format.h>

#include "libcorpus/core/error.h"
#include "libcorpus/core/http_message.h"
#include "libcorpus/web/crawl_sitemap.h"
#include "libcorpus/web/url.h"

namespace corpus {

using Clock = std::chrono::steady_clock;

namespace {

Clock::duration seconds(double s) { return std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(s)); }

// Frontier entries looked at per dispatch: bounds the work per event on a
// big frontier whose first entries all wait for busy hosts.
constexpr size_t kScanWindow = 10000;
constexpr int kRobotsRedirects = 5;  // RFC 9309: "at least five"

}  // namespace

Crawler::Crawler(CrawlOptions o, WarcWriter& warc, LinkExtractor links, CrawlCallbacks cb)
    : o_(std::move(o)), warc_(warc), links_(std::move(links)), cb_(std::move(cb)), scope_(o_.scope, o_.seeds, o_.include, o_.exclude) {
  if (o_.host_connections < 1 || o_.connections < 1) throw Error("connection limits must be at least 1");
}

Crawler::~Crawler() = default;

std::string Crawler::origin_of(const std::string& url) {
  auto p = split_url(url);
  return p ? p->origin() : std::string();
}

Crawler::Host& Crawler::host_for(const std::string& url) { return hosts_[origin_of(url)]; }

void Crawler::ensure_robots(const std::string& url, Host& h) {
  if (h.robots != Host::kNone) return;
  h.robots = Host::kQueued;
  h.delay = o_.delay;
  Job j;
  j.kind = Job::kRobots;
  j.url = origin_of(url) + "/robots.txt";
  h.urgent.push_front(std::move(j));
}

void Crawler::add_sitemap(const std::string& url, int level, bool front) {
  if (level > 2 || sitemaps_seen_.size() >= 1000 || !sitemaps_seen_.insert(url).second) return;
  if (!scope_.contains(url)) {
    count("sitemaps out of scope");
    return;
  }
  Host& h = host_for(url);
  ensure_robots(url, h);
  Job j;
  j.kind = Job::kSitemap;
  j.url = url;
  j.depth = level;
  if (front)  // after the robots job, if queued
    h.urgent.insert(h.urgent.begin() + (!h.urgent.empty() && h.urgent.front().kind == Job::kRobots), std::move(j));
  else
    h.urgent.push_back(std::move(j));
}

void Crawler::enqueue(const std::string& url, int depth, bool alternate) {
  if (depth > o_.max_depth) return;
  if (!scope_.contains(url)) {
    count("links out of scope");
    return;
  }
  if (!seen_.insert(url).second) return;
  (alternate ? alt_ : main_).push_back({url, depth, origin_of(url)});
}

bool Crawler::limits_reached() const {
  return (o_.max_pages && pages_ >= o_.max_pages) || (o_.max_bytes && bytes_ >= o_.max_bytes);
}

size_t Crawler::queued() const {
  size_t n = alt_.size() + main_.size();
  for (const auto& [origin, h] : hosts_)
    for (const auto& j : h.urgent) n += j.kind != Job::kRobots;
  return n;
}

bool Crawler::start(Job job, Host& h) {
  if (job.kind != Job::kRobots) {
    // Page and sitemap jobs passed scope_.contains(), which parses the URL;
    // one that does not parse is still refused here, not dereferenced.
    const auto parts = split_url(job.url);
    if (!parts) {
      count("unparsable URLs");
      return false;
    }
    if (!h.rules.allowed(parts->path)) {
      count("disallowed by robots.txt");
      if (job.kind == Job::kPage && cb_.log) cb_.log("skip (robots.txt) " + job.url);
      return false;
    }
  }
  FetchOptions fo = o_.fetch;
  if (job.kind != Job::kPage) fo.accept_types.clear();
  uint64_t id = next_id_++;
  fetcher_.start(id, job.url, fo);
  ++h.active;
  h.next_ok = std::max(h.next_ok, Clock::now() + seconds(h.delay));
  if (job.kind == Job::kPage) ++pages_in_flight_;
  in_flight_.emplace(id, std::move(job));
  return true;
}

Clock::time_point Crawler::dispatch() {
  const auto now = Clock::now();
  auto wake = now + std::chrono::seconds(1);
  const auto free_slot = [&] { return fetcher_.active() < static_cast<size_t>(o_.connections); };
  const auto page_budget = [&] { return !o_.max_pages || pages_ + pages_in_flight_ < o_.max_pages; };
  if (limits_reached()) return wake;
  // Robots, sitemaps, retries and redirect hops, host by host.
  auto run_urgent = [&](Host& h) {
    while (!h.urgent.empty() && free_slot() && h.active < o_.host_connections) {
      Job& j = h.urgent.front();
      if (j.kind != Job::kRobots && h.robots != Host::kDone) return;
      if (j.kind == Job::kPage && !page_budget()) return;
      auto t = std::max(h.next_ok, j.not_before);
      if (t > now) {
        wake = std::min(wake, t);
        return;
      }
      Job job = std::move(j);
      h.urgent.pop_front();
      start(std::move(job), h);
    }
  };
  for (auto& [origin, h] : hosts_) run_urgent(h);
  // Frontier pages: hreflang alternates first, then in discovery order.
  std::unordered_set<const Host*> blocked;  // hosts that cannot start a page now
  for (auto* q : {&alt_, &main_}) {
    size_t scanned = 0;
    for (auto it = q->begin(); it != q->end() && scanned < kScanWindow && free_slot() && page_budget(); ++scanned) {
      Host& h = hosts_[it->origin];
      if (blocked.count(&h)) {
        ++it;
        continue;
      }
      if (h.robots == Host::kNone) {
        ensure_robots(it->url, h);
        run_urgent(h);
      }
      if (h.robots != Host::kDone || !h.urgent.empty() || h.active >= o_.host_connections || h.next_ok > now) {
        if (h.robots == Host::kDone && h.urgent.empty() && h.next_ok > now) wake = std::min(wake, h.next_ok);
        blocked.insert(&h);
        ++it;
        continue;
      }
      Job job;
      job.url = std::move(it->url);
      job.depth = it->depth;
      it = q->erase(it);
      start(std::move(job), h);
    }
  }
  return wake;
}

void Crawler::write_exchange(const std::string& url, const FetchResult& r) {
  std::string block = r.response_head + r.body;
  std::vector<std::pair<std::string, std::string>> rh{{"WARC-Target-URI", url},
                                                      {"Content-Type", "application/http; msgtype=response"}};
  if (!r.ip.empty()) rh.emplace_back("WARC-IP-Address", r.ip);
  rh.emplace_back("WARC-Payload-Digest", warc_sha1_digest(r.body));
  std::string date = sysinfo::utc_now();
  rh.emplace_back("WARC-Date", date);
  std::string id = warc_.write("response", std::move(rh), block);
  warc_.write("request",
              {{"WARC-Target-URI", url},
               {"WARC-Date", date},
               {"WARC-Concurrent-To", id},
               {"Content-Type", "application/http; msgtype=request"}},
              r.request);
}

void Crawler::finished(Job job, FetchResult r) {
  Host& h = host_for(job.url);
  --h.active;
  if (job.kind == Job::kPage) --pages_in_flight_;
  const auto now = Clock::now();
  h.next_ok = std::max(h.next_ok, now + seconds(h.delay));
  count("requests");
  bytes_ += r.body.size();
  static const char* const what[] = {"robots", "sitemap", "page"};
  if (cb_.log)
    cb_.log(r.ok ? fmt::format("GET {} {} -> {} {} {} B {:.3f} s", what[job.kind], job.url, r.status,
                               mime_type_of(r.content_type), r.body.size(), r.seconds)
                 : fmt::format("GET {} {} -> error: {} ({:.3f} s)", what[job.kind], job.url, r.error, r.seconds));
  bool retry = (r.ok && r.status >= 500) || (!r.ok && r.transient);
  if (retry && job.attempt < o_.retries) {
    count("retries");
    // Back off exponentially, on top of the politeness delay; the host's
    // frontier pages wait behind the retry.
    job.not_before = now + seconds(o_.backoff * std::pow(2.0, job.attempt));
    ++job.attempt;
    h.urgent.push_front(std::move(job));
    return;
  }
  switch (job.kind) {
    case Job::kRobots: robots_done(job, h, r); break;
    case Job::kSitemap: sitemap_done(job, r); break;
    case Job::kPage: page_done(job, r); break;
  }
}

void Crawler::robots_done(const Job& job, Host& fetched_from, const FetchResult& r) {
  Host& h = job.rules_for.empty() ? fetched_from : hosts_[job.rules_for];
  if (r.ok) write_exchange(job.url, r);
  // RFC 9309 2.3.1.2: follow at least five redirects, to any host; the rules
  // found are those of the host asked first. The host waits until then.
  if (r.ok && r.status >= 300 && r.status < 400 && !r.location.empty() && job.hops < kRobotsRedirects) {
    if (auto target = resolve_url(job.url, r.location)) {
      Job next;
      next.kind = Job::kRobots;
      next.url = *target;
      next.hops = job.hops + 1;
      next.rules_for = job.rules_for.empty() ? origin_of(job.url) : job.rules_for;
      count("robots.txt redirects");
      host_for(next.url).urgent.push_front(std::move(next));
      return;
    }
  }
  h.robots = Host::kDone;
  if (r.ok && r.status >= 200 && r.status < 300) {
    h.rules = RobotsRules::parse(r.body, o_.robots_agent);
  } else if (r.ok && r.status >= 300 && r.status < 500) {
    h.rules = RobotsRules::allow_all();  // RFC 9309: unavailable (4xx, or redirects past the limit) -> no rules
  } else {
    h.rules = RobotsRules::disallow_all();  // unreachable -> assume complete disallow
    count("robots.txt unreachable");
  }
  if (h.rules.crawl_delay() && *h.rules.crawl_delay() > h.delay) h.delay = *h.rules.crawl_delay();
  // finished() spaced the next request by the delay known before robots.txt
  // was read; a larger Crawl-delay holds from the end of this request too.
  h.next_ok = std::max(h.next_ok, Clock::now() + seconds(h.delay));
  if (o_.use_sitemaps)
    for (const auto& s : h.rules.sitemaps())
      if (auto u = resolve_url(job.url, s)) add_sitemap(*u, 0, false);
}

void Crawler::sitemap_done(const Job& job, const FetchResult& r) {
  if (r.ok) write_exchange(job.url, r);
  if (!r.ok || r.status != 200) {
    count("sitemap errors");
    return;
  }
  std::string body;
  if (r.body.size() >= 2 && r.body[0] == '\x1f' && r.body[1] == '\x8b') {
    if (!inflate_limited(r.body, true, o_.fetch.max_body, body).empty()) body.clear();
  } else {
    body = r.body;
  }
  Sitemap sm;
  if (!parse_sitemap(body, sm).empty()) {
    count("sitemap errors");
    return;
  }
  count("sitemaps");
  // Child sitemaps of an index go first, in their order (depth first).
  std::vector<std::string> children;
  for (const auto& loc : sm.locs) {
    auto u = resolve_url(job.url, loc);
    if (!u) continue;
    if (sm.is_index)
      children.push_back(*u);
    else
      enqueue(*u, 0, false);
  }
  for (auto c = children.rbegin(); c != children.rend(); ++c) add_sitemap(*c, job.depth + 1, true);
}

void Crawler::page_done(const Job& job, const FetchResult& r) {
  const std::string& url = job.url;
  if (!r.ok) {
    count(r.type_refused ? "type not accepted" : r.too_large ? "too large" : "fetch errors");
    return;
  }
  write_exchange(url, r);
  ++pages_;
  count("pages");
  if (r.status >= 300 && r.status < 400 && !r.location.empty()) {
    auto target = resolve_url(url, r.location);
    if (!target || !scope_.contains(*target)) {
      count("redirects out of scope");
      if (cb_.log) cb_.log("redirect out of scope: " + url + " -> " + r.location);
      return;
    }
    if (job.hops + 1 > o_.max_redirects) {
      count("too many redirects");
      return;
    }
    if (!seen_.insert(*target).second) return;
    Job next;
    next.url = *target;
    next.depth = job.depth;
    next.hops = job.hops + 1;
    Host& th = host_for(next.url);
    ensure_robots(next.url, th);
    th.urgent.push_back(std::move(next));
    return;
  }
  if (r.status >= 400) count("HTTP errors");
  if (r.status != 200) return;
  std::string mime = mime_type_of(r.content_type);
  if (mime != "text/html" && mime != "application/xhtml+xml") return;
  std::optional<PageLinks> got = links_(r.body, r.content_type);
  if (!got) return;
  const PageLinks& page = *got;
  if (page.too_deep) {
    count("pages nested too deep for links");
    if (cb_.log) cb_.log("no links from " + url + ": HTML nested too deep");
    return;
  }
  std::string base = url;
  if (!page.base.empty())
    if (auto b = resolve_url(url, page.base)) base = *b;
  for (const auto& l : page.links)
    if (auto u = resolve_url(base, l.href)) enqueue(*u, job.depth + 1, l.preferred);
}

void Crawler::run() {
  if (!started_) {
    started_ = true;
    nlohmann::ordered_json info{{"software", "pc-crawl (paracorp)"}, {"format", "WARC File Format 1.1"},
                                {"robots", "obey"}, {"user-agent", o_.fetch.user_agent}};
    std::string block;
    for (const auto& [k, v] : info.items()) block += k + ": " + v.get<std::string>() + "\r\n";
    warc_.write("warcinfo", {{"Content-Type", "application/warc-fields"}}, block);
    for (const auto& s : o_.seeds)
      if (auto u = resolve_url("", s)) enqueue(*u, 0, false);
    for (const auto& s : o_.sitemaps)
      if (auto u = resolve_url("", s)) add_sitemap(*u, 0, false);
    if (cb_.checkpoint) cb_.checkpoint();
  }
  std::vector<std::pair<uint64_t, FetchResult>> done;
  for (;;) {
    auto wake = dispatch();
    if (fetcher_.active() == 0 && (limits_reached() || queued() == 0)) break;
    auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(wake - Clock::now()).count() + 1;
    done.clear();
    fetcher_.wait(static_cast<int>(std::clamp<long long>(ms, 1, 1000)), done);
    for (auto& [id, r] : done) {
      auto it = in_flight_.find(id);
      Job job = std::move(it->second);
      in_flight_.erase(it);
      finished(std::move(job), std::move(r));
    }
    if (done.empty()) continue;
    if (cb_.progress) cb_.progress(pages_, bytes_, queued());
    if (cb_.checkpoint) cb_.checkpoint();
  }
  if (limits_reached()) count("left in queue", queued());
}

nlohmann::json Crawler::state() const {
  nlohmann::json s;
  s["version"] = 1;
  s["started"] = started_;
  s["pages"] = pages_;
  s["bytes"] = bytes_;
  // Pages in flight or waiting for a retry or a redirect hop go first, so
  // that a resumed crawl fetches them again.
  nlohmann::json alt = nlohmann::json::array(), sitemaps = nlohmann::json::array();
  auto pending = [&](const Job& j) {
    if (j.kind == Job::kPage) alt.push_back({j.url, j.depth});
    if (j.kind == Job::kSitemap) sitemaps.push_back({j.url, j.depth});
  };
  for (const auto& [id, j] : in_flight_) pending(j);
  for (const auto& [origin, h] : hosts_)
    for (const auto& j : h.urgent) pending(j);
  for (const auto& i : alt_) alt.push_back({i.url, i.depth});
  nlohmann::json main = nlohmann::json::array();
  for (const auto& i : main_) main.push_back({i.url, i.depth});
  s["alt"] = alt;
  s["main"] = main;
  s["sitemaps"] = sitemaps;
  s["seen"] = seen_;
  s["sitemaps_seen"] = sitemaps_seen_;
  nlohmann::json c = nlohmann::json::array();
  for (const auto& [k, v] : counts_.entries()) c.push_back({k, v});
  s["counts"] = c;
  return s;
}

void Crawler::load_state(const nlohmann::json& s) {
  try {
    if (s.at("version").get<int>() != 1) throw Error("unknown state version");
    started_ = s.at("started").get<bool>();
    pages_ = s.at("pages").get<uint64_t>();
    bytes_ = s.at("bytes").get<uint64_t>();
    auto item = [](const nlohmann::json& i) {
      std::string url = i[0].get<std::string>();
      return Item{url, i[1].get<int>(), origin_of(url)};
    };
    for (const auto& i : s.at("alt")) alt_.push_back(item(i));
    for (const auto& i : s.at("main")) main_.push_back(item(i));
    for (const auto& u : s.at("seen")) seen_.insert(u.get<std::string>());
    for (const auto& u : s.at("sitemaps_seen")) sitemaps_seen_.insert(u.get<std::string>());
    if (s.contains("sitemaps"))  // pending sitemaps (absent in states of older versions)
      for (const auto& i : s.at("sitemaps")) {
        std::string url = i[0].get<std::string>();
        sitemaps_seen_.erase(url);
        add_sitemap(url, i[1].get<int>(), false);
      }
    for (const auto& c : s.at("counts")) counts_.add(c[0].get<std::string>(), c[1].get<uint64_t>());
  } catch (const nlohmann::json::exception& e) {
    throw Error(std::string("bad crawl state: ") + e.what(), "delete the state file to start afresh");
  }
}

}  // namespace corpus
