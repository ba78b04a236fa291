/* alloclint's version: CMake passes project(VERSION) as ALLOCLINT_VERSION. */
#ifndef ALLOCLINT_VERSION_H
#define ALLOCLINT_VERSION_H

#ifndef ALLOCLINT_VERSION
#error "ALLOCLINT_VERSION comes from the build (CMakeLists.txt)"
#endif

#endif
