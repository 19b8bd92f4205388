/* iperf2's messages (src/peers/iperf2/wire.c) against the bytes iperf
 * 2.1.8 put on loopback (docs/COMPAT.md, "Against an iperf2 server"). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>

#include "peers/iperf2/iperf2.h"
#include "peers/iperf2/wire.h"

/* iperf -c 127.0.0.1 -p 15901 -t 1: its first 60 bytes. */
static const unsigned char captured_tcp[60] = {
    0x40, 0x01, 0x00, 0x78, 0, 0, 0, 1, 0, 0, 0x3e, 0x1d, 0, 0, 0, 0, 0, 0, 0, 0,
    0xff, 0xff, 0xff, 0x9c, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x02, 0, 0x01,
    0, 0x08, 0, 0x03, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};

/* The report iperf -s -u sent for 100 datagrams of 1470 bytes, one lost. */
static const unsigned char captured_report[128] = {
    [16] = 0x88, [25] = 0x02, [26] = 0x3e, [27] = 0x38, [33] = 0x01, [34] = 0xb4, [35] = 0xb6,
    [39] = 0x01, [47] = 0x65, [55] = 0x05};

/* iperf -c 127.0.0.1 -p 15301 -u -b 1m -t 1: the first datagram's 76 bytes
 * (sequence 1, then the client header; the rest of its 1470 is zeros). */
static const unsigned char captured_udp[76] = {
    0, 0, 0, 0x01, 0x6b, 0x0f, 0xdf, 0x5e, 0, 0x03, 0xe2, 0x0d, 0, 0, 0, 0,
    0x48, 0x01, 0, 0x98, 0, 0, 0, 1, 0, 0, 0x3b, 0xc5, 0, 0, 0, 0, 0, 0, 0, 0,
    0xff, 0xff, 0xff, 0x9c, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x02, 0, 0x01,
    0, 0x08, 0, 0x03, 0, 0, 0, 0, 0, 0x0f, 0x42, 0x40, 0, 0, 0, 0, 0, 0, 0, 0};

static void builds_what_2_1_8_sends(void **state)
{
    struct ttcp_iperf2_hdr h;
    unsigned char buf[64];
    (void)state;
    ttcp_iperf2_hdr_init(&h, 0, 1, 0, 1000000000ll);
    h.port = 15901;
    assert_int_equal(ttcp_iperf2_hdr_write(buf, sizeof buf, &h, 0), 60);
    assert_memory_equal(buf, captured_tcp, 60);
    assert_int_equal(ttcp_iperf2_hdr_write(buf, 59, &h, 0), 0);
}

static void recognises_the_header(void **state)
{
    struct ttcp_iperf2_hdr h;
    size_t len, n;
    (void)state;
    for (n = 0; n < 60; n++)
        assert_int_equal(ttcp_iperf2_hdr_recognise(captured_tcp, n, &h, &len), TTCP_IPERF2_MORE);
    assert_int_equal(ttcp_iperf2_hdr_recognise(captured_tcp, 60, &h, &len), TTCP_IPERF2_YES);
    assert_int_equal(len, 60);
    assert_int_equal(h.threads, 1);
    assert_int_equal(h.port, 15901);
    assert_int_equal(h.amount, -100);
    assert_int_equal(h.version_u, TTCP_IPERF2_VERSION_U);
}

static void refuses_classic_data(void **state)
{
    unsigned char buf[256];
    struct ttcp_iperf2_hdr h;
    size_t len, i;
    (void)state;
    for (i = 0; i < sizeof buf; i++) /* 1.12's pattern: printable bytes */
        buf[i] = (unsigned char)(' ' + i % 95);
    assert_int_equal(ttcp_iperf2_hdr_recognise(buf, 4, &h, &len), TTCP_IPERF2_NO);
    memcpy(buf, "0123456789", 10); /* iperf -c -C: its pattern, no header */
    assert_int_equal(ttcp_iperf2_hdr_recognise(buf, 4, &h, &len), TTCP_IPERF2_NO);
    memset(buf, 0, sizeof buf);
    assert_int_equal(ttcp_iperf2_hdr_recognise(buf, sizeof buf, &h, &len), TTCP_IPERF2_NO);
    memcpy(buf, captured_tcp, 60);
    buf[7] = 0; /* numThreads 0 */
    assert_int_equal(ttcp_iperf2_hdr_recognise(buf, 8, &h, &len), TTCP_IPERF2_NO);
    memcpy(buf, captured_tcp, 60);
    buf[37] = 3; /* not version 2 */
    assert_int_equal(ttcp_iperf2_hdr_recognise(buf, 60, &h, &len), TTCP_IPERF2_NO);
}

