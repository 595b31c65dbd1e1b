#include "room/draw_commitment.h"

#include "room/room.h"

namespace carc::server {

persistence::DrawCommitment CommitToStart(const core::GameType& type, uint64_t seed,
                                          std::vector<int> order) {
  // 128 bits from getrandom(2), like seat tokens: the salt must be unguessable, or the seed could
  // be searched for from the commitment.
  const SeatToken salt = OsRandomToken();
  return persistence::CommitToDraws(type, seed, std::move(order), salt);
}

bool RevealsDrawProof(wire::GameStatus status) {
  switch (status) {
    case wire::GAME_STATUS_UNSPECIFIED:
    case wire::GAME_STATUS_OPEN:
    case wire::GAME_STATUS_RUNNING:
      return false;
    default:
      return true;  // finished, abandoned, damaged, and any ending added later
  }
}

void AddDrawFields(const std::string& commitment, const std::string& proof, wire::GameStatus status,
                   wire::GameInfo* info) {
  info->set_draw_commitment(commitment);
  if (RevealsDrawProof(status)) info->set_draw_proof(proof);
}

}  // namespace carc::server
