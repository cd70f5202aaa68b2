# `cmake --install`: the ridgeline command, its counter groups (found beside the binary as
# PREFIX/share/ridgeline/groups), and the data model as a CMake package for programs that
# read Runs and machine models:
#   find_package(Ridgeline REQUIRED)  target_link_libraries(app PRIVATE Ridgeline::core)
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

install(TARGETS ridgeline ridgeline-gui RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/collectors/groups/
        DESTINATION ${CMAKE_INSTALL_DATADIR}/ridgeline/groups)
install(FILES ${PROJECT_SOURCE_DIR}/LICENSE DESTINATION ${CMAKE_INSTALL_DOCDIR})

set_target_properties(ridgeline_core PROPERTIES EXPORT_NAME core)
target_include_directories(ridgeline_core PUBLIC
  $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
install(TARGETS ridgeline_core ridgeline_warnings EXPORT RidgelineTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/core/include/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT RidgelineTargets NAMESPACE Ridgeline::
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/Ridgeline)
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/RidgelineConfig.cmake.in
  ${PROJECT_BINARY_DIR}/RidgelineConfig.cmake
  INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/Ridgeline)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/RidgelineConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/RidgelineConfig.cmake
              ${PROJECT_BINARY_DIR}/RidgelineConfigVersion.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/Ridgeline)
