#include "libcorpus/web/crawl_scope.h"

#include "libcorpus/core/error.h"
#include "libcorpus/web/url.h"

namespace corpus {

CrawlScope::CrawlScope(const std::string& mode, const std::vector<std::string>& seeds,
                       const std::vector<std::string>& include, const std::vector<std::string>& exclude) {
  if (mode == "host")
    mode_ = ScopeMode::kHost;
  else if (mode == "domain")
    mode_ = ScopeMode::kDomain;
  else if (mode == "prefix")
    mode_ = ScopeMode::kPrefix;
  else
    throw ConfigError("--scope must be host, domain or prefix, not " + quote(mode));
  for (const auto& s : seeds) {
    auto n = resolve_url("", s);
    auto p = n ? split_url(*n) : std::nullopt;
    if (!p) throw ConfigError("not an http or https URL: " + quote(s), "seeds look like http://example.org/");
    hosts_.push_back(p->host);
    prefixes_.push_back(*n);
  }
  auto compile = [](const std::vector<std::string>& in, std::vector<std::regex>& out, const char* opt) {
    for (const auto& r : in) {
      try {
        out.emplace_back(r, std::regex::ECMAScript | std::regex::optimize);
      } catch (const std::regex_error& e) {
        throw ConfigError(std::string(opt) + " " + quote(r) + " is not a valid regular expression (" + e.what() + ")");
      }
    }
  };
  compile(include, include_, "--include");
  compile(exclude, exclude_, "--exclude");
}

bool CrawlScope::contains(const std::string& url) const {
  auto p = split_url(url);
  if (!p) return false;
  bool ok = false;
  for (size_t i = 0; i < hosts_.size() && !ok; ++i) {
    switch (mode_) {
      case ScopeMode::kHost: ok = p->host == hosts_[i]; break;
      case ScopeMode::kDomain: {
        const std::string& h = hosts_[i];
        ok = p->host == h || (p->host.size() > h.size() && p->host.compare(p->host.size() - h.size(), h.size(), h) == 0 &&
                              p->host[p->host.size() - h.size() - 1] == '.');
        break;
      }
      case ScopeMode::kPrefix: ok = url.compare(0, prefixes_[i].size(), prefixes_[i]) == 0; break;
    }
  }
  if (!ok) return false;
  if (!include_.empty()) {
    bool any = false;
    for (const auto& r : include_) any = any || std::regex_search(url, r);
    if (!any) return false;
  }
  for (const auto& r : exclude_)
    if (std::regex_search(url, r)) return false;
  return true;
}

}  // namespace corpus
