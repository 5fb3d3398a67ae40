// URL keys for document alignment (align/docalign/url_key.h): real URL shapes
// from the sample site, Debian's web site and documentation, Wikipedia and
// common CMS layouts. Each row: the two URLs of one document in two
// languages must get the same key, and the key is written out.
#include <doctest/doctest.h>

#include <string>

#include "align/docalign/url_key.h"

using namespace align;

namespace {

struct Row {
  const char* src;    // the source-language URL
  const char* trg;    // its translation's URL
  const char* key;    // the key both get
};

}  // namespace

TEST_CASE("docalign url: translations of one page get the same key") {
  const Row rows[] = {
      // the sample site (pc-crawl of data/samples/site): a path segment
      {"http://127.0.0.1:40307/en/ch02-s1.html", "http://127.0.0.1:40307/fr/ch02-s1.html", "127.0.0.1:40307/ch02-s1.html"},
      {"http://127.0.0.1:40307/en/index.html", "http://127.0.0.1:40307/ja/index.html", "127.0.0.1:40307/index.html"},
      // Debian's web site and manuals: a file-name infix
      {"https://www.debian.org/releases/index.en.html", "https://www.debian.org/releases/index.fr.html",
       "www.debian.org/releases/index.html"},
      {"https://www.debian.org/doc/manuals/debian-reference/ch02.en.html",
       "https://www.debian.org/doc/manuals/debian-reference/ch02.de.html",
       "www.debian.org/doc/manuals/debian-reference/ch02.html"},
      // Apache content negotiation as /usr/share/doc and debian.org's mirrors have it
      {"https://www.debian.org/intro/about.html.en", "https://www.debian.org/intro/about.html.pt-br",
       "www.debian.org/intro/about.html"},
      {"https://www.debian.org/News/2023/20230610.en.html", "https://www.debian.org/News/2023/20230610.es.html",
       "www.debian.org/News/2023/20230610.html"},
      // Wikipedia-like: a language subdomain, mobile too; and ?uselang=
      {"https://en.wikipedia.org/wiki/Debian", "https://fr.wikipedia.org/wiki/Debian", "wikipedia.org/wiki/Debian"},
      {"https://en.m.wikipedia.org/wiki/Debian", "https://de.m.wikipedia.org/wiki/Debian", "m.wikipedia.org/wiki/Debian"},
      {"https://commons.wikimedia.org/wiki/Main_Page?uselang=en",
       "https://commons.wikimedia.org/wiki/Main_Page?uselang=es", "commons.wikimedia.org/wiki/Main_Page"},
      // query keys: lang=, locale=, hl= (Google), other parameters kept in order
      {"https://example.com/view.php?id=3&lang=en", "https://example.com/view.php?lang=fr&id=3",
       "example.com/view.php?id=3"},
      {"https://support.google.com/a/answer/60?hl=en", "https://support.google.com/a/answer/60?hl=ja",
       "support.google.com/a/answer/60"},
      {"https://shop.example/item?locale=en_US&sku=7", "https://shop.example/item?locale=fr_FR&sku=7",
       "shop.example/item?sku=7"},
      // regions and scripts in segments, case-insensitive; default language at the root
      {"https://docs.example.org/en-US/guide/", "https://docs.example.org/zh-Hans/guide/", "docs.example.org/guide/"},
      {"https://www.example.com/about.html", "https://www.example.com/FR/about.html", "www.example.com/about.html"},
      {"https://en.example.com/", "https://fr.example.com/", "example.com/"},
      // stem suffixes of the languages given
      {"http://site.example/about_en.html", "http://site.example/about_fr.html", "site.example/about.html"},
      {"http://site.example/news/item-en.php", "http://site.example/news/item-fr.php", "site.example/news/item.php"},
      // scheme and fragment do not matter
      {"http://site.example/en/a.html#top", "https://site.example/fr/a.html", "site.example/a.html"},
  };
  const UrlKeyer k({"en", "fr"});
  for (const Row& r : rows) {
    const std::string src = r.src, trg = r.trg;
    CAPTURE(src);
    CAPTURE(trg);
    CHECK(k.key(r.src) == r.key);
    CHECK(k.key(r.trg) == r.key);
  }
}

