/* nuttcp's messages (src/peers/nuttcp/wire.h) against the lines Debian's
 * nuttcp 6.1.2 sent on loopback (docs/COMPAT.md), and the datagram
 * dialect's pieces (engine/udp.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "engine/udp.h"
#include "peers/nuttcp/wire.h"

/* As 6.1.2's client sent it for nuttcp -T1 -i0.5. */
static const char seen_params[] =
    "buflen = 65536, nbuf = 2147483647, win = 0, nstream = 1, rate = 4294967295, "
    "port = 58842, trans = 1, braindead = 0, timeout = 1.000000, udp = 0, vers = 6.1.2, "
    "interval = 0.500000, reverse = 0, format = 2048, traceroute = 0, irate = 0, "
    "thirdparty = _NULL_ , multicast = 0 , datamss = 0 , tos = 0 , nbuf_bytes = 0 , "
    "rate_pps = 0 , nodelay = 0\n";

static void helo_both_ways(void **state)
{
    struct ttcp_nuttcp_version v = TTCP_NUTTCP_SPOKEN, r;
    char buf[64], why[128];
    (void)state;
    assert_int_equal(ttcp_nuttcp_helo(&v, buf, sizeof buf), 19);
    assert_string_equal(buf, "HELO nuttcp v6.1.2\n");
    assert_int_equal(ttcp_nuttcp_read_helo("HELO nuttcp v8.2.2\n", &r, why, sizeof why), 0);
    assert_int_equal(r.major, 8);
    assert_int_equal(ttcp_nuttcp_read_helo("HELO iperf v8.2.2", &r, why, sizeof why), -1);
    assert_int_equal(ttcp_nuttcp_read_helo("HELO nuttcp v1.2.99999", &r, why, sizeof why), -1);
    assert_int_equal(ttcp_nuttcp_read_helo("HELO nuttcp v1.2.3 junk", &r, why, sizeof why), -1);
}

static void params_as_seen(void **state)
{
    struct ttcp_nuttcp_params p;
    char why[128];
    (void)state;
    assert_int_equal(ttcp_nuttcp_read_params(seen_params, &p, why, sizeof why), 0);
    assert_int_equal(p.buflen, 65536);
    assert_int_equal(p.nbuf, TTCP_NUTTCP_NBUF_FOREVER);
    assert_int_equal(p.rate_kbps, TTCP_NUTTCP_RATE_NONE);
    assert_int_equal(p.port, 58842);
    assert_int_equal(p.trans, 1);
    assert_true(p.interval_s > 0.49 && p.interval_s < 0.51);
    assert_int_equal(p.vers.delta, 2);
    assert_int_equal(p.format, 2048);
    assert_int_equal(p.thirdparty, 0);
}

/* Built as 6.1.2 builds it: the same line, byte for byte. */
static void params_built_as_seen(void **state)
{
    struct ttcp_nuttcp_params p;
    char line[TTCP_NUTTCP_LINE_MAX];
    (void)state;
    ttcp_nuttcp_params_init(&p);
    p.port = 58842;
    p.timeout_s = 1.0;
    p.interval_s = 0.5;
    assert_int_equal(ttcp_nuttcp_params_line(&p, line, sizeof line), strlen(seen_params));
    assert_string_equal(line, seen_params);
    assert_int_equal(ttcp_nuttcp_params_line(&p, line, 40), 0);
}

static void params_bounded(void **state)
{
    static const char *bad[] = {
        "buflen = 0, nbuf = 1, win = 0, nstream = 1, rate = 1, port = 5001, trans = 1, "
        "braindead = 0, timeout = 1, udp = 0, vers = 6.1.2",
        "buflen = 8, nbuf = 1, win = 0, nstream = 129, rate = 1, port = 5001, trans = 1, "
        "braindead = 0, timeout = 1, udp = 0, vers = 6.1.2",
        "buflen = 8, nbuf = 1, win = 0, nstream = 2, rate = 1, port = 65535, trans = 1, "
        "braindead = 0, timeout = 1, udp = 0, vers = 6.1.2",
        "buflen = 8, nbuf = 1, win = 0, nstream = 1, rate = 1, port = 80, trans = 1, "
        "braindead = 0, timeout = 1, udp = 0, vers = 6.1.2",
        "buflen = 8, nbuf = 1, win = 0, nstream = 1, rate = 1, port = 5001, trans = 2, "
        "braindead = 0, timeout = 1, udp = 0, vers = 6.1.2",
        "buflen = 8, nbuf = 1, win = 0, nstream = 1, rate = 1, port = 5001, trans = 1, "
        "braindead = 0, timeout = nan, udp = 0, vers = 6.1.2",
        "buflen = 8, nbuf = 1, win = 0, nstream = 1, rate = 1, port = 5001, trans = 1, "
        "braindead = 0, timeout = 1, udp = 0",
        "buflen = 8, buflen = 8, nbuf = 1, win = 0, nstream = 1, rate = 1, port = 5001, "
        "trans = 1, braindead = 0, timeout = 1, udp = 0, vers = 6.1.2",
        "buflen = 99999999999, nbuf = 1, win = 0, nstream = 1, rate = 1, port = 5001, "
        "trans = 1, braindead = 0, timeout = 1, udp = 0, vers = 6.1.2",
    };
    struct ttcp_nuttcp_params p;
    char why[128];
    size_t i;
    (void)state;
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        why[0] = '\0';
        assert_int_equal(ttcp_nuttcp_read_params(bad[i], &p, why, sizeof why), -1);
        assert_true(why[0] != '\0');
    }
}

