# `cmake --install BUILD [--prefix PREFIX]`: the library, its public headers, the command line, a
# CMake package and a pkg-config file, laid out by GNUInstallDirs:
#   bin/tensormorph                          the command line
#   lib/libtensormorph.a                     the library (tensormorph_lib)
#   include/tensormorph/...                  the public headers (include/tensormorph in the tree)
#   lib/cmake/tensormorph/                   find_package(tensormorph) -> tensormorph::tensormorph
#   lib/pkgconfig/tensormorph.pc             pkg-config --cflags --libs tensormorph
# Both packages are relocatable: --prefix may differ from CMAKE_INSTALL_PREFIX at configure time.
# tests/install/install_test.sh installs into a temporary prefix and builds a program against it.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(TM_CMAKE_PACKAGE_DIR "${CMAKE_INSTALL_LIBDIR}/cmake/tensormorph")

install(TARGETS tensormorph_lib EXPORT tensormorphTargets
        ARCHIVE DESTINATION "${CMAKE_INSTALL_LIBDIR}"
        LIBRARY DESTINATION "${CMAKE_INSTALL_LIBDIR}")
install(TARGETS tensormorph RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}")
install(DIRECTORY "${PROJECT_SOURCE_DIR}/include/tensormorph"
        DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}" FILES_MATCHING PATTERN "*.h")

install(EXPORT tensormorphTargets NAMESPACE tensormorph::
        FILE tensormorphTargets.cmake DESTINATION "${TM_CMAKE_PACKAGE_DIR}")
configure_package_config_file("${CMAKE_CURRENT_LIST_DIR}/tensormorphConfig.cmake.in"
                              "${PROJECT_BINARY_DIR}/tensormorphConfig.cmake"
                              INSTALL_DESTINATION "${TM_CMAKE_PACKAGE_DIR}")
# 0.x: a minor version may change the interface.
write_basic_package_version_file("${PROJECT_BINARY_DIR}/tensormorphConfigVersion.cmake"
                                 COMPATIBILITY SameMinorVersion)
install(FILES "${PROJECT_BINARY_DIR}/tensormorphConfig.cmake"
              "${PROJECT_BINARY_DIR}/tensormorphConfigVersion.cmake"
        DESTINATION "${TM_CMAKE_PACKAGE_DIR}")

# pkg-config: the .pc file is written when installing, so that it names the prefix actually
# installed to (cmake --install --prefix), then installed like any other file.
set(TM_PC_REQUIRES "simdjson zlib fmt sqlite3 expat protobuf nlohmann_json")
set(TM_PC_LIBS "-liberty -pthread")
foreach(dir LIBDIR INCLUDEDIR)
  if(IS_ABSOLUTE "${CMAKE_INSTALL_${dir}}")
    set(TM_PC_${dir} "${CMAKE_INSTALL_${dir}}")
  else()
    set(TM_PC_${dir} "\${prefix}/${CMAKE_INSTALL_${dir}}")
  endif()
endforeach()
set(TM_PC_FILE "${PROJECT_BINARY_DIR}/pkgconfig/tensormorph.pc")
install(CODE "
  set(TM_PC_PREFIX \"\${CMAKE_INSTALL_PREFIX}\")
  set(TM_PC_LIBDIR [[${TM_PC_LIBDIR}]])
  set(TM_PC_INCLUDEDIR [[${TM_PC_INCLUDEDIR}]])
  set(TM_PC_REQUIRES [[${TM_PC_REQUIRES}]])
  set(TM_PC_LIBS [[${TM_PC_LIBS}]])
  set(PROJECT_VERSION [[${PROJECT_VERSION}]])
  configure_file([[${CMAKE_CURRENT_LIST_DIR}/tensormorph.pc.in]] [[${TM_PC_FILE}]] @ONLY)
")
install(FILES "${TM_PC_FILE}" DESTINATION "${CMAKE_INSTALL_LIBDIR}/pkgconfig")
