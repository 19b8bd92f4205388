/* The classic output lines. Format strings follow 1.12 byte for byte
 * (two spaces before tcp/udp, the 1024 in msec/call, %.2f everywhere). */
#include "report/report.h"

#include "base/rate.h"

#include <string.h>

#include "base/text.h"
#include "report/report_analysis.h"
#include "report/report_latency.h"
#include "report/report_extra.h"
#include "report/rusage.h"

size_t ttcp_report_header(const struct ttcp_options *o, char *buf, size_t len)
{
    struct ttcp_text t = {buf, len, 0};
    ttcp_text_add(&t, "ttcp%s: buflen=%llu, nbuf=%llu, align=%llu/%llu, port=%llu",
        ttcp_options_side(o), (unsigned long long)o->buflen, (unsigned long long)o->nbuf,
        (unsigned long long)o->bufalign, (unsigned long long)o->bufoffset,
        (unsigned long long)o->port);
    if (o->sockbufsize != 0)
        ttcp_text_add(&t, ", sockbufsize=%llu", (unsigned long long)o->sockbufsize);
    ttcp_text_add(&t, "  %s", o->udp ? "udp" : "tcp");
    if (o->transmit)
        ttcp_text_add(&t, "  -> %s", o->host);
    ttcp_text_add(&t, "\n");
    return t.used;
}

/* The words for each warning; numbers come from the result and options. */
/* The warnings whose words carry no number. */
static const char *const fixed_words[TTCP_WARN_COUNT] = {
    [TTCP_WARN_SODEBUG] = "SO_DEBUG could not be set (ignored)",
    [TTCP_WARN_QUICKACK] = "delayed ACK cannot be turned off here (ignored)",
    [TTCP_WARN_DISCARD] = "--discard is not possible here: data is copied",
    [TTCP_WARN_RESET_AT_END] = "the receiver reset the connection at the end: data it had "
                               "not read is lost, so delivery is not confirmed",
    [TTCP_WARN_RESET_BEFORE_FIN] = "the receiver reset the connection at the end; "
                                   "delivery of the last bytes is not confirmed",
    [TTCP_WARN_NO_CLOSE] = "the receiver did not close (idle timeout); "
                           "figures end at the last progress",
    [TTCP_WARN_HALF_CLOSE_REFUSED] = "half close: the transmitter closed both ways, "
                                     "nothing more could be sent back",
    [TTCP_WARN_TRUNCATED] = "datagrams longer than -l were cut short; "
                            "bytes counted are what -l let in",
    [TTCP_WARN_TIME_LIMIT] = "the server's time limit (--max-time) ended the test",
    [TTCP_WARN_PORT_UNREACHABLE] = "the receiver's host says nothing listens on that UDP port "
                                   "(port unreachable): what is sent while no receiver is "
                                   "there is lost",
    [TTCP_WARN_TOS] = "--tos/--dscp: this system does not let a program mark its packets (on "
                      "Windows a QoS policy does: New-NetQosPolicy -DSCPAction); they go unmarked",
    [TTCP_WARN_FQ_UDP] = "--fq-rate: the kernel paces UDP only through the fq queue discipline "
                         "(tc qdisc replace dev IF root fq); on another interface the datagrams "
                         "go unpaced (-R paces in ttcp)",
};

static void icmp_words(struct ttcp_text *t, const struct ttcp_result *res)
{
    char native[128];
    const char *why = tt_error_text(res->icmp_code, res->icmp_native, native, sizeof native);
    ttcp_text_add(t, "the network reported earlier datagrams undeliverable%s%s%s; "
                  "sending goes on, as 1.12's would", why ? " (" : "", why ? why : "",
                  why ? ")" : "");
}

