#include "sqlite.h"

#include <cassert>
#include <utility>

namespace carc::persistence {

// ---------------------------------------------------------------------------------------------
// Statement

Statement::Statement(Statement&& other) noexcept
    : stmt_(std::exchange(other.stmt_, nullptr)),
      db_(std::exchange(other.db_, nullptr)),
      error_(std::move(other.error_)) {}

Statement& Statement::operator=(Statement&& other) noexcept {
  if (this != &other) {
    sqlite3_finalize(stmt_);
    stmt_ = std::exchange(other.stmt_, nullptr);
    db_ = std::exchange(other.db_, nullptr);
    error_ = std::move(other.error_);
  }
  return *this;
}

Statement::~Statement() { sqlite3_finalize(stmt_); }

Statement& Statement::Bind(int index, int64_t value) {
  sqlite3_bind_int64(stmt_, index, value);
  return *this;
}

Statement& Statement::Bind(int index, std::string_view text) {
  sqlite3_bind_text(stmt_, index, text.data(), static_cast<int>(text.size()), SQLITE_TRANSIENT);
  return *this;
}

Statement& Statement::BindBlob(int index, std::span<const uint8_t> bytes) {
  sqlite3_bind_blob(stmt_, index, bytes.data(), static_cast<int>(bytes.size()), SQLITE_TRANSIENT);
  return *this;
}

Statement& Statement::BindNull(int index) {
  sqlite3_bind_null(stmt_, index);
  return *this;
}

bool Statement::Step() {
  assert(stmt_ && "a statement that was prepared");
  const int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return true;
  if (rc != SQLITE_DONE && !error_) {
    error_ = StoreError{sqlite3_extended_errcode(db_), sqlite3_errmsg(db_)};
  }
  return false;
}

Status Statement::Run() {
  while (Step()) {
  }
  Status result = error_;
  Reset();
  return result;
}

void Statement::Reset() {
  sqlite3_reset(stmt_);
  sqlite3_clear_bindings(stmt_);
  error_.reset();
}

std::string Statement::Text(int column) const {
  const auto* text = sqlite3_column_text(stmt_, column);
  const int size = sqlite3_column_bytes(stmt_, column);
  return text ? std::string(reinterpret_cast<const char*>(text), static_cast<size_t>(size)) : "";
}

std::string Statement::Blob(int column) const {
  const void* blob = sqlite3_column_blob(stmt_, column);
  const int size = sqlite3_column_bytes(stmt_, column);
  return blob ? std::string(static_cast<const char*>(blob), static_cast<size_t>(size)) : "";
}

// ---------------------------------------------------------------------------------------------
// Connection

Result<Connection> Connection::Open(const std::string& path, bool create, const std::string& vfs) {
  sqlite3* db = nullptr;
  const int flags = SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0) | SQLITE_OPEN_NOMUTEX;
  const int rc = sqlite3_open_v2(path.c_str(), &db, flags, vfs.empty() ? nullptr : vfs.c_str());
  if (rc != SQLITE_OK) {
    StoreError error{rc, std::string(db ? sqlite3_errmsg(db) : sqlite3_errstr(rc))};
    sqlite3_close(db);
    return error;
  }
  sqlite3_extended_result_codes(db, 1);
  return Connection(db);
}

Connection& Connection::operator=(Connection&& other) noexcept {
  if (this != &other) {
    sqlite3_close(db_);
    db_ = std::exchange(other.db_, nullptr);
  }
  return *this;
}

Connection::~Connection() {
  // Every statement is finalized by its owner before the connection goes; sqlite3_close refuses
  // to close otherwise, which would show up in tests under the sanitizers as a leak.
  sqlite3_close(db_);
}

Status Connection::Exec(const std::string& sql) {
  char* message = nullptr;
  const int rc = sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &message);
  if (rc == SQLITE_OK) return std::nullopt;
  StoreError error{sqlite3_extended_errcode(db_), message ? message : sqlite3_errstr(rc)};
  sqlite3_free(message);
  return error;
}

Result<Statement> Connection::Prepare(std::string_view sql) {
  sqlite3_stmt* stmt = nullptr;
  const int rc = sqlite3_prepare_v2(db_, sql.data(), static_cast<int>(sql.size()), &stmt, nullptr);
  if (rc != SQLITE_OK) return LastError("prepare");
  return Statement(stmt, db_);
}

StoreError Connection::LastError(std::string_view what) const {
  return StoreError{sqlite3_extended_errcode(db_),
                    std::string(what) + ": " + std::string(sqlite3_errmsg(db_))};
}

}  // namespace carc::persistence