/* The shared UDP port's rule: 2.1.8's datagrams and their end, nothing
 * that breaks one part of it. */
static void recognises_udp_datagrams(void **state)
{
    unsigned char buf[1470];
    struct ttcp_iperf2_hdr h;
    size_t i;
    (void)state;
    memset(buf, 0, sizeof buf);
    memcpy(buf, captured_udp, sizeof captured_udp);
    assert_int_equal(ttcp_iperf2_udp_recognise(buf, sizeof buf, &h), TTCP_IPERF2_UDP_START);
    assert_int_equal(h.threads, 1);
    assert_int_equal(h.port, 15301);
    assert_int_equal(h.amount, -100);
    assert_int_equal(h.rate, 1000000);
    assert_int_equal(ttcp_iperf2_recognise_udp(buf, sizeof buf), TTCP_PEER_UDP_START);
    assert_int_equal(ttcp_iperf2_udp_recognise(buf, 76, &h), TTCP_IPERF2_UDP_START);
    assert_int_equal(ttcp_iperf2_udp_recognise(buf, 75, &h), TTCP_IPERF2_UDP_NO);
    memset(buf, 0xff, 4); /* sequence -89, as 2.1.8's end of 88 datagrams */
    buf[3] = 0xa7;
    memset(buf + 12, 0xff, 4);
    assert_int_equal(ttcp_iperf2_udp_recognise(buf, sizeof buf, &h), TTCP_IPERF2_UDP_END);
    assert_int_equal(ttcp_iperf2_recognise_udp(buf, sizeof buf), TTCP_PEER_UDP_END);
    memset(buf, 0, 16); /* sequence 0 */
    assert_int_equal(ttcp_iperf2_udp_recognise(buf, sizeof buf, &h), TTCP_IPERF2_UDP_NO);
    memcpy(buf, captured_udp, 16);
    buf[16] = 0x40; /* no 64-bit sequence numbers: flags 0x40010098 */
    assert_int_equal(ttcp_iperf2_udp_recognise(buf, sizeof buf, &h), TTCP_IPERF2_UDP_NO);
    memcpy(buf, captured_udp, sizeof captured_udp);
    buf[16 + 37] = 3; /* not version 2 */
    assert_int_equal(ttcp_iperf2_udp_recognise(buf, sizeof buf, &h), TTCP_IPERF2_UDP_NO);
    memcpy(buf, captured_udp, sizeof captured_udp);
    buf[19] = (unsigned char)(200u << 1); /* a header of 200 bytes, in 150 */
    assert_int_equal(ttcp_iperf2_udp_recognise(buf, 150, &h), TTCP_IPERF2_UDP_NO);
    memcpy(buf, captured_udp, sizeof captured_udp);
    buf[9] = 0x0f, buf[10] = 0x42, buf[11] = 0x40; /* 1000000 microseconds */
    assert_int_equal(ttcp_iperf2_udp_recognise(buf, sizeof buf, &h), TTCP_IPERF2_UDP_NO);
    for (i = 0; i < sizeof buf; i++) /* 1.12's pattern; then zeros */
        buf[i] = (unsigned char)(' ' + i % 95);
    assert_int_equal(ttcp_iperf2_udp_recognise(buf, sizeof buf, &h), TTCP_IPERF2_UDP_NO);
    memset(buf, 0, sizeof buf);
    assert_int_equal(ttcp_iperf2_udp_recognise(buf, sizeof buf, &h), TTCP_IPERF2_UDP_NO);
    assert_int_equal(ttcp_iperf2_recognise_udp(buf, sizeof buf), TTCP_PEER_UDP_NO);
}

/* The server row's recogniser: the wire's verdicts as the gate's. */
static void row_recogniser(void **state)
{
    unsigned char classic[8] = {' ', '!', '"', '#', '$', '%', '&', '\''};
    (void)state;
    assert_int_equal(ttcp_iperf2_recognise(captured_tcp, 60), TTCP_PEER_YES);
    assert_int_equal(ttcp_iperf2_recognise(captured_tcp, 30), TTCP_PEER_MORE);
    assert_int_equal(ttcp_iperf2_recognise(classic, sizeof classic), TTCP_PEER_NO);
}