static void answers(void **state)
{
    struct ttcp_nuttcp_version v = {6, 1, 2};
    char buf[32];
    (void)state;
    assert_int_equal(ttcp_nuttcp_ok(&v, buf, sizeof buf), 10);
    assert_string_equal(buf, "OK v6.1.2\n");
    assert_int_equal(ttcp_nuttcp_read_answer("OK v8.2.2", &v), TTCP_NUTTCP_ANSWER_OK);
    assert_int_equal(v.major, 8);
    assert_int_equal(ttcp_nuttcp_read_answer("KO", &v), TTCP_NUTTCP_ANSWER_KO);
    assert_int_equal(ttcp_nuttcp_read_answer("nuttcp-r: Error: busy", &v),
                     TTCP_NUTTCP_ANSWER_TEXT);
}

/* The lines 6.1.2's receiving server sent after nuttcp -T1 -i0.5. */
static void result_lines(void **state)
{
    struct ttcp_nuttcp_report r;
    (void)state;
    memset(&r, 0, sizeof r);
    assert_int_equal(ttcp_nuttcp_read_line("nuttcp-r: v6.1.2: socket", &r),
                     TTCP_NUTTCP_LINE_OTHER);
    assert_int_equal(ttcp_nuttcp_read_line("   93.7500 MB /   0.50 sec = 1572.2351 Mbps     0 "
                                           "retrans", &r), TTCP_NUTTCP_LINE_INTERVAL);
    assert_true(r.iv_retrans_valid && r.iv_megabytes > 93.74);
    assert_int_equal(ttcp_nuttcp_read_line("    0.5951 MB /   0.50 sec =    9.9798 Mbps     0 /"
                                           "   624 ~drop/pkt  0.00 ~%loss", &r),
                     TTCP_NUTTCP_LINE_INTERVAL);
    assert_true(r.iv_drops_valid && r.iv_packets == 624);
    assert_int_equal(ttcp_nuttcp_read_line("DONE", &r), TTCP_NUTTCP_LINE_DONE);
    assert_int_equal(ttcp_nuttcp_read_line("nuttcp-r: 162.0000 MB in 1.00 real seconds = "
                                           "165790.35 KB/sec = 1358.1545 Mbps", &r),
                     TTCP_NUTTCP_LINE_TOTAL);
    assert_int_equal(r.side, 'r');
    assert_int_equal(ttcp_nuttcp_bytes(r.megabytes), 162ull << 20);
    assert_int_equal(ttcp_nuttcp_read_line("nuttcp-r: 162.0000 MB in 0.09 CPU seconds = "
                                           "1908996.75 KB/cpu sec", &r), TTCP_NUTTCP_LINE_CPU);
    assert_int_equal(ttcp_nuttcp_read_line("nuttcp-t: retrans = 7", &r),
                     TTCP_NUTTCP_LINE_RETRANS);
    assert_int_equal(r.retrans, 7);
    assert_int_equal(ttcp_nuttcp_read_line("nuttcp-r: 0.0user 0.6sys 0:01real 8% 0i+0d "
                                           "896maxrss 0+0pf 7792+3csw", &r),
                     TTCP_NUTTCP_LINE_RUSAGE);
    assert_int_equal(r.cpu_pct, 8);
    assert_true(r.sys_s > 0.59 && r.sys_s < 0.61);
    assert_int_equal(ttcp_nuttcp_read_line("nuttcp-r: Error: no data\x01", &r),
                     TTCP_NUTTCP_LINE_ERROR);
    assert_string_equal(r.error, "Error: no data?");
    assert_int_equal(ttcp_nuttcp_read_line("nuttcp-r: Error: \xb0", &r), TTCP_NUTTCP_LINE_ERROR);
    assert_string_equal(r.error, "Error: ?");
}

/* What the server end builds reads back as the same figures. */
static void result_lines_round_trip(void **state)
{
    struct ttcp_nuttcp_report r;
    char line[256];
    (void)state;
    memset(&r, 0, sizeof r);
    assert_true(ttcp_nuttcp_total_line(0, 'r', 3ull << 20, 2.0, line, sizeof line) > 0);
    assert_int_equal(ttcp_nuttcp_read_line(line, &r), TTCP_NUTTCP_LINE_TOTAL);
    assert_int_equal(ttcp_nuttcp_bytes(r.megabytes), 3ull << 20);
    assert_true(ttcp_nuttcp_rusage_line(0, 'r', 0.1, 0.4, 2.0, 25, line, sizeof line) > 0);
    assert_int_equal(ttcp_nuttcp_read_line(line, &r), TTCP_NUTTCP_LINE_RUSAGE);
    assert_int_equal(r.cpu_pct, 25);
    assert_true(ttcp_nuttcp_retrans_line(0, 3, line, sizeof line) > 0);
    assert_int_equal(ttcp_nuttcp_read_line(line, &r), TTCP_NUTTCP_LINE_RETRANS);
    assert_true(ttcp_nuttcp_interval_line(0, 1u << 20, 1.0, 1, 0, 2, 100, line, sizeof line) > 0);
    assert_int_equal(ttcp_nuttcp_read_line(line, &r), TTCP_NUTTCP_LINE_INTERVAL);
    assert_true(r.iv_drops_valid && r.iv_drops == 2 && r.iv_packets == 100);
}

