#!/usr/bin/env python3
"""Real-world source trees the tests read, from Debian's source packages.

Third-party code is never committed to this repository: the trees are
downloaded at test time from deb.debian.org, checked against a pinned sha256
and size, and the needed subtrees extracted once into a cache outside the
checkout:

    tests/realworld/sources.py NAME...     print each tree's directory (extracting it if needed)
    tests/realworld/sources.py --list      the known trees, their tarballs and subtrees

The cache is $DT_SOURCES_CACHE (default /var/cache/dispatchtool/sources):
CACHE/<tarball> and CACHE/<NAME>/ (the subtrees, the tarball's top folder
stripped; a changed subtree list re-extracts). Idempotent; a download that
fails (offline, 404) or a tarball whose sha256 differs exits 1 with a message
naming the URL: the tests that need the tree then fail, never skip. Safe to
run concurrently (ctest -j): CACHE/.lock serializes the download and the
extraction, so no process replaces a tree another one is reading.
Stdlib only (used by tests/cli/run_golden.py, tests/oracle/*.py, bench/).
"""
import contextlib
import fcntl
import hashlib
import json
import os
import shutil
import sys
import tarfile
import urllib.request

DEBIAN = "http://deb.debian.org/debian/pool/main/p/"

# name -> (url, sha256, size, subtrees: path prefixes inside the tarball's top folder)
TREES = {
    # PyTorch 2.6.0 (Debian trixie's pytorch 2.6.0+dfsg): the C++ extensions of its
    # tests (openreg: test/cpp_extensions/open_registration_extension*).
    "pytorch-2.6.0-cpp-extensions": (
        DEBIAN + "pytorch/pytorch_2.6.0+dfsg.orig.tar.xz",
        "099a9601bc40d67656e75735c44abedb0fbe92d08817852ab7472eebb7e6ddff", 27212640,
        ["test/cpp_extensions/"]),
    # PyTorch 2.6.0's aten/src/ATen/native (bench/cpp_tree.py: the C++ reader's throughput).
    "pytorch-2.6.0-aten-native": (
        DEBIAN + "pytorch/pytorch_2.6.0+dfsg.orig.tar.xz",
        "099a9601bc40d67656e75735c44abedb0fbe92d08817852ab7472eebb7e6ddff", 27212640,
        ["aten/src/ATen/native/"]),
    # PyTorch 2.6.0's own users of the registration APIs: the Lazy (TorchScript)
    # backend's gen_backend_stubs yaml and the torch.library custom ops of its tests.
    "pytorch-2.6.0-library-users": (
        DEBIAN + "pytorch/pytorch_2.6.0+dfsg.orig.tar.xz",
        "099a9601bc40d67656e75735c44abedb0fbe92d08817852ab7472eebb7e6ddff", 27212640,
        ["aten/src/ATen/native/ts_native_functions.yaml", "torch/testing/_internal/custom_op_db.py"]),
    # PyTorch 2.6.0's C++ sources as a whole tree, for --build cuda --build-source
    # (its hand-written CUDA registrations: quantized cuDNN, c10d, symm_mem).
    "pytorch-2.6.0-csrc": (
        DEBIAN + "pytorch/pytorch_2.6.0+dfsg.orig.tar.xz",
        "099a9601bc40d67656e75735c44abedb0fbe92d08817852ab7472eebb7e6ddff", 27212640,
        ["aten/src/ATen/", "torch/csrc/", "version.txt"]),
    # torchvision 0.21.0 (Debian trixie's pytorch-vision 0.21.0, built against
    # torch 2.6): its C++ operators (TORCH_LIBRARY_FRAGMENT blocks and their CPU,
    # CUDA, MPS, autograd, autocast and quantized kernels) and the Python fake
    # kernels of _meta_registrations.py.
    "torchvision-0.21.0": (
        DEBIAN + "pytorch-vision/pytorch-vision_0.21.0.orig.tar.gz",
        "0a4a967bbb7f9810f792cd0289a07fb98c8fb5d1303fae8b63e3a6b05d720058", 13149842,
        ["torchvision/csrc/vision.cpp", "torchvision/csrc/vision.h", "torchvision/csrc/macros.h",
         "torchvision/csrc/ops/", "torchvision/_meta_registrations.py"]),
}