size_t ttcp_report_warning_text(const struct ttcp_options *o, enum ttcp_warning w,
                                const struct ttcp_result *res, char *buf, size_t len)
{
    struct ttcp_text t = {buf, len, 0};
    switch (w) {
    case TTCP_WARN_END_MARKER_LOST:
        ttcp_text_add(&t, "no data for %.1f s (idle timeout), end marker lost; "
                      "figures end at the last datagram", (double)o->idle_timeout_ns / 1e9);
        break;
    case TTCP_WARN_INPUT_TAIL:
        ttcp_text_add(&t, "the last %llu bytes of input not sent: so short a datagram "
                      "is an end marker", (unsigned long long)res->unsent_tail);
        break;
    case TTCP_WARN_CPU_PIN:
        if (o->pin_cpu > 0)
            ttcp_text_add(&t, "--cpu: the OS would not keep this stream on CPU %d; "
                          "it runs where the OS puts it", o->pin_cpu - 1);
        else /* the total of streams, one of which said so */
            ttcp_text_add(&t, "--cpu: the OS would not keep every stream on its CPU; "
                          "those run where the OS puts them");
        break;
    case TTCP_WARN_ICMP:
        icmp_words(&t, res);
        break;
    case TTCP_WARN_UNACKED:
        ttcp_text_add(&t, "%llu bytes sent were never acknowledged: delivery is not confirmed",
                      (unsigned long long)res->unacked_at_end);
        break;
    case TTCP_WARN_OMIT_LONGER:
        ttcp_text_add(&t, "--omit: the test ended within its first %.2f s: nothing was left "
                      "out of the figures", (double)o->omit_ns / 1e9);
        break;
    default:
        if ((int)w >= 0 && w < TTCP_WARN_COUNT && fixed_words[w] != NULL)
            ttcp_text_add(&t, "%s", fixed_words[w]);
        break;
    }
    return t.used;
}

const char *ttcp_report_warning_code(enum ttcp_warning w)
{
    static const char *const codes[TTCP_WARN_COUNT] = {
        [TTCP_WARN_SODEBUG] = "sodebug_ignored",
        [TTCP_WARN_QUICKACK] = "delayed_ack_kept",
        [TTCP_WARN_DISCARD] = "discard_unsupported",
        [TTCP_WARN_RESET_AT_END] = "reset_at_end",
        [TTCP_WARN_RESET_BEFORE_FIN] = "reset_before_fin",
        [TTCP_WARN_NO_CLOSE] = "receiver_did_not_close",
        [TTCP_WARN_HALF_CLOSE_REFUSED] = "half_close_refused",
        [TTCP_WARN_END_MARKER_LOST] = "end_marker_lost",
        [TTCP_WARN_TRUNCATED] = "truncated",
        [TTCP_WARN_INPUT_TAIL] = "input_tail_unsent",
        [TTCP_WARN_TIME_LIMIT] = "time_limit",
        [TTCP_WARN_CPU_PIN] = "cpu_not_pinned",
        [TTCP_WARN_PORT_UNREACHABLE] = "port_unreachable",
        [TTCP_WARN_ICMP] = "icmp_error",
        [TTCP_WARN_TOS] = "tos_unsupported",
        [TTCP_WARN_OMIT_LONGER] = "omit_longer_than_test",
        [TTCP_WARN_FQ_UDP] = "fq_rate_udp_needs_fq",
        [TTCP_WARN_UNACKED] = "unacknowledged",
    };
    return (unsigned)w < TTCP_WARN_COUNT ? codes[w] : "unknown";
}

