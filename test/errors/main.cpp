// Catch2 main for the error-catalogue tests.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
