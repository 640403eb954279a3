// DISPATCHTOOL_API marks what the library exports. The library is compiled
// with hidden visibility (-fvisibility=hidden, -fvisibility-inlines-hidden),
// so a shared libdispatchtool.so exports the public API (include/dispatchtool/)
// and nothing of the core below it; a static library is unaffected.
#pragma once

#if defined(__GNUC__) || defined(__clang__)
#define DISPATCHTOOL_API __attribute__((visibility("default")))
#else
#define DISPATCHTOOL_API
#endif
