// Client text: LogSafe (what a log line may show of it) and CheckClientText (the rule every
// string a client sends must keep), including a walk over the protocol that fails when a string
// field is added without a limit of its own.
#include "protocol/client_text.h"

#include <google/protobuf/descriptor.h>
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "text/log_safe.h"

namespace carc::server {
namespace {

namespace wire = protocol::wire;
using google::protobuf::Descriptor;
using google::protobuf::FieldDescriptor;

using namespace std::string_literals;

// ---------------------------------------------------------------------------------------------
// LogSafe

TEST(LogSafe, PlainTextIsUnchanged) {
  EXPECT_EQ(LogSafe("friday night"), "friday night");
  EXPECT_EQ(LogSafe(""), "");
  EXPECT_EQ(LogSafe("Zoë, 東京, 🏰"), "Zoë, 東京, 🏰") << "valid UTF-8 stays as it is";
}

TEST(LogSafe, LineBreaksAndControlCharactersAreEscaped) {
  EXPECT_EQ(LogSafe("a\nb"), "a\\nb");
  EXPECT_EQ(LogSafe("a\r\nb\tc"), "a\\r\\nb\\tc");
  EXPECT_EQ(LogSafe("\x1b[31mred"), "\\x1b[31mred");
  EXPECT_EQ(LogSafe("nul\0here"s), "nul\\x00here");
  EXPECT_EQ(LogSafe("\x7f\x01\x1f"), "\\x7f\\x01\\x1f");
}

TEST(LogSafe, C1ControlsAndLineSeparatorsAreEscaped) {
  EXPECT_EQ(LogSafe("a\xc2\x85"
                    "b"),
            "a\\u0085b")
      << "NEL, a line break in some viewers";
  EXPECT_EQ(LogSafe("\xc2\x9b"
                    "31m"),
            "\\u009b31m")
      << "CSI, the one-byte ANSI escape";
  EXPECT_EQ(LogSafe("a\xe2\x80\xa8"
                    "b\xe2\x80\xa9"),
            "a\\u2028b\\u2029");
  EXPECT_EQ(LogSafe("\xc2\xa0"), "\xc2\xa0") << "U+00A0 is no control character";
}

TEST(LogSafe, BackslashAndQuotesAreEscapedSoNoEscapeCanBeForged) {
  EXPECT_EQ(LogSafe("a\\nb"), "a\\\\nb") << "a backslash and an n are not a newline";
  EXPECT_EQ(LogSafe("it's \"x\""), "it\\'s \\\"x\\\"");
}

TEST(LogSafe, InvalidUtf8BytesAreEscapedOneByOne) {
  EXPECT_EQ(LogSafe("\xff"), "\\xff");
  EXPECT_EQ(LogSafe("a\x80"
                    "b"),
            "a\\x80b")
      << "a stray continuation byte";
  EXPECT_EQ(LogSafe("\xc0\xaf"), "\\xc0\\xaf") << "an overlong '/'";
  EXPECT_EQ(LogSafe("\xed\xa0\x80"), "\\xed\\xa0\\x80") << "a surrogate";
  EXPECT_EQ(LogSafe("\xf4\x90\x80\x80"), "\\xf4\\x90\\x80\\x80") << "above U+10FFFF";
  EXPECT_EQ(LogSafe("\xe6\x9d"), "\\xe6\\x9d") << "a sequence cut short";
  EXPECT_EQ(LogSafe("\xe6\x9d"
                    "a"),
            "\\xe6\\x9da");
}

TEST(LogSafe, LongTextIsCutWithTheNumberOfBytesLeftOut) {
  const std::string long_name(60000, 'x');
  const std::string safe = LogSafe(long_name);
  EXPECT_EQ(safe, std::string(80, 'x') + "\u2026(+59920 bytes)");
  EXPECT_EQ(LogSafe("abcdef", 3), "abc\u2026(+3 bytes)");
  EXPECT_EQ(LogSafe("abc", 3), "abc") << "exactly the limit: nothing cut";
  EXPECT_EQ(LogSafe("abc", 0), "\u2026(+3 bytes)");
}

TEST(LogSafe, TheCutNeverSplitsACharacter) {
  // "ab" then a 4-byte character: a cut after 4 bytes keeps "ab" only.
  EXPECT_EQ(LogSafe("ab\xf0\x9f\x8f\xb0"
                    "c",
                    4),
            "ab\u2026(+5 bytes)");
  EXPECT_EQ(LogSafe("ab\xf0\x9f\x8f\xb0"
                    "c",
                    6),
            "ab\xf0\x9f\x8f\xb0\u2026(+1 bytes)");
}

TEST(LogSafe, TheResultIsAlwaysOneLineOfValidUtf8WithoutControlCharacters) {
  std::string every_byte;
  for (int b = 0; b < 256; ++b) every_byte += static_cast<char>(b);
  const std::string safe = LogSafe(every_byte + every_byte, 10000);
  for (size_t at = 0; at < safe.size();) {
    const size_t length = Utf8SequenceLength(std::string_view(safe).substr(at));
    ASSERT_GT(length, 0u) << "invalid UTF-8 at " << at;
    const char32_t c = DecodeUtf8(std::string_view(safe).substr(at), length);
    EXPECT_FALSE(c < 0x20 || c == 0x7F || (c >= 0x80 && c <= 0x9F))
        << "U+" << std::hex << static_cast<uint32_t>(c);
    at += length;
  }
}

// ---------------------------------------------------------------------------------------------
// CheckClientText

wire::ClientMessage JoinWithName(const std::string& name) {
  wire::ClientMessage m;
  m.set_request_id(4);
  m.mutable_join_seat()->set_game_id("g1");
  m.mutable_join_seat()->set_player_name(name);
  return m;
}

TEST(ClientText, OrdinaryMessagesPass) {
  EXPECT_FALSE(protocol::CheckClientText(JoinWithName("Zoë 東京 🏰")).has_value());
  EXPECT_FALSE(protocol::CheckClientText(JoinWithName("")).has_value()) << "empty is allowed";
  EXPECT_FALSE(protocol::CheckClientText(JoinWithName(std::string(64, 'a'))).has_value());
  wire::ClientMessage move;
  move.mutable_move()->set_game_id("g12345");
  move.mutable_move()->set_seat_token(std::string(16, '\xff'));  // bytes: any value
  EXPECT_FALSE(protocol::CheckClientText(move).has_value());
}

TEST(ClientText, APlayerNameOverItsLimitIsRefusedNamingFieldAndLimit) {
  const auto bad = protocol::CheckClientText(JoinWithName(std::string(60000, 'a')));
  ASSERT_TRUE(bad.has_value());
  EXPECT_EQ(bad->field, "join_seat.player_name");
  EXPECT_EQ(bad->reason, "join_seat.player_name: at most 64 bytes, not 60000");
  EXPECT_TRUE(protocol::CheckClientText(JoinWithName(std::string(65, 'a'))).has_value());
}

TEST(ClientText, ControlCharactersAreRefusedWhereverTheyAre) {
  for (const std::string& name :
       {"a\nb"s, "\x1b[31m"s, "nul\0"s, "del\x7f"s, "nel\xc2\x85"s, "ls\xe2\x80\xa8"s, "tab\t"s}) {
    const auto bad = protocol::CheckClientText(JoinWithName(name));
    ASSERT_TRUE(bad.has_value()) << LogSafe(name);
    EXPECT_EQ(bad->field, "join_seat.player_name");
    EXPECT_NE(bad->reason.find("control character"), std::string::npos) << bad->reason;
    EXPECT_EQ(bad->reason.find(name), std::string::npos) << "the reason never echoes the text";
  }
  const auto at = protocol::CheckClientText(JoinWithName("ab\ncd"));
  ASSERT_TRUE(at.has_value());
  EXPECT_EQ(at->reason,
            "join_seat.player_name: control character U+000A at byte 2; text may not hold control "
            "characters");
}

TEST(ClientText, InvalidUtf8IsRefused) {
  const auto bad = protocol::CheckClientText(JoinWithName("ok\xff"));
  ASSERT_TRUE(bad.has_value());
  EXPECT_EQ(bad->reason, "join_seat.player_name: not valid UTF-8 (at byte 2)");
}

TEST(ClientText, EveryRequestsTextIsChecked) {
  wire::ClientMessage hello;
  hello.mutable_hello()->set_client(std::string(65, 'c'));
  wire::ClientMessage create;
  create.mutable_create_game()->set_name("line\nbreak");
  wire::ClientMessage list;
  list.mutable_list_games()->set_after(std::string(33, '1'));
  wire::ClientMessage token;
  token.mutable_resume()->set_seat_token(std::string(33, 't'));
  wire::ClientMessage seek;
  seek.mutable_seek()->set_game_id(std::string(1000, 'g'));
  wire::ClientMessage tiles;
  tiles.mutable_get_tile_set()->set_rule_set(std::string(33, 'r'));
  wire::ClientMessage option;
  (*option.mutable_create_game()->mutable_options())["river\n"] = 1;
  wire::ClientMessage action;
  action.mutable_move()->set_action(std::string(65, '\x08'));
  const std::pair<wire::ClientMessage, std::string> cases[] = {
      {hello, "hello.client"},
      {create, "create_game.name"},
      {list, "list_games.after"},
      {token, "resume.seat_token"},
      {seek, "seek.game_id"},
      {tiles, "get_tile_set.rule_set"},
      {option, "create_game.options[0].key"},
      {action, "move.action"},
  };
  for (const auto& [message, field] : cases) {
    const auto bad = protocol::CheckClientText(message);
    ASSERT_TRUE(bad.has_value()) << field;
    EXPECT_EQ(bad->field, field);
  }
  wire::ClientMessage game_name;
  game_name.mutable_create_game()->set_name(std::string(64, 'n'));
  EXPECT_FALSE(protocol::CheckClientText(game_name).has_value()) << "game names: 64 bytes";
  game_name.mutable_create_game()->set_name(std::string(65, 'n'));
  EXPECT_TRUE(protocol::CheckClientText(game_name).has_value());
}

// Every string and bytes field a client can send, by full name: the ClientMessage tree.
void CollectTextFields(const Descriptor& message, std::set<const Descriptor*>& seen,
                       std::set<std::string>& out) {
  if (!seen.insert(&message).second) return;
  for (int i = 0; i < message.field_count(); ++i) {
    const FieldDescriptor& field = *message.field(i);
    if (field.cpp_type() == FieldDescriptor::CPPTYPE_STRING) out.insert(field.full_name());
    if (field.cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE) {
      CollectTextFields(*field.message_type(), seen, out);
    }
  }
}

TEST(ClientText, EveryStringFieldAClientSendsHasItsOwnLimit) {
  std::set<const Descriptor*> seen;
  std::set<std::string> fields;
  CollectTextFields(*wire::ClientMessage::descriptor(), seen, fields);
  EXPECT_GE(fields.size(), 21u);
  for (const std::string& field : fields) {
    EXPECT_TRUE(protocol::ClientTextLimits().contains(field))
        << field << " is a string a client sends: give it a limit in protocol/client_text.cc "
        << "and in docs/protocol.md";
  }
  for (const auto& [field, limit] : protocol::ClientTextLimits()) {
    EXPECT_TRUE(fields.contains(field)) << field << " is in the table but not in the protocol";
  }
}

TEST(ClientText, AFrameRefusedForInvalidUtf8NamesTheFieldAndKeepsItsRequestId) {
  const std::string frame = JoinWithName("ok\xc3(").SerializeAsString();
  wire::ClientMessage strict;
  ASSERT_FALSE(strict.ParseFromString(frame)) << "protobuf refuses invalid UTF-8 in proto3";
  const auto bad = protocol::FindBadTextInFrame(frame);
  ASSERT_TRUE(bad.has_value());
  EXPECT_EQ(bad->request_id, 4u);
  EXPECT_EQ(bad->bad.reason, "join_seat.player_name: not valid UTF-8 (at byte 2)");
  EXPECT_FALSE(protocol::FindBadTextInFrame(std::string(12, '\xff')).has_value())
      << "bytes that are no protobuf at all";
}

// The options of CreateGame are a map whose keys are strings: a frame with a key that is not
// UTF-8 is named too, and its values are read.
TEST(ClientText, AFrameWithAnOptionNameThatIsNotUtf8NamesIt) {
  wire::ClientMessage create;
  create.set_request_id(9);
  create.mutable_create_game()->set_rule_set("carcassonne");
  (*create.mutable_create_game()->mutable_options())["river"] = 1;
  (*create.mutable_create_game()->mutable_options())["x\xc3("] = 2;
  const std::string frame = create.SerializeAsString();
  wire::ClientMessage strict;
  ASSERT_FALSE(strict.ParseFromString(frame));
  const auto bad = protocol::FindBadTextInFrame(frame);
  ASSERT_TRUE(bad.has_value());
  EXPECT_EQ(bad->request_id, 9u);
  EXPECT_EQ(bad->bad.field.rfind("create_game.options[", 0), 0u) << bad->bad.field;
  EXPECT_NE(bad->bad.reason.find("not valid UTF-8 (at byte 1)"), std::string::npos)
      << bad->bad.reason;
  // A good map passes the check, in a frame and as a message.
  (*create.mutable_create_game()->mutable_options()).erase("x\xc3(");
  EXPECT_FALSE(protocol::FindBadTextInFrame(create.SerializeAsString()).has_value());
  EXPECT_FALSE(protocol::CheckClientText(create).has_value());
}

}  // namespace
}  // namespace carc::server
