# The release build's libraries, built here from Debian's source packages
# (deps/deps.lock; fetched by the top-level CMakeLists.txt) and linked in
# statically: the targets alloclint_cjson, alloclint_xxhash, alloclint_git2, and
# alloclint_zlib from the sysroot.
# Third-party code: built without our warnings.
set(deps_src "${ALLOCLINT_DEPS_DIR}/src")
set(sysroot_usr "${CMAKE_SYSROOT}/usr")

# cJSON, included as <cjson/cJSON.h> as Debian installs it.
set(cjson_include "${CMAKE_BINARY_DIR}/deps-include")
file(COPY "${deps_src}/cjson/cJSON.h" DESTINATION "${cjson_include}/cjson")
add_library(alloclint_cjson STATIC "${deps_src}/cjson/cJSON.c")
target_include_directories(alloclint_cjson PUBLIC "${cjson_include}")
target_compile_options(alloclint_cjson PRIVATE -w -O2)
target_link_libraries(alloclint_cjson PUBLIC m)

add_library(alloclint_xxhash STATIC "${deps_src}/xxhash/xxhash.c")
target_include_directories(alloclint_xxhash PUBLIC "${deps_src}/xxhash")
target_compile_options(alloclint_xxhash PRIVATE -w -O2)

# libgit2 with no network transport of its own (no HTTPS, SSH, GSSAPI or
# NTLM), POSIX regcomp from the C library, zlib and http-parser from the
# sysroot's static archives (Debian's libgit2 source leaves out its bundled
# copies of both).
include(ExternalProject)
set(git2_prefix "${CMAKE_BINARY_DIR}/deps-libgit2")
set(git2_archive "${git2_prefix}/lib/libgit2.a")
ExternalProject_Add(alloclint_libgit2_build
  SOURCE_DIR "${deps_src}/libgit2"
  PREFIX "${git2_prefix}"
  INSTALL_DIR "${git2_prefix}"
  CMAKE_ARGS
    -DCMAKE_BUILD_TYPE=Release
    -DCMAKE_C_COMPILER=${CMAKE_C_COMPILER}
    -DCMAKE_SYSROOT=${CMAKE_SYSROOT}
    "-DCMAKE_C_FLAGS=${CMAKE_C_FLAGS_INIT} -w"
    "-DCMAKE_EXE_LINKER_FLAGS=${CMAKE_EXE_LINKER_FLAGS_INIT}"
    -DCMAKE_INSTALL_PREFIX=<INSTALL_DIR>
    -DCMAKE_INSTALL_LIBDIR=lib
    -DBUILD_SHARED_LIBS=OFF -DBUILD_TESTS=OFF -DBUILD_CLI=OFF -DBUILD_EXAMPLES=OFF
    -DUSE_HTTPS=OFF -DUSE_SSH=OFF -DUSE_GSSAPI=OFF -DUSE_NTLMCLIENT=OFF
    -DUSE_SHA1=CollisionDetection -DUSE_SHA256=Builtin
    -DREGEX_BACKEND=regcomp
    -DUSE_HTTP_PARSER=system
    -DHTTP_PARSER_INCLUDE_DIR=${sysroot_usr}/include
    -DHTTP_PARSER_LIBRARY=${sysroot_usr}/lib/x86_64-linux-gnu/libhttp_parser.a
    -DZLIB_INCLUDE_DIR=${sysroot_usr}/include
    -DZLIB_LIBRARY=${sysroot_usr}/lib/x86_64-linux-gnu/libz.a
  BUILD_BYPRODUCTS "${git2_archive}"
  LOG_CONFIGURE ON LOG_BUILD ON LOG_INSTALL ON LOG_OUTPUT_ON_FAILURE ON)
add_library(alloclint_git2 STATIC IMPORTED GLOBAL)
set_target_properties(alloclint_git2 PROPERTIES
  IMPORTED_LOCATION "${git2_archive}"
  INTERFACE_INCLUDE_DIRECTORIES "${deps_src}/libgit2/include"
  INTERFACE_LINK_LIBRARIES
    "${sysroot_usr}/lib/x86_64-linux-gnu/libhttp_parser.a;${sysroot_usr}/lib/x86_64-linux-gnu/libz.a;Threads::Threads")
add_dependencies(alloclint_git2 alloclint_libgit2_build)

# zlib for gzipped profiler traces: the sysroot's static libz (Debian 11's
# zlib1g-dev, pinned in deps/deps.lock), the same libgit2 links.
add_library(alloclint_zlib STATIC IMPORTED GLOBAL)
set_target_properties(alloclint_zlib PROPERTIES
  IMPORTED_LOCATION "${sysroot_usr}/lib/x86_64-linux-gnu/libz.a"
  INTERFACE_INCLUDE_DIRECTORIES "${sysroot_usr}/include")
