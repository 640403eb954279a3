// dispatch_report: a small program on the dispatchtool library (docs/api.md).
//
//   dispatch_report table PROFILE FILE...      every operator of the files: its table as
//                                              torch._C._dispatch_dump_table prints it
//                                              (= dispatchtool table --raw --profile PROFILE FILE...)
//   dispatch_report json PROFILE FILE...       the same tables as JSON
//                                              (= dispatchtool table --format json --profile PROFILE FILE...)
//   dispatch_report explain PROFILE OP KEY FILE...   why KEY of OP gets its kernel, step by step
//   dispatch_report trace PROFILE OP ARG...    a call of OP (PyTorch's own) with one tensor word per argument
//                                              (= dispatchtool trace --format json --profile PROFILE --op OP --arg ...)
//   dispatch_report coverage PROFILE BACKEND FILE...   (= dispatchtool coverage --format json ...)
//
// Errors are printed as the tool prints them (format()); exit status 2.
#include <dispatchtool/dispatchtool.hpp>

#include <cstdio>
#include <string>
#include <vector>

using namespace dispatchtool;

namespace {

int fail(const Diagnostic& d) {
  std::fputs(format(d).c_str(), stderr);
  return 2;
}

void put(const std::string& text) { std::fwrite(text.data(), 1, text.size(), stdout); }

SessionOptions options(const std::string& profile, const std::vector<std::string>& files) {
  SessionOptions o;
  o.profile = profile;
  for (const auto& f : files) o.inputs.push_back(Input::file(f));
  return o;
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  if (args.size() < 2) {
    std::fprintf(stderr, "usage: dispatch_report table|json|explain|trace|coverage PROFILE ... (library %s)\n",
                 version());
    return 2;
  }
  const std::string& command = args[0];
  const std::string& profile = args[1];
  if (command == "table" || command == "json") {
    auto session = Session::open(options(profile, {args.begin() + 2, args.end()}));
    if (!session) return fail(session.error());
    for (const auto& w : session->warnings()) std::fputs(format(w).c_str(), stderr);
    if (command == "json") {
      auto json = session->table_json();
      if (!json) return fail(json.error());
      put(*json);
      return 0;
    }
    for (const std::string& op : session->operators()) {
      auto table = session->table(op);
      if (!table) return fail(table.error());
      put("### " + table->op + "\n" + table->raw);
    }
    return 0;
  }
  if (command == "explain" && args.size() >= 4) {
    auto session = Session::open(options(profile, {args.begin() + 4, args.end()}));
    if (!session) return fail(session.error());
    auto entry = session->explain(args[2], args[3]);
    if (!entry) return fail(entry.error());
    std::printf("%s of %s: %s [%s]\n", entry->key.c_str(), args[2].c_str(),
                entry->valid ? entry->kernel.c_str() : "missing", entry->provenance.c_str());
    for (const Step& s : entry->steps)
      std::printf("  %-4s %s %s%s\n", s.step.c_str(), s.question.c_str(), s.answer.c_str(), s.taken ? "  <-" : "");
    return 0;
  }
  if (command == "trace" && args.size() >= 3) {
    auto session = Session::open(options(profile, {}));
    if (!session) return fail(session.error());
    TraceRequest call;
    call.op = args[2];
    call.args.assign(args.begin() + 3, args.end());
    auto result = trace(*session, call);
    if (!result) return fail(result.error());
    put(result->json);
    return 0;
  }
  if (command == "coverage" && args.size() >= 3) {
    auto session = Session::open(options(profile, {args.begin() + 3, args.end()}));
    if (!session) return fail(session.error());
    auto cov = coverage(*session, args[2]);
    if (!cov) return fail(cov.error());
    put(cov->json);
    return 0;
  }
  std::fprintf(stderr, "dispatch_report: unknown command or missing arguments: %s\n", command.c_str());
  return 2;
}
