// RUN: tc-opt %s -split-input-file -verify-diagnostics

// Initializer parameters are checked whatever their attribute type.

// A normal distribution's std is not negative, whatever its attribute type.
// expected-error @+1 {{'tc.shared' op parameter 'std' must not be negative}}
tc.shared @W : tensor<3xf32> = normal with {std = -1 : i64}

// -----

// A seed is an integer.
// expected-error @+1 {{'tc.shared' op parameter 'seed' must be an integer}}
tc.shared @S : tensor<3xf32> = uniform with {seed = 1.5 : f64}

// -----

// A uniform range is not empty.
// expected-error @+1 {{'tc.shared' op parameter 'low' must not exceed 'high'}}
tc.shared @U : tensor<3xf32> = uniform with {low = 2.0 : f64, high = 1.0 : f64}
