# The run-time search path (RUNPATH) of every binary is written here, not computed by CMake:
# CMake's computed build path ended in an empty entry ("/usr/local/cuda/lib:...openmpi/lib:"),
# which the dynamic loader reads as the working directory, so a library planted where a user
# typed `ridgeline` ran inside it (issue #62). Every binary, in the build tree as installed,
# gets the same list: the absolute directories of the shared libraries found outside the
# loader's own directories (CUDA's, MPI's, LLVM's OpenMP in the sanitizer trees), nothing
# relative, nothing in the source or build tree.
#
# And it cannot come back: every link runs through cmake/link-and-check-runpath (the link
# launcher), which fails the link of a binary whose RUNPATH or RPATH has an empty, relative
# or $ORIGIN entry, or one inside the source or build tree.
set(CMAKE_SKIP_BUILD_RPATH OFF)
set(CMAKE_BUILD_WITH_INSTALL_RPATH ON)
set(CMAKE_INSTALL_RPATH_USE_LINK_PATH OFF)

# ridgeline_runtime_dirs(OUT lib...): the absolute directories of these library files that
# the loader does not search by itself, each once.
function(ridgeline_runtime_dirs out)
  set(dirs)
  set(system_dirs ${CMAKE_PLATFORM_IMPLICIT_LINK_DIRECTORIES} ${CMAKE_CXX_IMPLICIT_LINK_DIRECTORIES})
  foreach(lib IN LISTS ARGN)
    if(NOT IS_ABSOLUTE "${lib}" OR NOT EXISTS "${lib}" OR IS_DIRECTORY "${lib}")
      continue()  # a flag (-pthread) or a bare name the linker finds in its own directories
    endif()
    get_filename_component(dir "${lib}" DIRECTORY)
    list(FIND system_dirs "${dir}" implicit)
    if(implicit EQUAL -1)
      list(APPEND dirs "${dir}")
    endif()
  endforeach()
  list(REMOVE_DUPLICATES dirs)
  set(${out} ${dirs} PARENT_SCOPE)
endfunction()

# Called once every dependency is found (the top-level CMakeLists, before the modules).
function(ridgeline_set_runpath)
  set(libs ${OpenMP_CXX_LIBRARIES})
  if(RIDGELINE_MPI_ENABLED)
    list(APPEND libs ${MPI_CXX_LIBRARIES})
  endif()
  set(dirs)
  if(RIDGELINE_CUDA_ENABLED AND IS_ABSOLUTE "${CUDAToolkit_LIBRARY_DIR}")
    list(APPEND dirs "${CUDAToolkit_LIBRARY_DIR}")
  endif()
  ridgeline_runtime_dirs(found ${libs})
  list(APPEND dirs ${found})
  list(REMOVE_DUPLICATES dirs)
  set(CMAKE_INSTALL_RPATH "${dirs}" PARENT_SCOPE)
  set_property(GLOBAL PROPERTY RULE_LAUNCH_LINK
               "${PROJECT_SOURCE_DIR}/cmake/link-and-check-runpath ${PROJECT_SOURCE_DIR} ${PROJECT_BINARY_DIR} --")
  list(JOIN dirs ":" shown)
  message(STATUS "Ridgeline: RUNPATH of every binary: ${shown}")
endfunction()
