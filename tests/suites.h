/*
 * suites.h - the one list of CUnit suites: each tests/test_<module>.c registers one suite with
 * register_<module>_suite().  Adding a suite touches this list and the new file only: runner.c
 * registers every entry, and tests/CMakeLists.txt builds tests/test_<module>.c for each.
 */
#ifndef TCO_TEST_SUITES_H
#define TCO_TEST_SUITES_H

#include <CUnit/CUnit.h>

/* Project source folder (fixtures, scenarios, templates), from CMake. */
#ifndef TCO_SOURCE_DIR
#define TCO_SOURCE_DIR "."
#endif

/* One module a line, X(module), in the order of the floors of engine/ (docs/house.md): base, read, model,
 * load, price, render, apps.  tests/CMakeLists.txt reads these lines. */
#define TCO_TEST_SUITES(X)                                                                             \
    X(error)                                                                                           \
    X(strbuf)                                                                                          \
    X(utf8)                                                                                            \
    X(text)                                                                                            \
    X(names)                                                                                           \
    X(ini)                                                                                             \
    X(dates)                                                                                           \
    X(price_text)                                                                                      \
    X(fx)                                                                                              \
    X(quote_csv)                                                                                       \
    X(root)                                                                                            \
    X(scenarios)                                                                                       \
    X(model)                                                                                           \
    X(formula)                                                                                         \
    X(bind)                                                                                            \
    X(evaluate)                                                                                        \
    X(program)                                                                                         \
    X(ranges)                                                                                          \
    X(sample)                                                                                          \
    X(conventions)                                                                                     \
    X(load)                                                                                            \
    X(quote_choice)                                                                                    \
    X(pricing)                                                                                         \
    X(run)                                                                                             \
    X(report)                                                                                          \
    X(output)                                                                                          \
    X(advise)                                                                                          \
    X(risk)                                                                                            \
    X(bridge)                                                                                          \
    X(init)

#define TCO_TEST_DECLARE(m) CU_ErrorCode register_##m##_suite(void);
TCO_TEST_SUITES(TCO_TEST_DECLARE)
#undef TCO_TEST_DECLARE

#endif
