/* --traceroute, beside a test: each hop probed TTCP_TRACE_PROBES times
 * with the same hop limit, until the destination answers, the hops run
 * out, the time limit passes or Ctrl+C comes. */
#include "engine/trace.h"

#include <string.h>

static int fail(struct ttcp_trace *t, int code, enum ttcp_op op)
{
    t->failure.code = code;
    t->failure.native = tt_last_error();
    t->failure.op = op;
    return code;
}

/* One hop's probes: 0, or a code other than "no answer". */
static int probe_hop(struct tt_tracer *tr, int ttl, struct ttcp_hop *h)
{
    int i;
    memset(h, 0, sizeof *h);
    h->ttl = ttl;
    for (i = 0; i < TTCP_TRACE_PROBES; i++) {
        struct tt_addr from;
        int reached = 0, rc = tt_tracer_probe(tr, ttl, TTCP_TRACE_PROBE_MS, &from,
                                              &h->rtt_ns[i], &reached);
        if (rc == TT_E_AGAIN) {
            h->rtt_ns[i] = -1;
            continue;
        }
        if (rc != 0)
            return rc;
        h->from = from;
        h->answered++;
        h->reached |= reached;
    }
    return 0;
}

int ttcp_trace(const struct ttcp_options *o,
               void (*hop)(void *ctx, const struct ttcp_trace *t, const struct ttcp_hop *h),
               void *ctx, struct ttcp_trace *out)
{
    struct tt_addr_list list;
    int rc = tt_resolve(o->host, (uint16_t)o->port, o->family, 1, &list);
    if (rc != 0) {
        memset(out, 0, sizeof *out);
        return fail(out, rc, TTCP_OP_HOSTNAME);
    }
    return ttcp_trace_to(&list.addr[0], hop, ctx, out);
}

int ttcp_trace_to(const struct tt_addr *dest,
                  void (*hop)(void *ctx, const struct ttcp_trace *t, const struct ttcp_hop *h),
                  void *ctx, struct ttcp_trace *out)
{
    struct tt_tracer *tr;
    int64_t end;
    int rc, ttl;

    memset(out, 0, sizeof *out);
    out->dest = *dest;
    out->dest_valid = 1;
    hop(ctx, out, NULL);
    rc = tt_tracer_open(&out->dest, &tr);
    if (rc != 0)
        return fail(out, rc, TTCP_OP_TRACE);
    end = tt_now_ns() + TTCP_TRACE_LIMIT_NS;
    for (ttl = 1; ttl <= TTCP_TRACE_MAX_HOPS && !out->reached; ttl++) {
        struct ttcp_hop *h = &out->hops[out->count];
        if (tt_interrupted() || tt_now_ns() >= end) {
            out->cut_short = 1;
            out->interrupted = tt_interrupted();
            break;
        }
        rc = probe_hop(tr, ttl, h);
        if (rc == TT_E_INTR) {
            out->cut_short = 1;
            out->interrupted = tt_interrupted();
            break;
        }
        if (rc != 0) {
            tt_tracer_close(tr);
            return fail(out, rc, TTCP_OP_TRACE);
        }
        if (h->answered && tt_addr_name(&h->from, h->name, sizeof h->name,
                                        TTCP_TRACE_NAME_MS) != 0)
            h->name[0] = '\0';
        out->count++;
        out->reached = h->reached;
        hop(ctx, out, h);
    }
    tt_tracer_close(tr);
    return 0;
}
