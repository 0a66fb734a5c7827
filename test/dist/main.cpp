// Catch2 main for the collectives' tests.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
