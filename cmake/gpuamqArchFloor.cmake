# The CUDA architecture floor of gpuamq and gpuclique: their device code needs
# sm_80 or newer (warp reductions such as __reduce_add_sync, cp.async).
#
# CUDA_ARCHITECTURES belongs to the target that compiles the .cu implementation
# file and is no usage requirement, so an INTERFACE target cannot pass it on.
# gpuamq_arch_floor_defer() therefore schedules one call at the end of the
# top-level CMakeLists.txt (cmake_language(DEFER), when every target exists).
# That call walks the targets of all directories and, for each one that links
# gpuamq::gpuamq or gpuclique::gpuclique (directly or through other targets'
# link interfaces) and whose CUDA_ARCHITECTURES is still CMake's default, sets
# it to ${GPUAMQ_CUDA_ARCH_FLOOR} (80 unless the consumer sets that variable).
#
# "CMake's default": the consumer set no architecture (no
# -DCMAKE_CUDA_ARCHITECTURES, no CUDAARCHS, no set() before project()), so
# CMake filled the cache entry CMAKE_CUDA_ARCHITECTURES with nvcc's own default
# (sm_52 with CUDA 12, sm_75 with CUDA 13) under the help string "CUDA
# architectures", and the target still has that value. Any value the consumer
# chose is kept: 90, native, all, OFF; a chosen value below 80 reaches
# gpuprim.cuh's #error, which names the flags to use. (A value set with set()
# after project() that equals nvcc's default cannot be told from no choice and
# is raised too.) GPUAMQ_CUDA_ARCH_FLOOR=OFF turns the floor off.
#
# The same file serves add_subdirectory, FetchContent (both through the
# project's CMakeLists.txt) and find_package (through gpuamqConfig.cmake).
include_guard(GLOBAL)

# Sets ${out} to TRUE when target tgt links one of the two libraries, following
# LINK_LIBRARIES and INTERFACE_LINK_LIBRARIES through other targets.
function(_gpuamq_links_library tgt out)
  set(found FALSE)
  set(todo ${tgt})
  set(seen "")
  while(todo AND NOT found)
    list(POP_FRONT todo t)
    if(t IN_LIST seen OR NOT TARGET ${t})
      continue()
    endif()
    list(APPEND seen ${t})
    get_target_property(type ${t} TYPE)
    set(links "")
    if(NOT type STREQUAL "INTERFACE_LIBRARY")
      get_target_property(direct ${t} LINK_LIBRARIES)
      if(direct)
        list(APPEND links ${direct})
      endif()
    endif()
    get_target_property(iface ${t} INTERFACE_LINK_LIBRARIES)
    if(iface)
      list(APPEND links ${iface})
    endif()
    foreach(item IN LISTS links)
      if(item MATCHES "^\\$<LINK_ONLY:(.+)>$")
        set(item ${CMAKE_MATCH_1})
      endif()
      if(NOT TARGET ${item})
        continue()
      endif()
      get_target_property(real ${item} ALIASED_TARGET)
      if(NOT real)
        set(real ${item})
      endif()
      if(real MATCHES "^(gpuamq::)?gpuamq$|^(gpuclique::)?gpuclique$")
        set(found TRUE)
        break()
      endif()
      list(APPEND todo ${real})
    endforeach()
  endwhile()
  set(${out} ${found} PARENT_SCOPE)
endfunction()

# The deferred call: raise the default architecture of every target that links either library.
function(_gpuamq_arch_floor_apply)
  get_property(langs GLOBAL PROPERTY ENABLED_LANGUAGES)
  if(NOT "CUDA" IN_LIST langs)
    return()
  endif()
  # the consumer chose the architectures: leave every target as it is
  get_property(help CACHE CMAKE_CUDA_ARCHITECTURES PROPERTY HELPSTRING)
  if(NOT help STREQUAL "CUDA architectures" OR DEFINED ENV{CUDAARCHS})
    return()
  endif()
  set(default "$CACHE{CMAKE_CUDA_ARCHITECTURES}")
  set(floor 80)
  if(DEFINED GPUAMQ_CUDA_ARCH_FLOOR)
    set(floor ${GPUAMQ_CUDA_ARCH_FLOOR})
  endif()
  if(NOT floor)
    return()
  endif()
  set(dirs ${CMAKE_SOURCE_DIR})
  while(dirs)
    list(POP_FRONT dirs dir)
    get_property(subdirs DIRECTORY ${dir} PROPERTY SUBDIRECTORIES)
    list(APPEND dirs ${subdirs})
    get_property(targets DIRECTORY ${dir} PROPERTY BUILDSYSTEM_TARGETS)
    foreach(t IN LISTS targets)
      get_target_property(type ${t} TYPE)
      if(type STREQUAL "INTERFACE_LIBRARY" OR type STREQUAL "UTILITY")
        continue()
      endif()
      get_target_property(arch ${t} CUDA_ARCHITECTURES)
      if(NOT arch STREQUAL default)
        continue()
      endif()
      _gpuamq_links_library(${t} links)
      if(links)
        set_target_properties(${t} PROPERTIES CUDA_ARCHITECTURES ${floor})
      endif()
    endforeach()
  endwhile()
endfunction()

# Schedule the walk once per configure, however many times the libraries are
# added or found.
function(gpuamq_arch_floor_defer)
  get_property(done GLOBAL PROPERTY _GPUAMQ_ARCH_FLOOR_DEFERRED)
  if(done)
    return()
  endif()
  set_property(GLOBAL PROPERTY _GPUAMQ_ARCH_FLOOR_DEFERRED TRUE)
  cmake_language(DEFER DIRECTORY ${CMAKE_SOURCE_DIR} CALL _gpuamq_arch_floor_apply)
endfunction()
