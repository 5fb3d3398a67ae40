// pc-crawl: a polite crawler from seed URLs to WARC/1.1.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "libcorpus/core/cli.h"
#include "libcorpus/core/cli_values.h"
#include "libcorpus/ingest/charset.h"
#include "libcorpus/ingest/html_text.h"
#include "libcorpus/web/crawler.h"
#include "libcorpus/core/error.h"
#include "libcorpus/core/output.h"
#include "libcorpus/core/sysinfo.h"

using namespace corpus;

namespace {


// A WARC file opened for appending, for resumable crawls.
class AppendFile {
 public:
  AppendFile(const std::string& path, uint64_t keep_bytes, bool resume) : path_(path) {
    fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC | (resume ? 0 : O_TRUNC), 0644);
    if (fd_ < 0) throw Error(errno_text(errno)).at(path);
    struct stat st{};
    ::fstat(fd_, &st);
    if (resume && static_cast<uint64_t>(st.st_size) < keep_bytes)
      throw Error(fmt::format("the WARC is shorter ({} bytes) than the state says ({})", st.st_size, keep_bytes),
                  "the state file belongs to another WARC; delete it to start afresh")
          .at(path);
    if (::ftruncate(fd_, static_cast<off_t>(keep_bytes)) != 0 || ::lseek(fd_, 0, SEEK_END) < 0)
      throw Error(errno_text(errno)).at(path);
    size_ = keep_bytes;
  }
  ~AppendFile() { ::close(fd_); }
  void write(std::string_view s) {
    size_t off = 0;
    while (off < s.size()) {
      ssize_t n = ::write(fd_, s.data() + off, s.size() - off);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) throw Error(errno_text(errno)).at(path_);
      off += static_cast<size_t>(n);
    }
    size_ += s.size();
  }
  void sync() {
    if (::fdatasync(fd_) != 0) throw Error(errno_text(errno)).at(path_);
  }
  uint64_t size() const { return size_; }

 private:
  std::string path_;
  int fd_ = -1;
  uint64_t size_ = 0;
};

}  // namespace

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

    nlohmann::json saved;
    bool resume = false;
    if (!state_path.empty()) {
      std::ifstream in(state_path);
      if (in) {
        try {
          saved = nlohmann::json::parse(in);
        } catch (const nlohmann::json::exception& e) {
          throw Error(std::string("not a pc-crawl state file: ") + e.what(), "delete it to start afresh").at(state_path);
        }
        resume = true;
      }
    }
    std::unique_ptr<Output> out;
    std::unique_ptr<AppendFile> app_file;
    uint64_t written = 0;
    if (state_path.empty()) {
      out = std::make_unique<Output>(c.output, Compression::kNone);
    } else {
      app_file = std::make_unique<AppendFile>(c.output, resume ? saved.value("warc_bytes", uint64_t{0}) : 0, resume);
    }
    WarcWriter warc(comp, [&](std::string_view s) {
      if (out)
        out->write(s);
      else
        app_file->write(s);
      written += s.size();
    });
    auto last_save = std::chrono::steady_clock::now() - std::chrono::hours(1);
    Crawler* crawler_ptr = nullptr;
    auto save = [&](bool force) {
      if (state_path.empty() || !crawler_ptr) return;
      auto now = std::chrono::steady_clock::now();
      if (!force && now - last_save < std::chrono::seconds(1)) return;
      last_save = now;
      app_file->sync();
      nlohmann::json s = crawler_ptr->state();
      s["warc_bytes"] = app_file->size();
      std::string tmp = state_path + ".tmp";
      {
        std::ofstream f(tmp, std::ios::trunc);
        f << s.dump() << '\n';
        if (!f.flush()) throw Error("cannot write the state file").at(tmp);
      }
      if (std::rename(tmp.c_str(), state_path.c_str()) != 0) throw Error(errno_text(errno)).at(state_path);
    };
    CrawlCallbacks cb;
    if (c.verbose) cb.log = [&](const std::string& line) { ctx.debug(line); };
    cb.progress = [&](uint64_t pages, uint64_t bytes, size_t queued) {
      if (ctx.progress().enabled()) ctx.progress().set_note(fmt::format("{} queued", queued));
      ctx.progress().update(bytes, pages);
    };
    cb.checkpoint = [&] { save(false); };
    // Links come from the ingest part's HTML parser, decoded as pc-ingest decodes.
    LinkExtractor links = [](std::string_view body, std::string_view ctype) -> std::optional<PageLinks> {
      DecodedText dec;
      if (!decode_document(body, charset_from_content_type(ctype), true, dec).empty()) return std::nullopt;
      HtmlPage page = html_to_text(dec.text, true);
      PageLinks pl{page.too_deep, page.base, {}};
      for (auto& l : page.links) pl.links.push_back({std::move(l.href), l.alternate || !l.hreflang.empty()});
      return pl;
    };
    Crawler crawler(o, warc, links, cb);
    crawler_ptr = &crawler;
    if (resume) {
      crawler.load_state(saved);
      ctx.info(fmt::format("resuming from {} ({} URLs queued)", state_path,
                           saved["alt"].size() + saved["main"].size()));
    }
    crawler.run();
    if (out) out->commit();
    save(true);
    for (const auto& [k, v] : crawler.counts()) ctx.set_count(k, v);
    ctx.set_count("WARC bytes", app_file ? app_file->size() : written);
  });
}
