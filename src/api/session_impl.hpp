// Internal to the api layer: what a dispatchtool::Session holds (the core's
// profile and loaded registry), for the analyses in src/api.
#pragma once

#include <dispatchtool/session.hpp>

#include <memory>
#include <string>
#include <vector>

#include "keys/profile.hpp"
#include "registry/loader.hpp"
#include "registry/model.hpp"
#include "resolve/resolver.hpp"

namespace dispatchtool {

struct Session::Impl {
  std::string profile_label;                // as given in the options
  std::string build;                        // SessionOptions::build
  std::string build_source;                 // SessionOptions::build_source
  std::unique_ptr<dt::Profile> profile;     // the registry points to it: never moved
  std::unique_ptr<dt::LoadResult> loaded;
  std::vector<std::string> input_paths;     // as given (diff's labels)
  std::vector<std::string> input_ops;       // the operators of the inputs, sorted
};

// The analyses reach a session's state through here (Session befriends it).
struct SessionAccess {
  using Impl = Session::Impl;
  static Impl& impl(const Session& s) { return *s.impl_; }
};

// The operators the names select (one each), or the error select_ops gives.
Expected<std::vector<const dt::Operator*>, Diagnostic> select(const SessionAccess::Impl& s,
                                                               const std::vector<std::string>& names);
// An Entry of the public API from the resolver's.
Entry to_entry(const dt::Registry& reg, dt::KeyId key, const dt::Entry& e);

}  // namespace dispatchtool
