#include "libcorpus/web/crawl_fetch.h"

#include <curl/curl.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <mutex>

#include "libcorpus/core/error.h"
#include "libcorpus/core/http_message.h"

namespace corpus {

namespace {

struct Transfer {
  const FetchOptions* o;
  FetchResult* r;
  std::vector<std::string> header_lines;
  bool checked_type = false;
  CURL* h;
};

bool starts_with_ci(const std::string& s, const char* p) {
  size_t n = std::strlen(p);
  if (s.size() < n) return false;
  for (size_t i = 0; i < n; ++i)
    if (std::tolower(static_cast<unsigned char>(s[i])) != std::tolower(static_cast<unsigned char>(p[i]))) return false;
  return true;
}

size_t on_header(char* p, size_t size, size_t n, void* ud) {
  auto* t = static_cast<Transfer*>(ud);
  std::string line(p, size * n);
  if (line.rfind("HTTP/", 0) == 0) t->header_lines.clear();  // a new response (e.g. after 100 Continue)
  t->header_lines.push_back(line);
  return size * n;
}

size_t on_body(char* p, size_t size, size_t n, void* ud) {
  auto* t = static_cast<Transfer*>(ud);
  if (!t->checked_type) {
    t->checked_type = true;
    long code = 0;
    curl_easy_getinfo(t->h, CURLINFO_RESPONSE_CODE, &code);
    const char* ct = nullptr;
    curl_easy_getinfo(t->h, CURLINFO_CONTENT_TYPE, &ct);
    std::string mime = mime_type_of(ct ? ct : "");
    const auto& acc = t->o->accept_types;
    if (code == 200 && !acc.empty() && std::find(acc.begin(), acc.end(), mime) == acc.end()) {
      t->r->type_refused = true;
      return 0;  // abort the transfer
    }
  }
  if (t->r->body.size() + size * n > t->o->max_body) {
    t->r->too_large = true;
    return 0;
  }
  t->r->body.append(p, size * n);
  return size * n;
}

int on_debug(CURL*, curl_infotype type, char* data, size_t size, void* ud) {
  if (type == CURLINFO_HEADER_OUT) static_cast<FetchResult*>(ud)->request.append(data, size);
  return 0;
}

void global_init() {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

// One transfer: its handle and everything the callbacks write into.
struct Running {
  uint64_t id = 0;
  FetchOptions o;
  FetchResult r;
  Transfer t{};
  CURL* h = nullptr;
};

void setup(Running& run, const std::string& url) {
  CURL* h = run.h;
  curl_easy_reset(h);
  run.t = Transfer{&run.o, &run.r, {}, false, h};
  curl_easy_setopt(h, CURLOPT_URL, url.c_str());
  curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(h, CURLOPT_FOLLOWLOCATION, 0L);
  curl_easy_setopt(h, CURLOPT_USERAGENT, run.o.user_agent.c_str());
  curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, static_cast<long>(run.o.timeout * 1000));
  curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(run.o.connect_timeout * 1000));
  curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(h, CURLOPT_HEADERFUNCTION, on_header);
  curl_easy_setopt(h, CURLOPT_HEADERDATA, &run.t);
  curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, on_body);
  curl_easy_setopt(h, CURLOPT_WRITEDATA, &run.t);
  curl_easy_setopt(h, CURLOPT_DEBUGFUNCTION, on_debug);
  curl_easy_setopt(h, CURLOPT_DEBUGDATA, &run.r);
  curl_easy_setopt(h, CURLOPT_VERBOSE, 1L);  // feeds on_debug; nothing is printed
  curl_easy_setopt(h, CURLOPT_MAXFILESIZE_LARGE, static_cast<curl_off_t>(run.o.max_body));
}

