#include "protocol/client_text.h"

#include <google/protobuf/descriptor.h>
#include <google/protobuf/descriptor.pb.h>
#include <google/protobuf/dynamic_message.h>

#include <cassert>
#include <cstdio>
#include <memory>
#include <vector>

#include "text/log_safe.h"

namespace carc::protocol {
namespace {

using google::protobuf::Descriptor;
using google::protobuf::FieldDescriptor;
using google::protobuf::Message;
using google::protobuf::Reflection;

// Game ids are "g" and a decimal number; 32 bytes leave room for any id the server makes.
constexpr size_t kGameIdBytes = 32;
// Seat tokens are 16 bytes; a longer one is no seat's.
constexpr size_t kSeatTokenBytes = 32;
constexpr size_t kPlayerNameBytes = 64;
constexpr size_t kGameNameBytes = 64;
constexpr size_t kRuleSetBytes = 32;
constexpr size_t kClientNameBytes = 64;
// Option names are short words ("river").
constexpr size_t kOptionNameBytes = 32;
// A bot's level: "random", "greedy" or "strong".
constexpr size_t kBotLevelBytes = 16;
// A game's Action, encoded: a few numbers.
constexpr size_t kActionBytes = 64;
// How much of a refused value the server's log shows.
constexpr size_t kExcerptBytes = 40;

std::string FieldPath(const std::string& parent, const FieldDescriptor& field) {
  return parent.empty() ? field.name() : parent + "." + field.name();
}

// Whether the field is text in the protocol (a string), even when `field` comes from the lenient
// copy of the protocol in which every string is bytes.
bool IsTextField(const FieldDescriptor& field) {
  const FieldDescriptor* original =
      google::protobuf::DescriptorPool::generated_pool()->FindFieldByName(field.full_name());
  return original != nullptr && original->type() == FieldDescriptor::TYPE_STRING;
}

bool IsForbiddenCharacter(char32_t c) {
  return c < 0x20 || c == 0x7F || (c >= 0x80 && c <= 0x9F) || c == 0x2028 || c == 0x2029;
}

std::string CodePointName(char32_t c) {
  char name[16];
  std::snprintf(name, sizeof name, "U+%04X", static_cast<unsigned>(c));
  return name;
}

std::optional<BadText> CheckValue(const FieldDescriptor& field, const std::string& path,
                                  std::string_view value) {
  const size_t limit = TextLimitOf(field.full_name());
  if (value.size() > limit) {
    return BadText{
        path,
        path + ": at most " + std::to_string(limit) + " bytes, not " + std::to_string(value.size()),
        0, server::LogSafe(value, kExcerptBytes)};
  }
  if (!IsTextField(field)) return std::nullopt;
  for (size_t at = 0; at < value.size();) {
    const size_t length = server::Utf8SequenceLength(value.substr(at));
    if (length == 0) {
      return BadText{path, path + ": not valid UTF-8 (at byte " + std::to_string(at) + ")", at,
                     server::LogSafe(value, kExcerptBytes)};
    }
    const char32_t c = server::DecodeUtf8(value.substr(at), length);
    if (IsForbiddenCharacter(c)) {
      return BadText{path,
                     path + ": control character " + CodePointName(c) + " at byte " +
                         std::to_string(at) + "; text may not hold control characters",
                     at, server::LogSafe(value, kExcerptBytes)};
    }
    at += length;
  }
  return std::nullopt;
}

std::optional<BadText> CheckMessage(const Message& message, const std::string& path);

std::optional<BadText> CheckField(const Message& message, const FieldDescriptor& field,
                                  const std::string& parent) {
  const Reflection& reflection = *message.GetReflection();
  const std::string path = FieldPath(parent, field);
  const bool repeated = field.is_repeated();
  const int count = repeated ? reflection.FieldSize(message, &field) : 1;
  for (int i = 0; i < count; ++i) {
    const std::string item = repeated ? path + "[" + std::to_string(i) + "]" : path;
    std::optional<BadText> bad;
    if (field.cpp_type() == FieldDescriptor::CPPTYPE_STRING) {
      std::string scratch;
      const std::string& value =
          repeated ? reflection.GetRepeatedStringReference(message, &field, i, &scratch)
                   : reflection.GetStringReference(message, &field, &scratch);
      bad = CheckValue(field, item, value);
    } else if (field.cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE) {
      bad = CheckMessage(repeated ? reflection.GetRepeatedMessage(message, &field, i)
                                  : reflection.GetMessage(message, &field),
                         item);
    }
    if (bad) return bad;
  }
  return std::nullopt;
}

std::optional<BadText> CheckMessage(const Message& message, const std::string& path) {
  std::vector<const FieldDescriptor*> fields;
  message.GetReflection()->ListFields(message, &fields);  // the fields set, by number
  for (const FieldDescriptor* field : fields) {
    if (auto bad = CheckField(message, *field, path)) return bad;
  }
  return std::nullopt;
}

void TurnStringsIntoBytes(google::protobuf::DescriptorProto& message) {
  // A map's key may not be bytes: its entries are read as the repeated key-value messages they
  // are on the wire (so a key is checked like any other string).
  if (message.has_options()) message.mutable_options()->clear_map_entry();
  for (auto& field : *message.mutable_field()) {
    if (field.type() == google::protobuf::FieldDescriptorProto::TYPE_STRING) {
      field.set_type(google::protobuf::FieldDescriptorProto::TYPE_BYTES);
    }
  }
  for (auto& nested : *message.mutable_nested_type()) TurnStringsIntoBytes(nested);
}

// The protocol with every string read as bytes: a frame whose only fault is invalid UTF-8 parses
// as this, so the server can say which field is at fault. Built once, on first use.
class LenientClientMessage {
 public:
  LenientClientMessage() {
    const google::protobuf::FileDescriptor& envelope = *wire::ClientMessage::descriptor()->file();
    // The files the envelope imports (the tile set, which only the server sends) go in as they
    // are; they import nothing themselves.
    for (int i = 0; i < envelope.dependency_count(); ++i) {
      google::protobuf::FileDescriptorProto dependency;
      envelope.dependency(i)->CopyTo(&dependency);
      assert(dependency.dependency_size() == 0 && "the envelope's imports import nothing");
      [[maybe_unused]] const auto* built = pool_.BuildFile(dependency);
      assert(built != nullptr && "a copy of a valid file builds");
    }
    google::protobuf::FileDescriptorProto file;
    envelope.CopyTo(&file);
    for (auto& message : *file.mutable_message_type()) TurnStringsIntoBytes(message);
    [[maybe_unused]] const auto* built = pool_.BuildFile(file);
    assert(built != nullptr && "a copy of a valid file builds");
    prototype_ = factory_.GetPrototype(
        pool_.FindMessageTypeByName(wire::ClientMessage::descriptor()->full_name()));
  }

