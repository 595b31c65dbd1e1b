#include "token.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>

#include <cassert>

namespace carc::persistence {

TokenHash HashToken(std::string_view token) {
  TokenHash hash{};
  unsigned int size = 0;
  const int ok = EVP_Digest(token.data(), token.size(), hash.data(), &size, EVP_sha256(), nullptr);
  assert(ok == 1 && size == hash.size() && "SHA-256 is always available");
  (void)ok;
  return hash;
}

bool SameHash(const TokenHash& a, const TokenHash& b) {
  return CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

}  // namespace carc::persistence
