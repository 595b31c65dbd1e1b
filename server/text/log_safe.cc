#include "text/log_safe.h"

#include <algorithm>
#include <cassert>
#include <cstdint>

namespace carc::server {
namespace {

bool IsContinuation(unsigned char byte) { return (byte & 0xC0) == 0x80; }

void AppendHexByte(std::string& out, unsigned char byte) {
  constexpr std::string_view kDigits = "0123456789abcdef";
  out += "\\x";
  out += kDigits[byte >> 4];
  out += kDigits[byte & 0x0F];
}

void AppendCodePointEscape(std::string& out, char32_t code_point) {
  constexpr std::string_view kDigits = "0123456789abcdef";
  out += "\\u";
  for (int shift = 12; shift >= 0; shift -= 4) out += kDigits[(code_point >> shift) & 0x0F];
}

// The escape of one ASCII byte, or "" when it is printed as it is.
std::string_view AsciiEscape(unsigned char byte) {
  switch (byte) {
    case '\n':
      return "\\n";
    case '\r':
      return "\\r";
    case '\t':
      return "\\t";
    case '\\':
      return "\\\\";
    case '"':
      return "\\\"";
    case '\'':
      return "\\'";
    default:
      return "";
  }
}

// Characters of more than one byte that a log line must not hold as they are.
bool IsUnsafeWideCharacter(char32_t code_point) {
  return (code_point >= 0x80 && code_point <= 0x9F) || code_point == 0x2028 || code_point == 0x2029;
}

// Appends the escaped form of the character (or invalid byte) at the start of `text`; returns how
// many input bytes it took.
size_t AppendOne(std::string& out, std::string_view text) {
  const auto byte = static_cast<unsigned char>(text.front());
  if (byte < 0x80) {
    if (const std::string_view escape = AsciiEscape(byte); !escape.empty()) {
      out += escape;
    } else if (byte < 0x20 || byte == 0x7F) {
      AppendHexByte(out, byte);
    } else {
      out += static_cast<char>(byte);
    }
    return 1;
  }
  const size_t length = Utf8SequenceLength(text);
  if (length == 0) {
    AppendHexByte(out, byte);
    return 1;
  }
  const char32_t code_point = DecodeUtf8(text, length);
  if (IsUnsafeWideCharacter(code_point)) {
    AppendCodePointEscape(out, code_point);
  } else {
    out += text.substr(0, length);
  }
  return length;
}

}  // namespace

size_t Utf8SequenceLength(std::string_view text) {
  if (text.empty()) return 0;
  const auto lead = static_cast<unsigned char>(text[0]);
  if (lead < 0x80) return 1;
  // The lead byte gives the length and the smallest and largest second byte (RFC 3629): this
  // refuses overlong forms, surrogates (U+D800..U+DFFF) and code points above U+10FFFF.
  size_t length = 0;
  unsigned char low = 0x80;
  unsigned char high = 0xBF;
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    if (lead == 0xE0) low = 0xA0;
    if (lead == 0xED) high = 0x9F;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    if (lead == 0xF0) low = 0x90;
    if (lead == 0xF4) high = 0x8F;
  } else {
    return 0;
  }
  if (text.size() < length) return 0;
  const auto second = static_cast<unsigned char>(text[1]);
  if (second < low || second > high) return 0;
  for (size_t i = 2; i < length; ++i) {
    if (!IsContinuation(static_cast<unsigned char>(text[i]))) return 0;
  }
  return length;
}

char32_t DecodeUtf8(std::string_view text, size_t length) {
  assert(length >= 1 && length <= 4 && text.size() >= length);
  const auto lead = static_cast<unsigned char>(text[0]);
  if (length == 1) return lead;
  constexpr unsigned char kLeadMask[] = {0, 0, 0x1F, 0x0F, 0x07};
  char32_t code_point = lead & kLeadMask[length];
  for (size_t i = 1; i < length; ++i) {
    code_point = code_point << 6 | (static_cast<unsigned char>(text[i]) & 0x3F);
  }
  return code_point;
}

std::string LogSafe(std::string_view text, size_t max_bytes) {
  std::string out;
  out.reserve(std::min(text.size(), max_bytes) + 16);
  size_t taken = 0;
  while (taken < text.size()) {
    // A character is shown whole or not at all, so the cut never splits one.
    const size_t length = std::max<size_t>(Utf8SequenceLength(text.substr(taken)), 1);
    if (taken + length > max_bytes) break;
    taken += AppendOne(out, text.substr(taken));
  }
  if (taken < text.size()) {
    out += "\u2026(+" + std::to_string(text.size() - taken) + " bytes)";
  }
  return out;
}

}  // namespace carc::server
