// Recycles the large chunk buffers between the splitter (which fills them) and the parser threads
// (which are done with them), so that steady-state parsing allocates nothing: every fresh 16 MB
// buffer would otherwise cost page faults and, while it grows, copies.
#pragma once

#include <mutex>
#include <vector>

namespace tensormorph {

class BufferPool {
 public:
  explicit BufferPool(size_t capacity) : capacity_(capacity) {}

  // An empty buffer with at least `capacity` reserved.
  std::vector<char> Take() {
    {
      std::lock_guard lock(mutex_);
      if (!free_.empty()) {
        std::vector<char> buffer = std::move(free_.back());
        free_.pop_back();
        buffer.clear();
        return buffer;
      }
    }
    std::vector<char> buffer;
    buffer.reserve(capacity_);
    return buffer;
  }

  void Give(std::vector<char> buffer) {
    if (buffer.capacity() < capacity_) return;
    std::lock_guard lock(mutex_);
    free_.push_back(std::move(buffer));
  }

 private:
  const size_t capacity_;
  std::mutex mutex_;
  std::vector<std::vector<char>> free_;
};

}  // namespace tensormorph
