// Catch2 main for the memory-model tests.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
