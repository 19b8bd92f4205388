/* The classic output lines. Format strings follow 1.12 byte for byte
 * (two spaces before tcp/udp, the 1024 in msec/call, %.2f everywhere). */
#include "report.h"

#include <stdio.h>

#include "report_extra.h"
#include "rusage.h"
#include "text.h"


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

size_t ttcp_report_event(const struct ttcp_options *o, enum ttcp_event ev,
                         const char *detail, const struct ttcp_result *res,
                         char *buf, size_t len)
{
    static const char *const words[] = {
        [TTCP_EV_READY] = "ready",
        [TTCP_EV_SOCKET] = "socket",   [TTCP_EV_SNDBUF] = "sndbuf",
        [TTCP_EV_RCVBUF] = "rcvbuf",   [TTCP_EV_NODELAY] = "nodelay",
        [TTCP_EV_CONNECT] = "connect", [TTCP_EV_ACCEPT] = "accept from",
        [TTCP_EV_WARNING] = "warning:",
        [TTCP_EV_INTERVAL] = "interval", [TTCP_EV_FIGURES] = "figures",
        [TTCP_EV_FAILED] = "failed",
    };
    struct ttcp_text t = {buf, len, 0};
    int ios_details = (ev == TTCP_EV_CONNECT || ev == TTCP_EV_ACCEPT) &&
                      (o->verbose || o->dialog) && res != NULL && res->tcp_connect_valid;
    ttcp_text_add(&t, "ttcp%s: %s", ttcp_options_side(o), words[ev]);
    if (detail != NULL)
        ttcp_text_add(&t, " %s", detail);
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
    if (o->half_close || r->back_bytes != 0)
        half_close_line(&t, o, r);
    if (o->tcp_info || (ttcp_options_extended(o) && !o->udp))
        tcp_info_line(&t, o, r);
    if (ttcp_options_extended(o))
        ttcp_report_extras(o, r, &t);
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
        /* A resolver error has no errno worth printing; name the host instead. */
        ttcp_text_add(&t, "ttcp%s: %s: %s: %s\n", ttcp_options_side(o), f->op, o->host, native_text);
        return t.used;
    }
    ttcp_text_add(&t, "ttcp%s: %s: %s\nerrno=%d\n", ttcp_options_side(o), f->op, native_text, f->native);
    return t.used;
}
