/* libFuzzer: the conversation's messages as a server or a client reads them
 * (src/remote/): a body, parsed, then read as a test request against a
 * server with limits (streams, buffers, hop limit too), as ready, result,
 * interval, a trace's frames, and a third party's (a request with its
 * target, host1's answers, at), a --latency probe hello, a server's
 * browser tests (web_result, web_results_end); the raw bytes as
 * a probe's echo. Whatever the fields,
 * each reader returns 0 or -1 with a printable reason, and a test it takes
 * is within the server's limits and passes the options' own validation. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "remote/probe.h"
#include "remote/wire.h"
#include "remote/wire_web.h"

static void check_reason(const char *why)
{
    size_t i;
    for (i = 0; why[i] != '\0'; i++)
        if ((unsigned char)why[i] < 0x20 || (unsigned char)why[i] > 0x7e)
            abort();
}

static void read_as_test(const struct ttcp_message *m)
{
    struct ttcp_options server, probe;
    struct ttcp_grant g;
    char why[256] = "";
    memset(&server, 0, sizeof server);
    server.port = 5001;
    server.idle_timeout_ns = TTCP_DEFAULT_IDLE_NS;
    server.max_time_ns = 5000000000ll;
    server.max_rate_bps = 1000000;
    if (ttcp_wire_read_test(m, &server, &g, why, sizeof why) != 0) {
        check_reason(why);
        return;
    }
    if (g.opts.limit_ns != server.max_time_ns || g.opts.pace_bps == 0 ||
        g.opts.pace_bps > server.max_rate_bps || g.opts.buflen == 0 || g.opts.streams < 1 ||
        g.opts.streams > TTCP_STREAMS_MAX ||
        g.opts.streams * g.opts.buflen > TTCP_SERVER_TEST_MEMORY ||
        (g.group[0] != '\0' && (g.ttl != 1 || ttcp_options_multicast(g.group) == 0)) ||
        g.opts.tos > 255 || (g.opts.mss != 0 && (g.opts.mss < 88 || g.opts.mss > 65535)) ||
        (g.opts.congestion != NULL && strlen(g.opts.congestion) > TTCP_CONGESTION_MAX) ||
        g.opts.omit_ns < 0 || g.opts.omit_ns > 3600ll * 1000000000ll ||
        (g.opts.omit_ns && g.opts.duration_ns && g.opts.omit_ns >= g.opts.duration_ns) ||
        (g.opts.dont_fragment & ~1) || (g.latency & ~1) || g.opts.latency ||
        g.latency_idle_ns < 0 || g.latency_idle_ns > 60ll * 1000000000ll ||
        (!g.latency && g.latency_idle_ns != 0) ||
        (g.target[0] != '\0' && (!ttcp_options_target_ok(g.target) || g.target_port < 1 ||
                                  g.target_port > 65535 || g.group[0] != '\0' || g.traceroute)) ||
        (g.target[0] != '\0') != (strcmp(ttcp_proto_type(m), "third_party") == 0))
        abort(); /* a limit the client got past (the server's --max-ttl: 1), a mark, --omit, or
                  * a target: only a third party's, a host's name or address, with a port */
    ttcp_wire_side(&g, 1, &probe);
    if (ttcp_options_validate(&probe, why, sizeof why) != 0)
        abort();
}

/* A server's trace back: hops within their bounds, a round trip for each
 * probe that answered (the reader refuses one without an address). */
static void read_as_trace(const struct ttcp_message *m)
{
    struct ttcp_hop h;
    struct ttcp_trace t;
    char why[256] = "";
    int i, answered = 0, failed;
    if (ttcp_wire_read_hop(m, &h, why, sizeof why) == 0) {
        if (h.ttl < 1 || h.ttl > TTCP_TRACE_MAX_HOPS)
            abort();
        for (i = 0; i < TTCP_TRACE_PROBES; i++)
            answered += h.rtt_ns[i] >= 0;
        if (answered != h.answered)
            abort();
    }
    check_reason(why);
    if (ttcp_wire_read_trace(m, &t, why, sizeof why) == 0 && !t.dest_valid)
        abort();
    check_reason(why);
    if (ttcp_wire_read_trace_end(m, &t, &failed, why, sizeof why) == 0 && (failed & ~1))
        abort();
    check_reason(why);
}

/* A third party's answers (-C host1 host2): numeric addresses, a port, the
 * streams asked for; a problem within the enum and printable words; at. */