class Unavailable(Exception):
    pass


def cache_dir():
    return os.environ.get("DT_SOURCES_CACHE", "/var/cache/dispatchtool/sources")


def sha256_of(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def tarball(url, sha256, size, cache):
    """CACHE/<basename of url>, downloaded and verified once (verified again if the stamp is missing)."""
    os.makedirs(cache, exist_ok=True)
    path = os.path.join(cache, os.path.basename(url))
    stamp = path + ".sha256"
    if os.path.exists(path) and os.path.exists(stamp) and open(stamp).read().strip() == sha256:
        return path
    if not os.path.exists(path):
        part = f"{path}.part{os.getpid()}"
        print(f"sources.py: downloading {url} into {cache}", file=sys.stderr)
        try:
            with urllib.request.urlopen(url, timeout=60) as r, open(part, "wb") as f:
                shutil.copyfileobj(r, f)
        except OSError as e:
            if os.path.exists(part):
                os.remove(part)
            raise Unavailable(f"cannot download {url}: {e} (the real-world checks need it: "
                              f"network access to deb.debian.org, or the tarball placed in {cache})")
        os.replace(part, path)
    got = sha256_of(path)
    if got != sha256 or os.path.getsize(path) != size:
        raise Unavailable(f"{path} (from {url}): sha256 {got}, {os.path.getsize(path)} bytes; "
                          f"pinned {sha256}, {size} bytes (remove the file to download it again)")
    with open(stamp, "w") as f:
        f.write(sha256 + "\n")
    return path


@contextlib.contextmanager
def locked(cache):
    """CACHE/.lock held exclusively: one process at a time downloads or extracts."""
    os.makedirs(cache, exist_ok=True)
    with open(os.path.join(cache, ".lock"), "a") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


def tree(name):
    """The directory holding NAME's subtrees (extracted once)."""
    if name not in TREES:
        raise Unavailable(f"unknown source tree '{name}' (known: {', '.join(sorted(TREES))})")
    with locked(cache_dir()):
        return extracted(name)


def extracted(name):
    url, sha256, size, subtrees = TREES[name]
    cache = cache_dir()
    root = os.path.join(cache, name)
    key = json.dumps([url, sha256, subtrees])
    stamp = os.path.join(root, ".dt-sources")
    if os.path.exists(stamp) and open(stamp).read() == key:
        return root
    path = tarball(url, sha256, size, cache)
    tmp = f"{root}.tmp{os.getpid()}"
    shutil.rmtree(tmp, ignore_errors=True)
    with tarfile.open(path) as t:
        members = []
        for m in t.getmembers():
            top, _, rel = m.name.partition("/")
            if m.isfile() and any(rel == s or (s.endswith("/") and rel.startswith(s)) for s in subtrees):
                m.name = rel
                members.append(m)
        if not members:
            raise Unavailable(f"{path} (from {url}) holds none of {subtrees}")
        t.extractall(tmp, members=members, filter="data")
    with open(os.path.join(tmp, ".dt-sources"), "w") as f:
        f.write(key)
    shutil.rmtree(root, ignore_errors=True)
    os.replace(tmp, root)
    return root


def main(argv):
    if argv == ["--list"]:
        for name, (url, sha256, size, subtrees) in sorted(TREES.items()):
            print(f"{name}\t{url}\tsha256 {sha256}\t{size} bytes\t{' '.join(subtrees)}")
        return 0
    if not argv or any(a.startswith("-") for a in argv):
        print("usage:\n" + __doc__.strip().split("\n\n")[2], file=sys.stderr)
        return 2
    try:
        for name in argv:
            print(tree(name))
    except Unavailable as e:
        print(f"sources.py: error: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
