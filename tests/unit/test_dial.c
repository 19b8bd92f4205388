/* remote/dial.c over the scripted platform: every address of the name in
 * turn, the first that takes kept, the last failure told. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "fake_platform.h"
#include "remote/dial.h"

/* The step a client end gives: connect, and fail the first address's
 * opening when told to (a server that is not the tool's). */
struct steps {
    int calls;
    int fail_opening_of; /* the step of this number (1 = first) fails, 0: none */
};

static int step(void *ctx, tt_socket s, const struct tt_addr *a, enum ttcp_op *op)
{
    struct steps *st = ctx;
    int rc;
    st->calls++;
    *op = TTCP_OP_CONNECT;
    if ((rc = tt_connect(s, a)) != 0)
        return rc;
    *op = TTCP_OP_IO;
    return st->calls == st->fail_opening_of ? TT_E_IO : 0;
}

static int setup(void **state)
{
    (void)state;
    fake_reset();
    return 0;
}

/* ::1 first, refused; 127.0.0.1 next, taken. */
static void test_refused_first_then_next(void **state)
{
    struct steps st = {0, 0};
    struct ttcp_dialled d;
    (void)state;
    fake.resolve_families = "64";
    fake.connect_refused_family = TT_FAMILY_V6;
    assert_int_equal(ttcp_dial("v6first", 5001, TT_FAMILY_ANY, 0, step, &st, &d), 0);
    assert_int_equal(d.tried, 2);
    assert_int_equal(d.server.family, TT_FAMILY_V4);
    assert_int_not_equal(d.sock, TT_NO_SOCKET);
    assert_int_equal(fake.connects, 2);
    assert_int_equal(fake.connect_families[0], TT_FAMILY_V6);
    assert_int_equal(fake.connect_families[1], TT_FAMILY_V4);
    assert_int_equal(fake.close_calls, 1); /* the refused one's socket, not the kept one */
}

/* The first address that takes ends the turn: the rest are not tried. */
static void test_first_that_takes(void **state)
{
    struct steps st = {0, 0};
    struct ttcp_dialled d;
    (void)state;
    fake.resolve_families = "464";
    assert_int_equal(ttcp_dial("h", 5001, TT_FAMILY_ANY, 0, step, &st, &d), 0);
    assert_int_equal(d.tried, 1);
    assert_int_equal(fake.connects, 1);
    assert_int_equal(fake.close_calls, 0);
}

/* Every address refuses: the last failure and its step, no socket kept. */
static void test_all_refuse(void **state)
{
    struct steps st = {0, 0};
    struct ttcp_dialled d;
    (void)state;
    fake.resolve_families = "64";
    fake.connect_rc = TT_E_CONNREFUSED;
    assert_int_equal(ttcp_dial("h", 5001, TT_FAMILY_ANY, 0, step, &st, &d), TT_E_CONNREFUSED);
    assert_int_equal(d.tried, 2);
    assert_int_equal(d.op, TTCP_OP_CONNECT);
    assert_int_equal(d.sock, TT_NO_SOCKET);
    assert_int_equal(fake.close_calls, 2);
}

/* An opening that fails after the connect (the step's own) is the next
 * address's turn too. */
static void test_opening_fails_then_next(void **state)
{
    struct steps st = {0, 1};
    struct ttcp_dialled d;
    (void)state;
    fake.resolve_families = "66";
    assert_int_equal(ttcp_dial("h", 5001, TT_FAMILY_ANY, 0, step, &st, &d), 0);
    assert_int_equal(st.calls, 2);
    assert_int_equal(d.tried, 2);
}

/* The name does not resolve: no socket, the step is HOSTNAME. */
static void test_name_fails(void **state)
{
    struct steps st = {0, 0};
    struct ttcp_dialled d;
    (void)state;
    fake.resolve_rc = TT_E_NOHOST;
    assert_int_equal(ttcp_dial("nosuch", 5001, TT_FAMILY_ANY, 0, step, &st, &d),
                     TT_E_NOHOST);
    assert_int_equal(d.op, TTCP_OP_HOSTNAME);
    assert_int_equal(d.tried, 0);
    assert_int_equal(fake.sockets_opened, 0);
}

/* Ctrl+C during the turn: no further address, TT_E_INTR. */
static void test_interrupt_ends_turn(void **state)
{
    struct steps st = {0, 0};
    struct ttcp_dialled d;
    (void)state;
    fake.resolve_families = "64";
    fake.connect_refused_family = TT_FAMILY_V6;
    fake.interrupted = 1;
    assert_int_equal(ttcp_dial("h", 5001, TT_FAMILY_ANY, 0, step, &st, &d), TT_E_INTR);
    assert_int_equal(fake.connects, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_refused_first_then_next, setup),
        cmocka_unit_test_setup(test_first_that_takes, setup),
        cmocka_unit_test_setup(test_all_refuse, setup),
        cmocka_unit_test_setup(test_opening_fails_then_next, setup),
        cmocka_unit_test_setup(test_name_fails, setup),
        cmocka_unit_test_setup(test_interrupt_ends_turn, setup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