static void recognises_v1_tradeoff(void **state)
{
    unsigned char buf[24] = {0x80, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0x13, 0x89};
    struct ttcp_iperf2_hdr h;
    size_t len;
    (void)state;
    assert_int_equal(ttcp_iperf2_hdr_recognise(buf, 23, &h, &len), TTCP_IPERF2_MORE);
    assert_int_equal(ttcp_iperf2_hdr_recognise(buf, 24, &h, &len), TTCP_IPERF2_YES);
    assert_int_equal(len, 24);
    assert_int_equal(h.threads, 2);
    assert_int_equal(h.port, 5001);
}

static void datagram_sequence(void **state)
{
    unsigned char buf[16];
    struct ttcp_iperf2_dgram d = {-46, 7, 999999}, back;
    (void)state;
    ttcp_iperf2_dgram_write(buf, &d);
    assert_int_equal(buf[0], 0xff); /* -46: low word 0xffffffd2 first */
    assert_int_equal(buf[3], 0xd2);
    assert_int_equal(buf[12], 0xff);
    assert_int_equal(ttcp_iperf2_dgram_read(buf, 16, &back), 0);
    assert_int_equal(back.seq, -46);
    assert_int_equal(back.usec, 999999);
    assert_int_equal(ttcp_iperf2_dgram_read(buf, 15, &back), -1);
}

static void server_report(void **state)
{
    struct ttcp_iperf2_report r, back;
    unsigned char buf[128];
    char why[128];
    (void)state;
    assert_int_equal(ttcp_iperf2_report_read(captured_report, 128, &r, why, sizeof why), 0);
    assert_int_equal(r.bytes, 147000);
    assert_int_equal(r.stop_ns, 111798000ll);
    assert_int_equal(r.lost, 1);
    assert_int_equal(r.datagrams, 101);
    assert_int_equal(r.jitter_ns, 5000);
    assert_int_equal(ttcp_iperf2_report_write(buf, sizeof buf, &r), 128);
    assert_memory_equal(buf + 16, captured_report + 16, 40);
    assert_int_equal(ttcp_iperf2_report_read(buf, 128, &back, why, sizeof why), 0);
    assert_int_equal(back.datagrams, 101);
    assert_int_equal(ttcp_iperf2_report_read(buf, 55, &back, why, sizeof why), -1);
    buf[16] = 0; /* no VERSION1 flag */
    assert_int_equal(ttcp_iperf2_report_read(buf, 128, &back, why, sizeof why), -1);
}

static void server_ack(void **state)
{
    unsigned char buf[28];
    size_t len;
    (void)state;
    assert_int_equal(ttcp_iperf2_ack_write(buf, sizeof buf), 28);
    assert_int_equal(ttcp_iperf2_ack_read(buf, 28, &len), 0);
    assert_int_equal(len, 28);
    assert_int_equal(ttcp_iperf2_ack_read(buf, 27, &len), -1);
    buf[3] = 1;
    assert_int_equal(ttcp_iperf2_ack_read(buf, 28, &len), -1);
}


/* iperf -c 127.0.0.1 -p 15212 -t 1 --full-duplex: its first 60 bytes (VERSION2, upper
 * flag FULLDUPLEX, no CLIENTHDRACK asked). */
static const unsigned char captured_full_duplex[60] = {
    0x44, 0x01, 0, 0x78, 0, 0, 0, 1, 0, 0, 0x3b, 0x6c, 0, 0, 0, 0, 0, 0, 0, 0,
    0xff, 0xff, 0xff, 0x9c, 0, 0, 0, 0, 0, 0, 0, 0, 0x08, 0, 0, 0, 0, 0x02, 0, 0x01,
    0, 0x08, 0, 0x03, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};

/* iperf -c 127.0.0.1 -p 15222 -u -b 10m -t 1 --full-duplex: the client header after the
 * sequence (UDPTESTS, VERSION2; FULLDUPLEX | NOUDPFIN; the rate, 10000000). */
static const unsigned char captured_udp_full_duplex[60] = {
    0x6c, 0x01, 0, 0x98, 0, 0, 0, 1, 0, 0, 0x3b, 0x76, 0, 0, 0, 0, 0, 0, 0, 0,
    0xff, 0xff, 0xff, 0x9c, 0, 0, 0, 0, 0, 0, 0, 0, 0x08, 0x08, 0, 0, 0, 0x02, 0, 0x01,
    0, 0x08, 0, 0x03, 0, 0, 0, 0, 0, 0x98, 0x96, 0x80, 0, 0, 0, 0, 0, 0, 0, 0};

