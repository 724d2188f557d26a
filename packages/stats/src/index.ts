// Experiment statistics over sufficient statistics (product.md §3 "Results"): pure functions,
// no I/O. Filled by the results issue (frequentist, Bayesian and sequential tests, CUPED, SRM,
// multiple-comparison corrections); the package, its build and its test set-up exist now so that
// the service's import of it is in place.
export {};
