// html_prescan: html_to_text gives the same page with and without it.
#include <doctest/doctest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "libcorpus/ingest/html_prescan.h"
#include "libcorpus/ingest/html_text.h"

using namespace corpus;

namespace {

std::string dump(const HtmlPage& p) {
  std::ostringstream o;
  o << "title=" << p.title << "\nlang=" << p.lang << "\nbase=" << p.base << '\n';
  for (const auto& b : p.blocks)
    o << "block " << b.chars << ' ' << b.link_chars << ' ' << b.heading << ": " << b.text << '\n';
  for (const auto& l : p.links) o << "link " << l.href << ' ' << l.hreflang << ' ' << l.alternate << '\n';
  return o.str();
}

// The same page, field by field, with and without the prescan.
void check_same(const std::string& html) {
  std::string with = dump(html_to_text(html, true, true));
  std::string without = dump(html_to_text(html, true, false));
  INFO("page: " << html.substr(0, 2000));
  CHECK(with == without);
}

std::string read_file(const std::filesystem::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

}  // namespace

TEST_CASE("prescan: the sample site's pages come out the same, from a page a third of the size") {
  size_t pages = 0, in = 0, out = 0;
  for (const auto& e : std::filesystem::recursive_directory_iterator(PARACORP_SAMPLES "/site")) {
    if (e.path().extension() != ".html") continue;
    std::string html = read_file(e.path());
    check_same(html);
    HtmlPrescan r;
    html_prescan(html, r);
    REQUIRE(r.reduced);
    in += html.size();
    out += r.html.size();
    ++pages;
  }
  CHECK(pages >= 60);
  CHECK(out * 3 < in);
}

TEST_CASE("prescan: tokenizer corner cases come out the same") {
  const char* cases[] = {
      "<p>a &amp; b &notit; c &#x41;&#65 d &unknown; e & f</p>",
      "<p>x < y and z<3 but <> and </> and </ 5></p>",
      // a '<' of text just before dropped markup: "<</>o/>" is the text "<o/>" ("<" + "o/>" would open a tag)
      "<p>te`xith\0xp<</>o/></p>",
      "<p>a<</>b c<<!-- x -->i>d e<<?pi?>em>f</p>",
      "<pre>\n\nfirst line\n  second   line\r\nthird\rfourth</pre><p>after</p>",
      "<pre>a&amp;b\n<b>bold</b>\n\n\n</pre>",
      "<listing>\nlisting text here</listing><textarea>\n dropped textarea text</textarea>",
      "<title>A &amp; B  title</title><p>Body text here</p>",
      "<script>if (a < b) { document.write('<p>not text</p>'); }</script><p>after script</p>",
      "<script><!-- var s = '</scr' + 'ipt>'; //--></script><p>after escaped script</p>",
      "<script><!--<script>x</script>--></script><p>double escaped here</p>",
      // double-escaped: the first </script> does not end the script, the one in the attribute does
      "<script><!--<script></script><div class=\"</script>\">--></script><p>visible text</p>",
      "<style>p > a { color: red }</style><p>styled paragraph</p>",
      "<p>before<!-- a comment with <p>markup</p> -->after</p><!----><!--->x<!-->y",
      "<p>one<!-- unclosed comment <p>two",
      "<!DOCTYPE html PUBLIC \"-//W3C//DTD HTML 4.01//EN\" \"x>y\"><table><p>quirks table</table>",
      "<p title=\"a > b\" class='c > d' data-x=e>f>quoted attributes</p><a href=/x title=\"y>\">link text</a>",
      "<p a=\"unterminated>text never ends",
      "<a id=\"top\"/>Anchor left open<p>next paragraph</p><p>and <a href=\"/l\">a link</a> here</p>",
      "<table>foster parented text<tr><td>cell one</td><td>cell two</td></tr>after row</table>",
      "<table> <tr> <td> spaced cell </td> </tr> </table>",
      "<table><input type=hidden name=x>text<input type=text>more</table>",
      "<b>bold<p>para</b>tail</p><i>x<div>y</i>z</div>",
      "<select><option>one option</option><optgroup label=g><option>two</select><p>after select</p>",
      "<select><option>opt<style>not raw here</style><p>x</p></select>",
      // in a select <style> is ignored, so "<!--" starts a comment that runs to "-->"
      "<select><style><!--</style></select><p>hidden text --> </select><p>visible text</p>",
      "<select><option>opt</option><textarea>text area</textarea><p>after</p>",
      "<svg><style><!--</style> inside svg --></svg><p>after svg</p>",
      "<math><mi>x</mi></math><p>after math</p>",
      "<template><p>template text</p></template><p>after template</p>",
      "<frameset><frame src=x><noframes><p>no frames text</p></noframes></frameset>",
      "<p>a\0b\0 nul bytes</p><p>form\ffeed and\vvertical tab</p>",
      "<html lang=de><head><base href=/b/><link rel=\"Alternate stylesheet\" hreflang=fr href=/fr/>"
      "<meta charset=utf-8></head><body><p>Text</p></body></html>",
      "<html><head><title>t</title></head><body><p>x</p></body></html><html lang=it><p>late text</p>",
      "<p>text after </body></html> end tags</p></html>  trailing text",
      "<plaintext><p>all of this is text</p> &amp; more",
      "<xmp><p>xmp is raw</p></xmp><iframe><p>raw</p></iframe><noembed>n</noembed><noframes>f</noframes>ok",
      "<noscript><p>noscript is parsed as markup in gumbo</p></noscript>",
      "<h1>Heading one</h1><h2><a href=#s>Section link</a></h2><ul><li>item one<li>item two</ul>",
      "<div><br>line<br/>break<hr>rule</div><p>x<br>y</p><pre>a<br>b</pre>",
      "<![CDATA[ not cdata in html ]]><p>after</p><?php echo 1 ?><p>after pi</p>",
      "<body><p>a</p></body><p>after body</p>",
      "<p>emoji 😀 and CJK 日本語テキスト and RTL עברית text</p>",
      "<a href=x>one<a href=y>two</a></a><p><a>no href</a> <A HREF=Z>upper case</A></p>",
      "<font color=red>in font<svg><font color=x>breakout</font></svg></font>",
      "<p>end in a tag <b",
      "<p>end in a tag name <di",
      "<p>end after less-than <",
      "<p>end in attribute <a href='x",
      // '=' starts an attribute's name after '/' (fuzz_html): written back after a
      // space it would become the value of the attribute before it
      "<link rel=alternate hreflang/=fr\" href=/fr/><a hreflang/=de href=/de/>de</a>"
      "<a hreflang=x/ =y href=/y/>y</a><a hreflang=\"q\"/=r href=/r/>r</a>",
      "",
      "   \n\t  ",
      "plain text without any tags at all, long enough to be a run",
  };
  for (const char* c : cases) check_same(c);
  // A page with characters of the private planes is parsed as it is.
  std::string pua = "<p>private \xF3\xB0\x80\x80 plane and \xF4\x8F\xBF\xBD more text</p>";
  HtmlPrescan r;
  html_prescan(pua, r);
  CHECK_FALSE(r.reduced);
  check_same(pua);
}

TEST_CASE("prescan: control characters and noncharacters become U+FFFD on both paths") {
  // gumbo replaces them; inside a marker's run they used to come back verbatim.
  const std::string fffd = "\xEF\xBF\xBD";
  std::string min("<p>a\x01" "b c</p>", 12);
  for (bool prescan : {true, false}) {
    HtmlPage p = html_to_text(min, false, prescan);
    REQUIRE(p.blocks.size() == 1);
    CHECK(p.blocks[0].text == "a" + fffd + "b c");
    CHECK(p.blocks[0].chars == 5);
  }
  // Each kind, inside a long run, at its start and at its end.
  const std::string kinds[] = {"\x01", "\x08", "\x0B", "\x0E", "\x1F", "\x7F", "\xC2\x80", "\xC2\x9F",
                               "\xEF\xB7\x90", "\xEF\xB7\xAF", "\xEF\xBF\xBE", "\xEF\xBF\xBF",
                               "\xF0\x9F\xBF\xBE", "\xF3\xAF\xBF\xBF"};
  for (const std::string& k : kinds) {
    std::string html = "<p>some text " + k + " more text</p><p>" + k + "starting run</p><p>ending run" + k +
                       "</p><p>" + k + k + "</p><title>title " + k + " text</title>";
    check_same(html);
    HtmlPage p = html_to_text(html, false, true);
    REQUIRE(p.blocks.size() == 4);
    CHECK(p.blocks[0].text == "some text " + fffd + " more text");
    CHECK(p.blocks[3].text == fffd + fffd);
  }
  // Characters next to the replaced ones are kept: U+00A0, U+FDCF, U+FFFD itself, U+10FFFD.
  check_same("<p>keep \xC2\xA0 and \xEF\xB7\x8F and \xEF\xBF\xBD and \xF4\x8F\xBF\xBD text</p>");
  static const char kWithNul[] = "<p>form\ffeed and\vvertical tab, a\0nul</p>";
  check_same(std::string(kWithNul, sizeof kWithNul - 1));
}

TEST_CASE("prescan: past the 131,068 markers of planes 15-16, text is copied and still comes out the same") {
  std::string html;
  for (int i = 0; i < 140000; ++i) html += "<p>text run " + std::to_string(i) + "</p>";
  HtmlPrescan r;
  html_prescan(html, r);
  CHECK(r.runs.size() == 2 * 0xFFFE);
  CHECK(r.html.find("text run 139999") != std::string::npos);  // copied, not a marker
  check_same(html);
}

TEST_CASE("prescan: a page of many comments (the end search is one linear scan)") {
  // Searching "-->" and "--!>" separately made each comment scan to the end of
  // the page when the page has no "--!>": 200,000 comments took minutes.
  std::string html;
  for (int i = 0; i < 50000; ++i) html += "<!-- note " + std::to_string(i) + " --><p>paragraph number " + std::to_string(i) + "</p>";
  html += "<!-- a --!> bang-closed <p>after the bang</p><!-- unterminated";
  check_same(html);
}

TEST_CASE("prescan: random tag soup comes out the same (seeded)") {
  const char* pieces[] = {
      "<p>", "</p>", "<div>", "</div>", "<b>", "</b>", "<i>", "</i>", "<a href=\"/x\">", "<a id=a/>", "</a>",
      "<table>", "</table>", "<tr>", "</tr>", "<td>", "</td>", "<th>", "<li>", "<ul>", "</ul>", "<pre>", "</pre>",
      "<br>", "<hr/>", "<h2>", "</h2>", "<span class=\"c > d\">", "</span>", "<code>", "</code>", "<nav>", "</nav>",
      "<header>", "<footer>", "</footer>", "<script>x<y</script>", "<style>a{}</style>", "<title>T &amp; t</title>",
      "<textarea>ta</textarea>", "<select><option>o</select>", "<!-- c -->", "<!--", "-->", "<!DOCTYPE html>",
      "<svg><p>s</p></svg>", "<template>t</template>", "<html lang=fr>", "<body>", "</body>", "</html>", "<head>",
      "</head>", "<caption>", "<colgroup><col>", "<form>", "</form>", "<button>", "<em>", "</em>", "<strong>",
      "<font size=2>", "</font>", "<nobr>", "<p", ">", "<", "</", "&amp;", "&lt;", "&#233;", "&", "\r\n", "\r", "\n",
      "  ", "\t", " ", "\n\n", "\0", "word", "some longer text run", "ünïcödé", "日本語の文", "=\"", "'", "\"",
  };
  const size_t n_pieces = sizeof(pieces) / sizeof(pieces[0]);
  std::mt19937 rng(20261130);
  for (int doc = 0; doc < 3000; ++doc) {
    std::string html;
    size_t len = 1 + rng() % 40;
    for (size_t k = 0; k < len; ++k) {
      const char* p = pieces[rng() % n_pieces];
      html.append(p, p[0] == '\0' ? 1 : std::strlen(p));
    }
    check_same(html);
  }
}