static void builds_full_duplex_headers(void **state)
{
    struct ttcp_iperf2_hdr h;
    unsigned char buf[76];
    (void)state;
    ttcp_iperf2_hdr_init(&h, 0, 1, 0, 1000000000ll);
    h.port = 15212;
    h.flags |= TTCP_IPERF2_VERSION2;
    h.upper |= TTCP_IPERF2_UP_FULLDUPLEX;
    assert_int_equal(ttcp_iperf2_hdr_write(buf, sizeof buf, &h, 0), 60);
    assert_memory_equal(buf, captured_full_duplex, 60);
    ttcp_iperf2_hdr_init(&h, 1, 1, 0, 1000000000ll);
    h.port = 15222;
    h.rate = 10000000;
    h.flags |= TTCP_IPERF2_VERSION2 | TTCP_IPERF2_UDPTESTS;
    h.upper |= TTCP_IPERF2_UP_FULLDUPLEX | TTCP_IPERF2_UP_NOUDPFIN;
    assert_int_equal(ttcp_iperf2_hdr_write(buf, sizeof buf, &h, 1), 60);
    assert_memory_equal(buf + 16, captured_udp_full_duplex, 60);
}

/* A receiver's reading of a sender's datagrams: sequence from 0, moments
 * from the first, the end -(last + 1) as the datagram after the last. */
static void arrivals_from_the_first(void **state)
{
    struct ttcp_iperf2_arrivals a;
    unsigned char buf[16];
    uint64_t seq = 99;
    int64_t sent = -1;
    (void)state;
    memset(&a, 0, sizeof a);
    ttcp_iperf2_dgram_stamp(buf, 1, 1796221027602000000ll);
    assert_int_equal(ttcp_iperf2_dgram_take(&a, buf, 16, &seq, &sent), TTCP_IPERF2_TAKE_DATA);
    assert_int_equal(seq, 0);
    assert_int_equal(sent, 0);
    ttcp_iperf2_dgram_stamp(buf, 2, 1796221027603176999ll); /* microseconds: 603176 */
    assert_int_equal(ttcp_iperf2_dgram_take(&a, buf, 16, &seq, &sent), TTCP_IPERF2_TAKE_DATA);
    assert_int_equal(seq, 1);
    assert_int_equal(sent, 1176000);
    assert_int_equal(a.ended, 0);
    ttcp_iperf2_dgram_stamp(buf, -853, 1796221028605000000ll);
    assert_int_equal(ttcp_iperf2_dgram_take(&a, buf, 16, &seq, &sent), TTCP_IPERF2_TAKE_END);
    assert_int_equal(seq, 852);
    assert_int_equal(sent, 1003000000);
    assert_int_equal(a.ended, 1);
    ttcp_iperf2_dgram_stamp(buf, 0, 1796221028605000000ll); /* sequence 0: not a datagram of it */
    assert_int_equal(ttcp_iperf2_dgram_take(&a, buf, 16, &seq, &sent), TTCP_IPERF2_TAKE_NONE);
    assert_int_equal(ttcp_iperf2_dgram_take(&a, buf, 15, &seq, &sent), TTCP_IPERF2_TAKE_NONE);
    ttcp_iperf2_dgram_stamp(buf, 5, -1); /* a moment before 0 is taken as 0 */
    assert_int_equal(buf[4] | buf[5] | buf[6] | buf[7] | buf[8] | buf[9] | buf[10] | buf[11], 0);
}

/* iperf -c 127.0.0.1 -p 15301 -u -b 1m -n 20000 -r -L 15302: the first
 * datagram's 76 bytes (VERSION1: the server sends back after; mPort the
 * -L port; mAmount 20000 bytes; the rate, 1000000). */
static const unsigned char captured_udp_tradeoff[76] = {
    0, 0, 0, 0x01, 0x6b, 0x10, 0x32, 0xe6, 0, 0x0c, 0xb4, 0x2b, 0, 0, 0, 0,
    0xc8, 0x01, 0, 0x98, 0, 0, 0, 1, 0, 0, 0x3b, 0xc6, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0x4e, 0x20, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x02, 0, 0x01,
    0, 0x08, 0, 0x03, 0, 0, 0, 0, 0, 0x0f, 0x42, 0x40, 0, 0, 0, 0, 0, 0, 0, 0};

/* What each header asks the server to send: -r, -d (the same with
 * RUN_NOW: flags 0xc8010099, as 2.1.8 sent them), -R, none. */
