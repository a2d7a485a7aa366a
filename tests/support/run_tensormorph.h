// Runs the built `tensormorph` binary for end-to-end tests: stdout, stderr, exit code, and whether
// it crashed or hung. Every end-to-end test uses this one helper.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace tensormorph::testing {

// The binary under test: $TM_BINARY when set, else the one this build made. scripts/sanitize.sh
// runs the release build's end-to-end tests against the ASan + UBSan binary this way, so that the
// tests' own code is not compiled a second time with the sanitizers.
inline std::string BinaryUnderTest() {
  const char* given = std::getenv("TM_BINARY");
  return given != nullptr && *given != '\0' ? std::string(given) : std::string(TM_BINARY);
}

struct RunResult {
  std::string command;
  int exit_code = -1;
  bool crashed = false;    // killed by a signal
  bool timed_out = false;  // ran past the time limit
  std::string out;
  std::string err;

  // Neither a signal nor a hang: the process ended by itself with an exit code.
  bool Clean() const { return !crashed && !timed_out && exit_code >= 0; }

  std::string Describe() const {
    const std::string e = err.size() > 3000 ? err.substr(0, 3000) + "..." : err;
    const std::string o = out.size() > 1500 ? out.substr(0, 1500) + "..." : out;
    std::ostringstream s;
    s << "\n  command: " << command << "\n  exit code: " << exit_code
      << (crashed ? " (killed by a signal)" : "") << (timed_out ? " (timed out)" : "")
      << "\n  stderr: " << e << "\n  stdout: " << o;
    return s.str();
  }
};

inline std::string ShellQuote(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'') {
      out += "'\\''";
    } else {
      out += c;
    }
  }
  return out + "'";
}

// `tensormorph ARGS...` under timeout(1); stdout through a pipe, stderr through a temporary file.
inline RunResult RunTensormorph(const std::vector<std::string>& args, int timeout_seconds = 120) {
  RunResult r;
  char err_path[] = "/tmp/tm_test_stderr_XXXXXX";
  const int fd = mkstemp(err_path);
  if (fd >= 0) close(fd);
  std::string command =
      "timeout -k 5 " + std::to_string(timeout_seconds) + " " + ShellQuote(BinaryUnderTest());
  for (const std::string& word : args) command.append(" ").append(ShellQuote(word));
  r.command = command;
  command.append(" 2>").append(ShellQuote(err_path)).append(" </dev/null");
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe != nullptr) {
    char buffer[65536];
    size_t n = 0;
    while ((n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) r.out.append(buffer, n);
    const int status = pclose(pipe);
    if (WIFSIGNALED(status)) {
      r.crashed = true;
    } else if (WIFEXITED(status)) {
      r.exit_code = WEXITSTATUS(status);
      // timeout(1): 124 when the limit was hit (137 after -k); 128+N when the command died of
      // signal N and the shell reports it.
      if (r.exit_code == 124 || r.exit_code == 137) r.timed_out = true;
      if (r.exit_code > 128) r.crashed = r.exit_code != 137;
    }
  }
  std::ifstream err_file(err_path, std::ios::binary);
  r.err.assign(std::istreambuf_iterator<char>(err_file), std::istreambuf_iterator<char>());
  std::remove(err_path);
  return r;
}

}  // namespace tensormorph::testing
