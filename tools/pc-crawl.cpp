// pc-crawl: a polite crawler from seed URLs to WARC/1.1.
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "libcorpus/core/cli.h"
#include "libcorpus/core/error.h"
#include "libcorpus/core/output.h"
#include "libcorpus/core/sysinfo.h"
#include "libcorpus/ingest/html_links.h"
#include "libcorpus/web/crawl_state.h"
#include "libcorpus/web/crawler.h"

using namespace corpus;

int main(int argc, char** argv) {
  cli::App app("pc-crawl", "Crawl websites politely from seed URLs into WARC/1.1 (.warc.gz, .warc.zst or plain).",
               "pc-crawl [options] -o OUT.warc.gz URL...");
  cli::Common c;
  CrawlOptions o;
  std::vector<std::string> accept{"text/html", "application/xhtml+xml", "text/plain"};
  std::string state_path, seeds_file;
  o.fetch.user_agent = "pc-crawl/" + sysinfo::version() + " (paracorp)";
  bool no_sitemaps = false;
  app.group("Scope");
  app.choice("scope", "MODE", &o.scope, {"host", "domain", "prefix"},
             "host: a seed's host; domain: and its subdomains; prefix: under a seed URL");
  app.option("include", "REGEX", &o.include, "only URLs matching this ECMAScript regex (searched anywhere; repeatable: any may match)")
      .whole_items();
  app.option("exclude", "REGEX", &o.exclude, "no URLs matching this regex (repeatable)").whole_items();
  app.option("seeds", "FILE", &seeds_file, "more seed URLs, one per line");
  app.option("sitemap", "LIST", &o.sitemaps, "sitemap URLs to read besides robots.txt's Sitemap lines, comma-separated");
  app.flag("no-sitemaps", &no_sitemaps, "ignore the Sitemap lines of robots.txt");
  app.group("Politeness and limits");
  app.option("user-agent", "STRING", &o.fetch.user_agent, "User-Agent header; robots.txt groups are matched on pc-crawl");
  app.option("delay", "SECONDS", &o.delay, "pause between requests to one host (robots.txt Crawl-delay if larger)").at_least(0);
  app.option("host-connections", "N", &o.host_connections, "concurrent requests to one host (scheme, host, port)").at_least(1);
  app.option("connections", "N", &o.connections, "concurrent requests in all, over all hosts").at_least(1);
  app.option("max-pages", "N", &o.max_pages, "stop after N page responses (0: no limit)");
  app.size("max-bytes", "SIZE", &o.max_bytes, "stop after downloading SIZE of bodies (0: no limit)");
  app.option("max-depth", "N", &o.max_depth, "follow links at most N hops from a seed or sitemap entry").at_least(0);
  app.size("max-body", "SIZE", &o.fetch.max_body, "abort and skip responses with a larger body");
  app.option("accept", "LIST", &accept, "Content-Types kept for pages, comma-separated; others are aborted");
  app.group("Errors");
  app.option("timeout", "SECONDS", &o.fetch.timeout, "limit for one whole request").at_least(0.001);
  app.option("connect-timeout", "SECONDS", &o.fetch.connect_timeout, "limit for connecting").at_least(0.001);
  app.option("retries", "N", &o.retries, "extra attempts after a 5xx, a timeout or a broken connection").at_least(0);
  app.option("backoff", "SECONDS", &o.backoff, "wait before the first retry; doubles for each further one").at_least(0);
  app.option("max-redirects", "N", &o.max_redirects, "redirect hops to follow (each checked against the scope)")
      .at_least(0);
  app.group("Output");
  app.option("state", "FILE", &state_path, "save the crawl state here and resume from it if it exists (needs -o FILE)");
  app.common(c, cli::Common::kOutput | cli::Common::kInputs);

  return app.run(argc, argv, [&](cli::Context& ctx) {
    o.seeds = c.inputs;
    if (!seeds_file.empty()) {
      std::ifstream in(seeds_file);
      if (!in) throw Error(errno_text(errno)).at(seeds_file);
      for (std::string line; std::getline(in, line);)
        if (!line.empty() && line[0] != '#') o.seeds.push_back(line);
    }
    if (o.seeds.empty()) throw cli::UsageError("no seed URL given", "pc-crawl -o site.warc.gz http://example.org/");
    for (auto& s : o.seeds)
      if (s.find("://") == std::string::npos) throw cli::UsageError("seed " + quote(s) + " is not a URL (give http://...)");
    o.use_sitemaps = !no_sitemaps;
    o.fetch.accept_types = accept;
    if (!state_path.empty() && (c.output == "-" || c.output.empty()))
      throw cli::UsageError("--state needs -o FILE (a resumed crawl appends to the WARC file)");
    const WarcCompression comp = warc_compression_for(c.output);

    std::unique_ptr<Output> out;
    std::unique_ptr<CrawlStateFile> st;  // with --state: appends to the WARC it names
    uint64_t written = 0;
    if (state_path.empty())
      out = std::make_unique<Output>(c.output, Compression::kNone);
    else
      st = std::make_unique<CrawlStateFile>(state_path, c.output);
    WarcWriter warc(comp, [&](std::string_view s) {
      if (out)
        out->write(s);
      else
        st->warc().write(s);
      written += s.size();
    });
    Crawler* crawler_ptr = nullptr;
    CrawlCallbacks cb;
    if (c.verbose) cb.log = [&](const std::string& line) { ctx.debug(line); };
    cb.progress = [&](uint64_t pages, uint64_t bytes, size_t queued) {
      if (ctx.progress().enabled()) ctx.progress().set_note(fmt::format("{} queued", queued));
      ctx.progress().update(bytes, pages);
    };
    cb.checkpoint = [&] {
      if (st && crawler_ptr) st->save(*crawler_ptr, false);
    };
    // Links come from the ingest part's HTML parser, decoded as pc-ingest decodes.
    LinkExtractor links = [](std::string_view body, std::string_view ctype) -> std::optional<PageLinks> {
      std::optional<HtmlPage> page = decode_html_links(body, ctype);
      if (!page) return std::nullopt;
      PageLinks pl{page->too_deep, page->base, {}};
      for (auto& l : page->links) pl.links.push_back({std::move(l.href), l.alternate || !l.hreflang.empty()});
      return pl;
    };
    Crawler crawler(o, warc, links, cb);
    crawler_ptr = &crawler;
    if (st && st->resuming()) {
      crawler.load_state(st->saved());
      ctx.info(fmt::format("resuming from {} ({} URLs queued)", state_path, st->saved_queued()));
    }
    crawler.run();
    if (out) out->commit();
    if (st) st->save(crawler, true);
    for (const auto& [k, v] : crawler.counts().entries()) ctx.set_count(k, v);
    ctx.set_count("WARC bytes", st ? st->warc().size() : written);
  });
}
