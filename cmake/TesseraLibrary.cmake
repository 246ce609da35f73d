# One shape for every Tessera library:
#   tessera_add_library(<name> ALIAS <ns::name> SOURCES ... [PUBLIC_DEPS ...] [PRIVATE_DEPS ...])
# creates target tessera_<name> with public headers in ${CMAKE_CURRENT_SOURCE_DIR}/include,
# the alias, warnings, and install/export rules into the Tessera package.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

function(tessera_add_library name)
  cmake_parse_arguments(ARG "" "ALIAS;EXPORT_NAME" "SOURCES;PUBLIC_DEPS;PRIVATE_DEPS" ${ARGN})
  set(target tessera_${name})
  add_library(${target} ${ARG_SOURCES})
  add_library(${ARG_ALIAS} ALIAS ${target})
  set_target_properties(${target} PROPERTIES
    EXPORT_NAME ${name}
    OUTPUT_NAME tessera_${name}
    POSITION_INDEPENDENT_CODE ON
    # Installed libraries find each other (libtessera_engine needs libtessera_profiler).
    INSTALL_RPATH "$ORIGIN")
  target_include_directories(${target} PUBLIC
    $<BUILD_INTERFACE:${CMAKE_CURRENT_SOURCE_DIR}/include>
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>
    PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/src)
  target_link_libraries(${target} PUBLIC ${ARG_PUBLIC_DEPS} PRIVATE ${ARG_PRIVATE_DEPS})
  tessera_warnings(${target})
  install(TARGETS ${target} EXPORT TesseraTargets
    ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
    LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
  install(DIRECTORY include/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
endfunction()

function(tessera_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow -Wno-unused-parameter)
endfunction()

# Install the exported targets so that find_package(Tessera) gives tessera::engine etc.
function(tessera_install_package)
  set(dest ${CMAKE_INSTALL_LIBDIR}/cmake/Tessera)
  install(EXPORT TesseraTargets NAMESPACE tessera:: DESTINATION ${dest})
  configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/TesseraConfig.cmake.in
    ${PROJECT_BINARY_DIR}/TesseraConfig.cmake INSTALL_DESTINATION ${dest})
  write_basic_package_version_file(${PROJECT_BINARY_DIR}/TesseraConfigVersion.cmake
    COMPATIBILITY SameMinorVersion)
  install(FILES ${PROJECT_BINARY_DIR}/TesseraConfig.cmake
    ${PROJECT_BINARY_DIR}/TesseraConfigVersion.cmake DESTINATION ${dest})
endfunction()
