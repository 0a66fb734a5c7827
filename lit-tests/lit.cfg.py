# lit configuration of tcc's compiler tests. -*- Python -*-
import os

import lit.formats
from lit.llvm import llvm_config

config.name = "tcc"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".tg", ".test"]
config.excludes = ["Inputs", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.tcc_obj_root, "test-output")

config.substitutions.append(("%examples", os.path.join(config.tcc_src_root, "examples")))

llvm_config.use_default_substitutions()
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
# tcc-bench-peers: the benchmark of bench/peers, run shrunk (bench/peers).
llvm_config.add_tool_substitutions(["tc-opt", "tcc", "tcc-bench-peers"],
                                   [config.tcc_tools_dir])

# %numpy-python runs a Python with numpy, for tests that check .npy files; they
# say `REQUIRES: numpy` and are reported unsupported where it is missing.
import subprocess
config.substitutions.append(("%numpy-python", config.tcc_python))
try:
    if subprocess.call([config.tcc_python, "-c", "import numpy"],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) == 0:
        config.available_features.add("numpy")
except OSError:
    pass

# %dot is Graphviz's dot, for tests that render graph dumps; they say
# `REQUIRES: dot` and are reported unsupported where it is missing
# (scripts/setup.sh installs graphviz).
import shutil
dot = shutil.which("dot")
if dot:
    config.available_features.add("dot")
    config.substitutions.append(("%dot", dot))

# %ptxas assembles generated PTX (the offline check of the nvptx target); tests
# that need it say `REQUIRES: ptxas` and are reported unsupported without the
# CUDA toolkit ($CUDA_HOME or /usr/local/cuda).
cuda_home = os.environ.get("CUDA_HOME") or "/usr/local/cuda"
ptxas = os.path.join(cuda_home, "bin", "ptxas")
if os.access(ptxas, os.X_OK):
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", ptxas))
else:
    lit_config.note("no ptxas at %s: the PTX assembly tests are unsupported" % ptxas)

# The peers benchmark is not built by every build (scripts/test-sanitized
# --quick builds the tools and unit tests only): its tests say
# `REQUIRES: bench-peers`.
if os.path.exists(os.path.join(config.tcc_tools_dir, "tcc-bench-peers")):
    config.available_features.add("bench-peers")

# %fake-cuda is the tests' Driver API on host memory (test/cuda/FakeCudaDriver.cpp):
# with TCC_CUDA_DRIVER=%fake-cuda the host side of GPU programs runs without a
# GPU. Tests that use it say `REQUIRES: fake-cuda`.
fake_cuda = os.path.join(os.path.dirname(config.tcc_obj_root), "lib",
                         "libtcc_fake_cuda.so")
if os.path.exists(fake_cuda):
    config.available_features.add("fake-cuda")
    config.substitutions.append(("%fake-cuda", fake_cuda))
# %fake-nccl is a NCCL of one rank on the fake driver (test/dist/FakeNccl.cpp),
# for TCC_NCCL_RUNTIME: GPU programs' collectives then run offline. Tests that
# use it say `REQUIRES: fake-nccl`.
fake_nccl = os.path.join(os.path.dirname(fake_cuda), "libtcc_fake_nccl.so")
if os.path.exists(fake_cuda) and os.path.exists(fake_nccl):
    config.available_features.add("fake-nccl")
    config.substitutions.append(("%fake-nccl", fake_nccl))

# %mpirun-local is mpirun restricted to shared memory and loopback
# (scripts/mpirun-local); tests of data-parallel runs say `REQUIRES: mpi`
# and are reported unsupported without Open MPI (scripts/setup.sh installs
# it) or a tcc built without it.
mpirun_local = os.path.join(os.path.dirname(__file__), "..", "scripts",
                            "mpirun-local")
if shutil.which("mpirun") and os.path.exists(
        os.path.join(os.path.dirname(config.tcc_obj_root), "lib",
                     "libtcc_mpi.so")):
    config.available_features.add("mpi")
    config.substitutions.append(("%mpirun-local", os.path.abspath(mpirun_local)))
