# Install rules (GNUInstallDirs): `cmake --install build [--prefix DIR]`.
# Where each file goes is where its consumer looks: bash-completion loads
# share/bash-completion/completions/<command>, Debian's zsh adds
# share/zsh/vendor-completions to $fpath, fish reads
# share/fish/vendor_completions.d. Checked by the ctest test install.layout.
include(GNUInstallDirs)

install(TARGETS dispatchtool RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(FILES ${CMAKE_SOURCE_DIR}/docs/dispatchtool.1 DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
# dispatchtool-export (run with the user's own python3): the launcher in bin/,
# the modules it imports in share/dispatchtool/python, where the launcher
# looks (../share/dispatchtool/python from bin/; the source tree's tools/ works too).
install(PROGRAMS ${CMAKE_SOURCE_DIR}/tools/dispatchtool-export DESTINATION ${CMAKE_INSTALL_BINDIR})
install(FILES ${CMAKE_SOURCE_DIR}/tools/dispatchtool_export.py ${CMAKE_SOURCE_DIR}/tools/gen_profile.py
              ${CMAKE_SOURCE_DIR}/tools/gen_profile_runtime.py ${CMAKE_SOURCE_DIR}/tools/gen_profile_schema.py
              ${CMAKE_SOURCE_DIR}/tools/export_corpus.py ${CMAKE_SOURCE_DIR}/tools/tomlstr.py
              ${CMAKE_SOURCE_DIR}/tools/gen_torch_library.py ${CMAKE_SOURCE_DIR}/tools/gen_cpp_prelude.py
        DESTINATION ${CMAKE_INSTALL_DATADIR}/dispatchtool/python)
if(NOT CMAKE_INSTALL_DATADIR STREQUAL "share" OR IS_ABSOLUTE "${CMAKE_INSTALL_BINDIR}")
  message(WARNING "dispatchtool-export finds its modules in ../share/dispatchtool/python relative to itself: "
                  "with CMAKE_INSTALL_DATADIR=${CMAKE_INSTALL_DATADIR} and CMAKE_INSTALL_BINDIR=${CMAKE_INSTALL_BINDIR} "
                  "it will not (run it with PYTHONPATH set to the installed python directory)")
endif()
install(FILES ${CMAKE_SOURCE_DIR}/docs/dispatchtool-export.1 DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
install(FILES ${CMAKE_SOURCE_DIR}/completions/dispatchtool.bash
        DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions RENAME dispatchtool)
install(FILES ${CMAKE_SOURCE_DIR}/completions/_dispatchtool
        DESTINATION ${CMAKE_INSTALL_DATADIR}/zsh/vendor-completions)
install(FILES ${CMAKE_SOURCE_DIR}/completions/dispatchtool.fish
        DESTINATION ${CMAKE_INSTALL_DATADIR}/fish/vendor_completions.d)
# Documentation (share/doc/dispatchtool): the user docs, the JSON Schemas, the
# CI workflow and the example registration files.
install(FILES ${CMAKE_SOURCE_DIR}/README.md ${CMAKE_SOURCE_DIR}/docs/lint.md ${CMAKE_SOURCE_DIR}/docs/ci.md
              ${CMAKE_SOURCE_DIR}/docs/json.md ${CMAKE_SOURCE_DIR}/docs/profile-format.md ${CMAKE_SOURCE_DIR}/docs/api.md
              ${CMAKE_SOURCE_DIR}/docs/tutorial.md ${CMAKE_SOURCE_DIR}/docs/input-format.md
              ${CMAKE_SOURCE_DIR}/docs/usage.md ${CMAKE_SOURCE_DIR}/docs/reference.md ${CMAKE_SOURCE_DIR}/docs/install.md
        DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY ${CMAKE_SOURCE_DIR}/docs/schema ${CMAKE_SOURCE_DIR}/docs/ci
        DESTINATION ${CMAKE_INSTALL_DOCDIR})
# The HTML matrix's data shape (html/README.md) and its screenshot; the page
# itself is embedded in the binary.
install(FILES ${CMAKE_SOURCE_DIR}/docs/html/README.md ${CMAKE_SOURCE_DIR}/docs/html/matrix.png
        DESTINATION ${CMAKE_INSTALL_DOCDIR}/html)
install(DIRECTORY ${CMAKE_SOURCE_DIR}/configs/examples DESTINATION ${CMAKE_INSTALL_DOCDIR}
        FILES_MATCHING PATTERN "*.toml")

# The library (docs/api.md), as fmt installs itself: the public headers under
# include/dispatchtool, the archive (or shared object) in lib, and a CMake
# package in lib/cmake/dispatchtool, so that find_package(dispatchtool) and
# target_link_libraries(... dispatchtool::dispatchtool) work. Checked by the
# ctest tests install.layout and install.consumer.
include(CMakePackageConfigHelpers)
set(DT_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/dispatchtool)
install(TARGETS dispatchtool_lib EXPORT dispatchtool-targets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY ${CMAKE_SOURCE_DIR}/include/dispatchtool DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
        FILES_MATCHING PATTERN "*.hpp")
install(EXPORT dispatchtool-targets NAMESPACE dispatchtool:: DESTINATION ${DT_CMAKE_DIR}
        FILE dispatchtool-targets.cmake)
if(DT_SANITIZE)
  set(DT_EXPORT_TOML 0)  # compiled in, header-only
else()
  set(DT_EXPORT_TOML 1)
endif()
configure_package_config_file(${CMAKE_SOURCE_DIR}/cmake/dispatchtool-config.cmake.in
                              ${CMAKE_BINARY_DIR}/dispatchtool-config.cmake INSTALL_DESTINATION ${DT_CMAKE_DIR})
write_basic_package_version_file(${CMAKE_BINARY_DIR}/dispatchtool-config-version.cmake
                                 VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/dispatchtool-config.cmake ${CMAKE_BINARY_DIR}/dispatchtool-config-version.cmake
        DESTINATION ${DT_CMAKE_DIR})
