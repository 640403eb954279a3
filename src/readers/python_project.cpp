// The Python files of one run (readers/python_project.hpp).
#include "readers/python_project.hpp"

#include "base/text.hpp"
#include "readers/python_reader_impl.hpp"
#include "readers/readers.hpp"

namespace dt {

std::string normalize_path(const std::string& path) {
  const bool absolute = !path.empty() && path[0] == '/';
  std::vector<std::string> parts;
  std::size_t b = 0;
  while (b <= path.size()) {
    std::size_t e = path.find('/', b);
    if (e == std::string::npos) e = path.size();
    const std::string part = path.substr(b, e - b);
    if (part == "..") {
      if (!parts.empty() && parts.back() != "..")
        parts.pop_back();
      else if (!absolute)
        parts.push_back(part);
    } else if (!part.empty() && part != ".") {
      parts.push_back(part);
    }
    b = e + 1;
  }
  std::string out = absolute ? "/" : "";
  for (std::size_t i = 0; i < parts.size(); ++i) out += (i ? "/" : "") + parts[i];
  return out.empty() ? "." : out;
}

namespace {

constexpr std::size_t kMaxModuleParts = 32;

std::string dirname(const std::string& p) {
  const std::size_t s = p.rfind('/');
  if (s == std::string::npos) return ".";
  return s == 0 ? "/" : p.substr(0, s);
}

std::string join_path(const std::string& dir, const std::string& rest) {
  if (dir == ".") return rest;
  return dir.back() == '/' ? dir + rest : dir + "/" + rest;
}

// "pkg/mod.py" -> {"pkg", "mod"}; "pkg/__init__.py" -> {"pkg"}.
std::vector<std::string> components(const std::string& path) {
  std::vector<std::string> out;
  std::string p = path;
  if (p.ends_with(".py")) p.resize(p.size() - 3);
  std::size_t b = 0;
  while (b <= p.size()) {
    std::size_t e = p.find('/', b);
    if (e == std::string::npos) e = p.size();
    const std::string part = p.substr(b, e - b);
    if (!part.empty() && part != ".") out.push_back(part);
    b = e + 1;
  }
  if (!out.empty() && out.back() == "__init__") out.pop_back();
  return out;
}

}  // namespace

std::unique_ptr<PyProject> PyProject::of(const Profile& profile, const std::vector<std::string>& paths,
                                         const ReadFile& read) {
  std::unique_ptr<PyProject> python;
  for (const std::string& p : paths) {
    if (detect_source(p, {}) != SourceKind::Python) continue;
    if (!python) python = std::make_unique<PyProject>(profile);
    if (auto text = read(p)) python->add(p, std::make_shared<const std::string>(std::move(*text)));
  }
  return python;
}

void PyProject::add(const std::string& path, std::shared_ptr<const std::string> text) {
  files_.emplace(normalize_path(path), File{path, std::move(text)});
  const std::lock_guard lock(index_mu_);
  index_built_ = false;
}

std::shared_ptr<const std::string> PyProject::text_of(const std::string& path) const {
  auto it = files_.find(normalize_path(path));
  return it == files_.end() ? nullptr : it->second.text;
}

std::string PyProject::find(const std::string& dotted, int level, const std::string& from_path) const {
  std::vector<std::string> want;
  for (std::size_t b = 0; b < dotted.size();) {
    std::size_t e = dotted.find('.', b);
    if (e == std::string::npos) e = dotted.size();
    want.push_back(dotted.substr(b, e - b));
    b = e + 1;
  }
  const std::string from = normalize_path(from_path);
  if (level > 0) {
    std::string base = dirname(from);
    for (int k = 1; k < level; ++k) base = dirname(base);
    std::string rel;
    for (const auto& w : want) rel += (rel.empty() ? "" : "/") + w;
    for (const std::string& cand : {rel.empty() ? std::string("__init__.py") : rel + ".py",
                                    rel.empty() ? std::string() : rel + "/__init__.py"}) {
      if (cand.empty()) continue;
      const std::string p = normalize_path(join_path(base, cand));
      if (files_.count(p) != 0) return p;
    }
    return {};
  }
  // Module names of more parts are not indexed (a path's suffixes would cost
  // its depth squared); no package nests that deep.
  if (want.empty() || want.size() > kMaxModuleParts) return {};
  const std::string key = join(want, ".");  // "a." and "a" are one name, as the parts say
  const std::lock_guard lock(index_mu_);
  if (!index_built_) build_index();
  // The file in from_path's tree (the longest directory above it that is a
  // file's tree) wins; otherwise the first such module in path order.
  for (std::size_t end = from.size(); end != std::string::npos && end > 0;) {
    const std::size_t slash = from.rfind('/', end - 1);
    if (slash == std::string::npos) break;
    if (auto it = index_.rooted.find(from.substr(0, slash + 1) + "\n" + key); it != index_.rooted.end())
      return it->second;
    end = slash;
  }
  if (auto it = index_.rooted.find("\n" + key); it != index_.rooted.end()) return it->second;
  auto it = index_.first.find(key);
  return it == index_.first.end() ? std::string() : it->second;
}

void PyProject::build_index() const {
  index_ = {};
  index_built_ = true;
  for (const auto& [path, file] : files_) {
    const std::vector<std::string> c = components(path);
    // Each suffix of the path's components is a module name; the directory
    // above it is the file's tree for that name.
    std::string root = !path.empty() && path[0] == '/' ? "/" : "";
    for (std::size_t k = 0; k < c.size(); ++k) {
      // That directory must be one sys.path could hold, not a package itself: in a
      // package, pkg/transformers/ is pkg.transformers, never `import transformers`.
      if (c.size() - k <= kMaxModuleParts && files_.count(normalize_path(root + "__init__.py")) == 0) {
        std::string dotted;
        for (std::size_t j = k; j < c.size(); ++j) dotted += (j > k ? "." : "") + c[j];
        index_.first.emplace(dotted, path);
        index_.rooted.emplace(root + "\n" + dotted, path);
      }
      root += c[k] + "/";
    }
  }
}

std::string PyProject::module_name(const std::string& path) const {
  const std::string p = normalize_path(path);
  std::vector<std::string> c = components(p);
  // As far up as the directories are packages of the run (an __init__.py read).
  std::string dir = dirname(p);
  std::size_t keep = 1;
  while (keep < c.size() && files_.count(normalize_path(join_path(dir, "__init__.py"))) != 0) {
    ++keep;
    dir = dirname(dir);
  }
  if (p.ends_with("/__init__.py") && keep > 1) --keep;
  std::string out;
  for (std::size_t k = c.size() - std::min(keep, c.size()); k < c.size(); ++k) out += (out.empty() ? "" : ".") + c[k];
  return out;
}

std::shared_ptr<pyread::PyModule> PyProject::module(const std::string& path) {
  const std::string p = normalize_path(path);
  const std::lock_guard lock(mu_);
  if (auto it = loaded_.find(p); it != loaded_.end()) return it->second;
  auto text = files_.find(p);
  if (text == files_.end()) return nullptr;
  auto m = std::make_shared<pyread::PyModule>();
  m->file = FileName(text->second.given);
  m->path = p;
  m->name = module_name(p);
  m->owned = text->second.text;
  m->text = *text->second.text;
  m->loading = true;
  loaded_[p] = m;
  pyread::load_module(profile_, *this, m);
  m->loading = false;
  return m;
}

}  // namespace dt
