// XML sitemaps (sitemaps.org 0.9): a <urlset> of <url><loc> or a
// <sitemapindex> of <sitemap><loc>. Parsed with expat; locations are
// returned as written (the crawler resolves them against the sitemap's URL).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace corpus {

struct Sitemap {
  bool is_index = false;
  std::vector<std::string> locs;
};

// Returns "" or what is wrong (not XML, not a sitemap).
std::string parse_sitemap(std::string_view xml, Sitemap& out);

}  // namespace corpus
