// Catch2 main for the CUDA runtime tests.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
