// dispatchtool lint: the rule table, the single source of the rules' ids,
// severities and texts (docs/lint.md, SARIF and the tests read it), and
// run(), which applies every rule's check (checks_*.cpp) and stamps each
// finding with its rule's id and default severity.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <tuple>

#include "base/text.hpp"
#include "lint/check.hpp"
#include "lint/lint.hpp"

namespace dt::lint {

namespace {

// ---- the rule table ------------------------------------------------------------------------------------------------

constexpr std::array kRules{
    Rule{"duplicate-def", "DuplicateDef", Severity::Error,
         "An operator is defined twice (two def()s with the same name and overload).",
         "PyTorch refuses the second def() of an operator, even when both schemas are identical or only the alias "
         "analysis differs; the library that contains it fails to load. Keep one def() per operator and overload.",
         "Tried to register an operator (<schema>) with the same name and overload name multiple times. Each "
         "overload's schema should only be registered with a single call to def(). Duplicate registration: <debug>. "
         "Original registration: <debug>",
         "Dispatcher::registerDef (c10/core/dispatch/Dispatcher.cpp)", check_duplicate_def},
    Rule{"duplicate-registration", "DuplicateRegistration", Severity::Error,
         "Two kernels for the same operator and dispatch key; the newer one silently wins at run time.",
         "The dispatcher keeps every kernel registered for an operator and key, newest first, and uses only the "
         "newest: which kernel runs depends on the order libraries were loaded. PyTorch only warns (and in recent "
         "releases only once per process). Every overriding pair is reported, across files.",
         "Overriding a previously registered kernel for the same operator and the same dispatch key", "OperatorEntry::registerKernel (c10/core/dispatch/OperatorEntry.cpp)",
         check_duplicate_registration},
    Rule{"duplicate-fallback", "DuplicateFallback", Severity::Error,
         "Two backend fallbacks for the same dispatch key (PyTorch's own fallbacks included).",
         "A backend fallback serves every operator without a kernel for its key; PyTorch allows one per runtime key "
         "and refuses the second registration, including one that collides with a fallback PyTorch itself "
         "registers (e.g. the autograd fallbacks).",
         "Tried to register multiple backend fallbacks for the same dispatch key <K>; previous registration <debug>, "
         "new registration <debug>",
         "Dispatcher::registerFallback (c10/core/dispatch/Dispatcher.cpp)", check_duplicate_fallback},
    Rule{"impl-without-def", "ImplWithoutDef", Severity::Error,
         "A kernel for an operator that no file defines (a dangling impl).",
         "The dispatcher accepts impls before (or without) the def, so the mistake only shows when the operator is "
         "called: it has no schema. Usually the operator name has a typo, the overload is missing, or the defining "
         "file was not loaded (lint every file that registers into a namespace together).",
         "Could not find schema for <name> but we found an implementation; did you forget to def() the operator?",
         "Dispatcher::checkInvariants, OperatorEntry::registerKernel (c10/core/dispatch/)", check_impl_without_def},
    Rule{"composite-conflict", "CompositeConflict", Severity::Error,
         "More than one of the composite alias keys on one operator, which torchgen forbids.",
         "CompositeExplicitAutograd, CompositeExplicitAutogradNonFunctional and CompositeImplicitAutograd each "
         "subsume the other: with CompositeExplicitAutograd present the CompositeImplicitAutograd kernel is never "
         "used, and the incrementally maintained runtime table then depends on registration order. Exception: "
         "CompositeImplicitAutogradNestedTensor may accompany one other composite kernel, except "
         "CompositeExplicitAutogradNonFunctional.",
         "cannot specify more than one of CompositeExplicitAutograd, CompositeExplicitAutogradNonFunctional, or "
         "CompositeImplicitAutograd on a single kernel; each strictly subsumes the other.  If you wanted to provide "
         "an explicit autograd implementation, specify CompositeExplicitAutograd; otherwise specify "
         "CompositeImplicitAutograd only",
         "torchgen/model.py (NativeFunction), OperatorEntry::updateDispatchTable_ (c10/core/dispatch/OperatorEntry.cpp)",
         check_composite_conflict},
    Rule{"ambiguous-autogradother", "AmbiguousAutogradOther", Severity::Error,
         "A CompositeImplicitAutograd kernel plus a kernel on a backend that maps to AutogradOther.",
         "Backends without their own autograd key (Sparse*, Quantized*, SparseCsr*, MkldnnCPU, FPGA, ...) share "
         "AutogradOther. With a CompositeImplicitAutograd kernel the dispatcher cannot tell whether AutogradOther "
         "should decompose or reach the backend kernel, so the entry becomes ambiguous_autogradother, which raises "
         "when a call reaches AutogradOther: a tensor whose autograd key is AutogradOther (keys --meanings: "
         "MkldnnCPU, HIP, FPGA, ...; in 1.13 also SparseCsrCPU), whether or not it requires grad and under no_grad "
         "too, not under inference_mode. In 2.x a call still decomposes when the runtime entry is stale (table "
         "says so). The resolver's ambiguous entry is the ground truth; every offending backend kernel is listed.",
         "<op> has kernels registered to both CompositeImplicitAutograd and a backend mapped to AutogradOther. This "
         "makes the backend kernel unreachable; the dispatcher will always prefer the CompositeImplicitAutograd "
         "lowering (see Note [Ambiguity in AutogradOther kernel]). If you want to override "
         "CompositeImplicitAutograd, please open an issue to request a dedicated Autograd dispatch key for the "
         "backend.",
         "OperatorEntry::computeDispatchTableEntryWithDebug, ambiguous_autogradother_kernel (ATen/core/boxing/KernelFunction.cpp)",
         check_ambiguous_autogradother},
    Rule{"library-kind", "LibraryKind", Severity::Error,
         "A registration its library block forbids (a def in a TORCH_LIBRARY_IMPL block, two TORCH_LIBRARY blocks for "
         "a namespace, an impl key or namespace contradicting its block, a misplaced fallback, a reserved namespace).",
         "Each input file is one TORCH_LIBRARY / TORCH_LIBRARY_IMPL / TORCH_LIBRARY_FRAGMENT block (or "
         "torch.library.Library); PyTorch checks every def(), impl() and fallback() against its block and refuses "
         "the ones that do not belong there, so the whole library fails to load.",
         "def(\"<name>\"): Cannot define an operator inside of a TORCH_LIBRARY_IMPL block.  All def()s should be "
         "placed in the (unique) TORCH_LIBRARY block for their namespace.  (and the other messages of torch::Library's checks in aten/src/ATen/core/library.cpp)",
         "torch::Library::_def, _impl, _fallback (aten/src/ATen/core/library.cpp), torch/library.py",
         check_library_kind},
    Rule{"schema-mismatch", "SchemaMismatch", Severity::Warning,
         "A kernel's signature disagrees with its operator's schema (argument count or types).",
         "When a kernel carries an inferred C++ schema (signature = ...), PyTorch compares it with the operator's "
         "schema when the second of the two is registered and refuses a mismatch. The kernel would read its "
         "arguments from the wrong stack slots.",
         "Inferred operator schema for a C++ kernel function doesn't match the expected function schema.\n  "
         "operator: <name>\n  expected schema: <schema>\n    <debug>\n  inferred schema: <signature>\n    <debug>\n  "
         "reason: <reason>",
         "OperatorEntry::registerKernel, assertSignatureIsCorrect (c10/core/dispatch/OperatorEntry.cpp)",
         check_schema_mismatch},
    Rule{"missing-autograd", "MissingAutograd", Severity::Warning,
         "An operator with backend kernels whose autograd key resolves to no autograd kernel (only a fallback, or "
         "nothing).",
         "A backend kernel (or a CompositeExplicitAutograd kernel) disables the CompositeImplicitAutograd "
         "decomposition on the backend's autograd key, so that key needs its own kernel. Without one it resolves to "
         "the autograd backend fallback: in 1.13 a fallthrough, so results silently do not track gradients; in "
         "main a kernel that warns when backpropagating. With no fallback at all (e.g. AutogradMeta in 1.13) every "
         "call outside inference mode fails. NestedTensor<B> kernels count for AutogradNestedTensor. One finding per "
         "operator names every backend concerned. Operators without a Tensor output or a Tensor written in place, "
         "and operators declared `differentiable = false` (integer or bool outputs, like torchvision::nms's "
         "indices), have nothing to differentiate and are not reported.",
         "", "OperatorEntry::computeDispatchTableEntryWithDebug, getAutogradKeyFromBackend (c10/core/DispatchKeySet.h), "
         "torch/csrc/autograd/autograd_not_implemented_fallback.cpp",
         check_missing_autograd},
    Rule{"custom-op-no-fake", "CustomOpNoFake", Severity::Warning,
         "A torch.library.custom_op without register_fake: its calls on Meta and fake tensors raise.",
         "Every custom_op has a Meta kernel (its fake kernel), which runs the function register_fake gave it. "
         "Without one it raises when a Meta or fake tensor reaches it -- which is what torch.compile, torch.export "
         "and FX tracing do -- except for a mutable operator that returns nothing, whose fake impl is trivial "
         "(can_generate_trivial_fake_impl). The text is the release's, measured.",
         "There was no fake impl registered for <CustomOpDef(<op>)>. This is necessary for "
         "torch.compile/export/fx tracing to work. Please use `<function>.register_fake` to add an fake impl.",
         "torch/_library/custom_ops.py (CustomOpDef._register_to_dispatcher, fake_impl)", check_custom_op_no_fake},
    Rule{"custom-op-no-autograd", "CustomOpNoAutograd", Severity::Info,
         "A differentiable torch.library.custom_op without register_autograd: backward through it raises.",
         "custom_op registers an Autograd kernel for every operator. With grad mode on and an input that requires "
         "grad it records an autograd.Function whose backward is register_autograd's; without one, backward "
         "raises. Informational: an operator nothing differentiates through needs none. Reported only where "
         "register_autograd would take the operator (functional, or a view where the release allows) and it has "
         "a Tensor argument and a Tensor return.",
         "Trying to backward through <overload> but no autograd formula was registered. Please use "
         "register_autograd to add one.",
         "torch/_library/autograd.py (make_autograd_impl)", check_custom_op_no_autograd},
    Rule{"no-tensor-arguments", "NoTensorArguments", Severity::Warning,
         "Backend kernels of an operator without Tensor arguments and without a BackendSelect kernel.",
         "The dispatcher computes a call's keys from its Tensor (and Generator) arguments. Without any, only "
         "thread-local keys remain and the call lands on Undefined (filled only by CompositeExplicitAutograd, "
         "CompositeImplicitAutograd or a catch-all kernel), so kernels on CPU, CUDA, ... and their autograd keys "
         "are never reached. Factory functions solve this with a BackendSelect kernel that reads the device "
         "argument.",
         "There were no tensor arguments to this function (e.g., you passed an empty list of Tensors), but no "
         "fallback function is registered for schema <op>.  This usually means that this function requires a "
         "non-empty list of Tensors, or that you (the operator writer) forgot to register a fallback function.",
         "DispatchKeyExtractor (ATen/core/dispatch/DispatchKeyExtractor.h), OperatorEntry::reportError",
         check_no_tensor_arguments},
    Rule{"meta-on-composite", "MetaOnComposite", Severity::Warning,
         "A Meta kernel on an operator that has a CompositeImplicitAutograd kernel.",
         "torch.library refuses a Meta impl for an operator with a CompositeImplicitAutograd kernel: the Meta "
         "kernel replaces the decomposition on Meta and disables it on AutogradMeta. PyTorch 1.13 decides by "
         "searching the text of _dispatch_dump for the substring 'CompositeImplicitAutograd' (so a "
         "CompositeImplicitAutogradNestedTensor kernel also counts); main asks for a kernel on exactly "
         "CompositeImplicitAutograd. The profile's meta_on_composite quirk selects the behaviour.",
         "We should not register a meta kernel directly to the operator '<name>', because it has a "
         "CompositeImplicitAutograd kernel in core. Instead we should let the operator decompose, and ensure that we "
         "have meta kernels for the base ops that it decomposes into.",
         "torch/library.py (Library.impl)", check_meta_on_composite},
    Rule{"shadowed-composite", "ShadowedComposite", Severity::Info,
         "A backend kernel that disables a CompositeImplicitAutograd decomposition for its backend (and the "
         "backend's autograd key).",
         "A kernel on a runtime key wins over CompositeImplicitAutograd on that key, and makes the key's autograd "
         "key skip the decomposition too (has_backend_kernel), so autograd must come from an Autograd kernel. This "
         "is legitimate for faster backend kernels, hence informational; the finding names what each affected "
         "autograd key resolves to instead.",
         "", "OperatorEntry::computeDispatchTableEntryWithDebug (c10/core/dispatch/OperatorEntry.cpp)",
         check_shadowed_composite},
    Rule{"fallthrough-on-alias", "FallthroughOnAlias", Severity::Warning,
         "A fallthrough kernel on a composite alias key (CompositeImplicitAutograd, CompositeExplicitAutograd, ...).",
         "A fallthrough means \"skip this key\"; on a composite alias it marks every backend row (and Undefined) as "
         "fallthrough, so there is nothing left below to run and the call ends in the fallthrough function itself "
         "or in a missing kernel. Fallthroughs belong on wrapper keys (Autograd, Autocast*, ADInplaceOrView, "
         "FuncTorchBatched, ...), where something runs below them.",
         "fallthrough_kernel was executed but it should have been short-circuited by the dispatcher. ...", "fallthrough_kernel (ATen/core/boxing/KernelFunction.cpp), DispatchKeyExtractor",
         check_fallthrough_on_alias},
    Rule{"building-block-key", "BuildingBlockKey", Severity::Warning,
         "A kernel or backend fallback on a per-backend building block (Dense, Sparse, Quantized, NestedTensor, "
         "AutogradFunctionality, SparseCsr) that never fills a dispatch-table row.",
         "Building blocks are functionality bits, not runtime keys; the dispatcher accepts kernels on them and "
         "lists them in _dispatch_dump, but no table row ever uses them. They still count in the subset tests of "
         "the CompositeImplicitAutograd rules: a Dense kernel disables the decomposition on Autograd<Backend>, a "
         "Sparse or Quantized kernel makes AutogradOther ambiguous. A fallback on a building block is accepted and "
         "serves no row at all.",
         "", "isPerBackendFunctionalityKey (c10/core/DispatchKey.h), getRuntimeDispatchKeySet", check_building_block_key},
    Rule{"unparseable-key", "UnparseableKey", Severity::Info,
         "A Python kernel (boxed-only, no signature) on a dispatch key that Python cannot name.",
         "Most per-backend runtime keys exist and have table rows but are missing from parseDispatchKey's table "
         "(e.g. AutogradHIP, QuantizedXLA, SparseMeta in 1.13). A kernel registered from Python (torch.library, "
         "boxed_only = true) on such a key cannot be written: the registration raises.",
         "could not parse dispatch key: <name>", "parseDispatchKey (c10/core/DispatchKey.cpp)", check_unparseable_key},
    Rule{"unreachable-kernel", "UnreachableKernel", Severity::Warning,
         "A kernel on an alias key that no dispatch-table row resolves to.",
         "Alias kernels fill rows only where nothing of higher precedence does (direct kernel > "
         "CompositeExplicitAutogradNonFunctional > CompositeExplicitAutograd > CompositeImplicitAutogradNestedTensor "
         "> CompositeImplicitAutograd > Autograd). A typical case: an Autograd kernel next to a "
         "CompositeImplicitAutograd kernel and no backend kernels, where the decomposition takes every autograd row "
         "and the Autograd kernel never runs. PyTorch's own kernels are reported only where the inputs' "
         "registrations make them unreachable: one PyTorch itself never uses (2.14's Autograd kernel of "
         "aten::max_pool2d, under its decomposition) is not the inputs' doing.",
         "", "OperatorEntry::computeDispatchTableEntryWithDebug (c10/core/dispatch/OperatorEntry.cpp)",
         check_unreachable_kernel},
    Rule{"unread-registration", "UnreadRegistration", Severity::Warning,
         "A registration in a C++ or Python source that dispatchtool saw but could not read statically.",
         "The readers do not run the preprocessor or the program: a C++ registration inside a macro of the "
         "project's, a loop, an #if branch, with an operator name built at run time, or on an object that is not "
         "the block's library handle, and a Python one that is not at module level (in a function, class, loop "
         "or condition) or not written literally, is left out of every answer. Write it out literally (or add the "
         "equivalent TOML next to the sources) so that the tables, coverage and the other rules see it.",
         "", "torch/library.h (the TORCH_LIBRARY macros; torch::Library::def, impl and fallback), torch/library.py",
         check_unread_registration},
};

}  // namespace

std::span<const Rule> rules() { return kRules; }

const Rule* find_rule(std::string_view id) {
  for (const auto& r : kRules)
    if (r.id == id) return &r;
  return nullptr;
}

std::size_t rule_index(std::string_view id) {
  for (std::size_t i = 0; i < kRules.size(); ++i)
    if (kRules[i].id == id) return i;
  return kRules.size();
}

Expected<const Rule*, Diagnostic> rule_by_id(std::string_view id) {
  if (const Rule* rule = find_rule(id)) return rule;
  std::vector<std::string_view> ids;
  for (const auto& r : kRules) ids.push_back(r.id);
  return unexpected(make_error(fmt::format("unknown lint rule '{}'{}", id, did_you_mean(id, ids))));
}

void sort_findings(std::vector<Finding>& findings) {
  std::stable_sort(findings.begin(), findings.end(), [](const Finding& a, const Finding& b) {
    return std::tie(a.where.file, a.where.line, a.where.column, a.rule, a.message, a.op, a.key) <
           std::tie(b.where.file, b.where.line, b.where.column, b.rule, b.message, b.op, b.key);
  });
}

std::vector<Finding> run(const LoadResult& loaded) {
  const Resolver resolver(loaded.registry);
  const RuntimeTables runtime(resolver);
  const CheckContext ctx{loaded.registry, loaded.registry.profile(), resolver, loaded.refusals,
                         loaded.registry.sorted_operators(), &runtime, loaded.source_warnings};
  std::vector<Finding> all;
  std::vector<Finding> one;
  for (const auto& rule : kRules) {
    one.clear();
    rule.check(ctx, one);
    for (auto& f : one) {
      f.rule = std::string(rule.id);
      f.severity = rule.severity;
      if (!notes_capped(f)) cap_notes(f, f.notes.size());  // a finding names a bounded number of places
      all.push_back(std::move(f));
    }
  }
  sort_findings(all);
  return all;
}

}  // namespace dt::lint