size_t ttcp_report_event(const struct ttcp_options *o, const struct ttcp_event *ev,
                         const struct ttcp_result *res, char *buf, size_t len)
{
    static const char *const words[] = {
        [TTCP_EV_SOCKET] = "socket",   [TTCP_EV_SNDBUF] = "sndbuf",
        [TTCP_EV_RCVBUF] = "rcvbuf",   [TTCP_EV_NODELAY] = "nodelay",
        [TTCP_EV_CONNECT] = "connect", [TTCP_EV_ACCEPT] = "accept from",
        [TTCP_EV_WARNING] = "warning:", [TTCP_EV_MULTICAST] = "multicast:",
    };
    struct ttcp_text t = {buf, len, 0};
    int ios_details = (ev->kind == TTCP_EV_CONNECT || ev->kind == TTCP_EV_ACCEPT) &&
                      (o->verbose || o->dialog) && res->tcp_connect_valid;
    char peer[80];

    if ((size_t)ev->kind >= sizeof words / sizeof words[0] || words[ev->kind] == NULL)
        return 0; /* not a progress line */
    ttcp_text_add(&t, "ttcp%s: %s", ttcp_options_side(o), words[ev->kind]);
    if (ev->kind == TTCP_EV_ACCEPT && res->peer_valid)
        ttcp_text_add(&t, " %s", tt_addr_text(&res->peer, peer, sizeof peer));
    if (ev->kind == TTCP_EV_MULTICAST && o->transmit)
        ttcp_text_add(&t, " to %s, ttl %d", o->group, res->mcast_ttl);
    else if (ev->kind == TTCP_EV_MULTICAST)
        ttcp_text_add(&t, " joined %s%s%s", o->group, o->source ? " from " : "",
                      o->source ? o->source : "");
    if (ev->kind == TTCP_EV_MULTICAST && o->interface)
        ttcp_text_add(&t, " on %s", o->interface);
    if (ev->kind == TTCP_EV_WARNING) {
        ttcp_text_add(&t, " ");
        t.used += ttcp_report_warning_text(o, ev->warning, res, t.buf + t.used,
                                           t.len - t.used);
    }
    if (ios_details)
        ttcp_text_add(&t, " (mss %u, sndwnd %u, rcvwnd %u)", res->tcp_connect.mss,
            res->tcp_connect.snd_wnd, res->tcp_connect.rcv_wnd);
    ttcp_text_add(&t, "\n");
    return t.used;
}

/* What moved the other way in a half close. */
static void half_close_line(struct ttcp_text *t, const struct ttcp_options *o,
                            const struct ttcp_result *r)
{
    double secs = r->back_ns > 0 ? (double)r->back_ns / 1e9 : 0.001;
    char rate[64];
    ttcp_text_add(t, "ttcp%s: half close: %llu bytes %s in %.2f real seconds = %s%s\n",
        ttcp_options_side(o), (unsigned long long)r->back_bytes,
        o->transmit ? "received back" : "sent back", secs,
        ttcp_unit_format(o->unit, (double)r->back_bytes / secs, rate, sizeof rate),
        ttcp_unit_per_sec(o->unit));
}

static void tcp_info_line(struct ttcp_text *t, const struct ttcp_options *o,
                          const struct ttcp_result *r)
{
    const struct tt_tcp_info *i = &r->tcp_end;
    if (!r->tcp_end_valid) {
        ttcp_text_add(t, "ttcp%s: tcp info: not available on this system\n", ttcp_options_side(o));
        return;
    }
    ttcp_text_add(t, "ttcp%s: tcp info: mss %u, sndwnd %u, rcvwnd %u, cwnd %u, srtt %.3f ms, "
        "rttvar %.3f ms, retransmits %llu\n", ttcp_options_side(o), i->mss, i->snd_wnd,
        i->rcv_wnd, i->cwnd, i->srtt_us / 1000.0, i->rttvar_us / 1000.0,
        (unsigned long long)i->retransmits);
}

/* --tos, --dscp, --congestion, --fq-rate: what the socket said it uses,
 * the parts asked for, comma-separated. */
static void marks_line(struct ttcp_text *t, const struct ttcp_options *o,
                       const struct ttcp_result *r)
{
    const char *sep = " ";
    char rate[48];
    ttcp_text_add(t, "ttcp%s: marks:", ttcp_options_side(o));
    if ((r->marks_asked & TTCP_MARK_TOS) && r->tos_valid)
        ttcp_text_add(t, " tos %#04x (dscp %d)", (unsigned)r->tos, r->tos >> 2);
    else if (r->marks_asked & TTCP_MARK_TOS)
        ttcp_text_add(t, " tos not set");
    if (r->marks_asked & TTCP_MARK_TOS)
        sep = ", ";
    if (r->marks_asked & TTCP_MARK_CONGESTION) {
        ttcp_text_add(t, "%scongestion %s", sep, r->congestion_valid ? r->congestion : "unknown");
        sep = ", ";
    }
    if (r->marks_asked & TTCP_MARK_FQ_RATE)
        ttcp_text_add(t, "%sfq-rate %s", sep, r->fq_rate_valid
                      ? ttcp_unit_format_bps((double)r->fq_rate_bps, rate, sizeof rate)
                      : "unknown");
    ttcp_text_add(t, "\n");
}

