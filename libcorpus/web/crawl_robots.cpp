#include "libcorpus/web/crawl_robots.h"
#include "libcorpus/core/ascii.h"

#include <cstdlib>

namespace corpus {

bool robots_match(std::string_view pat, std::string_view path) {
  // Iterative wildcard match with backtracking to the last '*'.
  size_t p = 0, s = 0, star = std::string_view::npos, mark = 0;
  while (true) {
    if (p < pat.size() && pat[p] == '$' && p + 1 == pat.size()) return s == path.size();
    if (p == pat.size()) return true;  // a prefix match is enough
    if (pat[p] == '*') {
      star = p++;
      mark = s;
      continue;
    }
    if (s < path.size() && pat[p] == path[s]) {
      ++p;
      ++s;
      continue;
    }
    if (star != std::string_view::npos && mark < path.size()) {
      p = star + 1;
      s = ++mark;
      continue;
    }
    return false;
  }
}

RobotsRules RobotsRules::disallow_all() {
  RobotsRules r;
  r.rules_.push_back({"/", false});
  return r;
}

RobotsRules RobotsRules::parse(std::string_view text, std::string_view agent_in) {
  std::string agent = ascii_lower(agent_in);
  struct Group {
    std::vector<std::string> agents;
    std::vector<Rule> rules;
    std::optional<double> delay;
  };
  std::vector<Group> groups;
  RobotsRules out;
  bool in_agents = false;  // the previous line was a user-agent line
  size_t p = 0;
  while (p < text.size()) {
    size_t nl = text.find('\n', p);
    if (nl == std::string_view::npos) nl = text.size();
    std::string_view line = text.substr(p, nl - p);
    p = nl + 1;
    size_t hash = line.find('#');
    if (hash != std::string_view::npos) line = line.substr(0, hash);
    size_t colon = line.find(':');
    if (colon == std::string_view::npos) continue;
    std::string key = ascii_lower(trim_blanks(line.substr(0, colon)));
    std::string value(trim_blanks(line.substr(colon + 1)));
    if (key == "user-agent") {
      if (!in_agents) groups.emplace_back();
      groups.back().agents.push_back(ascii_lower(value));
      in_agents = true;
      continue;
    }
    if (key == "sitemap") {
      if (!value.empty()) out.sitemaps_.push_back(value);
      continue;
    }
    in_agents = false;
    if (groups.empty()) continue;  // rules before any user-agent line
    if (key == "allow" || key == "disallow") {
      if (value.empty()) continue;  // "Disallow:" (empty) allows everything
      groups.back().rules.push_back({value, key == "allow"});
    } else if (key == "crawl-delay") {
      char* end = nullptr;
      double d = std::strtod(value.c_str(), &end);
      if (end != value.c_str() && d >= 0) groups.back().delay = d;
    }
  }
  // The most specific group: the longest agent token contained in ours.
  size_t best_len = 0;
  bool found = false;
  for (const auto& g : groups)
    for (const auto& a : g.agents)
      if (a != "*" && !a.empty() && agent.find(a) != std::string::npos && a.size() > best_len) best_len = a.size();
  for (const auto& g : groups) {
    bool match = false;
    for (const auto& a : g.agents) {
      if (best_len > 0 ? (a.size() == best_len && agent.find(a) != std::string::npos) : a == "*") match = true;
    }
    if (!match) continue;
    found = true;
    out.rules_.insert(out.rules_.end(), g.rules.begin(), g.rules.end());
    if (g.delay) out.delay_ = g.delay;
  }
  (void)found;
  return out;
}

bool RobotsRules::allowed(std::string_view path) const {
  if (path == "/robots.txt") return true;
  size_t best = 0;
  bool allow = true;
  bool any = false;
  for (const auto& r : rules_) {
    if (!robots_match(r.pattern, path)) continue;
    size_t len = r.pattern.size();
    if (!any || len > best || (len == best && r.allow)) {
      best = len;
      allow = r.allow;
      any = true;
    }
  }
  return allow;
}

}  // namespace corpus
