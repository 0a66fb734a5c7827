// Catch2 main for the gradient tests.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
