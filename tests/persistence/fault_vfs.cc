#include "fault_vfs.h"

#include <sqlite3.h>

#include <cassert>
#include <mutex>

namespace carc::persistence {
namespace {

// What Arm set, and the count. SQLite may call in from any thread that uses a store.
struct FaultState {
  std::mutex mutex;
  bool armed = false;
  int fail_at = 0;
  int error_code = SQLITE_OK;
  bool persistent = false;
  int ops = 0;
  int faults = 0;
  FaultVfs::Op first_fault = FaultVfs::Op::kNone;
};

FaultState& State() {
  static FaultState state;
  return state;
}

// Numbers one write operation; the error it must return, or SQLITE_OK to let it through.
int NextWriteOp(FaultVfs::Op kind) {
  FaultState& s = State();
  std::lock_guard lock(s.mutex);
  const int op = s.ops++;
  if (!s.armed) return SQLITE_OK;
  if (op == s.fail_at || (s.persistent && op > s.fail_at)) {
    if (s.faults++ == 0) s.first_fault = kind;
    return s.error_code;
  }
  return SQLITE_OK;
}

sqlite3_vfs* real_vfs = nullptr;  // the default VFS, set once by Register

// Our file, followed in the same allocation by the wrapped file of the default VFS.
struct FaultFile {
  sqlite3_file base;
  sqlite3_file* real;
};

sqlite3_file* Real(sqlite3_file* file) { return reinterpret_cast<FaultFile*>(file)->real; }
const sqlite3_io_methods& M(sqlite3_file* file) { return *Real(file)->pMethods; }

// ---------------------------------------------------------------------------------------------
// File methods: the three that write are counted and may fail; the rest pass straight through.

int Write(sqlite3_file* f, const void* data, int amount, sqlite3_int64 offset) {
  if (const int rc = NextWriteOp(FaultVfs::Op::kWrite)) return rc;
  return M(f).xWrite(Real(f), data, amount, offset);
}
int Truncate(sqlite3_file* f, sqlite3_int64 size) {
  if (const int rc = NextWriteOp(FaultVfs::Op::kTruncate)) return rc;
  return M(f).xTruncate(Real(f), size);
}
int Sync(sqlite3_file* f, int flags) {
  if (const int rc = NextWriteOp(FaultVfs::Op::kSync)) return rc;
  return M(f).xSync(Real(f), flags);
}

int Close(sqlite3_file* f) { return M(f).xClose(Real(f)); }
int Read(sqlite3_file* f, void* data, int amount, sqlite3_int64 offset) {
  return M(f).xRead(Real(f), data, amount, offset);
}
int FileSize(sqlite3_file* f, sqlite3_int64* size) { return M(f).xFileSize(Real(f), size); }
int Lock(sqlite3_file* f, int level) { return M(f).xLock(Real(f), level); }
int Unlock(sqlite3_file* f, int level) { return M(f).xUnlock(Real(f), level); }
int CheckReservedLock(sqlite3_file* f, int* out) { return M(f).xCheckReservedLock(Real(f), out); }
int FileControl(sqlite3_file* f, int op, void* arg) { return M(f).xFileControl(Real(f), op, arg); }
int SectorSize(sqlite3_file* f) { return M(f).xSectorSize(Real(f)); }
int DeviceCharacteristics(sqlite3_file* f) { return M(f).xDeviceCharacteristics(Real(f)); }
int ShmMap(sqlite3_file* f, int region, int size, int extend, void volatile** out) {
  return M(f).xShmMap(Real(f), region, size, extend, out);
}
int ShmLock(sqlite3_file* f, int offset, int n, int flags) {
  return M(f).xShmLock(Real(f), offset, n, flags);
}
void ShmBarrier(sqlite3_file* f) { M(f).xShmBarrier(Real(f)); }
int ShmUnmap(sqlite3_file* f, int delete_flag) { return M(f).xShmUnmap(Real(f), delete_flag); }
int Fetch(sqlite3_file* f, sqlite3_int64 offset, int amount, void** out) {
  return M(f).xFetch(Real(f), offset, amount, out);
}
int Unfetch(sqlite3_file* f, sqlite3_int64 offset, void* page) {
  return M(f).xUnfetch(Real(f), offset, page);
}

const sqlite3_io_methods kFileMethods = {
    3,
    Close,
    Read,
    Write,
    Truncate,
    Sync,
    FileSize,
    Lock,
    Unlock,
    CheckReservedLock,
    FileControl,
    SectorSize,
    DeviceCharacteristics,
    ShmMap,
    ShmLock,
    ShmBarrier,
    ShmUnmap,
    Fetch,
    Unfetch,
};

// ---------------------------------------------------------------------------------------------
// VFS methods: open wraps the file; everything else is the default VFS's own.

int Open(sqlite3_vfs* /*vfs*/, const char* name, sqlite3_file* file, int flags, int* out_flags) {
  auto* ours = reinterpret_cast<FaultFile*>(file);
  ours->real = reinterpret_cast<sqlite3_file*>(ours + 1);
  const int rc = real_vfs->xOpen(real_vfs, name, ours->real, flags, out_flags);
  // SQLite calls xClose exactly when pMethods is set, so mirror the wrapped file's.
  if (ours->real->pMethods == nullptr) {
    ours->base.pMethods = nullptr;
  } else {
    assert(ours->real->pMethods->iVersion >= 3 && "the default VFS has shared memory and mmap");
    ours->base.pMethods = &kFileMethods;
  }
  return rc;
}

int Delete(sqlite3_vfs* /*vfs*/, const char* name, int sync_dir) {
  return real_vfs->xDelete(real_vfs, name, sync_dir);
}
int Access(sqlite3_vfs* /*vfs*/, const char* name, int flags, int* out) {
  return real_vfs->xAccess(real_vfs, name, flags, out);
}
int FullPathname(sqlite3_vfs* /*vfs*/, const char* name, int size, char* out) {
  return real_vfs->xFullPathname(real_vfs, name, size, out);
}
void* DlOpen(sqlite3_vfs* /*vfs*/, const char* name) { return real_vfs->xDlOpen(real_vfs, name); }
void DlError(sqlite3_vfs* /*vfs*/, int size, char* out) { real_vfs->xDlError(real_vfs, size, out); }
void (*DlSym(sqlite3_vfs* /*vfs*/, void* handle, const char* symbol))() {
  return real_vfs->xDlSym(real_vfs, handle, symbol);
}
void DlClose(sqlite3_vfs* /*vfs*/, void* handle) { real_vfs->xDlClose(real_vfs, handle); }
int Randomness(sqlite3_vfs* /*vfs*/, int size, char* out) {
  return real_vfs->xRandomness(real_vfs, size, out);
}
int Sleep(sqlite3_vfs* /*vfs*/, int microseconds) {
  return real_vfs->xSleep(real_vfs, microseconds);
}
int CurrentTime(sqlite3_vfs* /*vfs*/, double* out) { return real_vfs->xCurrentTime(real_vfs, out); }
int GetLastError(sqlite3_vfs* /*vfs*/, int size, char* out) {
  return real_vfs->xGetLastError(real_vfs, size, out);
}
int CurrentTimeInt64(sqlite3_vfs* /*vfs*/, sqlite3_int64* out) {
  return real_vfs->xCurrentTimeInt64(real_vfs, out);
}

sqlite3_vfs MakeVfs() {
  sqlite3_vfs vfs{};
  vfs.iVersion = 2;  // up to xCurrentTimeInt64; no system-call overrides
  vfs.szOsFile = static_cast<int>(sizeof(FaultFile)) + real_vfs->szOsFile;
  vfs.mxPathname = real_vfs->mxPathname;
  vfs.zName = FaultVfs::kName;
  vfs.xOpen = Open;
  vfs.xDelete = Delete;
  vfs.xAccess = Access;
  vfs.xFullPathname = FullPathname;
  vfs.xDlOpen = DlOpen;
  vfs.xDlError = DlError;
  vfs.xDlSym = DlSym;
  vfs.xDlClose = DlClose;
  vfs.xRandomness = Randomness;
  vfs.xSleep = Sleep;
  vfs.xCurrentTime = CurrentTime;
  vfs.xGetLastError = GetLastError;
  vfs.xCurrentTimeInt64 = CurrentTimeInt64;
  return vfs;
}

}  // namespace

void FaultVfs::Register() {
  static std::once_flag once;
  std::call_once(once, [] {
    real_vfs = sqlite3_vfs_find(nullptr);
    assert(real_vfs != nullptr && real_vfs->iVersion >= 2 && "SQLite has a default VFS");
    static sqlite3_vfs vfs = MakeVfs();
    [[maybe_unused]] const int rc = sqlite3_vfs_register(&vfs, 0);
    assert(rc == SQLITE_OK);
  });
}

void FaultVfs::Arm(int n, int error_code, bool persistent) {
  FaultState& s = State();
  std::lock_guard lock(s.mutex);
  s.armed = true;
  s.fail_at = n;
  s.error_code = error_code;
  s.persistent = persistent;
  s.ops = 0;
  s.faults = 0;
  s.first_fault = Op::kNone;
}

void FaultVfs::Disarm() {
  FaultState& s = State();
  std::lock_guard lock(s.mutex);
  s.armed = false;
  s.ops = 0;
}

int FaultVfs::WriteOps() {
  FaultState& s = State();
  std::lock_guard lock(s.mutex);
  return s.ops;
}

int FaultVfs::Faults() {
  FaultState& s = State();
  std::lock_guard lock(s.mutex);
  return s.faults;
}

FaultVfs::Op FaultVfs::FirstFault() {
  FaultState& s = State();
  std::lock_guard lock(s.mutex);
  return s.first_fault;
}

}  // namespace carc::persistence
