// The one host parser of URLs (url_host.h): the crawler splits its URLs with
// it, pc-ingest groups pages by the host it gives.
#include <doctest/doctest.h>

#include "libcorpus/core/url_host.h"

using namespace corpus;

TEST_CASE("url host: scheme, user information, host, port and the rest") {
  auto a = split_url_authority("https://u:p@w@Ex.org:8443/a/b?c=1#d");
  REQUIRE(a);
  CHECK(a->scheme == "https");
  CHECK(a->host_port == "Ex.org:8443");  // after the last '@', as written
  CHECK(a->host == "Ex.org");
  CHECK(a->port == "8443");
  CHECK(a->rest == "/a/b?c=1#d");
  auto q = split_url_authority("http://h?x#y");
  REQUIRE(q);
  CHECK(q->host == "h");
  CHECK(q->port == "");
  CHECK(q->rest == "?x#y");
  auto bare = split_url_authority("http://h");
  REQUIRE(bare);
  CHECK(bare->host == "h");
  CHECK(bare->rest == "");
  CHECK_FALSE(split_url_authority("mailto:a@b"));
  CHECK_FALSE(split_url_authority("example.org/x"));
}

TEST_CASE("url host: an IPv6 literal keeps its brackets and its colons") {
  auto a = split_url_authority("http://[2001:db8::1]:8080/x");
  REQUIRE(a);
  CHECK(a->host == "[2001:db8::1]");
  CHECK(a->port == "8080");
  auto b = split_url_authority("http://[::1]/");
  REQUIRE(b);
  CHECK(b->host == "[::1]");
  CHECK(b->port == "");
  auto empty_port = split_url_authority("http://h:/x");
  REQUIRE(empty_port);
  CHECK(empty_port->host == "h");
  CHECK(empty_port->port == "");
  CHECK(empty_port->host_port == "h:");
}

TEST_CASE("url host: url_host_port is the lower-cased host and port") {
  CHECK(url_host_port("http://a.b:8080/x") == "a.b:8080");
  CHECK(url_host_port("HTTP://User@WWW.Example.ORG/Path") == "www.example.org");
  CHECK(url_host_port("https://h?q") == "h");
  CHECK(url_host_port("https://h#f") == "h");
  CHECK(url_host_port("http://[::1]:80/") == "[::1]:80");
  CHECK(url_host_port("http:///x") == "");
  CHECK(url_host_port("no scheme") == "");
  CHECK(url_host_port("") == "");
}
