# Debian packages from the install rules above (scripts/package.sh runs cpack):
#   libsimdex<ABI>  the shared library (component runtime)
#   libsimdex-dev   headers, the CMake package, simdex.pc, libsimdex.so, the
#                   static library (component dev)
#   simdex          the command-line program and the docs (component cli)
# Each package's Depends on system libraries is computed by dpkg-shlibdeps
# from what its files link; the -dev package depends on the exact runtime
# and on the -dev packages its pkg-config file and static library name.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME simdex)
set(CPACK_PACKAGE_VENDOR "simdex developers")
set(CPACK_PACKAGE_CONTACT "simdex developers <maintainers@users.noreply.a-seed-b4a4f692.example>")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "near-duplicate documents from compressed, memory-mapped SimHash indexes")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL runtime dev cli)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_SECTION libs)
set(CPACK_DEBIAN_RUNTIME_PACKAGE_NAME libsimdex${SIMDEX_ABI_VERSION})
set(CPACK_DEBIAN_RUNTIME_PACKAGE_SECTION libs)
set(CPACK_DEBIAN_DEV_PACKAGE_NAME libsimdex-dev)
set(CPACK_DEBIAN_DEV_PACKAGE_SECTION libdevel)
set(CPACK_DEBIAN_DEV_PACKAGE_DEPENDS
  "libsimdex${SIMDEX_ABI_VERSION} (= ${PROJECT_VERSION}), pkg-config, libxxhash-dev, libicu-dev, libzstd-dev, libboost-iostreams-dev, libsimdjson-dev")
set(CPACK_DEBIAN_CLI_PACKAGE_NAME simdex)
set(CPACK_DEBIAN_CLI_PACKAGE_SECTION utils)
set(CPACK_COMPONENT_RUNTIME_DESCRIPTION "simdex shared library\nFinds near-duplicate documents among billions from a compressed index file\nthat services memory-map: SimHash fingerprints, permuted sorted tables.")
set(CPACK_COMPONENT_DEV_DESCRIPTION "simdex development files\nHeaders, CMake package (find_package(simdex)), pkg-config file and the\nstatic library of simdex.")
set(CPACK_COMPONENT_CLI_DESCRIPTION "simdex command-line program\nFingerprints documents, builds, queries, merges and verifies simdex indexes,\nde-duplicates batches, and serves the docId service.")
include(CPack)
