# The CMake packages the Poplar SDK installs, by the names framework builds look for:
#   find_package(poplar)   target `poplar` (libpoplar, with libpva)
#   find_package(poplibs)  targets `poputil`, `popops`, `poplin`, `popnn`, ... (every PopLibs
#                          library Tessera builds; it finds poplar itself)
# Both wrap the targets of find_package(Tessera) (lib/cmake/Tessera), so one installation
# serves both spellings. A library is a PopLibs library unless it is named in
# TESSERA_NON_POPLIBS_LIBRARIES below: a PopLibs library added with tessera_add_library() is in
# find_package(poplibs) with no edit here; a new library that is not PopLibs' is added to that list.
set(TESSERA_NON_POPLIBS_LIBRARIES engine profiler pva pvti)

function(tessera_install_sdk_packages)
  get_property(all GLOBAL PROPERTY TESSERA_LIBRARIES)
  set(poplibs)
  foreach(name IN LISTS all)
    if(NOT name IN_LIST TESSERA_NON_POPLIBS_LIBRARIES)
      get_property(file_name GLOBAL PROPERTY TESSERA_LIBRARY_FILE_NAME_${name})
      list(APPEND poplibs "${file_name}=${name}") # SDK target name = Tessera export name
    endif()
  endforeach()
  set(TESSERA_POPLIBS_TARGETS "${poplibs}")
  foreach(package poplar poplibs)
    configure_file(${PROJECT_SOURCE_DIR}/cmake/${package}-config.cmake.in
      ${PROJECT_BINARY_DIR}/sdk-packages/${package}-config.cmake @ONLY)
    write_basic_package_version_file(${PROJECT_BINARY_DIR}/sdk-packages/${package}-config-version.cmake
      VERSION ${PROJECT_VERSION} COMPATIBILITY AnyNewerVersion)
    install(FILES ${PROJECT_BINARY_DIR}/sdk-packages/${package}-config.cmake
      ${PROJECT_BINARY_DIR}/sdk-packages/${package}-config-version.cmake
      DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/${package})
  endforeach()
endfunction()
