// Error values for every stage: importers and analyses return Status / StatusOr instead of
// throwing, so the command line can map them onto exit codes and `file:line:col` messages.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <variant>

namespace tensormorph {

enum class StatusCode : uint8_t {
  kOk,
  kInvalidArgument,  // the caller asked for something that cannot be done (usage error)
  kUnreadableInput,  // the input cannot be read as any supported trace
  kIoError,          // the operating system refused (missing file, permissions)
};

// A place in an input file; line and column are 1-based, 0 means unknown. Stages deep in a
// pipeline know only the byte offset into the (decompressed) content; the importer turns that into
// line and column before the error leaves it.
struct SourcePosition {
  static constexpr uint64_t kNoOffset = UINT64_MAX;
  uint64_t line = 0;
  uint64_t column = 0;
  uint64_t byte_offset = kNoOffset;
  static SourcePosition AtOffset(uint64_t offset) { return {0, 0, offset}; }
};

class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(StatusCode code, std::string message, SourcePosition position = {})
      : code_(code), message_(std::move(message)), position_(position) {}

  static Status Ok() { return {}; }
  bool ok() const { return code_ == StatusCode::kOk; }
  StatusCode code() const { return code_; }
  const std::string& message() const { return message_; }
  const SourcePosition& position() const { return position_; }

 private:
  StatusCode code_ = StatusCode::kOk;
  std::string message_;
  SourcePosition position_;
};

inline Status UnreadableInput(std::string message, SourcePosition position = {}) {
  return {StatusCode::kUnreadableInput, std::move(message), position};
}

template <typename T>
class [[nodiscard]] StatusOr {
 public:
  StatusOr(T value) : value_(std::move(value)) {}         // NOLINT(google-explicit-constructor)
  StatusOr(Status status) : value_(std::move(status)) {}  // NOLINT(google-explicit-constructor)

  bool ok() const { return std::holds_alternative<T>(value_); }
  const Status& status() const {
    static const Status kOkStatus;
    return ok() ? kOkStatus : std::get<Status>(value_);
  }
  T& value() & { return std::get<T>(value_); }
  T&& value() && { return std::get<T>(std::move(value_)); }
  const T& value() const& { return std::get<T>(value_); }
  T* operator->() { return &value(); }
  T& operator*() & { return value(); }

 private:
  std::variant<T, Status> value_;
};

}  // namespace tensormorph
