/* -R: the pacing schedule, buffer by buffer and on average. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "measure/pace.h"
#include "test_support.h"

#define MS 1000000ll

/* 1000-byte buffers at 8 Mbit/s: one every millisecond. */
static void pacing_follows_the_schedule(void **state)
{
    struct ttcp_pacer p;
    int64_t now = 5000 * MS;
    int k;
    (void)state;
    ttcp_pacer_start(&p, 8000000, 1, 1000, now);
    assert_int_equal(ttcp_pacer_wait(&p, 1000, now), 0); /* the first goes at once */
    assert_int_equal(ttcp_pacer_wait(&p, 1000, now), 1 * MS);
    now += 1 * MS;
    assert_int_equal(ttcp_pacer_wait(&p, 1000, now), 1 * MS);
    /* a sender that slept too long catches up by at most `burst` buffers */
    now += 10 * MS;
    for (k = 0; k < 2; k++)
        assert_int_equal(ttcp_pacer_wait(&p, 1000, now), 0);
    assert_true(ttcp_pacer_wait(&p, 1000, now) > 0);
}

static void pacing_average_rate_is_exact(void **state)
{
    struct ttcp_pacer p;
    int64_t now = 0;
    uint64_t sent = 0;
    (void)state;
    /* 1472-byte datagrams at 20 Mbit/s; the sleeps overshoot by 60 us */
    ttcp_pacer_start(&p, 20000000, 0, 1472, now);
    while (now < 2000 * MS) {
        int64_t wait = ttcp_pacer_wait(&p, 1472, now);
        if (wait > 0)
            now += wait + 60000;
        sent += 1472;
    }
    /* within 0.5 % of 20 Mbit/s over 2 s */
    assert_true(sent * 8 > 19900000ull * 2 && sent * 8 < 20100000ull * 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(pacing_follows_the_schedule),
        cmocka_unit_test(pacing_average_rate_is_exact),
    };
    return cmocka_run_group_tests_name("pace", tests, NULL, NULL);
}
