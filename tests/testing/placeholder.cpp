// Keeps refract_testing non-empty before any fake exists.
