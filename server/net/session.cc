#include "net/session.h"

#include "net/session_impl.h"

namespace carc::server {

template class BasicSession<boost::beast::tcp_stream>;

std::shared_ptr<boost::beast::http::response<boost::beast::http::string_body>> ClosingResponse(
    boost::beast::http::status status, unsigned version, std::string body,
    const char* content_type) {
  namespace http = boost::beast::http;
  auto response = std::make_shared<http::response<http::string_body>>(status, version);
  response->set(http::field::server, "carc-server");
  response->set(http::field::content_type, content_type);
  response->keep_alive(false);
  response->body() = std::move(body);
  response->prepare_payload();
  return response;
}

void SessionRegistry::Add(const std::shared_ptr<ManagedSession>& session) {
  std::lock_guard lock(mutex_);
  sessions_.emplace(session.get(), Entry{session, false});
}

bool SessionRegistry::Upgrade(const ManagedSession* session, size_t limit) {
  std::lock_guard lock(mutex_);
  const auto it = sessions_.find(session);
  assert(it != sessions_.end() && !it->second.upgraded);
  if (upgraded_ >= limit) return false;
  it->second.upgraded = true;
  ++upgraded_;
  return true;
}

void SessionRegistry::Remove(const ManagedSession* session) {
  std::lock_guard lock(mutex_);
  const auto it = sessions_.find(session);
  if (it == sessions_.end()) return;
  if (it->second.upgraded) --upgraded_;
  sessions_.erase(it);
}

size_t SessionRegistry::Count() const {
  std::lock_guard lock(mutex_);
  return upgraded_;
}

std::string SessionRegistry::HealthJson() const {
  const size_t games = game_count ? game_count() : 0;
  const std::string log = log_stats ? log_stats() : "null";
  return R"({"status":"ok","games":)" + std::to_string(games) + R"(,"connections":)" +
         std::to_string(Count()) + R"(,"log":)" + log + "}";
}

size_t SessionRegistry::Total() const {
  std::lock_guard lock(mutex_);
  return sessions_.size();
}

std::vector<std::shared_ptr<ManagedSession>> SessionRegistry::Live() const {
  std::vector<std::shared_ptr<ManagedSession>> live;
  std::lock_guard lock(mutex_);
  for (const auto& [key, entry] : sessions_) {
    if (auto s = entry.session.lock()) live.push_back(std::move(s));
  }
  return live;
}

// No lock is held while calling into a session: each posts to its own strand.
void SessionRegistry::ShutdownAll(const std::string& reason) {
  for (const auto& s : Live()) s->Shutdown(reason);
}

void SessionRegistry::ForceCloseAll() {
  for (const auto& s : Live()) s->ForceClose();
}

}  // namespace carc::server
