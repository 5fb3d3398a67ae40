// robots.txt: group selection by user-agent, Allow/Disallow patterns with '*'
// and '$', Crawl-delay and Sitemap lines; then the rules asked about paths
// and the matcher run on the input's own lines as pattern and path.
#include <vector>

#include "libcorpus/web/crawl_robots.h"
#include "tests/fuzz/fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view in = fuzz::bytes(data, size);
  corpus::RobotsRules rules = corpus::RobotsRules::parse(in, "pc-crawl");
  for (std::string_view p : {"/", "/a/b?x=1", "/private/", "/%7Euser", "/index.html$"}) (void)rules.allowed(p);
  (void)rules.crawl_delay();
  std::vector<std::string_view> lines;
  for (size_t p = 0; p <= in.size() && lines.size() < 16;) {
    size_t nl = in.find('\n', p);
    if (nl == std::string_view::npos) nl = in.size();
    lines.push_back(in.substr(p, nl - p));
    p = nl + 1;
  }
  for (size_t i = 0; i + 1 < lines.size(); i += 2) {
    (void)corpus::robots_match(lines[i], lines[i + 1]);
    (void)rules.allowed(lines[i + 1]);
  }
  return 0;
}
