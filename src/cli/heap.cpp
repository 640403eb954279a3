// Process-wide allocator settings, chosen by the front end (the core library
// and its tests run with the defaults).
//
// Loading a large corpus allocates a few tens of MiB in many small pieces and
// keeps most of them. With glibc's defaults every fresh 4 KiB page costs a
// page fault, and on virtual machines a fault costs several microseconds:
// without these settings the faults took about as long as parsing the TOML.
#include "cli/cli.hpp"

#if defined(__GLIBC__) && defined(__linux__)
#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#endif

namespace dt::cli {

void tune_heap() {
#if defined(__GLIBC__) && defined(__linux__)
  // Large buffers (file texts, output) come from the heap, and freed memory
  // stays there to be reused rather than returned and faulted in again.
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, 512 << 20);
  // Grow the heap in large steps and ask for transparent huge pages in the
  // first one (one fault per 2 MiB instead of per 4 KiB where the kernel's
  // THP mode is "madvise" or "always"; harmless where it is "never").
  mallopt(M_TOP_PAD, 256 << 20);
  constexpr std::uintptr_t kHuge = std::uintptr_t{2} << 20;
  void* probe = std::malloc(kHuge);  // makes the heap grow by the pad
  if (probe == nullptr) return;
  const std::uintptr_t lo = (reinterpret_cast<std::uintptr_t>(probe) + kHuge - 1) & ~(kHuge - 1);
  const std::uintptr_t hi = reinterpret_cast<std::uintptr_t>(sbrk(0)) & ~(kHuge - 1);
  if (hi > lo) madvise(reinterpret_cast<void*>(lo), hi - lo, MADV_HUGEPAGE);  // advice only: errors are ignored
  std::free(probe);
#endif
}

}  // namespace dt::cli
