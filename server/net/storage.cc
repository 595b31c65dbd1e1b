#include "net/storage.h"

#include <spdlog/spdlog.h>

#include <boost/asio/post.hpp>
#include <cstdlib>
#include <filesystem>

namespace carc::server {

std::string DefaultDatabasePath() {
  namespace fs = std::filesystem;
  const char* state = std::getenv("XDG_STATE_HOME");
  const char* home = std::getenv("HOME");
  fs::path base = state && *state ? fs::path(state)
                  : home && *home ? fs::path(home) / ".local" / "state"
                                  : fs::path(".");
  return (base / "carc" / "games.db").string();
}

namespace {

persistence::StoreOptions OptionsFor(const ServerConfig& config, const std::string& path) {
  persistence::StoreOptions options;
  options.path = path;
  options.synchronous = config.synchronous;
  options.busy_timeout_ms = config.busy_timeout_ms;
  return options;
}

std::optional<std::string> MakeParentFolder(const std::string& path) {
  const std::filesystem::path parent = std::filesystem::path(path).parent_path();
  if (parent.empty()) return std::nullopt;
  std::error_code ec;
  std::filesystem::create_directories(parent, ec);
  if (ec) return "game log " + path + ": cannot create " + parent.string() + ": " + ec.message();
  return std::nullopt;
}

std::string ShardText(const std::string& shard) {
  return shard.empty() ? "no shard (a server alone)" : "shard '" + shard + "'";
}

// A file keeps the games of one shard: their ids, in every link and every client's stored seat,
// carry its name, so a server started on it under another name would rename them all. A file
// that has no name yet (new, or stored before names were kept) takes this server's.
std::optional<std::string> CheckShard(persistence::Store& store, const std::string& path,
                                      const std::string& shard) {
  auto stored = store.ClaimShard(shard);
  if (!stored) return "game log " + path + ": " + stored.error().message;
  if (*stored == shard) return std::nullopt;
  return "game log " + path + " holds the games of " + ShardText(*stored) +
         ", and this server was started as " + ShardText(shard) +
         " (--shard): their ids would change under every link and seat. Start it with " +
         (stored->empty() ? std::string("no --shard") : "--shard " + *stored) +
         ", or give this shard its own --db (docs/operations.md, \"Shards\")";
}

}  // namespace

std::variant<std::unique_ptr<Storage>, std::string> Storage::Open(const ServerConfig& config) {
  const std::string path = config.db_path.empty() ? DefaultDatabasePath() : config.db_path;
  if (auto error = MakeParentFolder(path)) return *error;
  auto lock = persistence::LogLock::Acquire(path);
  if (!lock) {
    return "game log " + path + ": " + lock.error().message +
           "; one server per game log: stop the other, or give this one its own --db";
  }
  auto writer = persistence::Store::Open(OptionsFor(config, path));
  if (!writer) return "game log " + writer.error().message;
  if (auto error = CheckShard(*writer, path, config.shard)) return *error;
  auto next = writer->NextGameNumber();
  if (!next) return "game log " + path + ": " + next.error().message;
  auto unfinished = writer->LoadUnfinished();
  if (!unfinished) return "game log " + path + ": " + unfinished.error().message;
  persistence::StoreOptions read_options = OptionsFor(config, path);
  read_options.create = false;
  auto reader = persistence::Store::Open(read_options);
  if (!reader) return "game log " + reader.error().message;

  std::unique_ptr<Storage> storage(new Storage());
  storage->lock_ = std::move(*lock);
  storage->path_ = path;
  storage->expire_after_days_ = config.expire_after_days;
  storage->archive_path_ = config.archive_path;
  storage->next_game_number_ = *next;
  storage->unfinished_ = std::move(*unfinished);
  storage->journal_ = std::make_unique<persistence::Journal>(std::move(*writer));
  storage->reader_ = std::make_unique<persistence::Store>(std::move(*reader));
  return storage;
}

Storage::~Storage() {
  read_pool_.join();
  if (journal_) journal_->Stop();
}

void Storage::Read(std::function<void(persistence::Store&)> job) {
  boost::asio::post(read_pool_, [this, job = std::move(job)] { job(*reader_); });
}

void Storage::Expire() {
  if (expire_after_days_ <= 0) return;
  const int64_t before = persistence::NowMs() - int64_t{expire_after_days_} * 86'400'000;
  journal_->RunOnWriter([before, archive = archive_path_](persistence::Store& store) {
    const auto report = store.Expire(before, archive);
    if (!report) {
      spdlog::error("housekeeping: {}", report.error().message);
    } else if (report->games > 0) {
      spdlog::info("housekeeping: {} finished games ({} actions) {}", report->games,
                   report->actions, archive.empty() ? "deleted" : "archived to " + archive);
    }
  });
}

namespace {

std::string StatsJsonOf(const persistence::JournalStats& s) {
  const auto ms = [](double us) { return std::to_string(us / 1000.0); };
  return R"({"commits":)" + std::to_string(s.batches) + R"(,"writes":)" + std::to_string(s.writes) +
         R"(,"failed_writes":)" + std::to_string(s.failed_writes) + R"(,"actions":)" +
         std::to_string(s.actions) + R"(,"largest_batch":)" + std::to_string(s.largest_batch) +
         R"(,"commit_ms_p50":)" + ms(s.commit_us.Quantile(0.5)) + R"(,"commit_ms_p99":)" +
         ms(s.commit_us.Quantile(0.99)) + R"(,"commit_ms_max":)" + ms(s.commit_us.max()) + "}";
}

}  // namespace

std::string Storage::StatsJson() const { return StatsJsonOf(journal_->Stats()); }

}  // namespace carc::server