void finish(Running& run, CURLcode rc) {
  CURL* h = run.h;
  FetchResult& r = run.r;
  double total = 0;
  curl_easy_getinfo(h, CURLINFO_TOTAL_TIME, &total);
  r.seconds = total;
  long code = 0;
  curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &code);
  r.status = static_cast<int>(code);
  if (const char* ip = nullptr; curl_easy_getinfo(h, CURLINFO_PRIMARY_IP, &ip) == CURLE_OK && ip) r.ip = ip;
  if (const char* ct = nullptr; curl_easy_getinfo(h, CURLINFO_CONTENT_TYPE, &ct) == CURLE_OK && ct) r.content_type = ct;
  if (const char* loc = nullptr; curl_easy_getinfo(h, CURLINFO_REDIRECT_URL, &loc) == CURLE_OK && loc) r.location = loc;
  if (rc == CURLE_FILESIZE_EXCEEDED) r.too_large = true;
  if (rc != CURLE_OK) {
    if (r.type_refused) {
      r.error = "Content-Type not accepted";
    } else if (r.too_large) {
      r.error = "body larger than the limit";
    } else {
      r.error = curl_easy_strerror(rc);
      r.transient = rc == CURLE_OPERATION_TIMEDOUT || rc == CURLE_COULDNT_CONNECT || rc == CURLE_PARTIAL_FILE ||
                    rc == CURLE_RECV_ERROR || rc == CURLE_SEND_ERROR || rc == CURLE_GOT_NOTHING ||
                    rc == CURLE_COULDNT_RESOLVE_HOST;
    }
    return;
  }
  r.ok = true;
  for (const auto& l : run.t.header_lines) {
    if (starts_with_ci(l, "Transfer-Encoding:"))
      r.response_head += "X-Crawler-" + l;
    else
      r.response_head += l;
  }
  if (r.response_head.size() < 2 || r.response_head.substr(r.response_head.size() - 2) != "\r\n")
    r.response_head += "\r\n";
}

}  // namespace

struct Fetcher::Impl {
  CURLM* m = nullptr;
  std::vector<CURL*> idle;                        // handles to reuse
  std::vector<std::unique_ptr<Running>> running;  // in start order
};

Fetcher::Fetcher() : impl_(std::make_unique<Impl>()) {
  global_init();
  impl_->m = curl_multi_init();
  if (!impl_->m) throw Error("libcurl: cannot create a multi handle");
}

Fetcher::~Fetcher() {
  for (auto& run : impl_->running) {
    curl_multi_remove_handle(impl_->m, run->h);
    curl_easy_cleanup(run->h);
  }
  for (CURL* h : impl_->idle) curl_easy_cleanup(h);
  curl_multi_cleanup(impl_->m);
}

void Fetcher::start(uint64_t id, const std::string& url, const FetchOptions& o) {
  auto run = std::make_unique<Running>();
  run->id = id;
  run->o = o;
  if (!impl_->idle.empty()) {
    run->h = impl_->idle.back();
    impl_->idle.pop_back();
  } else {
    run->h = curl_easy_init();
    if (!run->h) throw Error("libcurl: cannot create a handle");
  }
  setup(*run, url);
  if (curl_multi_add_handle(impl_->m, run->h) != CURLM_OK) {
    impl_->idle.push_back(run->h);
    throw Error("libcurl: cannot start a transfer");
  }
  impl_->running.push_back(std::move(run));
}

size_t Fetcher::active() const { return impl_->running.size(); }

void Fetcher::wait(int timeout_ms, std::vector<std::pair<uint64_t, FetchResult>>& done) {
  int still = 0;
  curl_multi_perform(impl_->m, &still);
  if (!impl_->running.empty() && still == static_cast<int>(impl_->running.size())) {
    curl_multi_poll(impl_->m, nullptr, 0, timeout_ms, nullptr);
    curl_multi_perform(impl_->m, &still);
  } else if (impl_->running.empty() && timeout_ms > 0) {
    curl_multi_poll(impl_->m, nullptr, 0, timeout_ms, nullptr);
  }
  int left = 0;
  while (CURLMsg* msg = curl_multi_info_read(impl_->m, &left)) {
    if (msg->msg != CURLMSG_DONE) continue;
    CURL* h = msg->easy_handle;
    CURLcode rc = msg->data.result;
    auto it = std::find_if(impl_->running.begin(), impl_->running.end(),
                           [&](const std::unique_ptr<Running>& r) { return r->h == h; });
    if (it == impl_->running.end()) continue;
    std::unique_ptr<Running> run = std::move(*it);
    impl_->running.erase(it);
    curl_multi_remove_handle(impl_->m, h);
    finish(*run, rc);
    done.emplace_back(run->id, std::move(run->r));
    impl_->idle.push_back(h);
  }
}

}  // namespace corpus
