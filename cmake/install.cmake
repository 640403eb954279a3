# Install rules (GNUInstallDirs): `cmake --install build [--prefix DIR]`.
# Where each file goes is where its consumer looks: bash-completion loads
# share/bash-completion/completions/<command>, Debian's zsh adds
# share/zsh/vendor-completions to $fpath, fish reads
# share/fish/vendor_completions.d. Checked by the ctest test install.layout.
include(GNUInstallDirs)

install(TARGETS dispatchtool RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(FILES ${PROJECT_SOURCE_DIR}/docs/dispatchtool.1 DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
# dispatchtool-export (run with the user's own python3): the launcher in bin/,
# the modules it imports in share/dispatchtool/python, where the launcher
# looks (../share/dispatchtool/python from bin/; the source tree's tools/ works too).
install(PROGRAMS ${PROJECT_SOURCE_DIR}/tools/dispatchtool-export DESTINATION ${CMAKE_INSTALL_BINDIR})
install(FILES ${PROJECT_SOURCE_DIR}/tools/dispatchtool_export.py ${PROJECT_SOURCE_DIR}/tools/gen_profile.py
              ${PROJECT_SOURCE_DIR}/tools/gen_profile_runtime.py ${PROJECT_SOURCE_DIR}/tools/gen_profile_schema.py
              ${PROJECT_SOURCE_DIR}/tools/export_corpus.py ${PROJECT_SOURCE_DIR}/tools/tomlstr.py
              ${PROJECT_SOURCE_DIR}/tools/gen_torch_library.py ${PROJECT_SOURCE_DIR}/tools/gen_cpp_prelude.py
        DESTINATION ${CMAKE_INSTALL_DATADIR}/dispatchtool/python)
if(NOT CMAKE_INSTALL_DATADIR STREQUAL "share" OR IS_ABSOLUTE "${CMAKE_INSTALL_BINDIR}")
  message(WARNING "dispatchtool-export finds its modules in ../share/dispatchtool/python relative to itself: "
                  "with CMAKE_INSTALL_DATADIR=${CMAKE_INSTALL_DATADIR} and CMAKE_INSTALL_BINDIR=${CMAKE_INSTALL_BINDIR} "
                  "it will not (run it with PYTHONPATH set to the installed python directory)")
endif()
install(FILES ${PROJECT_SOURCE_DIR}/docs/dispatchtool-export.1 DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
install(FILES ${PROJECT_SOURCE_DIR}/completions/dispatchtool.bash
        DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions RENAME dispatchtool)
install(FILES ${PROJECT_SOURCE_DIR}/completions/_dispatchtool
        DESTINATION ${CMAKE_INSTALL_DATADIR}/zsh/vendor-completions)
install(FILES ${PROJECT_SOURCE_DIR}/completions/dispatchtool.fish
        DESTINATION ${CMAKE_INSTALL_DATADIR}/fish/vendor_completions.d)
# Documentation (share/doc/dispatchtool): the user docs, the JSON Schemas, the
# CI workflow and the example registration files.
install(FILES ${PROJECT_SOURCE_DIR}/README.md ${PROJECT_SOURCE_DIR}/docs/lint.md ${PROJECT_SOURCE_DIR}/docs/ci.md
              ${PROJECT_SOURCE_DIR}/docs/json.md ${PROJECT_SOURCE_DIR}/docs/profile-format.md ${PROJECT_SOURCE_DIR}/docs/api.md
              ${PROJECT_SOURCE_DIR}/docs/tutorial.md ${PROJECT_SOURCE_DIR}/docs/input-format.md
              ${PROJECT_SOURCE_DIR}/docs/usage.md ${PROJECT_SOURCE_DIR}/docs/reference.md ${PROJECT_SOURCE_DIR}/docs/install.md
              ${PROJECT_SOURCE_DIR}/docs/dispatcher-notes.md ${PROJECT_SOURCE_DIR}/docs/spec-differences.md
        DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/docs/schema ${PROJECT_SOURCE_DIR}/docs/ci
        DESTINATION ${CMAKE_INSTALL_DOCDIR})
# The HTML matrix's data shape (html/README.md) and its screenshot; the page
# itself is embedded in the binary.
install(FILES ${PROJECT_SOURCE_DIR}/docs/html/README.md ${PROJECT_SOURCE_DIR}/docs/html/matrix.png
        DESTINATION ${CMAKE_INSTALL_DOCDIR}/html)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/configs/examples DESTINATION ${CMAKE_INSTALL_DOCDIR}
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
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/dispatchtool DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
        FILES_MATCHING PATTERN "*.hpp")
install(EXPORT dispatchtool-targets NAMESPACE dispatchtool:: DESTINATION ${DT_CMAKE_DIR}
        FILE dispatchtool-targets.cmake)
if(DT_SANITIZE)
  set(DT_EXPORT_TOML 0)  # compiled in, header-only
else()
  set(DT_EXPORT_TOML 1)
endif()
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/dispatchtool-config.cmake.in
                              ${PROJECT_BINARY_DIR}/dispatchtool-config.cmake INSTALL_DESTINATION ${DT_CMAKE_DIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/dispatchtool-config-version.cmake
                                 VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/dispatchtool-config.cmake ${PROJECT_BINARY_DIR}/dispatchtool-config-version.cmake
        DESTINATION ${DT_CMAKE_DIR})
