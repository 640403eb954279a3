// Runs a command and reports its wall time, CPU time (user + system, all
// threads) and peak resident memory.
// A tiny launcher, so the child's peak RSS is not inflated by a large parent
// (ru_maxrss counts the pre-exec pages of a forked child).
//   dispatchtool_measure CMD [ARGS...]   -> stderr: "measure: SECONDS PEAK_KIB STATUS CPU_SECONDS"
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: dispatchtool_measure CMD [ARGS...]\n");
    return 2;
  }
  const auto t0 = std::chrono::steady_clock::now();
  const pid_t pid = fork();
  if (pid == 0) {
    execvp(argv[1], argv + 1);
    std::perror("exec");
    _exit(127);
  }
  int status = 0;
  rusage usage{};
  if (wait4(pid, &status, 0, &usage) < 0) return 2;
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  const auto seconds = [](const timeval& tv) { return static_cast<double>(tv.tv_sec) + tv.tv_usec / 1e6; };
  const double cpu = seconds(usage.ru_utime) + seconds(usage.ru_stime);
  std::fprintf(stderr, "measure: %.6f %ld %d %.6f\n", secs, usage.ru_maxrss, code, cpu);
  return 0;
}
