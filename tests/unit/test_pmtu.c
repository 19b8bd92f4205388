/* --pmtu: the search (measure/pmtu.c) over a pretend path, pure; the engine
 * over the fake platform's prober; the line; the rules of --pmtu and
 * --dont-fragment. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <string.h>

#include "engine/pmtu.h"
#include "measure/pmtu.h"
#include "report/report_pmtu.h"
#include "fake_platform.h"
#include "test_support.h"

/* A pretend path: the route's MTU, the path's, whether a router's "too big"
 * teaches the OS the path's (Linux: IP_MTU), whether the destination
 * answers what reaches it (else silence). Sizes above what the OS learnt
 * fail at once, as the kernel refuses them. */
struct path {
    int top, mtu, tells, answers;
    int learnt;
    int sent[TTCP_PMTU_PROBES_MAX + 1];
};

static enum ttcp_pmtu_answer send_probe(struct path *p, int size, int *learnt)
{
    enum ttcp_pmtu_answer a;
    if (p->learnt && size > p->learnt)
        a = TTCP_PMTU_TOO_BIG;
    else if (size > p->mtu)
        a = TTCP_PMTU_TOO_BIG;
    else
        a = p->answers ? TTCP_PMTU_FITS : TTCP_PMTU_SILENT;
    if (a == TTCP_PMTU_TOO_BIG && p->tells)
        p->learnt = p->mtu;
    *learnt = p->tells ? (p->learnt ? p->learnt : p->top) : 0;
    return a;
}

/* Runs the search to its end over p; returns the probes it sent. */
static int search(struct path *p, int floor, struct ttcp_pmtu_search *s)
{
    int size;
    ttcp_pmtu_search_init(s, floor, p->top);
    while ((size = ttcp_pmtu_search_next(s)) != 0) {
        int learnt;
        enum ttcp_pmtu_answer a;
        assert_true(s->probes < TTCP_PMTU_PROBES_MAX);
        p->sent[s->probes] = size;
        a = send_probe(p, size, &learnt);
        ttcp_pmtu_search_answer(s, size, a, learnt);
    }
    return s->probes;
}

static void one_probe_when_the_route_s_mtu_fits(void **state)
{
    struct path p = {1500, 1500, 1, 1, 0, {0}};
    struct ttcp_pmtu_search s;
    (void)state;
    assert_int_equal(search(&p, TTCP_PMTU_FLOOR_V4, &s), 1);
    assert_int_equal(p.sent[0], 1500);
    assert_int_equal(s.fit, 1500);
    assert_true(ttcp_pmtu_search_exact(&s));
    assert_true(s.fit_confirmed);
}

static void the_learnt_mtu_is_tried_next(void **state)
{
    struct path p = {1500, 1280, 1, 1, 0, {0}};
    struct ttcp_pmtu_search s;
    (void)state;
    assert_int_equal(search(&p, TTCP_PMTU_FLOOR_V4, &s), 2);
    assert_int_equal(p.sent[0], 1500);
    assert_int_equal(p.sent[1], 1280);
    assert_int_equal(s.fit, 1280);
    assert_true(ttcp_pmtu_search_exact(&s));
    assert_true(s.fit_confirmed);
}

/* No MTU learnt (Windows; a router whose ICMP names none): halving alone
 * finds every path MTU between the floor and the route's, exactly. */
static void halving_finds_every_mtu_exactly(void **state)
{
    int mtu, most = 0;
    (void)state;
    for (mtu = TTCP_PMTU_FLOOR_V4; mtu <= 1500; mtu++) {
        struct path p = {1500, 0, 0, 1, 0, {0}};
        struct ttcp_pmtu_search s;
        int probes;
        p.mtu = mtu;
        probes = search(&p, TTCP_PMTU_FLOOR_V4, &s);
        assert_int_equal(s.fit, mtu);
        assert_true(ttcp_pmtu_search_exact(&s));
        assert_true(s.fit_confirmed || mtu == TTCP_PMTU_FLOOR_V4);
        most = probes > most ? probes : most;
    }
    assert_true(most <= 12); /* 1 + log2(1500 - 576), and the floor once */
}

static void a_silent_destination_leaves_it_unconfirmed(void **state)
{
    struct path p = {1500, 1400, 1, 0, 0, {0}};
    struct ttcp_pmtu_search s;
    (void)state;
    assert_int_equal(search(&p, TTCP_PMTU_FLOOR_V4, &s), 2);
    assert_int_equal(s.fit, 1400);
    assert_true(ttcp_pmtu_search_exact(&s));
    assert_false(s.fit_confirmed);
}

/* From loopback's 65535 down to a small path with no help: the count of
 * probes ends the search, with a lower bound that holds. */
static void the_count_of_probes_bounds_it(void **state)
{
    struct path p = {65535, 1000, 0, 1, 0, {0}};
    struct ttcp_pmtu_search s;
    int probes;
    (void)state;
    ttcp_pmtu_search_init(&s, TTCP_PMTU_FLOOR_V4, p.top);
    while (ttcp_pmtu_search_next(&s) != 0) {
        int learnt = 0, size = ttcp_pmtu_search_next(&s);
        enum ttcp_pmtu_answer a = send_probe(&p, size, &learnt);
        ttcp_pmtu_search_answer(&s, size, a, learnt);
    }
    probes = s.probes;
    assert_int_equal(probes, TTCP_PMTU_PROBES_MAX);
    assert_true(s.fit <= 1000 && s.fit >= TTCP_PMTU_FLOOR_V4);
    assert_true(s.too_big > 1000);
}

