// Catch2 main for the compiler unit tests.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
