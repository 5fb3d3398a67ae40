// URL resolution and normalisation (libcurl's URL API) and splitting. Input:
// a base URL, '\n', a reference. A normalised URL must split, and normalising
// it again must give it back unchanged.
#include "libcorpus/web/url.h"
#include "tests/fuzz/fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view in = fuzz::bytes(data, size);
  size_t nl = in.find('\n');
  std::string_view base = nl == std::string_view::npos ? std::string_view() : in.substr(0, nl);
  std::string_view ref = nl == std::string_view::npos ? in : in.substr(nl + 1);
  (void)corpus::split_url(in);
  std::optional<std::string> url = corpus::resolve_url(base, ref);
  if (!url) return 0;
  if (!corpus::split_url(*url)) fuzz::broken("a resolved URL does not split");
  std::optional<std::string> again = corpus::resolve_url("", *url);
  if (!again || *again != *url) fuzz::broken("normalising a normalised URL changed it");
  return 0;
}
