// Catch2 main for the compile cache tests.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
