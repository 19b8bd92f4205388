/* --pmtu: measure/pmtu.c's search, each size it asks for probed by the
 * platform's prober, until it has its answer or a bound ends it. */
#include "engine/pmtu.h"

#include <string.h>

static int fail(struct ttcp_failure *f, int code)
{
    f->code = code;
    f->native = tt_last_error();
    f->op = TTCP_OP_PMTU;
    return code;
}

int ttcp_pmtu_find(const struct ttcp_options *o, struct ttcp_pmtu *out,
                   struct ttcp_failure *failure)
{
    struct tt_addr_list list;
    int rc = tt_resolve(o->host, (uint16_t)o->port, o->family, 1, &list);
    memset(out, 0, sizeof *out);
    memset(failure, 0, sizeof *failure);
    if (rc != 0) {
        fail(failure, rc);
        failure->op = TTCP_OP_HOSTNAME;
        return rc;
    }
    return ttcp_pmtu_find_to(&list.addr[0], out, failure);
}

/* Probes until the search is done: 0, or a code of the prober's. */
static int search(struct tt_mtu_prober *p, struct ttcp_pmtu_search *s, struct ttcp_pmtu *out,
                  int64_t start)
{
    int size;
    while ((size = ttcp_pmtu_search_next(s)) != 0) {
        enum tt_mtu_answer answer;
        int learnt = 0, rc;
        if (tt_interrupted() || tt_now_ns() - start >= TTCP_PMTU_LIMIT_NS) {
            out->cut_short = 1;
            out->interrupted = tt_interrupted();
            return 0;
        }
        rc = tt_mtu_probe(p, size, TTCP_PMTU_PROBE_MS, &answer, &learnt);
        if (rc == TT_E_INTR) {
            out->cut_short = 1;
            out->interrupted = 1;
            return 0;
        }
        if (rc != 0)
            return rc;
        ttcp_pmtu_search_answer(s, size, (enum ttcp_pmtu_answer)answer, learnt);
    }
    return 0;
}

int ttcp_pmtu_find_to(const struct tt_addr *dest, struct ttcp_pmtu *out,
                      struct ttcp_failure *failure)
{
    struct ttcp_pmtu_search s;
    struct tt_mtu_prober *p;
    unsigned char ip[16];
    int64_t start = tt_now_ns();
    int top = 0, rc;
    memset(out, 0, sizeof *out);
    memset(failure, 0, sizeof *failure);
    rc = tt_mtu_prober_open(dest, &p, &top);
    if (rc != 0)
        return fail(failure, rc);
    ttcp_pmtu_search_init(&s, tt_addr_ip(dest, ip) == 16 ? TTCP_PMTU_FLOOR_V6
                                                          : TTCP_PMTU_FLOOR_V4, top);
    rc = search(p, &s, out, start);
    tt_mtu_prober_close(p);
    if (rc != 0)
        return fail(failure, rc);
    out->found = !out->cut_short || s.probes > 0;
    out->mtu = s.fit;
    out->exact = ttcp_pmtu_search_exact(&s);
    out->confirmed = s.fit_confirmed;
    out->top = top;
    out->probes = s.probes;
    out->elapsed_ns = tt_now_ns() - start;
    return 0;
}
