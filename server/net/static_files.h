// The web client's files, served from one folder (--web-root) on the server's port.
//
// ResolveStatic maps a request target to a file under the root, or to the HTTP status that
// answers it. It is strict, because the target comes from anybody: the target is percent-decoded
// once; a segment "..", ".", or starting with a dot, a backslash or a NUL byte is refused; and
// the file found must lie under the root once symbolic links are followed. "/" is the client's
// index.html, and so is a path of the client's own pages (no file extension, no such file): the
// page then routes itself. Cache headers follow the build's naming: files under /assets/ carry a
// content hash in their names, so they never change; index.html must always be revalidated.
#pragma once

#include <string>
#include <string_view>
#include <variant>

namespace carc::server {

struct StaticFile {
  std::string path;          // on disk, under the root
  std::string content_type;  // with a charset for text
  std::string cache_control;
};

// The status to answer when there is no file to serve: 400 (a malformed or forbidden target)
// or 404.
struct StaticRefusal {
  int status = 404;
  std::string reason;
};

std::variant<StaticFile, StaticRefusal> ResolveStatic(const std::string& root,
                                                      std::string_view target);
// The Content-Type for a file name, by its extension.
std::string ContentTypeFor(std::string_view name);

}  // namespace carc::server
