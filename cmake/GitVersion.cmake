# Generates ${PARACORP_GENERATED}/build_info.cpp at every build, rewriting it only
# when the commit changes, so --version names the commit the binary was built from.
set(PARACORP_GENERATED ${CMAKE_BINARY_DIR}/generated)
file(MAKE_DIRECTORY ${PARACORP_GENERATED})
add_custom_target(paracorp_build_info
  COMMAND ${CMAKE_COMMAND}
    -DSRC=${CMAKE_SOURCE_DIR} -DOUT=${PARACORP_GENERATED}/build_info.cpp
    -DVERSION=${PROJECT_VERSION}
    -P ${CMAKE_SOURCE_DIR}/cmake/WriteBuildInfo.cmake
  BYPRODUCTS ${PARACORP_GENERATED}/build_info.cpp
  COMMENT "Recording git commit for --version")