static void read_as_third(const struct ttcp_message *m)
{
    struct ttcp_options client;
    struct ttcp_third t;
    struct ttcp_failure f;
    unsigned char ip[16];
    char why[256] = "", text[256];
    int problem, far;
    memset(&client, 0, sizeof client);
    client.streams = 1;
    if (ttcp_wire_read_third_ready(m, &client, &t, why, sizeof why) == 0 &&
        (tt_ip_parse(t.target, ip) == 0 || tt_ip_parse(t.client, ip) == 0 ||
         t.target_port < 1 || t.target_port > 65535 || client.limit_ns < 0))
        abort();
    check_reason(why);
    if (ttcp_wire_read_third_done(m, &problem, &f, text, sizeof text, why, sizeof why) == 0) {
        if (problem < TTCP_CLIENT_OK || problem > TTCP_CLIENT_LOCAL || f.code > 0)
            abort();
        check_reason(text);
    }
    check_reason(why);
    if (ttcp_wire_read_at(m, &far, why, sizeof why) == 0 && (far & ~1))
        abort();
    check_reason(why);
}

/* A server's browser tests: each figure within its bound, the flags
 * 0 or 1, none without its valid bit, a count at most the kept. */
static void read_as_web(const struct ttcp_message *m)
{
    struct ttcp_web_record r;
    char why[256] = "";
    int n;
    if (ttcp_wire_read_web_result(m, &r, why, sizeof why) == 0) {
        const struct ttcp_web_figures *f = &r.f;
        if (r.seq < 1 || r.age_ns < 0 || f->end < TTCP_WEB_DONE || f->end > TTCP_WEB_STOPPED ||
            (f->down_valid & ~1) || (f->up_valid & ~1) || (f->latency_valid & ~1) ||
            f->down_bps < 0 || f->down_bps > 1e13 || f->up_bps < 0 || f->up_bps > 1e13 ||
            f->up_ns < 0 || f->idle_ms < 0 || f->idle_ms > 3.6e6 || f->loaded_ms < 0 ||
            f->loaded_ms > 3.6e6 || f->jitter_ms < 0 || f->jitter_ms > 3.6e6 || f->grade < 0 ||
            f->grade > 5 || (!f->down_valid && (f->down_bps != 0 || f->down_bytes != 0)) ||
            (!f->up_valid && (f->up_bps != 0 || f->up_bytes != 0 || f->up_ns != 0)) ||
            (!f->latency_valid && (f->idle_ms != 0 || f->grade != 0)))
            abort();
    }
    check_reason(why);
    if (ttcp_wire_read_web_results_end(m, &n, why, sizeof why) == 0 &&
        (n < 0 || n > TTCP_WEB_KEPT))
        abort();
    check_reason(why);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static struct ttcp_message m;
    static struct ttcp_result r;
    struct ttcp_options client;
    struct ttcp_interval in;
    char why[256] = "", token[TTCP_TOKEN_HEX + 1];
    int stream;

    uint32_t seq;
    int64_t sent;
    if (ttcp_probe_read(data, size, &seq, &sent) == 0 && size != TTCP_PROBE_LEN)
        abort(); /* an echo is a probe's size exactly */
    if (ttcp_proto_parse(data, size, &m, why, sizeof why) != 0)
        return 0;
    if (ttcp_probe_read_hello(&m, token) && !ttcp_wire_token_ok(token))
        abort();
    read_as_test(&m);
    memset(&client, 0, sizeof client);
    client.streams = 1;
    if (ttcp_wire_read_ready(&m, &client, token, why, sizeof why) == 0 &&
        !ttcp_wire_token_ok(token))
        abort();
    if (ttcp_wire_read_result(&m, &stream, &r, why, sizeof why) == 0 &&
        (stream < 0 || stream >= TTCP_STREAM_IDS || r.real_ns < 0 || r.tos < 0 || r.tos > 255 ||
         (r.congestion_valid && memchr(r.congestion, '\0', sizeof r.congestion) == NULL) ||
         r.omitted_ns < 0 || r.omitted != (r.omitted_ns > 0) ||
         r.failure.path_mtu < 0 || r.failure.path_mtu > 65535))
        abort(); /* the far end's marks: a byte, a name within its room; --omit; an MTU */
    if (ttcp_wire_read_interval(&m, &stream, &in, why, sizeof why) == 0 &&
        (stream < 0 || stream >= TTCP_STREAM_IDS || in.end_ns < in.start_ns ||
         (in.omitted != 0 && in.omitted != 1)))
        abort();
    read_as_trace(&m);
    read_as_third(&m);
    read_as_web(&m);
    check_reason(why);
    return 0;
}
