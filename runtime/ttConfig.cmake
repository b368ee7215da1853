# find_package(tt): tt, installed by `cmake --install` of tt's build.
#   tt::ttrt         libttrt.a  (static)
#   tt::ttrt_shared  libttrt.so
# Headers: #include <tt/exec.h> (and <tt/ttrt.h>, <tt/meta.h>). The runtime loads libcuda at run time; nothing CUDA is linked.
# The compiler (not in a TT_RUNTIME_ONLY install): tt::tt-opt, tt::tt-translate,
# tt::tt-docgen (executables), tt::pass_api (<tt/pass.h> and MLIR's C headers: what a pass
# plugin compiles against; nothing to link) and tt_add_pass_plugin(NAME SOURCE...)
# (docs/writing-a-pass.md); TT_LLVM_TOOLS_DIR: FileCheck, lit and mlir-opt of tt's LLVM.
include(CMakeFindDependencyMacro)
find_dependency(OpenMP COMPONENTS C)
include(${CMAKE_CURRENT_LIST_DIR}/ttTargets.cmake)
if(EXISTS ${CMAKE_CURRENT_LIST_DIR}/ttCompilerTargets.cmake)
  include(${CMAKE_CURRENT_LIST_DIR}/ttCompilerTargets.cmake)
  include(${CMAKE_CURRENT_LIST_DIR}/ttPassPlugin.cmake)
endif()
