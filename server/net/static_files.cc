#include "net/static_files.h"

#include <algorithm>
#include <array>
#include <filesystem>
#include <optional>
#include <utility>

namespace carc::server {
namespace {

namespace fs = std::filesystem;

std::optional<int> HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return std::nullopt;
}

// %XX decoding, once; nullopt for a broken escape.
std::optional<std::string> PercentDecode(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '%') {
      out += text[i];
      continue;
    }
    if (i + 2 >= text.size()) return std::nullopt;
    const auto high = HexValue(text[i + 1]);
    const auto low = HexValue(text[i + 2]);
    if (!high || !low) return std::nullopt;
    out += static_cast<char>(*high * 16 + *low);
    i += 2;
  }
  return out;
}

// The path part of a target, decoded, checked segment by segment.
std::variant<std::string, StaticRefusal> CleanPath(std::string_view target) {
  target = target.substr(0, target.find_first_of("?#"));
  if (target.empty() || target.front() != '/') return StaticRefusal{400, "not a path"};
  const auto decoded = PercentDecode(target);
  if (!decoded) return StaticRefusal{400, "a broken %-escape"};
  if (decoded->find('\0') != std::string::npos || decoded->find('\\') != std::string::npos) {
    return StaticRefusal{400, "a forbidden character"};
  }
  size_t start = 1;
  while (start <= decoded->size()) {
    const size_t end = std::min(decoded->find('/', start), decoded->size());
    const std::string_view segment(decoded->data() + start, end - start);
    if (!segment.empty() && segment.front() == '.') return StaticRefusal{400, "a dot segment"};
    start = end + 1;
  }
  return *decoded;
}

bool Within(const fs::path& root, const fs::path& file) {
  const auto [r, f] = std::mismatch(root.begin(), root.end(), file.begin(), file.end());
  return r == root.end();
}

std::string CacheControlFor(std::string_view path) {
  if (path.starts_with("/assets/")) return "public, max-age=31536000, immutable";
  if (path == "/" || path.ends_with(".html")) return "no-cache";
  return "public, max-age=3600";
}

StaticFile IndexOf(const fs::path& root) {
  return StaticFile{(root / "index.html").string(), ContentTypeFor("index.html"), "no-cache"};
}

}  // namespace

std::string ContentTypeFor(std::string_view name) {
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 14> kTypes = {{
      {".html", "text/html; charset=utf-8"},
      {".js", "text/javascript; charset=utf-8"},
      {".mjs", "text/javascript; charset=utf-8"},
      {".css", "text/css; charset=utf-8"},
      {".json", "application/json"},
      {".map", "application/json"},
      {".webmanifest", "application/manifest+json"},
      {".svg", "image/svg+xml"},
      {".png", "image/png"},
      {".ico", "image/x-icon"},
      {".woff2", "font/woff2"},
      {".txt", "text/plain; charset=utf-8"},
      {".wasm", "application/wasm"},
      {".webp", "image/webp"},
  }};
  for (const auto& [extension, type] : kTypes) {
    if (name.ends_with(extension)) return std::string(type);
  }
  return "application/octet-stream";
}

std::variant<StaticFile, StaticRefusal> ResolveStatic(const std::string& root,
                                                      std::string_view target) {
  auto cleaned = CleanPath(target);
  if (auto* refusal = std::get_if<StaticRefusal>(&cleaned)) return *refusal;
  const std::string& path = std::get<std::string>(cleaned);
  std::error_code ec;
  const fs::path base = fs::canonical(root, ec);
  if (ec) return StaticRefusal{404, "no web client here"};
  if (path == "/") return IndexOf(base);
  const fs::path file = fs::weakly_canonical(base / path.substr(1), ec);
  if (ec || !Within(base, file)) return StaticRefusal{404, "not found"};
  if (fs::is_regular_file(file, ec)) {
    return StaticFile{file.string(), ContentTypeFor(file.filename().string()),
                      CacheControlFor(path)};
  }
  // A page of the client (/game/g12): no extension, no file.
  const std::string last = path.substr(path.rfind('/') + 1);
  if (last.find('.') == std::string::npos && !path.starts_with("/assets/")) return IndexOf(base);
  return StaticRefusal{404, "not found"};
}

}  // namespace carc::server