static void asks_the_server_to_send(void **state)
{
    unsigned char buf[1470];
    struct ttcp_iperf2_hdr h;
    size_t len;
    (void)state;
    memset(buf, 0, sizeof buf);
    memcpy(buf, captured_udp_tradeoff, sizeof captured_udp_tradeoff);
    assert_int_equal(ttcp_iperf2_udp_recognise(buf, sizeof buf, &h), TTCP_IPERF2_UDP_START);
    assert_int_equal(h.port, 15302);
    assert_int_equal(h.amount, 20000);
    assert_int_equal(h.rate, 1000000);
    assert_int_equal(ttcp_iperf2_hdr_send(&h), TTCP_IPERF2_SEND_BACK_AFTER);
    buf[19] = 0x99;
    assert_int_equal(ttcp_iperf2_udp_recognise(buf, sizeof buf, &h), TTCP_IPERF2_UDP_START);
    assert_int_equal(ttcp_iperf2_hdr_send(&h), TTCP_IPERF2_SEND_BACK_NOW);
    buf[16] |= 0x04; /* VERSION2 beside VERSION1: no v1 test */
    assert_int_equal(ttcp_iperf2_udp_recognise(buf, sizeof buf, &h), TTCP_IPERF2_UDP_START);
    assert_int_equal(ttcp_iperf2_hdr_send(&h), TTCP_IPERF2_SEND_NONE);
    memcpy(buf, captured_udp_tradeoff, sizeof captured_udp_tradeoff);
    buf[16 + 32] = 0x04; /* the upper flag REVERSE: -R wins */
    assert_int_equal(ttcp_iperf2_udp_recognise(buf, sizeof buf, &h), TTCP_IPERF2_UDP_START);
    assert_int_equal(ttcp_iperf2_hdr_send(&h), TTCP_IPERF2_SEND_SAME);
    memcpy(buf, captured_udp, sizeof captured_udp);
    assert_int_equal(ttcp_iperf2_udp_recognise(buf, sizeof buf, &h), TTCP_IPERF2_UDP_START);
    assert_int_equal(ttcp_iperf2_hdr_send(&h), TTCP_IPERF2_SEND_NONE);
    assert_int_equal(ttcp_iperf2_hdr_recognise(captured_tcp, 60, &h, &len), TTCP_IPERF2_YES);
    assert_int_equal(ttcp_iperf2_hdr_send(&h), TTCP_IPERF2_SEND_NONE);
}

/* iperf -c 127.0.0.1 -p 15311 -u -b 5g -t 0.2 -S 0x10: the client header
 * after the sequence: the rate's low word 0x2a05f200 and its high one
 * 0x100 (bit 32 of 5000000000, 8 bits up), the TOS in a word of its own. */
static const unsigned char captured_udp_5g[60] = {
    0x48, 0x01, 0, 0x98, 0, 0, 0, 1, 0, 0, 0x3b, 0xcf, 0, 0, 0, 0, 0, 0, 0, 0,
    0xff, 0xff, 0xff, 0xec, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x02, 0, 0x01,
    0, 0x08, 0, 0x03, 0, 0, 0, 0x10, 0x2a, 0x05, 0xf2, 0, 0, 0, 0x01, 0, 0, 0, 0, 0};

static void rate_above_32_bits(void **state)
{
    unsigned char buf[76], again[76];
    struct ttcp_iperf2_hdr h;
    (void)state;
    memset(buf, 0, sizeof buf);
    ttcp_iperf2_dgram_stamp(buf, 1, 1796223705000000000ll);
    memcpy(buf + 16, captured_udp_5g, sizeof captured_udp_5g);
    assert_int_equal(ttcp_iperf2_udp_recognise(buf, sizeof buf, &h), TTCP_IPERF2_UDP_START);
    assert_int_equal(h.rate, 5000000000ull);
    assert_int_equal(h.tos, 0x10);
    assert_int_equal(h.amount, -20);
    memcpy(again, buf, 16);
    assert_int_equal(ttcp_iperf2_hdr_write(again, sizeof again, &h, 1), 60);
    assert_memory_equal(again + 16, captured_udp_5g, 60);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(builds_what_2_1_8_sends), cmocka_unit_test(recognises_the_header),
        cmocka_unit_test(refuses_classic_data), cmocka_unit_test(recognises_v1_tradeoff),
        cmocka_unit_test(datagram_sequence), cmocka_unit_test(server_report),
        cmocka_unit_test(server_ack), cmocka_unit_test(row_recogniser),
        cmocka_unit_test(recognises_udp_datagrams), cmocka_unit_test(builds_full_duplex_headers),
        cmocka_unit_test(arrivals_from_the_first), cmocka_unit_test(asks_the_server_to_send),
        cmocka_unit_test(rate_above_32_bits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
