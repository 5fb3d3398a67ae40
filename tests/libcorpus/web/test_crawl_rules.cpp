// robots.txt, scope and URL rules of the crawler (crawl_robots.h, crawl_scope.h, url.h).
#include <doctest/doctest.h>

#include "libcorpus/web/crawl_robots.h"
#include "libcorpus/web/crawl_scope.h"
#include "libcorpus/web/crawl_sitemap.h"
#include "libcorpus/core/error.h"
#include "libcorpus/core/http_message.h"
#include "libcorpus/core/url_host.h"
#include "libcorpus/web/url.h"
#include "support/tmpdir.h"

using namespace corpus;

TEST_CASE("robots: longest match wins, Allow wins a tie, wildcards and $") {
  auto r = RobotsRules::parse(
      "User-agent: *\nDisallow: /private/\nAllow: /private/public\nDisallow: /*.pdf$\nDisallow: /tmp\nAllow: /tmp\n",
      "pc-crawl");
  CHECK(r.allowed("/"));
  CHECK_FALSE(r.allowed("/private/x.html"));
  CHECK(r.allowed("/private/public/a.html"));
  CHECK_FALSE(r.allowed("/docs/a.pdf"));
  CHECK(r.allowed("/docs/a.pdf?x=1"));
  CHECK(r.allowed("/tmp/x"));  // tie: Allow
  CHECK(r.allowed("/robots.txt"));
}

TEST_CASE("robots: the most specific user-agent group applies, with its Crawl-delay and the Sitemap lines") {
  std::string txt =
      "User-agent: *\nDisallow: /\n\nUser-agent: pc-crawl\nUser-agent: other\nDisallow: /no\nCrawl-delay: 2.5\n"
      "Sitemap: http://h/s.xml\n";
  auto r = RobotsRules::parse(txt, "pc-crawl");
  CHECK(r.allowed("/yes"));
  CHECK_FALSE(r.allowed("/no/x"));
  REQUIRE(r.crawl_delay());
  CHECK(*r.crawl_delay() == doctest::Approx(2.5));
  REQUIRE(r.sitemaps().size() == 1);
  auto other = RobotsRules::parse(txt, "someone-else");
  CHECK_FALSE(other.allowed("/yes"));
  CHECK_FALSE(other.crawl_delay());
}

TEST_CASE("robots: empty Disallow allows everything, disallow_all blocks everything") {
  CHECK(RobotsRules::parse("User-agent: *\nDisallow:\n", "pc-crawl").allowed("/a"));
  CHECK_FALSE(RobotsRules::disallow_all().allowed("/a"));
  CHECK(robots_match("/a*b$", "/axxb"));
  CHECK_FALSE(robots_match("/a*b$", "/axxbc"));
}

TEST_CASE("urls: resolution and normalisation") {
  CHECK(resolve_url("http://H.example:80/a/b.html", "../c.html#frag") == "http://h.example/c.html");
  CHECK(resolve_url("http://h/a/", "//other/x") == "http://other/x");
  CHECK_FALSE(resolve_url("http://h/", "mailto:a@b"));
  CHECK_FALSE(resolve_url("http://h/", "javascript:void(0)"));
  CHECK_FALSE(resolve_url("", "ftp://h/x"));
  auto p = split_url("https://h:8443/a?b=1");
  REQUIRE(p);
  CHECK(p->host == "h");
  CHECK(p->port == "8443");
  CHECK(p->path == "/a?b=1");
}

TEST_CASE("urls: an internationalised host becomes its punycode, and a bad one is refused") {
  CHECK(resolve_url("", "http://B\u00fccher.example/a") == "http://xn--bcher-kva.example/a");
  CHECK(resolve_url("http://xn--bcher-kva.example/", "http://b\u00fccher.example/x") == "http://xn--bcher-kva.example/x");
  CHECK(resolve_url("", "http://b%C3%BCcher.example/") == "http://xn--bcher-kva.example/");
  CHECK(resolve_url("", "http://\u043f\u0440\u0438\u043c\u0435\u0440.\u0440\u0444/") == "http://xn--e1afmkfd.xn--p1ai/");
  CHECK(resolve_url("", "http://\u041f\u0420\u0418\u041c\u0415\u0420.\u0420\u0424/") == "http://xn--e1afmkfd.xn--p1ai/");
  CHECK(resolve_url("", "https://\u00df.de:443/") == "https://xn--zca.de/");  // nontransitional: \u00df stays itself
  CHECK(host_to_ascii("xn--bcher-kva.example") == "xn--bcher-kva.example");  // ASCII is left as it is
  CHECK_FALSE(resolve_url("", "http://%FF.example/"));                     // not UTF-8
  CHECK_FALSE(resolve_url("", "http://a\uFFFD.example/"));                 // a disallowed code point
  CHECK_FALSE(resolve_url("", "http://a\u05D0.example/"));                 // Latin and Hebrew in one label (bidi)
  CHECK_FALSE(resolve_url("", "http://\uFF05a.example/"));                 // fullwidth % maps to '%', not a host letter
  auto p = split_url(*resolve_url("", "http://\u043f\u0440\u0438\u043c\u0435\u0440.\u0440\u0444/\u043f"));
  REQUIRE(p);
  CHECK(p->host == "xn--e1afmkfd.xn--p1ai");
  CrawlScope scope("host", {"http://B\u00fccher.example/"}, {}, {});  // a seed in either form is one host
  CHECK(scope.contains(*resolve_url("", "http://b\u00fccher.example/x")));
  CHECK(scope.contains("http://xn--bcher-kva.example/x"));
}

