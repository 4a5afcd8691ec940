# cmake --install: library, public headers and a CMake package config so that
# find_package(carom CONFIG REQUIRED) + target_link_libraries(app carom::carom) works.
include(CMakePackageConfigHelpers)

install(TARGETS carom EXPORT caromTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY engine/include/carom narrowphase/include/carom
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} FILES_MATCHING PATTERN "*.hpp")
install(EXPORT caromTargets NAMESPACE carom:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/carom)
configure_package_config_file(cmake/caromConfig.cmake.in
  ${PROJECT_BINARY_DIR}/caromConfig.cmake
  INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/carom)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/caromConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/caromConfig.cmake ${PROJECT_BINARY_DIR}/caromConfigVersion.cmake
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/carom)
