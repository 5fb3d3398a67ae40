// What the boilerplate rules must keep: cells of data tables whose key column
// is a link, and lines repeated across pages that are the pages' own content
// (shared by the translations of a page, or repeated inside the content of
// many pages), while navigation still goes.
#include <doctest/doctest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "libcorpus/ingest/boilerplate.h"
#include "libcorpus/ingest/html_text.h"
#include "libcorpus/ingest/ingest.h"
#include "libcorpus/ingest/langid.h"

using namespace corpus;
namespace fs = std::filesystem;

namespace {

std::vector<std::string> kept_text(const std::string& html) {
  HtmlPage page = html_to_text(html, false);
  std::vector<bool> keep = classify_blocks(page.blocks, BoilerplateOptions{});
  std::vector<std::string> out;
  for (size_t i = 0; i < page.blocks.size(); ++i)
    if (keep[i]) out.push_back(page.blocks[i].text);
  return out;
}

bool has(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

// Writes `pages` (name -> HTML) into a fresh folder and ingests the folder
// (one host); returns url -> paragraphs.
std::map<std::string, std::vector<std::string>> ingest_folder(const std::string& tag,
                                                              const std::map<std::string, std::string>& pages) {
  fs::path dir = fs::temp_directory_path() / ("pc-ingest-" + tag + "-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  for (const auto& [name, html] : pages) std::ofstream(dir / name) << html;
  std::map<std::string, std::vector<std::string>> docs;
  IngestCallbacks cb;
  cb.write = [&](const std::string&, std::string_view line) {
    auto j = nlohmann::json::parse(line);
    std::vector<std::string> paras;
    std::string text = j["text"], p;
    for (char c : text + "\n") {
      if (c == '\n') paras.push_back(std::move(p)), p.clear();
      else p += c;
    }
    docs[fs::path(j["url"].get<std::string>()).filename().string()] = paras;
  };
  IngestOptions o;
  run_ingest({dir.string()}, o, cb);
  fs::remove_all(dir);
  return docs;
}

}  // namespace

TEST_CASE("boilerplate: a data table keeps its link column, a navigation table goes") {
  // The encodings table of the Debian Reference's Chinese chapter 11: the key
  // column links to Wikipedia, and so does the start of one description.
  std::string data =
      "<p>这是一个足够长的段落，用来说明下面的表格列出了编码值和它们的用法。</p><table><tr><th>编码值</th><th>用法</th></tr>"
      "<tr><td><a href='https://zh.wikipedia.org/wiki/ASCII'>ASCII</a></td>"
      "<td><a href='https://zh.wikipedia.org/wiki/ASCII'>美国信息交换标准代码</a>，7位代码不带重音符号</td></tr>"
      "<tr><td><a href='https://zh.wikipedia.org/wiki/UTF-8'>UTF-8</a></td><td>用于所有现代操作系统的多语言标准</td></tr>"
      "<tr><td><a href='https://zh.wikipedia.org/wiki/CP850'>CP850</a></td>"
      "<td>code page 850，用于西欧语言的微软 DOS 的带有图形的字符，ISO-8859-1 的变体</td></tr></table>";
  auto kept = kept_text(data);
  CHECK(has(kept, "ASCII"));
  CHECK(has(kept, "UTF-8"));
  CHECK(has(kept, "CP850"));
  CHECK(has(kept, "用于所有现代操作系统的多语言标准"));

  std::string nav =
      "<p>A paragraph of body text that is long enough to count as good content here.</p>"
      "<table><tr><td><a href='/'>Home page of the site</a></td><td><a href='/news'>News and announcements</a></td>"
      "<td><a href='/about'>About this project and its people</a></td></tr></table>";
  kept = kept_text(nav);
  CHECK(kept.size() == 1);
  CHECK_FALSE(has(kept, "News and announcements"));

  // A layout table: its paragraphs are not cell text, so they do not dilute the navigation cell.
  std::string layout =
      "<table><tr><td><a href='/a'>First section of the manual</a><br><a href='/b'>Second section of the "
      "manual</a></td><td><p>The body of the page is a long paragraph of plain text inside the layout "
      "table.</p><p>And a second paragraph of the body, also long enough to count as content.</p></td></tr></table>";
  kept = kept_text(layout);
  CHECK(kept.size() == 2);
  CHECK_FALSE(has(kept, "First section of the manual"));
}

TEST_CASE("boilerplate: the table of a cell is its own, not an enclosing one's") {
  HtmlPage page = html_to_text(
      "<table><tr><td>outer cell<table><tr><td>inner cell</td></tr></table>outer again<p>in a paragraph</p></td>"
      "</tr></table>",
      false);
  REQUIRE(page.blocks.size() == 4);
  CHECK(page.blocks[0].table == 1);
  CHECK(page.blocks[1].table == 2);
  CHECK(page.blocks[2].table == 1);
  CHECK(page.blocks[3].table == 0);
}

TEST_CASE("langid: page_language reads the longest paragraphs") {
  std::vector<std::string> paras{"Home", "Menu", "Contact",
                                 "Ce chapitre explique comment installer le système et configurer le réseau "
                                 "sans perdre les données des utilisateurs."};
  CHECK(page_language(paras) == "fr");
  CHECK(page_language({}) == "und");
}

TEST_CASE("ingest: a line the translations of a page share is content, not a repeat") {
  // Six translations of one page start with the same command; counted over
  // the host, that line was on 6 pages (>= 5) and was dropped from all.
  const std::map<std::string, std::string> body{
      {"en", "This chapter explains how the login prompt asks for your password before it opens a shell."},
      {"fr", "Ce chapitre explique comment l'invite de connexion demande votre mot de passe avant d'ouvrir un "
             "interpréteur."},
      {"de", "Dieses Kapitel erklärt, wie die Anmeldung nach Ihrem Passwort fragt, bevor sie eine Shell öffnet."},
      {"es", "Este capítulo explica cómo el indicador de inicio de sesión pide su contraseña antes de abrir un "
             "intérprete."},
      {"it", "Questo capitolo spiega come il prompt di accesso chiede la password prima di aprire una shell."},
      {"pt", "Este capítulo explica como o prompt de login pede a sua senha antes de abrir um interpretador."}};
  std::map<std::string, std::string> pages;
  for (const auto& [lang, text] : body)
    pages["ch01." + lang + ".html"] = "<pre>foo login: penguin\nPassword:</pre><p>" + text + "</p>";
  auto docs = ingest_folder("translations", pages);
  REQUIRE(docs.size() == 6);
  for (const auto& doc : docs) {  // not a structured binding: clang's INFO cannot capture one
    INFO(doc.first);
    CHECK(has(doc.second, "Password:"));
    CHECK(has(doc.second, "foo login: penguin"));
  }
}

TEST_CASE("ingest: a line repeated inside the content of many pages stays, navigation around it goes") {
  std::map<std::string, std::string> pages;
  const char* topics[] = {"the keyboard layout", "the network interfaces", "the printer queue",
                          "the system clock",   "the disk partitions",    "the user accounts"};
  for (int i = 0; i < 6; ++i) {
    std::string t = topics[i];
    pages["p" + std::to_string(i) + ".html"] =
        "<div>The Example Handbook for Everyone</div><h1>How to configure " + t + "</h1><p>This page explains " +
        "in detail how to configure " + t + " on a freshly installed system.</p><h3>Tip</h3><p>Changes to " + t +
        " take effect after the next restart of the service.</p><div>Copyright 2024 the Example Handbook " +
        "authors</div>";
  }
  auto docs = ingest_folder("inside", pages);
  REQUIRE(docs.size() == 6);
  for (const auto& doc : docs) {
    INFO(doc.first);
    CHECK(has(doc.second, "Tip"));
    CHECK_FALSE(has(doc.second, "The Example Handbook for Everyone"));
    CHECK_FALSE(has(doc.second, "Copyright 2024 the Example Handbook authors"));
  }
}
