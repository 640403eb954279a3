// The Python files of one run, so that a module can import another one
// (`from pkg.utils import register_helper`, `from .ops import lib`): the
// Python reader inlines a helper function defined in any file read, with the
// globals of the module that defines it. A module is loaded (read quietly
// for its names: functions, Libraries, constants) the first time a file
// imports it, once per run; loading is serialised (cycles see a partly
// loaded module, as Python's imports do).
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "base/io.hpp"
#include "keys/profile.hpp"
#include "readers/python_value.hpp"

namespace dt {

class PyProject {
 public:
  explicit PyProject(const Profile& profile) : profile_(profile) {}
  // The Python files among `paths` (by their names), as `read` gives them
  // (a file that cannot be read is left out: its reader reports it); nullptr
  // when there is none.
  static std::unique_ptr<PyProject> of(const Profile& profile, const std::vector<std::string>& paths,
                                       const ReadFile& read);

  // A file of the run (before reading starts): its path as given and its text.
  void add(const std::string& path, std::shared_ptr<const std::string> text);
  [[nodiscard]] std::shared_ptr<const std::string> text_of(const std::string& path) const;
  [[nodiscard]] bool empty() const { return files_.empty(); }
  [[nodiscard]] std::size_t size() const { return files_.size(); }

  // The file a module name names: absolute ("pkg.sub.mod": a file whose path
  // ends in pkg/sub/mod.py or pkg/sub/mod/__init__.py; among several, the
  // one in `from_path`'s tree), or relative (`level` dots) to `from_path`'s
  // package. "" when no file of the run is that module.
  [[nodiscard]] std::string find(const std::string& dotted, int level, const std::string& from_path) const;

  // The module of a file of the run, loaded the first time it is asked for;
  // nullptr when `path` is not a file of the run.
  std::shared_ptr<pyread::PyModule> module(const std::string& path);

  [[nodiscard]] const Profile& profile() const { return profile_; }
  // Where the readers of the run's files record the values they make; the
  // project empties them when it ends (pyread::PyHeap: Python's reference cycles).
  pyread::PyHeap& heap() { return heap_; }
  // The dotted name a file's module has (its path's components, package
  // directories included as far as the run's files say they are packages).
  [[nodiscard]] std::string module_name(const std::string& path) const;

 private:
  const Profile& profile_;
  struct File {
    std::string given;  // the path as given (what messages and 2.14's debug strings show)
    std::shared_ptr<const std::string> text;
  };
  std::map<std::string, File> files_;  // by normalised path
  // find()'s index of absolute module names, made at the first find() after
  // a file is added: for a dotted name, the first file in path
  // order that is that module, and by "ROOT\nDOTTED" the first one whose
  // tree is the directory ROOT. A lookup costs one probe per directory above
  // the importing file, not a scan of the run's files.
  struct ModuleIndex {
    std::unordered_map<std::string, std::string> first;
    std::unordered_map<std::string, std::string> rooted;
  };
  mutable std::mutex index_mu_;
  mutable bool index_built_ = false;
  mutable ModuleIndex index_;
  void build_index() const;
  std::recursive_mutex mu_;
  std::map<std::string, std::shared_ptr<pyread::PyModule>> loaded_;
  pyread::PyHeap heap_;  // destroyed first: empties the modules loaded_ holds
};

// A path with `.` and `a/..` components removed and `//` folded.
std::string normalize_path(const std::string& path);

}  // namespace dt
