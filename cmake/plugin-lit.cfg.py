# lit configuration of a pass plugin's tests (tt_add_plugin_tests in ttPassPlugin.cmake
# writes the lit.site.cfg.py that sets config.plugin, config.tests_dir, ... and loads this).
# In the tests: tt-opt, tt-translate and tt-docgen of the tt the plugin was built against,
# FileCheck of its LLVM, %plugin (the plugin's path), %src (the plugin's source folder);
# test files end in .mlir or .test; folders named Inputs hold their inputs.
import os
import lit.formats

config.name = config.plugin_name
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir", ".test"]
config.excludes = ["Inputs", "lit.cfg.py", "lit.site.cfg.py"]
config.test_source_root = config.tests_dir
config.test_exec_root = config.obj_dir
config.environment["FILECHECK_OPTS"] = "--enable-var-scope"
for v in ("ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS"):
    if v in os.environ:
        config.environment[v] = os.environ[v]
config.substitutions.append(("%plugin", config.plugin))
config.substitutions.append(("%src", config.source_root))
for tool in ("tt-opt", "tt-translate", "tt-docgen"):
    config.substitutions.append((r"\b%s\b" % tool, config.tools[tool]))
config.substitutions.append((r"\bFileCheck\b", config.filecheck))
