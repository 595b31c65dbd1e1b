// A SQLite VFS for tests that makes chosen writes fail, to check what the store promises when the
// disk does not do what it is asked.
//
// "carc-fault" wraps the default VFS (sqlite3_vfs_find(nullptr)) and every file opened through
// it. Each operation that changes a file — xWrite, xSync, xTruncate — is a write operation: they
// are numbered from 0 since the last Arm (or Disarm). Armed with n, the nth one returns the chosen
// SQLite error code instead of reaching the file (once, or persistently: that one and every later
// one); everything else passes through unchanged. Reads, locks and the shared-memory wal-index are
// never failed: they are not writes to the disk, and failing them tests locking, not durability.
//
// The state is global to the process (SQLite's VFS are), guarded by a mutex, so a store used
// from another thread counts too. A store uses the VFS when opened with StoreOptions::vfs =
// FaultVfs::kName; others are not affected. Tests only.
#pragma once

namespace carc::persistence {

class FaultVfs {
 public:
  static constexpr const char* kName = "carc-fault";
  enum class Op { kNone, kWrite, kSync, kTruncate };

  // Registers the VFS (not as the default one); later calls do nothing.
  static void Register();
  // From now on, write operation `n` (0-based, counting from this call) fails with `error_code`
  // (e.g. SQLITE_IOERR_WRITE, SQLITE_FULL, SQLITE_IOERR_FSYNC); with `persistent`, so does every
  // one after it.
  static void Arm(int n, int error_code, bool persistent);
  // Stops failing and restarts the count.
  static void Disarm();
  // Write operations since the last Arm or Disarm, failed ones included.
  static int WriteOps();
  // Write operations failed since the last Arm.
  static int Faults();
  // What the first of them was (kNone if none).
  static Op FirstFault();
};

}  // namespace carc::persistence
