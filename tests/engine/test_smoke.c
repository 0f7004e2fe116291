#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include "fixtures.h"
static void test_init(void **state) { (void)state; ax_game g; fixture_game(&g, AX_SQUARE, 2, AX_STANDARD); assert_int_equal(g.rack_n[0], 5); }
int main(void) { const struct CMUnitTest tests[] = {cmocka_unit_test(test_init)}; return cmocka_run_group_tests(tests, NULL, NULL); }
