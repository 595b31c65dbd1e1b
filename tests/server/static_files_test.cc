// The web client's files: which request targets map to which files, with which headers, and
// that nothing outside the web root can be reached (dot segments, escapes, symbolic links).
#include "net/static_files.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

namespace carc::server {
namespace {

namespace fs = std::filesystem;

// A web root with an index, a hashed asset, a nested file, and a secret next to the root.
class WebRoot : public ::testing::Test {
 protected:
  void SetUp() override {
    base_ = fs::temp_directory_path() / ("carc-web-" + std::to_string(getpid()));
    fs::remove_all(base_);
    root_ = base_ / "www";
    fs::create_directories(root_ / "assets");
    fs::create_directories(root_ / "img");
    Write(root_ / "index.html", "<!doctype html>");
    Write(root_ / "assets" / "app-3f2a.js", "export {}");
    Write(root_ / "img" / "tile.svg", "<svg/>");
    Write(root_ / ".env", "hidden");
    Write(base_ / "secret.txt", "secret");
    fs::create_symlink(base_ / "secret.txt", root_ / "escape.txt");
  }
  void TearDown() override { fs::remove_all(base_); }

  static void Write(const fs::path& path, const std::string& text) { std::ofstream(path) << text; }
  std::variant<StaticFile, StaticRefusal> Get(std::string_view target) const {
    return ResolveStatic(root_.string(), target);
  }
  int StatusOf(std::string_view target) const {
    const auto r = Get(target);
    return std::holds_alternative<StaticFile>(r) ? 200 : std::get<StaticRefusal>(r).status;
  }
  std::string FileOf(std::string_view target) const {
    const auto r = Get(target);
    return std::holds_alternative<StaticFile>(r)
               ? fs::path(std::get<StaticFile>(r).path).lexically_relative(root_).string()
               : "";
  }

  fs::path base_, root_;
};

TEST_F(WebRoot, TheIndexAndTheClientsPagesAreIndexHtmlRevalidatedEachTime) {
  for (const char* target : {"/", "/game/g12", "/replay/g3?step=10", "/lobby#top"}) {
    SCOPED_TRACE(target);
    const auto r = Get(target);
    ASSERT_TRUE(std::holds_alternative<StaticFile>(r));
    EXPECT_EQ(FileOf(target), "index.html");
    EXPECT_EQ(std::get<StaticFile>(r).content_type, "text/html; charset=utf-8");
    EXPECT_EQ(std::get<StaticFile>(r).cache_control, "no-cache");
  }
}

TEST_F(WebRoot, HashedAssetsAreCachedForeverOtherFilesForAnHour) {
  const auto asset = std::get<StaticFile>(Get("/assets/app-3f2a.js"));
  EXPECT_EQ(asset.content_type, "text/javascript; charset=utf-8");
  EXPECT_EQ(asset.cache_control, "public, max-age=31536000, immutable");
  const auto svg = std::get<StaticFile>(Get("/img/tile.svg"));
  EXPECT_EQ(svg.content_type, "image/svg+xml");
  EXPECT_EQ(svg.cache_control, "public, max-age=3600");
  EXPECT_EQ(FileOf("/img/%74ile.svg"), "img/tile.svg") << "one percent-decoding";
}

TEST_F(WebRoot, MissingFilesAreNotFound) {
  EXPECT_EQ(StatusOf("/assets/gone.js"), 404);
  EXPECT_EQ(StatusOf("/assets/gone"), 404) << "no page fallback inside /assets/";
  EXPECT_EQ(StatusOf("/favicon.ico"), 404);
}

TEST_F(WebRoot, NothingOutsideTheRootCanBeReached) {
  for (const char* target :
       {"/../secret.txt", "/assets/../../secret.txt", "/%2e%2e/secret.txt", "/%2E%2E/secret.txt",
        "/assets/%2e%2e/%2e%2e/secret.txt", "/..%2fsecret.txt", "/.env", "/./index.html", "/img/..",
        "/a\\..\\secret.txt", "/%00index.html", "/%zz", "/%4", "secret.txt", ""}) {
    SCOPED_TRACE(target);
    const auto r = Get(target);
    ASSERT_TRUE(std::holds_alternative<StaticRefusal>(r));
    EXPECT_EQ(std::get<StaticRefusal>(r).status, 400);
  }
  // Percent-decoding happens once: an encoded percent stays a literal file name.
  EXPECT_EQ(StatusOf("/%252e%252e/secret.txt"), 404);
  // A symbolic link that leads out of the root is refused like a missing file.
  EXPECT_EQ(StatusOf("/escape.txt"), 404);
}

TEST_F(WebRoot, NoRootNoFiles) {
  EXPECT_EQ(std::get<StaticRefusal>(ResolveStatic((base_ / "none").string(), "/")).status, 404);
}

TEST(ContentTypes, ByExtension) {
  EXPECT_EQ(ContentTypeFor("a.css"), "text/css; charset=utf-8");
  EXPECT_EQ(ContentTypeFor("a.json"), "application/json");
  EXPECT_EQ(ContentTypeFor("a.woff2"), "font/woff2");
  EXPECT_EQ(ContentTypeFor("a.bin"), "application/octet-stream");
}

}  // namespace
}  // namespace carc::server
