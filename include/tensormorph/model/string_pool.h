// Interns strings (kernel names, op names) once; tables refer to them by 32-bit id.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace tensormorph {

using StringId = uint32_t;

class StringPool {
 public:
  // Id 0 is always the empty string, so a zero-initialised row names nothing.
  StringPool();
  StringPool(StringPool&&) noexcept = default;
  StringPool& operator=(StringPool&&) noexcept = default;
  StringPool(const StringPool&) = delete;
  StringPool& operator=(const StringPool&) = delete;

  StringId Intern(std::string_view text);
  std::string_view Get(StringId id) const { return strings_[id]; }
  size_t size() const { return strings_.size(); }
  // Finds an already-interned string without adding it.
  bool Find(std::string_view text, StringId* id) const;

 private:
  std::string_view Store(std::string_view text);

  // Characters live in fixed-size blocks that never move, so the views stay valid.
  std::vector<std::unique_ptr<char[]>> blocks_;
  size_t block_used_ = 0;
  size_t block_size_ = 0;
  std::vector<std::string_view> strings_;
  std::unordered_map<std::string_view, StringId> index_;
};

}  // namespace tensormorph
