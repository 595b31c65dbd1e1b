// A thin C++ layer over SQLite's C API: an owned connection, prepared statements with typed
// binds and columns, and errors as values (StoreError) rather than exceptions.
//
// Nothing here knows about games; store.h builds the game log on top of it. A Connection is used
// by one thread at a time (SQLite's default serialized mode would allow more, but the store never
// needs it).
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>

namespace carc::persistence {

// What went wrong, for people (message) and for programs (SQLite's extended result code).
struct StoreError {
  int code = SQLITE_ERROR;
  std::string message;

  bool IsBusy() const { return (code & 0xff) == SQLITE_BUSY || (code & 0xff) == SQLITE_LOCKED; }
  bool IsConstraint() const { return (code & 0xff) == SQLITE_CONSTRAINT; }
};

template <typename T>
class Result;  // defined below: a value or a StoreError

using Status = std::optional<StoreError>;  // nullopt: success

class Statement {
 public:
  Statement() = default;
  Statement(sqlite3_stmt* stmt, sqlite3* db) : stmt_(stmt), db_(db) {}
  Statement(Statement&& other) noexcept;
  Statement& operator=(Statement&& other) noexcept;
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;
  ~Statement();

  // Binds are 1-based, as in SQLite.
  Statement& Bind(int index, int64_t value);
  Statement& Bind(int index, std::string_view text);
  Statement& BindBlob(int index, std::span<const uint8_t> bytes);
  Statement& BindNull(int index);

  // One step: true when a row is ready, false when done; errors are kept and reported by
  // error() (and by Run).
  bool Step();
  // Steps to the end and resets; the error of the first failing step, if any.
  Status Run();
  void Reset();
  Status error() const { return error_; }

  int64_t Int(int column) const { return sqlite3_column_int64(stmt_, column); }
  std::string Text(int column) const;
  std::string Blob(int column) const;
  bool IsNull(int column) const { return sqlite3_column_type(stmt_, column) == SQLITE_NULL; }

 private:
  sqlite3_stmt* stmt_ = nullptr;
  sqlite3* db_ = nullptr;
  Status error_;
};

class Connection {
 public:
  // Opens (or creates, when `create`) the database file; ":memory:" for an in-memory database.
  // `vfs` names a registered SQLite VFS (empty: the default one).
  static Result<Connection> Open(const std::string& path, bool create, const std::string& vfs = "");

  Connection() = default;
  Connection(Connection&& other) noexcept : db_(std::exchange(other.db_, nullptr)) {}
  Connection& operator=(Connection&& other) noexcept;
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;
  ~Connection();

  // Runs one or more statements without results.
  Status Exec(const std::string& sql);
  Result<Statement> Prepare(std::string_view sql);
  // The error SQLite holds for this connection now, prefixed with `what`.
  StoreError LastError(std::string_view what) const;
  bool InTransaction() const { return db_ && sqlite3_get_autocommit(db_) == 0; }
  sqlite3* raw() const { return db_; }

 private:
  explicit Connection(sqlite3* db) : db_(db) {}
  sqlite3* db_ = nullptr;
};

template <typename T>
class Result {
 public:
  Result(T value) : value_(std::move(value)) {}           // NOLINT(google-explicit-constructor)
  Result(StoreError error) : error_(std::move(error)) {}  // NOLINT(google-explicit-constructor)

  bool ok() const { return !error_; }
  explicit operator bool() const { return ok(); }
  T& operator*() { return *value_; }
  const T& operator*() const { return *value_; }
  T* operator->() { return &*value_; }
  const T* operator->() const { return &*value_; }
  const StoreError& error() const { return *error_; }

 private:
  std::optional<T> value_;
  std::optional<StoreError> error_;
};

}  // namespace carc::persistence
