// The anchor of simdex_test_pch, the precompiled header every test program
// reuses (tests/CMakeLists.txt); it defines nothing.
