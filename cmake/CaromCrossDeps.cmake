# Dependencies of a cross build (CMAKE_CROSSCOMPILING: the toolchains of
# cmake/toolchains/) that the target's sysroot does not have.
#
# GLM and nlohmann-json are header-only Debian packages installed for the
# host (/usr/include, their CMake configs in /usr/share/cmake). Their
# headers are the same for every target, but /usr/include must not go on a
# cross compiler's include path whole (the host's C library headers are
# there). A folder of the build tree holds links to just those two header
# folders, glm::glm and nlohmann_json::nlohmann_json are defined on it, and
# glm_DIR / nlohmann_json_DIR name the host's config files, which return
# early when their targets exist: find_package() then succeeds as usual.
#
# GoogleTest: Debian's libgtest-dev ships its sources in /usr/src/googletest;
# tests/CMakeLists.txt builds them with the cross compiler.
set(CAROM_HOST_HEADERS ${PROJECT_BINARY_DIR}/host_headers)
file(MAKE_DIRECTORY ${CAROM_HOST_HEADERS})
foreach(dir glm nlohmann)
  find_path(carom_host_${dir} NAMES ${dir} PATHS /usr/include NO_DEFAULT_PATH NO_CMAKE_FIND_ROOT_PATH)
  if(NOT carom_host_${dir})
    message(FATAL_ERROR "cross build: /usr/include/${dir} is missing (Debian packages libglm-dev, nlohmann-json3-dev)")
  endif()
  if(NOT EXISTS ${CAROM_HOST_HEADERS}/${dir})
    file(CREATE_LINK ${carom_host_${dir}}/${dir} ${CAROM_HOST_HEADERS}/${dir} SYMBOLIC)
  endif()
endforeach()

foreach(target glm::glm nlohmann_json::nlohmann_json)
  if(NOT TARGET ${target})
    add_library(${target} INTERFACE IMPORTED GLOBAL)
    set_target_properties(${target} PROPERTIES INTERFACE_INCLUDE_DIRECTORIES ${CAROM_HOST_HEADERS})
  endif()
endforeach()
foreach(package glm nlohmann_json)
  find_path(carom_host_config_${package} NAMES ${package}Config.cmake
            PATHS /usr/share/cmake/${package} /usr/lib/cmake/${package}
            NO_DEFAULT_PATH NO_CMAKE_FIND_ROOT_PATH)
  if(carom_host_config_${package})
    set(${package}_DIR ${carom_host_config_${package}} CACHE PATH "" FORCE)
  endif()
endforeach()
