/* A server's notices and a client's summary line. */
#include "report/report_server.h"

#include "base/rate.h"
#include "base/text.h"
#include "ttcp/platform.h"

size_t ttcp_report_notice(const struct ttcp_options *o, enum ttcp_notice what,
                          const char *peer, char *buf, size_t len)
{
    static const char *const words[] = {
        [TTCP_NOTICE_LISTENING] = "",
        [TTCP_NOTICE_NOT_ALLOWED] = "refused: not in --allow",
        [TTCP_NOTICE_BUSY] = "turned away: busy (--max-clients)",
        [TTCP_NOTICE_CROWDED] = "closed: too many connections still opening",
        [TTCP_NOTICE_BAD_HELLO] = "closed: not the ttcp protocol",
        [TTCP_NOTICE_HELLO_TIMEOUT] = "closed: no hello within 5 s",
        [TTCP_NOTICE_IDLE] = "closed: nothing sent within --idle-timeout",
        [TTCP_NOTICE_BAD_TOKEN] = "closed: a data connection no test expects",
        [TTCP_NOTICE_VERSION] = "refused: no protocol version in common",
        [TTCP_NOTICE_AUTH_FAILED] = "refused: authentication failed (--key-file)",
        [TTCP_NOTICE_REFUSED_TEST] = "refused: the test asked for is out of range",
        [TTCP_NOTICE_CONTROL_LOST] = "ended: the client went away or stalled",
        [TTCP_NOTICE_THIRD_PARTY] = "runs its test to a third host (--third-party)",
        [TTCP_NOTICE_THIRD_REFUSED] = "refused: a test to a third host (--third-party)",
    };
    struct ttcp_text t = {buf, len, 0};
    if (what == TTCP_NOTICE_LISTENING) {
        ttcp_text_add(&t, "ttcp-S: serving on port %llu, %s%s\n", (unsigned long long)o->port,
                      o->once ? "TCP and UDP, one test" : "TCP and UDP", o->key_file ? ", with a key" : "");
        return t.used;
    }
    if ((unsigned)what >= TTCP_NOTICE_COUNT)
        return 0;
    ttcp_text_add(&t, "ttcp-S: %s: %s\n", peer ? peer : "?", words[what]);
    return t.used;
}

size_t ttcp_report_peer_port(const char *tool, uint64_t port, int code, int native, char *buf,
                             size_t len)
{
    struct ttcp_text t = {buf, len, 0};
    char why[256];
    if (code == 0)
        ttcp_text_add(&t, "ttcp-S: serving %s clients on port %llu\n", tool,
                      (unsigned long long)port);
    else
        ttcp_text_add(&t, "ttcp-S: not serving %s clients: port %llu: %s\n", tool,
                      (unsigned long long)port, tt_error_text(code, native, why, sizeof why));
    return t.used;
}

uint64_t ttcp_report_udp_sent(const struct ttcp_options *o, const struct ttcp_result *tx,
                              const struct ttcp_result *rx)
{
    uint64_t by_bytes = o->buflen ? tx->bytes / o->buflen : 0;
    return by_bytes > rx->udp.expected ? by_bytes : rx->udp.expected;
}

double ttcp_report_cpu_percent(const struct ttcp_result *r)
{
    int64_t cpu = (r->cpu_end.user_ns - r->cpu_start.user_ns) +
                  (r->cpu_end.sys_ns - r->cpu_start.sys_ns);
    if (r->real_ns <= 0 || cpu <= 0)
        return 0.0;
    return 100.0 * (double)cpu / (double)r->real_ns;
}

size_t ttcp_report_summary(const struct ttcp_options *o, const char *direction,
                           const struct ttcp_result *tx, const struct ttcp_result *rx,
                           char *buf, size_t len)
{
    struct ttcp_text t = {buf, len, 0};
    double secs = rx->real_ns > 0 ? (double)rx->real_ns / 1e9 : 0.001;
    char rate[64];
    ttcp_text_add(&t, "ttcp-C: %s %llu bytes / %.2f sec = %s%s %lld %%TX %lld %%RX", direction,
                  (unsigned long long)rx->bytes, secs,
                  ttcp_unit_format(o->unit, (double)rx->bytes / secs, rate, sizeof rate),
                  ttcp_unit_per_sec(o->unit), (long long)(ttcp_report_cpu_percent(tx) + 0.5),
                  (long long)(ttcp_report_cpu_percent(rx) + 0.5));
    if (rx->udp_stats_valid) {
        uint64_t sent = ttcp_report_udp_sent(o, tx, rx);
        uint64_t lost = sent > rx->udp.datagrams ? sent - rx->udp.datagrams : 0;
        ttcp_text_add(&t, " %llu / %llu lost (%.2f%%) %.3f ms jitter", (unsigned long long)lost,
                      (unsigned long long)sent, sent ? 100.0 * (double)lost / (double)sent : 0.0,
                      rx->udp.jitter_ns / 1e6);
    } else if (tx->tcp_end_valid) {
        ttcp_text_add(&t, " %llu retrans %.2f msRTT",
                      (unsigned long long)tx->tcp_end.retransmits, tx->tcp_end.srtt_us / 1000.0);
    }
    ttcp_text_add(&t, "\n");
    return t.used;
}
