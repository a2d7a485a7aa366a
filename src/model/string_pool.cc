#include "tensormorph/model/string_pool.h"

#include <algorithm>
#include <cstring>

namespace tensormorph {
namespace {
constexpr size_t kBlockSize = 1 << 20;
}

StringPool::StringPool() {
  strings_.emplace_back();
  index_.emplace(std::string_view(), 0);
}

std::string_view StringPool::Store(std::string_view text) {
  if (block_used_ + text.size() > block_size_) {
    block_size_ = std::max(kBlockSize, text.size());
    blocks_.push_back(std::make_unique<char[]>(block_size_));
    block_used_ = 0;
  }
  char* dest = blocks_.back().get() + block_used_;
  std::memcpy(dest, text.data(), text.size());
  block_used_ += text.size();
  return {dest, text.size()};
}

StringId StringPool::Intern(std::string_view text) {
  auto it = index_.find(text);
  if (it != index_.end()) return it->second;
  std::string_view stored = Store(text);
  auto id = static_cast<StringId>(strings_.size());
  strings_.push_back(stored);
  index_.emplace(stored, id);
  return id;
}

bool StringPool::Find(std::string_view text, StringId* id) const {
  auto it = index_.find(text);
  if (it == index_.end()) return false;
  *id = it->second;
  return true;
}

}  // namespace tensormorph
