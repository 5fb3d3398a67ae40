#include "libcorpus/crawler.h"

#include <cmath>
#include <thread>

#include <fmt/format.h>

#include "libcorpus/charset.h"
#include "libcorpus/error.h"
#include "libcorpus/html_text.h"
#include "libcorpus/http_message.h"
#include "libcorpus/crawl_sitemap.h"
#include "libcorpus/url.h"

namespace corpus {

using Clock = std::chrono::steady_clock;

Crawler::Crawler(CrawlOptions o, WarcWriter& warc, CrawlCallbacks cb)
    : o_(std::move(o)), warc_(warc), cb_(std::move(cb)), scope_(o_.scope, o_.seeds, o_.include, o_.exclude) {}

Crawler::~Crawler() = default;

void Crawler::count(const std::string& k, uint64_t n) {
  for (auto& [key, v] : counts_)
    if (key == k) {
      v += n;
      return;
    }
  counts_.emplace_back(k, n);
}

Crawler::Host& Crawler::host_for(const std::string& url) {
  auto p = split_url(url);
  return hosts_[p ? p->origin() : std::string()];
}

void Crawler::wait_polite(Host& h) {
  auto now = Clock::now();
  if (h.next_ok > now) std::this_thread::sleep_until(h.next_ok);
}

FetchResult Crawler::fetch(const std::string& url, Host& h, const FetchOptions& fo, const char* what) {
  FetchResult r;
  for (int attempt = 0;; ++attempt) {
    wait_polite(h);
    r = fetcher_.get(url, fo);
    auto delay = std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(h.delay));
    h.next_ok = Clock::now() + delay;
    count("requests");
    bytes_ += r.body.size();
    if (cb_.log)
      cb_.log(r.ok ? fmt::format("GET {} {} -> {} {} {} B {:.3f} s", what, url, r.status, mime_type_of(r.content_type),
                                 r.body.size(), r.seconds)
                   : fmt::format("GET {} {} -> error: {} ({:.3f} s)", what, url, r.error, r.seconds));
    bool retry = (r.ok && r.status >= 500) || (!r.ok && r.transient);
    if (!retry || attempt >= o_.retries) break;
    count("retries");
    // Back off exponentially, on top of the politeness delay.
    auto backoff = std::chrono::duration_cast<Clock::duration>(
        std::chrono::duration<double>(o_.backoff * std::pow(2.0, attempt)));
    h.next_ok = std::max(h.next_ok, Clock::now() + backoff);
  }
  return r;
}

void Crawler::write_exchange(const std::string& url, const FetchResult& r) {
  std::string block = r.response_head + r.body;
  std::vector<std::pair<std::string, std::string>> rh{{"WARC-Target-URI", url},
                                                      {"Content-Type", "application/http; msgtype=response"}};
  if (!r.ip.empty()) rh.emplace_back("WARC-IP-Address", r.ip);
  rh.emplace_back("WARC-Payload-Digest", warc_sha1_digest(r.body));
  std::string date = warc_date_now();
  rh.emplace_back("WARC-Date", date);
  std::string id = warc_.write("response", std::move(rh), block);
  warc_.write("request",
              {{"WARC-Target-URI", url},
               {"WARC-Date", date},
               {"WARC-Concurrent-To", id},
               {"Content-Type", "application/http; msgtype=request"}},
              r.request);
}

void Crawler::fetch_robots(const std::string& url, Host& h) {
  h.robots_done = true;
  h.delay = o_.delay;
  auto p = split_url(url);
  std::string robots_url = p->origin() + "/robots.txt";
  FetchOptions fo = o_.fetch;
  fo.accept_types.clear();
  FetchResult r = fetch(robots_url, h, fo, "robots");
  if (r.ok) write_exchange(robots_url, r);
  if (r.ok && r.status >= 200 && r.status < 300) {
    h.rules = RobotsRules::parse(r.body, o_.robots_agent);
  } else if (r.ok && r.status >= 400 && r.status < 500) {
    h.rules = RobotsRules::allow_all();  // RFC 9309: unavailable -> no rules
  } else if (r.ok && r.status >= 300 && r.status < 400) {
    h.rules = RobotsRules::allow_all();  // redirects of robots.txt are not followed (documented)
  } else {
    h.rules = RobotsRules::disallow_all();  // unreachable -> assume complete disallow
    count("robots.txt unreachable");
  }
  if (h.rules.crawl_delay() && *h.rules.crawl_delay() > h.delay) h.delay = *h.rules.crawl_delay();
  if (o_.use_sitemaps)
    for (const auto& s : h.rules.sitemaps())
      if (auto u = resolve_url(robots_url, s)) fetch_sitemap(*u, 0);
}

