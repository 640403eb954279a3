// dispatchtool: see README.md. All logic lives in the core library and in the
// subcommand files; main only wires the real process I/O.
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>

#include "cli/cli.hpp"

int main(int argc, char** argv) {
  dt::cli::tune_heap();
  dt::cli::Io io;
  io.fs = dt::real_filesystem();
  io.libraries = dt::embedded_libraries();
  io.out_is_tty = isatty(STDOUT_FILENO) != 0;
  const char* no_color = std::getenv("NO_COLOR");
  io.no_color_env = no_color != nullptr && *no_color != '\0';
  io.one_shot = true;
  int status = dt::cli::kExitError;
  try {
    status = dt::cli::run(argc, argv, io);
  } catch (const std::bad_alloc&) {
    // The input limits keep every run far below this; a last resort rather than an abort.
    std::fputs("dispatchtool: error: out of memory\n", stderr);
    return dt::cli::kExitError;
  }
  // Output that did not reach its destination (a full disk, /dev/full) is a failure.
  if (std::fflush(stdout) != 0 || std::ferror(stdout) != 0) {
    std::fprintf(stderr, "dispatchtool: error: cannot write standard output: %s\n", std::strerror(errno));
    return dt::cli::kExitError;
  }
  return status;
}
