// The limits dispatchtool enforces on its input, in one place (docs/security.md
// lists them with their reasons). Each is far above anything real: PyTorch's
// whole exported registry (3,380 operators) is a few MB, its deepest schema
// type nests 2 levels, its longest name is under 100 bytes. Each limit is
// checked before the work it bounds grows, and exceeding one is an error
// located in the input that names the limit ("FILE:LINE:COL: error: ...
// (limit: N)"), exit status 2.
#pragma once

#include <cstddef>

namespace dt::limits {

// Bytes read from one input file (registrations, profile, lint configuration,
// baseline), counted while reading, so that /dev/zero, an endless FIFO or
// standard input stop there. --max-input-size overrides it.
inline constexpr std::size_t kInputBytes = std::size_t{64} << 20;
// Bytes read from all files of one run together. --max-input-size=N sets it to 4 * N.
inline constexpr std::size_t kTotalInputBytes = std::size_t{256} << 20;

// TOML (checked by a linear pre-scan before the TOML parser runs): parts of
// one dotted key or table name (a.b.c: 3), and arrays and inline tables
// nested in each other.
inline constexpr std::size_t kTomlKeyParts = 32;
inline constexpr std::size_t kTomlNesting = 32;

// Types nested in a schema type: Dict(str, (Tensor, int[])) is 3 levels.
inline constexpr std::size_t kSchemaTypeDepth = 32;
// Elements a schema's sized-list defaults expand to in all ("bool[3] a=True"
// is 3): the printed schema must stay proportional to its text.
inline constexpr std::size_t kSchemaDefaultElements = 4096;

// Type comparisons (subtype and equality tests) that normalising one schema's
// Union and Optional types may make: c10's algorithm compares every pair of
// members and recurses into tuples. A real Union has 2-4 members and needs a
// few dozen; an 11 KB schema of Unions of tuples of Unions nested 4 deep
// (hostile.schema-union-nested) needs 1.4 million, about 10 ms.
inline constexpr std::size_t kSchemaUnionWork = 50'000'000;

// Bytes of a name: dispatch keys, operators, namespaces, kernels and debug
// strings, device types, library kinds, tags, field names, profile names,
// lint rule ids.
inline constexpr std::size_t kNameBytes = 1024;

// Bytes of a schema string (PyTorch's longest is under 1 KiB): a schema is
// printed in every override warning about its operator.
inline constexpr std::size_t kSchemaBytes = std::size_t{16} << 10;

// Dispatch keys one registration entry names: a dispatch = { "K1, K2" = ... }
// key, an [[impl]]'s keys or device_types.
inline constexpr std::size_t kKeysPerEntry = 512;

// Bytes of override warnings kept and printed (torch 1.13 warns about every
// override, each warning quoting the schema: 4,000 overrides of an operator
// with a 16 KiB schema would print 64 MB); the rest are counted in one line.
// Real registries warn a few times (a random 2,000-operator scenario: 1,600
// warnings, 500 KB).
inline constexpr std::size_t kOverrideWarningBytes = std::size_t{4} << 20;

// Input errors one run reports (as clang's -ferror-limit): loading stops
// at the next one, with a last error that says so.
inline constexpr std::size_t kErrors = 50;

// Locations a lint finding names besides its own (the rest are counted in a
// last note: "... and N more").
inline constexpr std::size_t kNotesPerFinding = 8;

// Edit-distance cells the did-you-mean suggestions of one lint run may
// compute in all; later findings go without a suggestion.
inline constexpr std::size_t kSuggestionCells = std::size_t{50} << 20;

}  // namespace dt::limits
