// torch._python_dispatcher.PythonDispatcher as a registry builder: the demo
// operator __test__::foo and register(keys) with its three checks.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "base/diagnostic.hpp"
#include "base/expected.hpp"
#include "registry/model.hpp"

namespace dt {

inline constexpr const char* kPythonDispatcherOp = "__test__::foo";

// A registry holding only `foo(Tensor x) -> Tensor` in namespace __test__,
// defined as PythonDispatcher's constructor does.
Registry python_dispatcher_registry(const Profile& profile);

// PythonDispatcher.register(keys); the error (no location) is the RuntimeError
// text of a refusal. As in Python, keys before an unsupported key stay
// registered. The kernels are placed at `origin`, a file name with no line:
// what the front end calls the calls (--register; register_calls in the API).
Expected<Ok, Diagnostic> python_dispatcher_register(Registry& reg, const std::vector<std::string>& keys,
                                                    FileName origin = "register_calls");

// The keys of one --register call: "CPU,XLA" is the list ['CPU', 'XLA'] and ""
// the empty list (register([]) does nothing); as with str.split, an empty
// item stays (and is refused as register(['CPU', '']) refuses it). Spaces
// around a key are dropped.
std::vector<std::string> register_call_keys(std::string_view call);

// Python's repr() of a list of str: ['CPU', 'XLA'].
std::string python_list_repr(const std::vector<std::string>& items);

}  // namespace dt
