#include "libcorpus/web/crawl_sitemap.h"

#include <expat.h>

#include <cstring>

namespace corpus {

namespace {

struct State {
  Sitemap* out = nullptr;
  bool root_seen = false;
  bool ok_root = false;
  int in_loc = 0;
  std::string text;
};

const char* local_name(const char* n) {
  const char* sep = std::strrchr(n, '|');  // namespace separator
  return sep ? sep + 1 : n;
}

void XMLCALL on_start(void* ud, const XML_Char* name, const XML_Char**) {
  auto* s = static_cast<State*>(ud);
  const char* n = local_name(name);
  if (!s->root_seen) {
    s->root_seen = true;
    s->ok_root = std::strcmp(n, "urlset") == 0 || std::strcmp(n, "sitemapindex") == 0;
    s->out->is_index = std::strcmp(n, "sitemapindex") == 0;
  }
  if (std::strcmp(n, "loc") == 0) {
    ++s->in_loc;
    s->text.clear();
  }
}

void XMLCALL on_end(void* ud, const XML_Char* name) {
  auto* s = static_cast<State*>(ud);
  if (std::strcmp(local_name(name), "loc") == 0 && s->in_loc > 0) {
    --s->in_loc;
    std::string t = s->text;
    size_t b = t.find_first_not_of(" \t\r\n"), e = t.find_last_not_of(" \t\r\n");
    if (b != std::string::npos) s->out->locs.push_back(t.substr(b, e - b + 1));
  }
}

void XMLCALL on_text(void* ud, const XML_Char* t, int len) {
  auto* s = static_cast<State*>(ud);
  if (s->in_loc > 0) s->text.append(t, static_cast<size_t>(len));
}

}  // namespace

std::string parse_sitemap(std::string_view xml, Sitemap& out) {
  out = Sitemap{};
  State st;
  st.out = &out;
  XML_Parser p = XML_ParserCreateNS(nullptr, '|');
  XML_SetUserData(p, &st);
  XML_SetElementHandler(p, on_start, on_end);
  XML_SetCharacterDataHandler(p, on_text);
  std::string err;
  if (XML_Parse(p, xml.data(), static_cast<int>(xml.size()), 1) == XML_STATUS_ERROR)
    err = std::string("not well-formed XML: ") + XML_ErrorString(XML_GetErrorCode(p)) + " at line " +
          std::to_string(XML_GetCurrentLineNumber(p));
  XML_ParserFree(p);
  if (err.empty() && !st.ok_root) err = "not a sitemap (the root is neither <urlset> nor <sitemapindex>)";
  return err;
}

}  // namespace corpus
