// Named training recipes (mt/train/recipes.h): a recipe's options go right
// after the command word, those the command line gives left out (it wins);
// other commands and unknown names are left to the option table.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "mt/train/recipes.h"

using mt::expand_recipes;
using Args = std::vector<std::string>;

TEST_CASE("a recipe expands after the command word and the user's options follow it") {
  REQUIRE(!mt::recipes().empty());
  const mt::Recipe& r = mt::recipes().front();
  REQUIRE(!r.args.empty());
  const Args in = {"pc-nmt", "train", "--recipe", r.name, "--dim", "16", "-o", "m.safetensors", "t.tsv"};
  Args want = {"pc-nmt", "train"};
  want.insert(want.end(), r.args.begin(), r.args.end());
  want.insert(want.end(), in.begin() + 2, in.end());
  CHECK(expand_recipes(in) == want);
  // The --recipe=NAME spelling does the same.
  const Args eq = {"pc-nmt", "train", "--recipe=" + r.name, "-o", "m.safetensors"};
  Args want_eq = {"pc-nmt", "train"};
  want_eq.insert(want_eq.end(), r.args.begin(), r.args.end());
  want_eq.insert(want_eq.end(), eq.begin() + 2, eq.end());
  CHECK(expand_recipes(eq) == want_eq);
}

TEST_CASE("an option the command line gives replaces the recipe's") {
  const mt::Recipe& r = mt::recipes().front();
  REQUIRE(r.args.size() >= 2);
  const std::string opt = r.args[0];
  const Args in = {"pc-nmt", "train", "--recipe", r.name, opt + "=42", "-o", "m.safetensors"};
  const Args out = expand_recipes(in);
  CHECK(out.size() == in.size() + r.args.size() - 2);
  size_t seen = 0;
  for (const std::string& a : out) seen += a == opt || a.rfind(opt + "=", 0) == 0;
  CHECK(seen == 1);
  CHECK(out.back() == "m.safetensors");
  CHECK(std::find(out.begin(), out.end(), opt + "=42") != out.end());
}

TEST_CASE("recipes are left alone outside train and when the name is unknown") {
  const std::string name = mt::recipes().front().name;
  const Args translate = {"pc-nmt", "translate", "--recipe", name, "-m", "m.safetensors"};
  CHECK(expand_recipes(translate) == translate);
  const Args unknown = {"pc-nmt", "train", "--recipe", "no-such-recipe", "-o", "m.safetensors"};
  CHECK(expand_recipes(unknown) == unknown);
  const Args none = {"pc-nmt", "train", "-o", "m.safetensors"};
  CHECK(expand_recipes(none) == none);
  const Args bare = {"pc-nmt"};
  CHECK(expand_recipes(bare) == bare);
}

TEST_CASE("every recipe holds train options only, each a --name with its value") {
  for (const mt::Recipe& r : mt::recipes()) {
    CAPTURE(r.name);
    CHECK(!r.about.empty());
    for (size_t i = 0; i < r.args.size(); ++i) {
      if (i % 2 == 0) {
        CHECK(r.args[i].rfind("--", 0) == 0);
        CHECK(r.args[i] != "--recipe");
      } else {
        CHECK(r.args[i].rfind("--", 0) != 0);
      }
    }
  }
}
