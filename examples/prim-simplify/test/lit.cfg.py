# lit configuration of the prim-simplify plugin's tests: tt-opt, tt-translate and
# tt-docgen with the plugin loaded (%plugin is its path), FileCheck.
import os
import lit.formats

config.name = "prim-simplify"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir", ".test"]
config.excludes = ["Inputs", "lit.cfg.py", "lit.site.cfg.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.obj_root, "test")
config.environment["FILECHECK_OPTS"] = "--enable-var-scope"
for v in ("ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS"):
    if v in os.environ:
        config.environment[v] = os.environ[v]
config.substitutions.append(("%plugin", config.plugin))
config.substitutions.append(("%src", config.source_root))
config.substitutions.append((r"\btt-opt\b", config.tt_opt))
config.substitutions.append((r"\btt-translate\b", config.tt_translate))
config.substitutions.append((r"\btt-docgen\b", config.tt_docgen))
config.substitutions.append((r"\bFileCheck\b", config.filecheck))
