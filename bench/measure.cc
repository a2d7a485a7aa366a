// tm_measure: runs a command and reports its wall time and peak RSS, so the benchmark does not
// depend on GNU time being installed.
//
//   tm_measure [-o FILE] -- CMD ARGS...
//
// Prints one line "wall_s=.. user_s=.. sys_s=.. maxrss_kib=.. exit=.." to FILE (default
// stderr); the command keeps this process's stdout and stderr. Exits with the command's status.
// The figures come from wait4() on the child alone; this runner is small, so the pages it shares
// with the child before exec() do not inflate the child's ru_maxrss.
#include <fmt/core.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <string_view>

namespace {

double Seconds(const timeval& tv) {
  return double(tv.tv_sec) + double(tv.tv_usec) / 1e6;
}

int Usage() {
  fmt::print(stderr, "usage: tm_measure [-o FILE] -- CMD ARGS...\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  const char* out_path = nullptr;
  int cmd = 1;
  if (cmd + 1 < argc && std::string_view(argv[cmd]) == "-o") {
    out_path = argv[cmd + 1];
    cmd += 2;
  }
  if (cmd >= argc || std::string_view(argv[cmd]) != "--" || cmd + 1 >= argc) {
    return Usage();
  }
  ++cmd;

  const auto start = std::chrono::steady_clock::now();
  const pid_t pid = fork();
  if (pid < 0) {
    std::perror("tm_measure: fork");
    return 1;
  }
  if (pid == 0) {
    execvp(argv[cmd], argv + cmd);
    fmt::print(stderr, "tm_measure: cannot run {}: {}\n", argv[cmd], std::strerror(errno));
    _exit(127);
  }
  int status = 0;
  rusage usage{};
  if (wait4(pid, &status, 0, &usage) < 0) {
    std::perror("tm_measure: wait4");
    return 1;
  }
  const std::chrono::duration<double> wall = std::chrono::steady_clock::now() - start;
  const int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);

  std::FILE* out = out_path != nullptr ? std::fopen(out_path, "w") : stderr;
  if (out == nullptr) {
    std::perror("tm_measure: -o");
    return 1;
  }
  // ru_maxrss is in KiB on Linux.
  fmt::print(out, "wall_s={:.4f} user_s={:.3f} sys_s={:.3f} maxrss_kib={} exit={}\n", wall.count(),
             Seconds(usage.ru_utime), Seconds(usage.ru_stime), usage.ru_maxrss, code);
  if (out != stderr) {
    std::fclose(out);
  }
  return code;
}
