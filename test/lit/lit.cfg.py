# lit configuration for tt's regression tests: one folder per dialect, pass and tool.
import os
import lit.formats

config.name = "tt"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir", ".test"]
config.excludes = ["Inputs", "lit.cfg.py", "lit.site.cfg.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.tt_obj_root, "test", "lit")
config.environment["FILECHECK_OPTS"] = "--enable-var-scope"
# The sanitizer build must not stop on leaks inside LLVM's static caches.
for v in ("ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS"):
    if v in os.environ:
        config.environment[v] = os.environ[v]

tools = os.path.join(config.tt_tools_dir)
for tool in ("tt-opt", "tt-translate", "tt-run", "tt-docgen", "tt-fuzz-dict"):
    config.substitutions.append((r"\b%s\b" % tool, os.path.join(tools, tool)))
config.substitutions.append(("%FileCheck", config.filecheck))
config.substitutions.append((r"\bFileCheck\b", config.filecheck))
# split-file (one test file holding several inputs) ships beside FileCheck (llvm-22-tools)
config.substitutions.append((r"\bsplit-file\b",
                             os.path.join(os.path.dirname(config.filecheck), "split-file")))
config.substitutions.append(("%tt_src", config.tt_src_root))
config.substitutions.append(("%tt_obj", config.tt_obj_root))
# the pass plugins of test/plugins/ (good.so and one per way loading fails) and upstream
# mlir-opt, for the plugin and --emit-irdl tests
config.substitutions.append(("%plugins", os.path.join(config.tt_obj_root, "test", "plugins")))
config.substitutions.append(("%mlir_opt", config.mlir_opt))
if config.ptxas:
    config.available_features.add("ptxas")
    config.substitutions.append((r"\bptxas\b", config.ptxas))