TEST_CASE("docalign url: what is not a language marker stays") {
  const struct {
    const char* url;
    const char* key;
  } rows[] = {
      {"https://fr.ch/index.html", "fr.ch/index.html"},                 // two labels: the code is the domain
      {"https://example.com/app.ts", "example.com/app.ts"},             // a last part after no page extension
      {"https://example.com/css/style.css", "example.com/css/style.css"},
      {"https://example.com/english/page.html", "example.com/english/page.html"},
      {"https://example.com/x/fr-FR-extra-long/a", "example.com/x/fr-FR-extra-long/a"},  // three subtags
      {"https://example.com/search?q=fr&page=2", "example.com/search?q=fr&page=2"},       // a value, not a key
      {"https://example.com/my-item.html", "example.com/my-item.html"},  // "it" is not given (stem suffixes)
      {"https://example.com/frx/a.html", "example.com/frx/a.html"},
      {"fr/a.html", "/a.html"},  // no scheme: a bare path
  };
  const UrlKeyer k({"en", "fr"});
  for (const auto& r : rows) {
    const std::string url = r.url;
    CAPTURE(url);
    CHECK(k.key(r.url) == r.key);
  }
}

TEST_CASE("docalign url: given languages beyond ISO 639-1, and the ISO list off") {
  const UrlKeyer fil({"en", "fil"});
  CHECK(fil.key("https://gov.example/fil/page.html") == "gov.example/page.html");
  CHECK(fil.key("https://gov.example/page.fil.html") == "gov.example/page.html");
  CHECK(fil.key("https://gov.example/de/page.html") == "gov.example/page.html");  // ISO 639-1

  const UrlKeyer given_only({"en", "fr"}, false);
  CHECK(given_only.key("https://gov.example/de/page.html") == "gov.example/de/page.html");
  CHECK(given_only.key("https://gov.example/fr/page.html") == "gov.example/page.html");
  CHECK(given_only.is_marker("pt-BR") == false);
  CHECK(UrlKeyer({"pt-BR"}, false).is_marker("pt_br"));
  CHECK(UrlKeyer({}).is_marker("zh-Hant-TW"));
  CHECK_FALSE(UrlKeyer({}).is_marker("zh-Hant-TW-x"));
  CHECK_FALSE(UrlKeyer({}).is_marker(""));
}

TEST_CASE("docalign url: odd and hostile URLs give a key without failing") {
  const UrlKeyer k({"en", "fr"});
  const struct {
    const char* url;
    const char* key;
  } rows[] = {
      {"", "/"},
      {"://", "/"},
      {"http://", "/"},
      {"http://h", "h/"},
      {"?lang=fr", "/"},
      {"#fr", "/"},
      {"http://[::1]:8080/fr/x", "[::1]:8080/x"},  // an IPv6 literal is no subdomain
      {"http://a.b.c/../fr/./x", "a.b.c/.././x"},  // dot segments kept as written
      {"http://h/a//b", "h/a//b"},
      {"http://h/x?&&lang=fr&&y=1", "h/x?y=1"},
      {"http://h/.fr", "h/.fr"},  // the first dot part is the stem, even when empty
      {"http://h/fr.", "h/fr."},
      {"http://h/_fr.html", "h/_fr.html"},  // a suffix needs a stem before it
  };
  for (const auto& r : rows) {
    const std::string url = r.url;
    CAPTURE(url);
    CHECK(k.key(r.url) == r.key);
  }
  const std::string long_url = "http://h/" + std::string(100000, 'a') + "/fr/" + std::string(100000, '.');
  CHECK(k.key(long_url).size() == long_url.size() - 7 - 3);
}