void Crawler::fetch_sitemap(const std::string& url, int level) {
  if (level > 2 || sitemaps_seen_.size() >= 1000 || !sitemaps_seen_.insert(url).second) return;
  if (!scope_.contains(url)) {
    count("sitemaps out of scope");
    return;
  }
  Host& h = host_for(url);
  if (!h.robots_done) fetch_robots(url, h);
  if (!h.rules.allowed(split_url(url)->path)) {
    count("disallowed by robots.txt");
    return;
  }
  FetchOptions fo = o_.fetch;
  fo.accept_types.clear();
  FetchResult r = fetch(url, h, fo, "sitemap");
  if (r.ok) write_exchange(url, r);
  if (!r.ok || r.status != 200) {
    count("sitemap errors");
    return;
  }
  std::string body;
  HttpResponse hr;
  hr.body = r.body;
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
  for (const auto& loc : sm.locs) {
    auto u = resolve_url(url, loc);
    if (!u) continue;
    if (sm.is_index)
      fetch_sitemap(*u, level + 1);
    else
      enqueue(*u, 0, false);
  }
}

void Crawler::enqueue(const std::string& url, int depth, bool alternate) {
  if (depth > o_.max_depth) return;
  if (!scope_.contains(url)) {
    count("links out of scope");
    return;
  }
  if (!seen_.insert(url).second) return;
  (alternate ? alt_ : main_).push_back({url, depth});
}

bool Crawler::limits_reached() const {
  return (o_.max_pages && pages_ >= o_.max_pages) || (o_.max_bytes && bytes_ >= o_.max_bytes);
}

void Crawler::crawl_item(Item item) {
  std::string url = item.url;
  for (int hops = 0;; ++hops) {
    Host& h = host_for(url);
    if (!h.robots_done) fetch_robots(url, h);
    if (!h.rules.allowed(split_url(url)->path)) {
      count("disallowed by robots.txt");
      if (cb_.log) cb_.log("skip (robots.txt) " + url);
      return;
    }
    FetchResult r = fetch(url, h, o_.fetch, "page");
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
      if (hops + 1 > o_.max_redirects) {
        count("too many redirects");
        return;
      }
      if (!seen_.insert(*target).second) return;
      url = *target;
      continue;
    }
    if (r.status >= 400) count("HTTP errors");
    if (r.status != 200) return;
    std::string mime = mime_type_of(r.content_type);
    if (mime != "text/html" && mime != "application/xhtml+xml") return;
    DecodedText dec;
    if (!decode_document(r.body, charset_from_content_type(r.content_type), true, dec).empty()) return;
    HtmlPage page = html_to_text(dec.text, true);
    std::string base = url;
    if (!page.base.empty())
      if (auto b = resolve_url(url, page.base)) base = *b;
    for (const auto& l : page.links)
      if (auto u = resolve_url(base, l.href)) enqueue(*u, item.depth + 1, l.alternate || !l.hreflang.empty());
    return;
  }
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
      if (auto u = resolve_url("", s)) fetch_sitemap(*u, 0);
    if (cb_.checkpoint) cb_.checkpoint();
  }
  while ((!alt_.empty() || !main_.empty()) && !limits_reached()) {
    std::deque<Item>& q = alt_.empty() ? main_ : alt_;
    Item it = std::move(q.front());
    q.pop_front();
    crawl_item(std::move(it));
    if (cb_.progress) cb_.progress(pages_, bytes_, alt_.size() + main_.size());
    if (cb_.checkpoint) cb_.checkpoint();
  }
  if (limits_reached()) count("left in queue", alt_.size() + main_.size());
}

nlohmann::json Crawler::state() const {
  nlohmann::json s;
  s["version"] = 1;
  s["started"] = started_;
  s["pages"] = pages_;
  s["bytes"] = bytes_;
  auto items = [](const std::deque<Item>& q) {
    nlohmann::json a = nlohmann::json::array();
    for (const auto& i : q) a.push_back({i.url, i.depth});
    return a;
  };
  s["alt"] = items(alt_);
  s["main"] = items(main_);
  s["seen"] = seen_;
  s["sitemaps_seen"] = sitemaps_seen_;
  nlohmann::json c = nlohmann::json::array();
  for (const auto& [k, v] : counts_) c.push_back({k, v});
  s["counts"] = c;
  return s;
}

void Crawler::load_state(const nlohmann::json& s) {
  try {
    if (s.at("version").get<int>() != 1) throw Error("unknown state version");
    started_ = s.at("started").get<bool>();
    pages_ = s.at("pages").get<uint64_t>();
    bytes_ = s.at("bytes").get<uint64_t>();
    for (const auto& i : s.at("alt")) alt_.push_back({i[0].get<std::string>(), i[1].get<int>()});
    for (const auto& i : s.at("main")) main_.push_back({i[0].get<std::string>(), i[1].get<int>()});
    for (const auto& u : s.at("seen")) seen_.insert(u.get<std::string>());
    for (const auto& u : s.at("sitemaps_seen")) sitemaps_seen_.insert(u.get<std::string>());
    for (const auto& c : s.at("counts")) counts_.emplace_back(c[0].get<std::string>(), c[1].get<uint64_t>());
  } catch (const nlohmann::json::exception& e) {
    throw Error(std::string("bad crawl state: ") + e.what(), "delete the state file to start afresh");
  }
}

}  // namespace corpus
