# The engine's layers as CMake targets (docs/architecture.md):
#
#   carom_core ← carom_collision ← carom_solver ← carom_world → carom (static)
#
# Each layer is an OBJECT library that links only the layer below it, so it
# gets the usage requirements of the layers below and nothing of those above;
# the `carom` static library is made of their objects. cmake/layers.txt says
# which folders and public headers belong to which layer, and the check
# (cmake/CheckLayers.cmake) runs before any layer compiles: an upward include
# fails the build with the file, the line and the rule it breaks.

# The check: a custom command every layer depends on. Its depfile lists every
# file it read, so it runs again only when one of them (or the table) changes.
set(CAROM_LAYER_STAMP ${PROJECT_BINARY_DIR}/carom_layers.stamp)
add_custom_command(
  OUTPUT ${CAROM_LAYER_STAMP}
  COMMAND ${CMAKE_COMMAND} -DROOT=${PROJECT_SOURCE_DIR} -DTABLE=${PROJECT_SOURCE_DIR}/cmake/layers.txt
          -DSTAMP=${CAROM_LAYER_STAMP} -DDEPFILE=${CAROM_LAYER_STAMP}.d
          -P ${PROJECT_SOURCE_DIR}/cmake/CheckLayers.cmake
  DEPENDS ${PROJECT_SOURCE_DIR}/cmake/layers.txt ${PROJECT_SOURCE_DIR}/cmake/CheckLayers.cmake
  DEPFILE ${CAROM_LAYER_STAMP}.d
  COMMENT "Checking that every include goes down the layers (cmake/layers.txt)"
  VERBATIM)
add_custom_target(carom_layer_check DEPENDS ${CAROM_LAYER_STAMP})

# carom_add_layer(NAME [BELOW layer] [ROOTS path...] [PUBLIC_INCLUDE dir...])
#   BELOW           the layer right below (its own lower layers come with it)
#   ROOTS           the repository folders this layer's sources may reach by
#                   "folder/file.hpp"; without ROOTS the repository root
#   PUBLIC_INCLUDE  the <carom/...> include roots this layer adds
#
# With ROOTS the layer compiles against a root of its own in the build tree
# holding links to just those folders, so an upward include does not even
# find its file. The solver and the world use the repository root: the
# solver's known exceptions (cmake/layers.txt) still include the world's
# storage. The check covers every layer either way.
function(carom_add_layer name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "BELOW" "ROOTS;PUBLIC_INCLUDE")
  set(target carom_${name})
  add_library(${target} OBJECT)
  target_compile_features(${target} PUBLIC cxx_std_20)
  set_target_properties(${target} PROPERTIES POSITION_INDEPENDENT_CODE ON)
  carom_set_warnings(${target})
  foreach(dir IN LISTS arg_PUBLIC_INCLUDE)
    target_include_directories(${target} PUBLIC ${PROJECT_SOURCE_DIR}/${dir})
  endforeach()
  if(arg_ROOTS)
    set(root ${PROJECT_BINARY_DIR}/layer_roots/${name})
    foreach(path IN LISTS arg_ROOTS)
      get_filename_component(parent ${root}/${path} DIRECTORY)
      file(MAKE_DIRECTORY ${parent})
      file(CREATE_LINK ${PROJECT_SOURCE_DIR}/${path} ${root}/${path} SYMBOLIC)
    endforeach()
    target_include_directories(${target} PRIVATE ${root})
  else()
    target_include_directories(${target} PRIVATE ${PROJECT_SOURCE_DIR})
  endif()
  if(arg_BELOW)
    target_link_libraries(${target} PUBLIC carom_${arg_BELOW})
  endif()
  add_dependencies(${target} carom_layer_check)
endfunction()
