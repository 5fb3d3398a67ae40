// HTTP GETs with libcurl (the multi interface: many transfers at once, on
// one thread, sharing a connection cache), keeping what a WARC needs: the request header as
// sent, the response status line and headers as received, the body (with
// chunked transfer coding undone by libcurl; the stored header then says
// X-Crawler-Transfer-Encoding instead of Transfer-Encoding, as warcio does),
// and the peer IP. Redirects are not followed here: the crawler checks every
// hop against its scope. No Accept-Encoding is sent, so bodies arrive as
// served.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace corpus {

struct FetchOptions {
  std::string user_agent;
  double timeout = 30;          // seconds for the whole transfer
  double connect_timeout = 10;  // seconds
  uint64_t max_body = 10u << 20;
  std::vector<std::string> accept_types;  // MIME types kept; empty: any (robots.txt, sitemaps)
};

struct FetchResult {
  bool ok = false;           // a complete response arrived
  int status = 0;
  std::string error;         // transport error ("timeout", "connection refused", ...)
  bool transient = false;    // worth a retry (timeouts, connection errors, truncated bodies)
  bool too_large = false;    // body over max_body: aborted
  bool type_refused = false; // Content-Type not in accept_types: aborted
  std::string request;       // request header block as sent
  std::string response_head; // status line + headers + CRLF, as stored in WARC
  std::string body;
  std::string content_type;
  std::string location;      // Location header (for 3xx)
  std::string ip;
  double seconds = 0;
};

// Runs transfers concurrently. The caller decides what to start and when
// (politeness lives in the crawler); each finished transfer comes back from
// wait() with the id it was started with.
class Fetcher {
 public:
  Fetcher();
  ~Fetcher();
  Fetcher(const Fetcher&) = delete;
  Fetcher& operator=(const Fetcher&) = delete;

  void start(uint64_t id, const std::string& url, const FetchOptions& o);
  size_t active() const;
  // Runs the transfers for at most `timeout_ms` (less when one finishes) and
  // appends the finished ones to `done`. With no transfer it just sleeps.
  void wait(int timeout_ms, std::vector<std::pair<uint64_t, FetchResult>>& done);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace corpus
