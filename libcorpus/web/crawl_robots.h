// robots.txt (RFC 9309): groups by user-agent, Allow/Disallow with the
// longest match winning (Allow on a tie), '*' and '$' in patterns,
// Crawl-delay (a common extension), and Sitemap lines.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace corpus {

class RobotsRules {
 public:
  // Parses robots.txt and keeps the rules of the group that applies to
  // `agent` (the product token, e.g. "pc-crawl"): the group naming the
  // longest user-agent that `agent` contains (case-insensitive), else "*".
  static RobotsRules parse(std::string_view text, std::string_view agent);
  static RobotsRules allow_all() { return {}; }
  static RobotsRules disallow_all();

  // `path` is the path and query ("/a/b?x"), percent-encoded as requested.
  bool allowed(std::string_view path) const;
  std::optional<double> crawl_delay() const { return delay_; }
  const std::vector<std::string>& sitemaps() const { return sitemaps_; }

 private:
  struct Rule {
    std::string pattern;
    bool allow;
  };
  std::vector<Rule> rules_;
  std::optional<double> delay_;
  std::vector<std::string> sitemaps_;
};

// Does a robots.txt pattern match the start of `path`? ('*' any run, '$' end.)
bool robots_match(std::string_view pattern, std::string_view path);

}  // namespace corpus
