// Named training recipes (pc-nmt train --recipe NAME): the options of a run
// that was measured as a whole, under one name. A recipe expands into those
// of its options that the command line does not give (an option may be given
// once), so what the user writes wins.
#pragma once

#include <string>
#include <vector>

namespace mt {

struct Recipe {
  std::string name;
  std::string about;              // one line for --help and the man page
  std::vector<std::string> args;  // train options, "--arch", "tiny", ...
};

const std::vector<Recipe>& recipes();
std::vector<std::string> recipe_names();

// `args` (argv: program, command, options...) with the options of the recipe
// of "--recipe NAME" / "--recipe=NAME" of the train command that the
// arguments lack inserted after the command word; the --recipe option itself
// stays, so it is checked and recorded like any other. Other commands and
// unknown names are left as they are (the option table reports them).
std::vector<std::string> expand_recipes(std::vector<std::string> args);

}  // namespace mt
