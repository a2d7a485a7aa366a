// A progress bar on stderr while a large input loads; only when stderr is a terminal.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

namespace tensormorph {

class ProgressBar {
 public:
  ProgressBar(std::string label, bool enabled);
  ~ProgressBar();
  void Update(uint64_t done, uint64_t total);

 private:
  std::string label_;
  bool enabled_;
  bool drawn_ = false;
  std::chrono::steady_clock::time_point last_draw_;
};

// Inputs smaller than this load too fast for a bar to be worth drawing.
constexpr uint64_t kProgressMinBytes = 64ull << 20;

}  // namespace tensormorph
