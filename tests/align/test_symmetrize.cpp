// Symmetrisation against hand-worked examples (align/symmetrize.h).
#include <doctest/doctest.h>

#include "align/symmetrize.h"
#include "libcorpus/core/error.h"

using namespace align;

namespace {

std::string str(const Links& l) {
  std::string s;
  append_pharaoh(s, l);
  return s;
}

std::string sym(const Links& f, const Links& r, size_t m, size_t n, const char* how) {
  return str(symmetrize(f, r, m, n, parse_symmetrize(how)));
}

}  // namespace

TEST_CASE("symmetrize: intersect and union") {
  Links f{{0, 0}, {1, 1}, {2, 1}, {3, 3}}, r{{0, 0}, {1, 1}, {2, 2}, {3, 2}};
  CHECK(sym(f, r, 4, 4, "intersect") == "0-0 1-1");
  CHECK(sym(f, r, 4, 4, "union") == "0-0 1-1 2-1 2-2 3-2 3-3");
}

TEST_CASE("symmetrize: grow-diag grows along neighbours and diagonals") {
  // Worked by hand: from {0-0, 1-1}, (1,1) adds its lower neighbour (2,1)
  // (source 2 unaligned) and then its diagonal (2,2) (target 2 unaligned); the
  // sweep continues at (2,1), whose diagonal (3,2) is added, and at (2,2),
  // whose diagonal (3,3) is added: the whole union.
  Links f{{0, 0}, {1, 1}, {2, 1}, {3, 3}}, r{{0, 0}, {1, 1}, {2, 2}, {3, 2}};
  CHECK(sym(f, r, 4, 4, "grow-diag") == "0-0 1-1 2-1 2-2 3-2 3-3");
}

TEST_CASE("symmetrize: final adds points with one free word, final-and only with two") {
  // fwd: target 0 <- source 0, targets 1 and 2 <- source 3, target 3 <- source 2.
  // rev: source 0 -> target 0 only. Intersection {0-0}; no union point touches
  // it, so grow-diag adds nothing. Final, over fwd in row-major order: (2,3)
  // both free: added; (3,1) both free: added; (3,2) source 3 now aligned,
  // target 2 free: added by final, not by final-and.
  Links f{{0, 0}, {3, 1}, {3, 2}, {2, 3}}, r{{0, 0}};
  CHECK(sym(f, r, 4, 4, "grow-diag") == "0-0");
  CHECK(sym(f, r, 4, 4, "grow-diag-final") == "0-0 2-3 3-1 3-2");
  CHECK(sym(f, r, 4, 4, "grow-diag-final-and") == "0-0 2-3 3-1");
}

TEST_CASE("symmetrize: final takes fwd points before rev points") {
  // Union points (2,1) (fwd only) and (2,2) (rev only), far from 0-0. The fwd
  // pass adds (2,1); then (2,2) has source 2 aligned: final adds it, final-and
  // does not (had rev gone first, final-and would give 0-0 2-2).
  Links f{{0, 0}, {2, 1}}, r{{0, 0}, {2, 2}};
  CHECK(sym(f, r, 3, 3, "grow-diag-final") == "0-0 2-1 2-2");
  CHECK(sym(f, r, 3, 3, "grow-diag-final-and") == "0-0 2-1");
  CHECK(sym(f, r, 3, 3, "intersect") == "0-0");
}

TEST_CASE("symmetrize: grow-diag does not add a point whose words are both aligned") {
  // Intersection {0-1, 1-0}; after growth (0,0) is a union point next to both,
  // but source 0 and target 0 are aligned already.
  Links f{{1, 0}, {0, 1}, {0, 2}}, r{{0, 1}, {1, 0}};
  // (0,2) is fwd-only; grow from (0,1) reaches it (target 2 free).
  CHECK(sym(f, r, 2, 3, "grow-diag") == "0-1 0-2 1-0");
  Links f2{{1, 0}, {0, 1}}, r2{{0, 1}, {1, 0}};
  CHECK(sym(f2, r2, 2, 2, "grow-diag-final-and") == "0-1 1-0");
}

TEST_CASE("symmetrize: empty sentences and bad names") {
  CHECK(sym({}, {}, 0, 0, "grow-diag-final-and").empty());
  CHECK(sym({}, {}, 3, 2, "union").empty());
  CHECK_THROWS_AS(parse_symmetrize("gdfa"), corpus::ConfigError);
}
