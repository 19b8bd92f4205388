#include "report/report_trace.h"

#include "base/text.h"

size_t ttcp_report_trace_start(const char *side, const char *host, const struct ttcp_trace *t,
                               char *buf, size_t len)
{
    struct ttcp_text x = {buf, len, 0};
    char addr[80];
    ttcp_text_add(&x, "ttcp%s: traceroute to %s (%s), at most %d hops, %d probes each\n",
                  side, host, tt_addr_text(&t->dest, addr, sizeof addr),
                  TTCP_TRACE_MAX_HOPS, TTCP_TRACE_PROBES);
    return x.used;
}

size_t ttcp_report_hop(const char *side, const struct ttcp_hop *h, char *buf, size_t len)
{
    struct ttcp_text x = {buf, len, 0};
    char addr[80];
    int i;
    if (!h->answered)
        ttcp_text_add(&x, "ttcp%s: %2d  *", side, h->ttl);
    else if (h->name[0] != '\0')
        ttcp_text_add(&x, "ttcp%s: %2d  %s (%s)", side, h->ttl, h->name,
                      tt_addr_text(&h->from, addr, sizeof addr));
    else
        ttcp_text_add(&x, "ttcp%s: %2d  %s", side, h->ttl,
                      tt_addr_text(&h->from, addr, sizeof addr));
    for (i = 0; i < TTCP_TRACE_PROBES; i++) {
        if (h->rtt_ns[i] < 0)
            ttcp_text_add(&x, "  *");
        else
            ttcp_text_add(&x, "  %.3f ms", (double)h->rtt_ns[i] / 1e6);
    }
    ttcp_text_add(&x, "\n");
    return x.used;
}

size_t ttcp_report_trace_end(const char *side, const struct ttcp_trace *t, char *buf,
                             size_t len)
{
    struct ttcp_text x = {buf, len, 0};
    if (t->reached)
        return 0;
    if (t->cut_short)
        ttcp_text_add(&x, "ttcp%s: traceroute: cut short after %d hops (%s)\n",
                      side, t->count,
                      t->interrupted ? "Ctrl+C" : "the 30 s limit");
    else
        ttcp_text_add(&x, "ttcp%s: traceroute: the destination did not answer within %d hops\n",
                      side, t->count);
    return x.used;
}