/* -fparse's key=value lines, in the shapes 6.1.2's server sends and its
 * client reads (its summary is zero on any other shape). */
static void parse_lines(void **state)
{
    char line[256];
    (void)state;
    assert_true(ttcp_nuttcp_total_line(1, 'r', 3ull << 20, 2.0, line, sizeof line) > 0);
    assert_string_equal(line, "nuttcp-r: megabytes=3.0000 real_seconds=2.00 rate_KBps=1536.00 "
                              "rate_Mbps=12.5829\n");
    assert_true(ttcp_nuttcp_cpu_line(1, 'r', 3ull << 20, 0.5, line, sizeof line) > 0);
    assert_string_equal(line, "nuttcp-r: megabytes=3.0000 cpu_seconds=0.50 "
                              "KB_per_cpu_second=6144.00\n");
    assert_true(ttcp_nuttcp_retrans_line(1, 3, line, sizeof line) > 0);
    assert_string_equal(line, "nuttcp-t: retrans=3\n");
    assert_true(ttcp_nuttcp_rusage_line(1, 't', 0.1, 0.4, 2.0, 25, line, sizeof line) > 0);
    assert_string_equal(line, "nuttcp-t: stats=cpu user=0.1 system=0.4 elapsed=0:02 cpu=25% "
                              "memory=0i+0d-0maxrss io=0+0pf swaps=0+0csw\n");
    assert_true(ttcp_nuttcp_interval_line(1, 1u << 20, 1.0, 0, 2, 0, 0, line, sizeof line) > 0);
    assert_string_equal(line, "megabytes=1.0000 real_sec=1.00 rate_Mbps=8.3886 retrans=2\n");
    assert_true(ttcp_nuttcp_interval_line(1, 1u << 20, 1.0, 1, 0, 2, 100, line, sizeof line) > 0);
    assert_string_equal(line, "megabytes=1.0000 real_sec=1.00 rate_Mbps=8.3886 drop=2 pkt=100 "
                              "data_loss=2.00000\n");
}

static void datagram_dialect(void **state)
{
    unsigned char m[4], d[64];
    enum ttcp_udp_state st = TTCP_UDP_WAITING;
    int order = 0;
    (void)state;
    ttcp_nuttcp_marker(1, 1, m);
    assert_memory_equal(m, "BOD1", 4);
    ttcp_nuttcp_marker(0, 4, m);
    assert_memory_equal(m, "EOD4", 4);
    assert_int_equal(ttcp_nuttcp_step(&st, (const unsigned char *)"EOD0", 4), TTCP_UDP_IGNORE);
    assert_int_equal(ttcp_nuttcp_step(&st, (const unsigned char *)"BOD0", 4), TTCP_UDP_START);
    assert_int_equal(ttcp_nuttcp_step(&st, (const unsigned char *)"BOD1", 4), TTCP_UDP_START);
    memset(d, 'x', sizeof d);
    assert_int_equal(ttcp_nuttcp_step(&st, d, sizeof d), TTCP_UDP_DATA);
    assert_int_equal(ttcp_nuttcp_step(&st, (const unsigned char *)"EOD0", 4), TTCP_UDP_END);
    assert_int_equal(ttcp_nuttcp_step(&st, (const unsigned char *)"EOD1", 4), TTCP_UDP_IGNORE);
    ttcp_nuttcp_count_write(d, sizeof d, 1250000);
    assert_int_equal(d[24], 0xd0); /* 0x1312d0, little-endian, as 6.1.2 sent it */
    assert_int_equal(ttcp_nuttcp_count_read(d, sizeof d, &order), 1250000);
    assert_int_equal(order, 1);
    order = 0;
    memset(d + 24, 0, 8);
    d[31] = 0x10; /* a big-endian sender's 16 */
    assert_int_equal(ttcp_nuttcp_count_read(d, sizeof d, &order), 16);
    assert_int_equal(ttcp_nuttcp_count_read(d, 31, &order), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(helo_both_ways),      cmocka_unit_test(params_as_seen),
        cmocka_unit_test(params_built_as_seen), cmocka_unit_test(params_bounded),
        cmocka_unit_test(answers),             cmocka_unit_test(result_lines),
        cmocka_unit_test(result_lines_round_trip),
        cmocka_unit_test(parse_lines), cmocka_unit_test(datagram_dialect),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
