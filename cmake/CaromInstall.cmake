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

# pkg-config files for builds outside CMake:
#   g++ app.cpp $(pkg-config --cflags --libs carom)         (the engine)
#   g++ app.cpp $(pkg-config --cflags --libs carom-scene)   (plus scene files)
# The prefix is found from the .pc file's own place (${pcfiledir}), so the
# files stay right when `cmake --install --prefix P` picks another prefix.
file(RELATIVE_PATH CAROM_PC_PREFIX_FROM_PCDIR "/carom-prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/carom-prefix")
configure_file(cmake/carom.pc.in ${PROJECT_BINARY_DIR}/pkgconfig/carom.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/pkgconfig/carom.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
if(CAROM_BUILD_SCENE)
  configure_file(cmake/carom-scene.pc.in ${PROJECT_BINARY_DIR}/pkgconfig/carom-scene.pc @ONLY)
  install(FILES ${PROJECT_BINARY_DIR}/pkgconfig/carom-scene.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
endif()
