// Which URLs a crawl may fetch: http(s) only; same host as a seed (default),
// same registrable-ish domain (the seed host and its subdomains), or under a
// seed's URL prefix; then --include regexes (at least one must match when
// given) and --exclude regexes (none may match), ECMAScript syntax, searched
// anywhere in the URL.
#pragma once

#include <regex>
#include <string>
#include <vector>

namespace corpus {

enum class ScopeMode { kHost, kDomain, kPrefix };

class CrawlScope {
 public:
  // Throws ConfigError for a bad mode name or regex.
  CrawlScope(const std::string& mode, const std::vector<std::string>& seeds, const std::vector<std::string>& include,
             const std::vector<std::string>& exclude);
  bool contains(const std::string& url) const;

 private:
  ScopeMode mode_;
  std::vector<std::string> hosts_;     // "host[:port]" of the seeds
  std::vector<std::string> prefixes_;  // normalised seed URLs
  std::vector<std::regex> include_, exclude_;
};

}  // namespace corpus
