#include "core/rule_set.h"

#include <charconv>

namespace carc::core {
namespace {

bool IsOptionName(std::string_view name) {
  if (name.empty()) return false;
  for (const char c : name) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
    if (!ok) return false;
  }
  return true;
}

std::optional<int> ParseInt(std::string_view text) {
  int value = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec != std::errc() || ptr != end || text.empty()) return std::nullopt;
  return value;
}

}  // namespace

std::string FormatOptions(const Options& options) {
  std::string out;
  for (const auto& [name, value] : options) {
    if (!out.empty()) out += ' ';
    out += name + '=' + std::to_string(value);
  }
  return out;
}

std::variant<Options, std::string> ParseOptions(std::string_view text) {
  Options out;
  while (!text.empty()) {
    const size_t space = text.find(' ');
    const std::string_view pair = text.substr(0, space);
    text = space == std::string_view::npos ? std::string_view() : text.substr(space + 1);
    const size_t equals = pair.find('=');
    if (equals == std::string_view::npos) return "option '" + std::string(pair) + "' has no value";
    const std::string_view name = pair.substr(0, equals);
    const auto value = ParseInt(pair.substr(equals + 1));
    if (!IsOptionName(name)) return "'" + std::string(name) + "' is not an option name";
    if (!value) return "option '" + std::string(name) + "' needs an integer value";
    if (!out.emplace(std::string(name), *value).second)
      return "option '" + std::string(name) + "' is given twice";
  }
  return out;
}

std::variant<Options, RuleError> RuleSet::CompleteOptions(const Options& options) const {
  const GameType& type = Type();
  for (const auto& [name, value] : options) {
    bool known = false;
    for (const OptionSpec& spec : type.options) known = known || spec.name == name;
    if (!known) {
      return RuleError{"unknown_option", type.name + " has no option '" + name + "'"};
    }
  }
  Options out;
  for (const OptionSpec& spec : type.options) {
    const auto given = options.find(spec.name);
    const int value = given == options.end() ? spec.default_value : given->second;
    if (value < spec.min || value > spec.max) {
      return RuleError{"option_out_of_range", "option '" + spec.name + "' must be " +
                                                  std::to_string(spec.min) + " to " +
                                                  std::to_string(spec.max)};
    }
    out.emplace(spec.name, value);
  }
  return out;
}

}  // namespace carc::core