TEST_CASE("scope: host, domain, prefix, include and exclude") {
  CrawlScope host("host", {"http://127.0.0.1:8000/"}, {}, {});
  CHECK(host.contains("http://127.0.0.1:8000/en/x.html"));
  CHECK_FALSE(host.contains("http://example.invalid/"));
  CHECK_FALSE(host.contains("http://127.0.0.2:8000/"));
  CrawlScope dom("domain", {"http://example.org/"}, {}, {"\\.pdf$"});
  CHECK(dom.contains("http://www.example.org/a"));
  CHECK_FALSE(dom.contains("http://badexample.org/a"));
  CHECK_FALSE(dom.contains("http://www.example.org/a.pdf"));
  CrawlScope pre("prefix", {"http://h/docs/"}, {"/en/"}, {});
  CHECK(pre.contains("http://h/docs/en/a"));
  CHECK_FALSE(pre.contains("http://h/docs/fr/a"));
  CHECK_FALSE(pre.contains("http://h/other/en/a"));
  CHECK_THROWS_AS(CrawlScope("planet", {"http://h/"}, {}, {}), ConfigError);
}

TEST_CASE("sitemaps: urlset and index") {
  Sitemap s;
  CHECK(parse_sitemap("<?xml version='1.0'?><urlset xmlns='http://www.sitemaps.org/schemas/sitemap/0.9'>"
                      "<url><loc> http://h/a </loc></url><url><loc>/b</loc></url></urlset>",
                      s) == "");
  CHECK_FALSE(s.is_index);
  REQUIRE(s.locs.size() == 2);
  CHECK(s.locs[0] == "http://h/a");
  CHECK(parse_sitemap("<sitemapindex><sitemap><loc>/s1.xml</loc></sitemap></sitemapindex>", s) == "");
  CHECK(s.is_index);
  CHECK(parse_sitemap("<html></html>", s) != "");
  CHECK(parse_sitemap("not xml", s) != "");
}

// Bad bytes from the web: robots.txt and sitemaps are whatever a server sends.
TEST_CASE("robots: invalid UTF-8, NUL bytes, CR line ends and a 2 MB line are read, not fatal") {
  std::string txt = "User-agent: *\r\nDisallow: /caf\xe9/\r\nDisallow: /a";
  txt += '\0';
  txt += "b\r\nDisallow: /x\xff\xfe\n";
  txt += "Disallow: /" + std::string(2'000'000, 'z') + "\n";
  txt += "Disallow: /after-the-long-line\n";
  auto r = RobotsRules::parse(txt, "pc-crawl");
  CHECK_FALSE(r.allowed("/caf\xe9/x"));  // patterns match the bytes as written
  CHECK_FALSE(r.allowed("/after-the-long-line/x"));
  CHECK_FALSE(r.allowed("/" + std::string(2'000'000, 'z') + "/x"));
  CHECK(r.allowed("/zz"));
  CHECK(r.allowed("/"));
  // Binary garbage gives no rules, so everything is allowed (as for a missing file).
  std::string junk;
  for (int i = 0; i < 5000; ++i) junk += static_cast<char>((i * 131 + 7) % 256);
  CHECK(RobotsRules::parse(junk, "pc-crawl").allowed("/anything"));
  CHECK(RobotsRules::parse("", "pc-crawl").allowed("/anything"));
}

TEST_CASE("sitemaps: invalid UTF-8, NUL, a cut document and a truncated gzip body are errors, not crashes") {
  Sitemap s;
  CHECK(parse_sitemap("<urlset><url><loc>/caf\xe9</loc></url></urlset>", s) != "");
  CHECK(parse_sitemap(std::string("<urlset><url><loc>/a\0b</loc></url></urlset>", 44), s) != "");
  const std::string xml = "<?xml version='1.0'?><urlset><url><loc>/a</loc></url><url><loc>/b</loc></url></urlset>";
  CHECK(parse_sitemap(xml.substr(0, xml.size() / 2), s) != "");
  CHECK(parse_sitemap("", s) != "");
  // The crawler inflates a gzipped sitemap with inflate_limited first.
  TmpDir dir;
  write_file(dir.path("s.xml.gz"), xml);
  const std::string gz = raw_bytes(dir.path("s.xml.gz"));
  REQUIRE(gz.substr(0, 2) == "\x1f\x8b");
  std::string back;
  CHECK(inflate_limited(gz, true, 1 << 20, back).empty());
  CHECK(back == xml);
  back.clear();
  CHECK_FALSE(inflate_limited(gz.substr(0, gz.size() / 2), true, 1 << 20, back).empty());
  back.clear();
  CHECK_FALSE(inflate_limited(gz, true, 10, back).empty());  // over the size limit
}