  std::unique_ptr<Message> Parse(std::string_view frame) const {
    std::unique_ptr<Message> message(prototype_->New());
    if (!message->ParseFromArray(frame.data(), static_cast<int>(frame.size()))) return nullptr;
    return message;
  }

 private:
  google::protobuf::DescriptorPool pool_;
  google::protobuf::DynamicMessageFactory factory_;
  const Message* prototype_ = nullptr;
};

// A field of the envelope by its message and name ("JoinSeat.player_name"), as its full name.
std::string EnvelopeField(std::string_view message_and_field) {
  return wire::ClientMessage::descriptor()->file()->package() + "." +
         std::string(message_and_field);
}

}  // namespace

const std::map<std::string, size_t, std::less<>>& ClientTextLimits() {
  static const std::map<std::string, size_t, std::less<>> kLimits = {
      {EnvelopeField("Hello.client"), kClientNameBytes},
      {EnvelopeField("CreateGame.rule_set"), kRuleSetBytes},
      {EnvelopeField("CreateGame.OptionsEntry.key"), kOptionNameBytes},
      {EnvelopeField("GetTileSet.rule_set"), kRuleSetBytes},
      {EnvelopeField("CreateGame.name"), kGameNameBytes},
      {EnvelopeField("ListGames.game_id"), kGameIdBytes},
      {EnvelopeField("ListGames.after"), kGameIdBytes},
      {EnvelopeField("JoinSeat.game_id"), kGameIdBytes},
      {EnvelopeField("JoinSeat.player_name"), kPlayerNameBytes},
      {EnvelopeField("LeaveSeat.game_id"), kGameIdBytes},
      {EnvelopeField("LeaveSeat.seat_token"), kSeatTokenBytes},
      {EnvelopeField("StartGame.game_id"), kGameIdBytes},
      {EnvelopeField("StartGame.seat_token"), kSeatTokenBytes},
      {EnvelopeField("Spectate.game_id"), kGameIdBytes},
      {EnvelopeField("Resume.game_id"), kGameIdBytes},
      {EnvelopeField("Resume.seat_token"), kSeatTokenBytes},
      {EnvelopeField("Move.game_id"), kGameIdBytes},
      {EnvelopeField("Move.seat_token"), kSeatTokenBytes},
      {EnvelopeField("Move.action"), kActionBytes},
      {EnvelopeField("GetReplay.game_id"), kGameIdBytes},
      {EnvelopeField("Seek.game_id"), kGameIdBytes},
      {EnvelopeField("BotSeat.level"), kBotLevelBytes},
      {EnvelopeField("Resign.game_id"), kGameIdBytes},
      {EnvelopeField("Resign.seat_token"), kSeatTokenBytes},
      {EnvelopeField("Rematch.game_id"), kGameIdBytes},
      {EnvelopeField("Rematch.seat_token"), kSeatTokenBytes},
      // Chat (docs/protocol.md, section 13).
      {EnvelopeField("SendChat.game_id"), kGameIdBytes},
      {EnvelopeField("SendChat.seat_token"), kSeatTokenBytes},
      {EnvelopeField("SendChat.text"), kChatTextBytes},
      {EnvelopeField("MuteSeat.game_id"), kGameIdBytes},
      {EnvelopeField("MuteSeat.seat_token"), kSeatTokenBytes},
  };
  return kLimits;
}

size_t TextLimitOf(std::string_view full_name) {
  const auto& limits = ClientTextLimits();
  const auto it = limits.find(full_name);
  return it == limits.end() ? kDefaultTextBytes : it->second;
}

std::optional<BadText> CheckClientText(const google::protobuf::Message& message) {
  return CheckMessage(message, "");
}

std::optional<BadFrameText> FindBadTextInFrame(std::string_view frame) {
  static const LenientClientMessage kLenient;
  const std::unique_ptr<Message> message = kLenient.Parse(frame);
  if (!message) return std::nullopt;
  auto bad = CheckClientText(*message);
  if (!bad) return std::nullopt;
  const Descriptor& descriptor = *message->GetDescriptor();
  const FieldDescriptor* request_id = descriptor.FindFieldByName("request_id");
  assert(request_id != nullptr && request_id->cpp_type() == FieldDescriptor::CPPTYPE_UINT64);
  return BadFrameText{message->GetReflection()->GetUInt64(*message, request_id), std::move(*bad)};
}

}  // namespace carc::protocol
