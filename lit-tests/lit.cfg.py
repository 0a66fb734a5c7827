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
llvm_config.add_tool_substitutions(["tc-opt", "tcc"], [config.tcc_tools_dir])

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
