#include "cli/progress.h"

#include <fmt/format.h>
#include <unistd.h>

#include <cstdio>

namespace tensormorph {

ProgressBar::ProgressBar(std::string label, bool enabled)
    : label_(std::move(label)), enabled_(enabled && isatty(STDERR_FILENO)) {}

ProgressBar::~ProgressBar() {
  if (drawn_) std::fputs("\r\033[K", stderr);  // leave the line clean for the output
}

void ProgressBar::Update(uint64_t done, uint64_t total) {
  if (!enabled_ || total < kProgressMinBytes) return;
  auto now = std::chrono::steady_clock::now();
  if (drawn_ && now - last_draw_ < std::chrono::milliseconds(100)) return;
  last_draw_ = now;
  drawn_ = true;
  const double fraction = total > 0 ? std::min(1.0, static_cast<double>(done) / total) : 0;
  constexpr int kWidth = 30;
  const int filled = static_cast<int>(fraction * kWidth);
  std::string bar(filled, '#');
  bar.append(kWidth - filled, ' ');
  std::fputs(fmt::format("\r\033[Kloading [{}] {:3.0f}%  {:.0f}/{:.0f} MB  {}", bar, fraction * 100,
                         done / 1e6, total / 1e6, label_)
                 .c_str(),
             stderr);
  std::fflush(stderr);
}

}  // namespace tensormorph
