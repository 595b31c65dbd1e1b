// Small helpers for the line-based text formats (tile sets, action lists, the notation).
#pragma once

#include <charconv>
#include <string_view>
#include <system_error>
#include <vector>

namespace carc::core {

// The words of a line, split at spaces, tabs and carriage returns.
inline std::vector<std::string_view> SplitWords(std::string_view line) {
  std::vector<std::string_view> words;
  const auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\r'; };
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && blank(line[i])) ++i;
    const size_t start = i;
    while (i < line.size() && !blank(line[i])) ++i;
    if (i > start) words.push_back(line.substr(start, i - start));
  }
  return words;
}

// Parses the whole word as a number of type T (no sign for unsigned types, no spaces).
template <typename T>
bool ParseNumber(std::string_view word, T* out) {
  const char* end = word.data() + word.size();
  const auto result = std::from_chars(word.data(), end, *out);
  return result.ec == std::errc() && result.ptr == end;
}

// Calls visit(line_number, line, words) for every line of `text` that has words once its
// comment ('#' to the end of the line) is cut; `line` is that text, trimmed. Line numbers
// start at 1. Stops, returning false, as soon as visit returns false.
template <typename Visit>
bool ForEachLine(std::string_view text, Visit visit) {
  int number = 0;
  size_t pos = 0;
  while (pos <= text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    ++number;
    if (const size_t hash = line.find('#'); hash != std::string_view::npos)
      line = line.substr(0, hash);
    const std::vector<std::string_view> words = SplitWords(line);
    if (words.empty()) continue;
    const char* first = words.front().data();
    const char* last = words.back().data() + words.back().size();
    if (!visit(number, std::string_view(first, static_cast<size_t>(last - first)), words)) {
      return false;
    }
  }
  return true;
}

}  // namespace carc::core
