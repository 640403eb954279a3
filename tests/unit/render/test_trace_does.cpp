// does_text: the sentence of each tag the resolver gives a step, and
// backward_why: the sentence of each cause backward_of gives (the words
// trace prints; every golden and oracle of trace holds them byte for byte).
#include <set>

#include "helpers.hpp"
#include "render/trace_does.hpp"

namespace dt::test {

TEST_CASE("does_text: every tag has its own sentence, with the key put in") {
  std::set<std::string> seen;
  for (int i = 1; i <= static_cast<int>(Does::PyFallbackRedispatches); ++i) {
    const std::string text = does_text(StepDoes{static_cast<Does>(i), "KEY"});
    CAPTURE(i);
    CHECK_FALSE(text.empty());
    CHECK(seen.insert(text).second);  // no two tags say the same
  }
  CHECK(does_text(StepDoes{}).empty());
  CHECK(does_text({Does::DefaultBackendRuns, "CompositeExplicitAutograd"}) ==
        "the CompositeExplicitAutograd kernel runs for this backend; the operators it calls are fresh calls");
  CHECK(does_text({Does::YourKernelRedispatches, "AutogradCPU"}) ==
        "your kernel (redispatches = true) redispatches below AutogradCPU (key set & FULL_AFTER(AutogradCPU))");
  CHECK(does_text({Does::AutogradKernelGradOff, {}}) ==
        "the autograd kernel records no backward (grad mode is off) and redispatches below autograd (key set & "
        "after_autograd_keyset, AutoDispatchBelowADInplaceOrView)");
  CHECK(does_text({Does::AutogradFallbackRecords, {}})
            .starts_with("the autograd backend fallback records the backward (a grad_fn) if an input requires grad"));
  CHECK(does_text({Does::CustomOpAutogradNoRequiresGrad, {}})
            .starts_with("custom_op's autograd kernel: no input requires grad: it records nothing; it redispatches "
                         "below autograd"));
  CHECK(does_text({Does::NotSimulated, "FuncTorchBatched"}) == "FuncTorchBatched machinery (not simulated)");
}

TEST_CASE("backward_why: every cause has its own sentence, with the key and the alias set put in") {
  const auto result = [](BackwardCause cause, std::string key, bool output_is_input) {
    return BackwardResult{Backward::Unknown, cause, std::move(key), std::string(1, 'a'), output_is_input};
  };
  std::set<std::string> seen;
  for (int i = 0; i <= static_cast<int>(BackwardCause::NoAutogradRan); ++i)
    for (const bool output_is_input : {false, true}) {
      const BackwardResult b = result(static_cast<BackwardCause>(i), "KEY", output_is_input);
      CAPTURE(i);
      const std::string text = backward_why(b);
      CHECK_FALSE(text.empty());
      // Only the three causes that record nothing say whether the output is an input.
      const bool says_output = b.cause == BackwardCause::FallbackNoTensorRequiresGrad ||
                               b.cause == BackwardCause::FallbackGradModeOff || b.cause == BackwardCause::NoAutogradRan;
      CHECK(seen.insert(text).second == (output_is_input ? says_output : true));
    }
  CHECK(backward_why(result(BackwardCause::FallbackMutatedOutput, "AutogradCPU", false)) ==
        "the AutogradCPU fallback gives a mutated (Tensor(a!)) output no grad_fn: backward from it raises (it does not "
        "require grad)");
  CHECK(backward_why(result(BackwardCause::FallbackGradModeOff, "AutogradCPU", true)) ==
        "the AutogradCPU fallback records nothing with grad mode off: the output is a requires_grad input, so the "
        "gradient reaches it unchanged");
}

}  // namespace dt::test
