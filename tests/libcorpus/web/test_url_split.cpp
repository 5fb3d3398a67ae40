// split_url on the crawler's URLs (resolve_url's output) gives the parts
// libcurl's URL API gave before it went through the core host parser.
#include <doctest/doctest.h>

#include "libcorpus/web/url.h"

using namespace corpus;

namespace {

std::string parts(std::string_view base, std::string_view ref) {
  auto u = resolve_url(base, ref);
  if (!u) return "no URL";
  auto p = split_url(*u);
  if (!p) return "no parts";
  return p->scheme + " " + p->host + " " + p->port + " " + p->path;
}

}  // namespace

TEST_CASE("urls: split_url gives libcurl's parts of a normalised URL") {
  struct Case {
    std::string base, ref, want;
  };
  const Case cases[] = {
      {"http://H.example:80/a/b.html", "../c.html#frag", "http h.example  /c.html"},
      {"https://h:443/", "x?a=b", "https h  /x?a=b"},
      {"http://h:8080/", "/p?", "http h 8080 /p"},  // an empty query is no query
      {"http://h/", "?", "http h  /"},
      {"http://h/a", "b#f", "http h  /b"},
      {"http://u:pw@h.org:8080/p", "q", "http h.org 8080 /q"},
      {"https://[::1]:8443/x/", "y", "https [::1] 8443 /x/y"},
      {"", "http://[2001:db8::1]:80/a?b", "http [2001:db8::1]  /a?b"},
      {"", "HTTP://WWW.Example.ORG/A?B", "http www.example.org  /A?B"},
      {"", "http://a%25b/", "http a%b  /"},  // libcurl's host is decoded
      {"http://h/", "/a%20b?c=%41", "http h  /a%20b?c=%41"},
      {"http://h/", "/a?b?c", "http h  /a?b?c"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.ref);
    CHECK(parts(c.base, c.ref) == c.want);
  }
  CHECK_FALSE(split_url("ftp://h/x"));
  CHECK_FALSE(split_url("http:///x"));
  CHECK_FALSE(split_url("not a url"));
}

// The normalised URL is the crawl frontier's key, so normalising it again must
// give it back. libcurl decodes %-escapes in a host and writes the bytes back
// as they are (only '%' escaped again): a host that decodes to a byte no URL
// may hold raw (DEL, "%7f") would pass once and be refused on the next pass.
TEST_CASE("urls: normalising a normalised URL gives it back, and a host that decodes to a control byte is refused") {
  CHECK_FALSE(resolve_url("", "http:/%7f"));  // the fuzzer's minimal input
  CHECK_FALSE(resolve_url("", "http://a%7Fb/x"));
  CHECK_FALSE(resolve_url("http://h/", "//a%7fb/"));
  CHECK_FALSE(split_url("http://a%7fb/"));
  CHECK_FALSE(resolve_url("", "http://\xff\xd8" "e/"));  // not UTF-8, so no internationalised name
  CHECK(resolve_url("", "http://a%c3%A9b/") == "http://xn--ab-bja/");
  const char* refs[] = {"http://a%41b/", "http://a%25b/", "http://a%2541/", "http://a%c3%A9b/",
                        "http://a%zz/", "HTTP://A%4Fb:80/x%7f?y%7f"};
  for (const char* ref : refs) {
    CAPTURE(ref);
    auto once = resolve_url("", ref);
    REQUIRE(once);
    CHECK(resolve_url("", *once) == once);
    CHECK(split_url(*once));
  }
}

// libcurl writes an IPv4 address given as a number ("127.1", "0x7f.1") as a
// dotted quad, but it looks for one before it decodes %-escapes: the decoded
// host must get the same treatment, or "http://%34/" gives "http://4/" and the
// next pass "http://0.0.0.4/".
TEST_CASE("urls: a %-escaped IPv4 number becomes a dotted quad on the first pass") {
  CHECK(resolve_url("", "http://%34/") == "http://0.0.0.4/");  // the fuzzer's input
  CHECK(resolve_url("", "http://%31%32%37.1/x") == "http://127.0.0.1/x");
  CHECK(resolve_url("http://h/", "//0%78%37F.1:80/") == "http://127.0.0.1/");
  CHECK(resolve_url("", "http://127.1/") == "http://127.0.0.1/");
  CHECK(resolve_url("", "http://%34294967296/") == "http://4294967296/");  // too big: a name
  CHECK(resolve_url("", "http://face.%62ad/") == "http://face.bad/");
  for (const char* ref : {"http://%34/", "http://0%78ff/", "http://%34./", "http://%2e%2e/"}) {
    CAPTURE(ref);
    auto once = resolve_url("", ref);
    REQUIRE(once);
    CHECK(resolve_url("", *once) == once);
  }
}