/* The OS learnt less than the floor taken to fit: it is believed and tried. */
static void a_learnt_mtu_below_the_floor(void **state)
{
    struct path p = {1500, 552, 1, 1, 0, {0}};
    struct ttcp_pmtu_search s;
    (void)state;
    assert_int_equal(search(&p, TTCP_PMTU_FLOOR_V4, &s), 2);
    assert_int_equal(s.fit, 552);
    assert_true(s.fit_confirmed);
}

/* IPv6's floor: 1280 is taken to fit; a path of exactly 1280 is probed once. */
static void ipv6_floor(void **state)
{
    struct path p = {1500, 1280, 0, 1, 0, {0}};
    struct ttcp_pmtu_search s;
    (void)state;
    search(&p, TTCP_PMTU_FLOOR_V6, &s);
    assert_int_equal(s.fit, 1280);
    assert_true(ttcp_pmtu_search_exact(&s));
    assert_true(s.fit_confirmed);
}

static struct ttcp_options opts;

static int find(const char *line, struct ttcp_pmtu *out, struct ttcp_failure *f)
{
    static char copy[256];
    char *argv[16], why[256];
    int argc;
    snprintf(copy, sizeof copy, "%s", line);
    argc = split_args(copy, argv, 16);
    assert_int_equal(ttcp_options_parse(&opts, argc, argv, 0, why, sizeof why), 0);
    return ttcp_pmtu_find(&opts, out, f);
}

static void the_engine_over_the_fake_prober(void **state)
{
    struct ttcp_pmtu p;
    struct ttcp_failure f;
    char line[256];
    (void)state;
    fake_reset();
    fake.pmtu_top = 1500;
    fake.pmtu_path = 1400;
    fake.pmtu_tells = 1;
    assert_int_equal(find("--pmtu h", &p, &f), 0);
    assert_true(p.found && p.exact && p.confirmed);
    assert_int_equal(p.mtu, 1400);
    assert_int_equal(fake.mtu_probes, 2);
    ttcp_report_pmtu("-t", "h", &p, line, sizeof line);
    /* (the fake clock runs a millisecond a probe, and on as the core reads it) */
    assert_int_equal(strncmp(line, "ttcp-t: path MTU to h: 1400 (found by 2 probes in ", 50), 0);
    assert_non_null(strstr(line, " ms; the route's was 1500)\n"));
}

static void the_lines_say_what_is_uncertain(void **state)
{
    struct ttcp_pmtu p;
    char line[256];
    (void)state;
    memset(&p, 0, sizeof p);
    p.found = 1, p.mtu = 1200, p.top = 1200, p.probes = 1, p.elapsed_ns = 500000, p.exact = 1;
    ttcp_report_pmtu("-C", "h", &p, line, sizeof line);
    assert_string_equal(line, "ttcp-C: path MTU to h: 1200 (found by 1 probe in 0.5 ms; the host "
                              "did not answer: nothing on the way refused it)\n");
    p.exact = 0, p.cut_short = 1, p.interrupted = 1, p.top = 9000;
    ttcp_report_pmtu("-t", "h", &p, line, sizeof line);
    assert_string_equal(line, "ttcp-t: path MTU to h: 1200 (found by 1 probe in 0.5 ms; the "
                              "route's was 9000; at least: Ctrl+C cut the search short)\n");
}

/* The command line (after "ttcp") fails to parse with a reason starting so. */
static void expect_parse_error(const char *line, const char *start)
{
    static char copy[256];
    char *argv[16], why[256];
    int argc;
    snprintf(copy, sizeof copy, "%s", line);
    argc = split_args(copy, argv, 16);
    assert_int_equal(ttcp_options_parse(&opts, argc, argv, 0, why, sizeof why), -1);
    if (strncmp(why, start, strlen(start)) != 0)
        fail_msg("'%s': '%s', expected '%s...'", line, why, start);
}

static void the_rules(void **state)
{
    (void)state;
    expect_parse_error("-S --pmtu", "--pmtu is a client's to ask for");
    expect_parse_error("-r -s --pmtu", "--pmtu needs the host");
    expect_parse_error("--pmtu --json h", "--json: --pmtu alone prints one line");
    expect_parse_error("--pmtu --plot x.svg h", "--plot draws a test: --pmtu alone");
    expect_parse_error("-S --dont-fragment", "--dont-fragment is a client's to ask for");
    expect_parse_error("-t -u --pmtu -m 2 239.1.2.3", "--pmtu: a multicast group");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(one_probe_when_the_route_s_mtu_fits),
        cmocka_unit_test(the_learnt_mtu_is_tried_next),
        cmocka_unit_test(halving_finds_every_mtu_exactly),
        cmocka_unit_test(a_silent_destination_leaves_it_unconfirmed),
        cmocka_unit_test(the_count_of_probes_bounds_it),
        cmocka_unit_test(a_learnt_mtu_below_the_floor),
        cmocka_unit_test(ipv6_floor),
        cmocka_unit_test(the_engine_over_the_fake_prober),
        cmocka_unit_test(the_lines_say_what_is_uncertain),
        cmocka_unit_test(the_rules),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
