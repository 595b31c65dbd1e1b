// Text a client sent, made fit for one line of the server's log.
//
// Clients choose game names, player names, ids and more. Printed raw, a newline forges a log
// line, an ANSI escape rewrites the operator's terminal and a NUL cuts the line in some tools.
// Every log line that prints something a client sent passes it through LogSafe first.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace carc::server {

// How much of a client's text one log line shows by default.
inline constexpr size_t kLogSafeDefaultBytes = 80;

// `text` with every byte that could break a log line escaped, cut to about `max_bytes`:
// - control characters (C0, DEL) as `\n`, `\r`, `\t` or `\xNN`; C1 controls (U+0080 to U+009F)
//   and the line and paragraph separators (U+2028, U+2029) as `\uNNNN`;
// - backslash and both quotes as `\\`, `\"`, `\'`, so the escapes above cannot be forged and a
//   quoted value cannot end early;
// - each byte that is not part of valid UTF-8 as `\xNN`.
// Text longer than `max_bytes` keeps whole characters up to that many bytes of input and ends
// with `…(+N bytes)`, N being the input bytes left out. The result is valid UTF-8 without control
// characters whatever `text` holds.
std::string LogSafe(std::string_view text, size_t max_bytes = kLogSafeDefaultBytes);

// The length of the valid UTF-8 sequence (1 to 4 bytes) at the start of `text`; 0 when `text` is
// empty or does not start with one (a stray continuation byte, an overlong form, a surrogate, a
// code point above U+10FFFF, a truncated sequence).
size_t Utf8SequenceLength(std::string_view text);

// The code point of a valid sequence of `length` bytes (as Utf8SequenceLength returned).
char32_t DecodeUtf8(std::string_view text, size_t length);

}  // namespace carc::server