size_t ttcp_report_stats(const struct ttcp_options *o, const struct ttcp_result *r,
                         char *buf, size_t len)
{
    const char *side = ttcp_options_side(o);
    int64_t cpu_ns = (r->cpu_end.user_ns - r->cpu_start.user_ns) +
                     (r->cpu_end.sys_ns - r->cpu_start.sys_ns);
    double realt = (double)r->real_ns / 1e9, cput = (double)cpu_ns / 1e9;
    unsigned long long bytes = (unsigned long long)r->bytes;
    struct ttcp_text t = {buf, len, 0};
    char rate[64], usage[160];

    /* 1.12's clamps, so a tiny transfer never divides by zero. */
    if (realt <= 0.0)
        realt = 0.001;
    if (cput <= 0.0)
        cput = 0.001;
    ttcp_text_add(&t, "ttcp%s: %llu bytes in %.2f real seconds = %s%s +++\n", side, bytes, realt,
        ttcp_unit_format(o->unit, (double)r->bytes / realt, rate, sizeof rate),
        ttcp_unit_per_sec(o->unit));
    if (o->verbose)
        ttcp_text_add(&t, "ttcp%s: %llu bytes in %.2f CPU seconds = %s%s\n", side, bytes, cput,
            ttcp_unit_format(o->unit, (double)r->bytes / cput, rate, sizeof rate),
            *ttcp_unit_per_sec(o->unit) ? "/cpu sec" : " per cpu sec");
    ttcp_text_add(&t, "ttcp%s: %llu I/O calls, msec/call = %.2f, calls/sec = %.2f\n", side,
        (unsigned long long)r->calls, r->calls ? 1024.0 * realt / (double)r->calls : 0.0,
        (double)r->calls / realt);
    ttcp_text_add(&t, "ttcp%s: %s\n", side,
        ttcp_rusage_format(&r->cpu_start, &r->cpu_end, r->real_ns, usage, sizeof usage));
    if (o->verbose)
        ttcp_text_add(&t, "ttcp%s: buffer address %#llx\n", side, (unsigned long long)r->buffer_address);
    if (r->back_done)
        half_close_line(&t, o, r);
    if (r->tcp_end_asked)
        tcp_info_line(&t, o, r);
    if (r->marks_asked)
        marks_line(&t, o, r);
    if (ttcp_options_extended(o))
        ttcp_report_extras(o, r, &t);
    if (o->analyze && !o->udp)
        ttcp_report_analysis(o, r, &t);
    if (r->latency.source != TTCP_LATENCY_NONE)
        t.used += ttcp_report_latency(side, &r->latency, t.buf + t.used, t.len - t.used);
    return t.used;
}

const char *ttcp_report_op_name(enum ttcp_op op)
{
    static const char *const names[] = {
        [TTCP_OP_NONE] = "",
        [TTCP_OP_MALLOC] = "malloc",
        [TTCP_OP_HOSTNAME] = "bad hostname",
        [TTCP_OP_SOCKET] = "socket",
        [TTCP_OP_SNDBUF] = "setsockopt: sndbuf",
        [TTCP_OP_RCVBUF] = "setsockopt: rcvbuf",
        [TTCP_OP_NODELAY] = "setsockopt: nodelay",
        [TTCP_OP_RCVWND] = "setsockopt: rcvwnd",
        [TTCP_OP_TOS] = "setsockopt: tos",
        [TTCP_OP_MSS] = "setsockopt: mss",
        [TTCP_OP_CONGESTION] = "setsockopt: congestion",
        [TTCP_OP_FQ_RATE] = "setsockopt: fq-rate",
        [TTCP_OP_BIND] = "bind",
        [TTCP_OP_LISTEN] = "listen",
        [TTCP_OP_ACCEPT] = "accept",
        [TTCP_OP_CONNECT] = "connect",
        [TTCP_OP_IO] = "IO",
        [TTCP_OP_READ] = "read",
        [TTCP_OP_WRITE] = "write",
        [TTCP_OP_RECVFROM] = "recvfrom",
        [TTCP_OP_MCAST] = "multicast",
        [TTCP_OP_JOIN] = "join",
        [TTCP_OP_TRACE] = "traceroute",
        [TTCP_OP_PMTU] = "pmtu",
        [TTCP_OP_DONTFRAG] = "setsockopt: dont-fragment",
    };
    return (unsigned)op < sizeof names / sizeof names[0] ? names[op] : "?";
}

