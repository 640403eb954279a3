// libFuzzer harness: the lint configuration (.dispatchtool-lint.toml) and
// baseline readers, and the baseline round trip. The first byte picks which
// (odd: configuration, even: baseline); the rest is the file.
#include <algorithm>

#include "fuzz_common.hpp"
#include "lint/baseline.hpp"
#include "lint/config.hpp"
#include "lint/lint.hpp"

using namespace dt;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0 || size > fuzz::kMaxInput) return -1;
  const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  if ((data[0] & 1) != 0) {
    auto c = lint::parse_config(text, ".dispatchtool-lint.toml");
    if (!c) return 0;
    // Merging with an empty command-line configuration keeps it; every rule it names is known.
    const lint::Config merged = lint::merge(*c, lint::Config{});
    for (const auto& id : merged.select)
      if (lint::find_rule(id) == nullptr) fuzz::fail();
    for (const auto& s : merged.severity)
      if (lint::find_rule(s.rule) == nullptr) fuzz::fail();
    return 0;
  }
  auto b = lint::parse_baseline(text, "baseline.toml");
  if (!b) return 0;
  // write_baseline(parse(x)) parses back to the same baseline.
  auto again = lint::parse_baseline(lint::write_baseline(*b), "again.toml");
  if (!again || again->entries != b->entries) fuzz::fail();
  // Applied to findings made from its own entries, it accepts all of them.
  std::vector<lint::Finding> findings;
  for (const auto& e : b->entries)
    for (std::size_t i = 0; i < std::min<std::size_t>(e.count, 4); ++i) {
      lint::Finding f;
      f.rule = e.rule;
      f.op = e.op;
      f.key = e.key;
      findings.push_back(f);
    }
  lint::apply_baseline(*b, findings, lint::Config{});
  if (!findings.empty()) fuzz::fail();
  return 0;
}
