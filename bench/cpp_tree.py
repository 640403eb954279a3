"""The C++ reader's throughput over a large real tree (bench/run.py --cpp):
every .cpp below aten/src/ATen/native of Debian's PyTorch 2.6.0 source
tarball (pytorch_2.6.0+dfsg.orig.tar.xz, downloaded once from
deb.debian.org by tests/realworld/sources.py into DT_SOURCES_CACHE, default
/var/cache/dispatchtool/sources, sha256-checked; never into the repository), read in memory by build/bench/dispatchtool_cpp_scan
(scanner + reader, no I/O, best of RUNS), and the same files through
`dispatchtool import` (whole process, files read from disk). Target: >= 50 MB/s,
over the whole tree and over the files that say TORCH_LIBRARY (read in full;
the others only scanned: read_cpp's fast path).
Also what the reader found there: files with library blocks, blocks,
entries, warnings, refused files."""
import json
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "realworld"))
import sources  # noqa: E402  (the shared download + sha256 check + extraction)


def aten_native():
    """The .cpp files of aten/src/ATen/native (recursively), extracted once."""
    if "DT_BENCH_CACHE" in os.environ:  # the older name of DT_SOURCES_CACHE
        os.environ.setdefault("DT_SOURCES_CACHE", os.environ["DT_BENCH_CACHE"])
    try:
        root = sources.tree("pytorch-2.6.0-aten-native")
    except sources.Unavailable as e:
        raise SystemExit(f"bench: {e}")
    files = []
    for d, _, names in os.walk(root):
        files += [os.path.join(d, n) for n in names if n.endswith(".cpp")]
    return sorted(files)


def cpp_tree(build, runs):
    files = aten_native()
    scan = os.path.join(build, "bench", "dispatchtool_cpp_scan")
    out = json.loads(subprocess.run([scan, str(runs)] + files, check=True, stdout=subprocess.PIPE).stdout)
    mbs = out["bytes"] / out["cpu_seconds"] / 1e6
    wall_mbs = out["bytes"] / out["seconds"] / 1e6
    tool = os.path.join(build, "dispatchtool")
    best = None
    for _ in range(runs):
        t0 = time.monotonic()
        p = subprocess.run([tool, "import", "--profile", "torch-2.14"] + files,
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        t = time.monotonic() - t0
        best = t if best is None else min(best, t)
    warned = p.stderr.decode("utf-8", "replace").count(": warning: ")
    print(f"\nthe C++ reader over PyTorch 2.6.0's aten/src/ATen/native (Debian source tarball): "
          f"{out['files']} .cpp files, {out['bytes'] / 1e6:.1f} MB")
    print(f"  read_cpp in memory (best of {runs}), CPU time: {out['cpu_seconds'] * 1000:7.1f} ms = {mbs:6.1f} MB/s   "
          f"target >= 50 MB/s   {'OK' if mbs >= 50 else 'MISSED'}")
    print(f"    (wall time {out['seconds'] * 1000:.1f} ms = {wall_mbs:.1f} MB/s, load average "
          f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs)")
    print(f"  dispatchtool import, whole process: {best * 1000:7.1f} ms = {out['bytes'] / best / 1e6:6.1f} MB/s "
          f"(exit {p.returncode}, {warned} warnings)")
    # The files that say TORCH_LIBRARY are read in full; the others only
    # scanned for errors and registering #defines (read_cpp's fast path):
    # their throughput apart, so that the fast path cannot hide a slow reader.
    reg = [f for f in files if b"TORCH_LIBRARY" in open(f, "rb").read()]
    sub = json.loads(subprocess.run([scan, str(runs)] + reg, check=True, stdout=subprocess.PIPE).stdout)
    sub_mbs = sub["bytes"] / sub["cpu_seconds"] / 1e6
    print(f"  of which the {sub['files']} files that say TORCH_LIBRARY ({sub['bytes'] / 1e6:.1f} MB, read in full): "
          f"{sub['cpu_seconds'] * 1000:.1f} ms = {sub_mbs:.1f} MB/s   target >= 50 MB/s   "
          f"{'OK' if sub_mbs >= 50 else 'MISSED'}")
    print(f"  found: {out['files_with_blocks']} files with library blocks, {out['blocks']} blocks, "
          f"{out['entries']} entries, {out['warnings']} warnings, {out['errors']} files refused"
          + (f" (first: {out['first_error'].strip()})" if out["errors"] else ""))
    return mbs >= 50 and sub_mbs >= 50