/* --dont-fragment: a datagram larger than the path MTU, with the MTU the
 * system learnt and the -l that fits. */
static size_t too_big_words(const struct ttcp_options *o, const struct ttcp_failure *f,
                                  char *buf, size_t len)
{
    struct ttcp_text t = {buf, len, 0};
    ttcp_text_add(&t, "ttcp%s: --dont-fragment: a datagram of %llu bytes does not fit the "
                  "path whole: ", ttcp_options_side(o), (unsigned long long)o->buflen);
    if (f->path_mtu > 0)
        ttcp_text_add(&t, "its MTU is %d bytes as the system learnt it, with the IP and UDP "
                      "headers (28 bytes over IPv4, 48 over IPv6): give -l %d or less",
                      f->path_mtu, f->path_mtu - 28);
    else
        ttcp_text_add(&t, "the system does not tell the path MTU (find it with --pmtu)");
    if (f->native != 0) /* (a server's, told to its client, comes without one) */
        ttcp_text_add(&t, "\nerrno=%d", f->native);
    ttcp_text_add(&t, "\n");
    return t.used;
}

size_t ttcp_report_failure(const struct ttcp_options *o, const struct ttcp_failure *f,
                           const char *native_text, char *buf, size_t len)
{
    struct ttcp_text t = {buf, len, 0};
    if (f->code == TT_E_INTR) {
        ttcp_text_add(&t, "ttcp%s: interrupted before the test began\n", ttcp_options_side(o));
        return t.used;
    }
    if (f->code == TT_E_NOHOST) {
        /* A resolver error has no errno worth printing; name what was looked up
         * instead: the --bind address for a bind, else the host. */
        const char *name = f->op == TTCP_OP_BIND && o->bind ? o->bind : o->host;
        ttcp_text_add(&t, "ttcp%s: %s: %s%s: %s\n", ttcp_options_side(o),
                      ttcp_report_op_name(f->op), f->op == TTCP_OP_BIND ? "--bind " : "",
                      name ? name : "(no host)", native_text);
        return t.used;
    }
    if (f->op == TTCP_OP_DONTFRAG && f->code == TT_E_MSGSIZE)
        return too_big_words(o, f, buf, len);
    if (f->op == TTCP_OP_PMTU && f->code == TT_E_UNSUPPORTED) {
        ttcp_text_add(&t, "ttcp%s: --pmtu: this system offers no probe that may not be "
                      "fragmented to an address of this family\n", ttcp_options_side(o));
        return t.used;
    }
    if (f->code == TT_E_AGAIN && f->op == TTCP_OP_IO) {
        /* a data socket's receive or send timeout (-S and -C set --idle-timeout on
         * theirs): the system's "Resource temporarily unavailable" would not say that
         * the far end stalled */
        ttcp_text_add(&t, "ttcp%s: IO: the peer went idle: nothing moved for %g s "
                      "(--idle-timeout)\n", ttcp_options_side(o),
                      (double)o->idle_timeout_ns / 1e9);
        if (f->native != 0) /* (a transmitter's wait for the close has no system error) */
            ttcp_text_add(&t, "errno=%d\n", f->native);
        return t.used;
    }
    ttcp_text_add(&t, "ttcp%s: %s: %s", ttcp_options_side(o), ttcp_report_op_name(f->op),
                  native_text);
    if (o->group != NULL && (f->code == TT_E_UNREACH || f->code == TT_E_NODEV))
        ttcp_text_add(&t, " (no route to the group %s: give --interface, or add one: "
                      "ip route add %s dev IFACE)", o->group,
                      strchr(o->group, ':') ? "ff00::/8" : "224.0.0.0/4");
    else if (o->interface != NULL && f->code == TT_E_INVAL &&
             (f->op == TTCP_OP_MCAST || f->op == TTCP_OP_JOIN))
        ttcp_text_add(&t, " (--interface %s: no such interface here?)", o->interface);
    if (f->native != 0) /* (a failure no system call reported has no number) */
        ttcp_text_add(&t, "\nerrno=%d\n", f->native);
    else
        ttcp_text_add(&t, "\n");
    return t.used;
}
