# `cmake --install BUILD --prefix P`: the library as a CMake package (P/lib/libqnsim.a, its public headers
# in P/include/qnsim, P/lib/cmake/qnsim for find_package(qnsim) with the target qnsim::core), and, where
# they were built, the qnsim program (P/bin) with its scenes and meshes (P/share/qnsim) and the Python
# module. Nothing installed refers to this source tree or the build folder.
include(CMakePackageConfigHelpers)
set(QNSIM_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/qnsim)

install(TARGETS qnsim_core EXPORT qnsimTargets ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(DIRECTORY include/qnsim DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} FILES_MATCHING PATTERN "*.h")
install(FILES ${PROJECT_BINARY_DIR}/include/qnsim/version.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/qnsim)
install(EXPORT qnsimTargets NAMESPACE qnsim:: DESTINATION ${QNSIM_CMAKE_DIR})
configure_package_config_file(cmake/qnsimConfig.cmake.in ${PROJECT_BINARY_DIR}/qnsimConfig.cmake INSTALL_DESTINATION ${QNSIM_CMAKE_DIR})
# Before 1.0 a new minor version may change the public headers (docs/library.md): only the same minor
# version is compatible.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/qnsimConfigVersion.cmake COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/qnsimConfig.cmake ${PROJECT_BINARY_DIR}/qnsimConfigVersion.cmake cmake/FindCHOLMOD.cmake
        DESTINATION ${QNSIM_CMAKE_DIR})
install(FILES LICENSE README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})

if(TARGET qnsim)
  install(TARGETS qnsim RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  install(DIRECTORY scenes assets DESTINATION share/qnsim)  # where the program looks (core/scene/catalog.h)
endif()
