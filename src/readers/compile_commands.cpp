// compile_commands.json (compile_commands.hpp).
#include "readers/compile_commands.hpp"

#include <fmt/format.h>

#include "base/json_reader.hpp"

namespace dt {

std::vector<std::string> shell_words(std::string_view s) {
  std::vector<std::string> out;
  std::string word;
  bool in_word = false;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (c == ' ' || c == '\t' || c == '\n') {
      if (in_word) out.push_back(std::move(word)), word.clear();
      in_word = false;
      continue;
    }
    in_word = true;
    if (c == '\\' && i + 1 < s.size()) {
      word += s[++i];
    } else if (c == '\'') {
      const std::size_t end = s.find('\'', i + 1);
      word += s.substr(i + 1, (end == std::string_view::npos ? s.size() : end) - i - 1);
      i = end == std::string_view::npos ? s.size() : end;
    } else if (c == '"') {
      for (++i; i < s.size() && s[i] != '"'; ++i) {
        if (s[i] == '\\' && i + 1 < s.size() && (s[i + 1] == '"' || s[i + 1] == '\\' || s[i + 1] == '$' || s[i + 1] == '`'))
          ++i;
        word += s[i];
      }
    } else {
      word += c;
    }
  }
  if (in_word) out.push_back(std::move(word));
  return out;
}

std::string normal_path(std::string_view dir, std::string_view path) {
  std::string full(path);
  if (!path.starts_with('/') && !dir.empty()) {
    full = dir;
    full += '/';
    full += path;
  }
  std::vector<std::string_view> parts;
  std::string_view rest = full;
  while (!rest.empty()) {
    const std::size_t slash = rest.find('/');
    const std::string_view part = rest.substr(0, slash);
    rest = slash == std::string_view::npos ? std::string_view{} : rest.substr(slash + 1);
    if (part.empty() || part == ".") continue;
    if (part == "..") {
      if (!parts.empty()) parts.pop_back();
      continue;
    }
    parts.push_back(part);
  }
  std::string out = full.starts_with('/') ? "" : ".";
  for (auto p : parts) {
    out += '/';
    out += p;
  }
  return out.empty() ? "/" : out;
}

CppOptions flags_of(const std::vector<std::string>& args, const std::string& dir) {
  CppOptions o;
  const auto path = [&](const std::string& p) { return normal_path(dir, p); };
  const auto define = [&](const std::string& d) {
    const std::size_t eq = d.find('=');
    if (eq == std::string::npos) o.defines.emplace_back(d, "1");
    else o.defines.emplace_back(d.substr(0, eq), d.substr(eq + 1));
  };
  // Each flag with its argument, separate or joined ("-DX", "-D", "X"; "--define-macro=X").
  struct Flag {
    std::string_view name;
    int what;  // 0 define, 1 undefine, 2 -I, 3 -iquote, 4 -include
  };
  static constexpr Flag kFlags[] = {{"-D", 0},          {"--define-macro", 0}, {"-U", 1},
                                    {"--undefine-macro", 1}, {"-I", 2},        {"-isystem", 2},
                                    {"-idirafter", 2},  {"--include-path", 2}, {"--system-include", 2},
                                    {"-iquote", 3},     {"-include", 4},       {"--pre-include", 4}};
  std::vector<std::string> words;
  for (std::size_t i = 1; i < args.size(); ++i) {
    // nvcc: -Xcompiler A,B passes A and B to the host compiler.
    if ((args[i] == "-Xcompiler" || args[i] == "--compiler-options") && i + 1 < args.size()) {
      std::string_view rest = args[++i];
      while (!rest.empty()) {
        const std::size_t comma = rest.find(',');
        words.emplace_back(rest.substr(0, comma));
        rest = comma == std::string_view::npos ? std::string_view{} : rest.substr(comma + 1);
      }
      continue;
    }
    words.push_back(args[i]);
  }
  for (std::size_t i = 0; i < words.size(); ++i) {
    const std::string& w = words[i];
    for (const Flag& f : kFlags) {
      std::string value;
      if (w == f.name) {
        if (i + 1 >= words.size()) break;
        value = words[++i];
      } else if (w.starts_with(f.name) && (f.name.size() == 2 || w[f.name.size()] == '=')) {
        value = w.substr(f.name.size() + (f.name.size() == 2 ? 0 : 1));
      } else {
        continue;
      }
      switch (f.what) {
        case 0: define(value); break;
        case 1: o.defines.emplace_back(value, std::nullopt); break;
        case 2: o.include_dirs.push_back(path(value)); break;
        case 3: o.quote_dirs.push_back(path(value)); break;
        default: o.forced_includes.push_back(path(value)); break;
      }
      break;
    }
  }
  return o;
}

const CppOptions* CompileCommands::find(const std::string& absolute_path) const {
  auto it = by_file_.find(absolute_path);
  return it == by_file_.end() ? nullptr : &it->second;
}

Expected<CompileCommands, Diagnostic> parse_compile_commands(std::string_view text, FileName file) {
  DT_TRY(json, parse_json(text, file));
  if (json.type != JsonValue::Type::Array)
    return unexpected(make_error(json.at, "a compilation database is a JSON array of entries"));
  CompileCommands db;
  for (const JsonValue& e : json.items) {
    const auto str = [&](std::string_view k) -> const JsonValue* {
      const JsonValue* v = e.type == JsonValue::Type::Object ? e.get(k) : nullptr;
      return v != nullptr && v->type == JsonValue::Type::String ? v : nullptr;
    };
    const JsonValue* dir = str("directory");
    const JsonValue* src = str("file");
    if (dir == nullptr || src == nullptr)
      return unexpected(make_error(e.at, "an entry of a compilation database needs \"directory\" and \"file\" strings"));
    std::vector<std::string> args;
    if (const JsonValue* a = e.get("arguments"); a != nullptr && a->type == JsonValue::Type::Array) {
      for (const JsonValue& w : a->items) {
        if (w.type != JsonValue::Type::String)
          return unexpected(make_error(w.at, "\"arguments\" must be an array of strings"));
        args.push_back(w.text);
      }
    } else if (const JsonValue* c = str("command")) {
      args = shell_words(c->text);
    } else {
      return unexpected(make_error(e.at, "an entry of a compilation database needs \"arguments\" or \"command\""));
    }
    db.by_file_.try_emplace(normal_path(dir->text, src->text), flags_of(args, dir->text));
  }
  return db;
}

}  // namespace dt
