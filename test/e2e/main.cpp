// Catch2 main for the end-to-end tests.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
