# One shape for every Tessera library:
#   tessera_add_library(<name> ALIAS <ns::name> SOURCES ... [OUTPUT_NAME <file name>]
#                       [INCLUDE_DIR <dir>] [PUBLIC_DEPS ...] [PRIVATE_DEPS ...])
# creates target tessera_<name> with public headers in INCLUDE_DIR (default
# ${CMAKE_CURRENT_SOURCE_DIR}/include), the alias, warnings, and install/export rules into the
# Tessera package. OUTPUT_NAME gives the file its Poplar SDK name (libpoplar.so, libpva.so ...),
# so programs written for the SDK link with -lpoplar; it defaults to tessera_<name>.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)
# Where the Python packages pva and libpvti are installed (python/, and enable.sh's PYTHONPATH).
set(TESSERA_PYTHON_INSTALL_DIR ${CMAKE_INSTALL_LIBDIR}/python3/dist-packages)

function(tessera_add_library name)
  cmake_parse_arguments(ARG "" "ALIAS;OUTPUT_NAME;INCLUDE_DIR" "SOURCES;PUBLIC_DEPS;PRIVATE_DEPS" ${ARGN})
  set(target tessera_${name})
  if(NOT ARG_OUTPUT_NAME)
    set(ARG_OUTPUT_NAME tessera_${name})
  endif()
  if(NOT ARG_INCLUDE_DIR)
    set(ARG_INCLUDE_DIR ${CMAKE_CURRENT_SOURCE_DIR}/include)
  endif()
  add_library(${target} ${ARG_SOURCES})
  add_library(${ARG_ALIAS} ALIAS ${target})
  # Every library, for the SDK-named CMake packages (cmake/SdkPackages.cmake).
  set_property(GLOBAL APPEND PROPERTY TESSERA_LIBRARIES ${name})
  set_property(GLOBAL PROPERTY TESSERA_LIBRARY_FILE_NAME_${name} ${ARG_OUTPUT_NAME})
  set_target_properties(${target} PROPERTIES
    EXPORT_NAME ${name}
    OUTPUT_NAME ${ARG_OUTPUT_NAME}
    POSITION_INDEPENDENT_CODE ON
    # Installed libraries find each other (libpoplar needs libpva and libtessera_profiler).
    INSTALL_RPATH "$ORIGIN")
  target_include_directories(${target} PUBLIC
    $<BUILD_INTERFACE:${ARG_INCLUDE_DIR}>
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>
    PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/src)
  target_link_libraries(${target} PUBLIC ${ARG_PUBLIC_DEPS} PRIVATE ${ARG_PRIVATE_DEPS})
  tessera_warnings(${target})
  install(TARGETS ${target} EXPORT TesseraTargets
    ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
    LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
  # Libraries that share a header tree (the four PopLibs) install it once.
  get_property(installed GLOBAL PROPERTY TESSERA_INSTALLED_INCLUDE_DIRS)
  if(NOT ARG_INCLUDE_DIR IN_LIST installed)
    set_property(GLOBAL APPEND PROPERTY TESSERA_INSTALLED_INCLUDE_DIRS ${ARG_INCLUDE_DIR})
    install(DIRECTORY ${ARG_INCLUDE_DIR}/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
  endif()
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

# <prefix>/enable.sh: sourced, it puts this installation on PATH, CPATH, LIBRARY_PATH,
# LD_LIBRARY_PATH, PYTHONPATH and CMAKE_PREFIX_PATH and sets POPLAR_SDK_ENABLED, as the Poplar
# SDK's enable.sh does. It finds the prefix from
# its own location, so an installed tree can be moved.
function(tessera_install_enable_script)
  set(TESSERA_INSTALL_BINDIR ${CMAKE_INSTALL_BINDIR})
  set(TESSERA_INSTALL_LIBDIR ${CMAKE_INSTALL_LIBDIR})
  set(TESSERA_INSTALL_INCLUDEDIR ${CMAKE_INSTALL_INCLUDEDIR})
  configure_file(${PROJECT_SOURCE_DIR}/cmake/enable.sh.in ${PROJECT_BINARY_DIR}/enable.sh @ONLY)
  install(FILES ${PROJECT_BINARY_DIR}/enable.sh DESTINATION .)
endfunction()
