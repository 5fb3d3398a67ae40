// pc-crawl: a polite crawler from seed URLs to WARC/1.1.
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "libcorpus/core/cli.h"
#include "libcorpus/core/cli_values.h"
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
  std::vector<std::string> include, exclude;
  std::string sitemaps, accept = "text/html,application/xhtml+xml,text/plain";
  std::string max_bytes = "0", max_body = "10M", state_path, seeds_file;
  std::string user_agent = "pc-crawl/" + sysinfo::version() + " (paracorp)";
  bool no_sitemaps = false;
  int max_pages = 0;
  app.group("Scope");
  app.option("scope", "MODE", &o.scope, "host (a seed's host), domain (and its subdomains) or prefix (under a seed URL)");
  app.option("include", "REGEX", &include, "only URLs matching this ECMAScript regex (searched anywhere; repeatable: any may match)");
  app.option("exclude", "REGEX", &exclude, "no URLs matching this regex (repeatable)");
  app.option("seeds", "FILE", &seeds_file, "more seed URLs, one per line");
  app.option("sitemap", "LIST", &sitemaps, "sitemap URLs to read besides robots.txt's Sitemap lines, comma-separated");
  app.flag("no-sitemaps", &no_sitemaps, "ignore the Sitemap lines of robots.txt");
  app.group("Politeness and limits");
  app.option("user-agent", "STRING", &user_agent, "User-Agent header; robots.txt groups are matched on pc-crawl");
  app.option("delay", "SECONDS", &o.delay, "pause between requests to one host (robots.txt Crawl-delay if larger)");
  app.option("host-connections", "N", &o.host_connections, "concurrent requests to one host (scheme, host, port)");
  app.option("connections", "N", &o.connections, "concurrent requests in all, over all hosts");
  app.option("max-pages", "N", &max_pages, "stop after N page responses (0: no limit)");
  app.option("max-bytes", "SIZE", &max_bytes, "stop after downloading SIZE of bodies (0: no limit)");
  app.option("max-depth", "N", &o.max_depth, "follow links at most N hops from a seed or sitemap entry");
  app.option("max-body", "SIZE", &max_body, "abort and skip responses with a larger body");
  app.option("accept", "LIST", &accept, "Content-Types kept for pages, comma-separated; others are aborted");
  app.group("Errors");
  app.option("timeout", "SECONDS", &o.fetch.timeout, "limit for one whole request");
  app.option("connect-timeout", "SECONDS", &o.fetch.connect_timeout, "limit for connecting");
  app.option("retries", "N", &o.retries, "extra attempts after a 5xx, a timeout or a broken connection");
  app.option("backoff", "SECONDS", &o.backoff, "wait before the first retry; doubles for each further one");
  app.option("max-redirects", "N", &o.max_redirects, "redirect hops to follow (each checked against the scope)");
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
    o.include = include;
    o.exclude = exclude;
    o.sitemaps = cli::split_list(sitemaps);
    o.use_sitemaps = !no_sitemaps;
    o.fetch.accept_types = cli::split_list(accept);
    o.fetch.user_agent = user_agent;
    o.fetch.max_body = cli::parse_size(max_body, "--max-body", true);
    o.max_bytes = cli::parse_size(max_bytes, "--max-bytes", true);
    if (max_pages < 0) throw cli::UsageError("--max-pages must not be negative");
    o.max_pages = static_cast<uint64_t>(max_pages);
    if (o.delay < 0 || o.fetch.timeout <= 0 || o.fetch.connect_timeout <= 0 || o.retries < 0 || o.backoff < 0 ||
        o.max_redirects < 0 || o.max_depth < 0 || o.host_connections < 1 || o.connections < 1)
      throw cli::UsageError("--delay, --retries, --backoff, --max-redirects and --max-depth must not be negative, "
                       "--timeout, --connect-timeout, --host-connections and --connections must be positive");
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
