// XML sitemaps (expat): <urlset> and <sitemapindex>.
#include "libcorpus/web/crawl_sitemap.h"
#include "tests/fuzz/fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  corpus::Sitemap map;
  (void)corpus::parse_sitemap(fuzz::bytes(data, size), map);
  return 0;
}
