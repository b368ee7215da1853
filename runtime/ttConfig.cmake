# find_package(tt): the tt runtime, installed by `cmake --install` of tt's build.
#   tt::ttrt         libttrt.a  (static)
#   tt::ttrt_shared  libttrt.so
# Headers: #include <tt/exec.h> (and <tt/ttrt.h>, <tt/meta.h>). The runtime loads libcuda at run time; nothing CUDA is linked.
include(CMakeFindDependencyMacro)
find_dependency(OpenMP COMPONENTS C)
include(${CMAKE_CURRENT_LIST_DIR}/ttTargets.cmake)
