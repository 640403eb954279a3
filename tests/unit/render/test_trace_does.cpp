// does_text: the sentence of each tag the resolver gives a step (the words
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

}  // namespace dt::test
