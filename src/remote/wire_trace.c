/* A server's trace back to its client (-C --traceroute) as messages:
 * `trace` (whom it traces), one `hop` a hop, `trace_end`. Numbers bounded,
 * addresses numeric only (a name would be looked up). */
#include <stdio.h>
#include <string.h>

#include "base/text.h"
#include "remote/wire.h"

#define MAX_RTT_NS 3600000000000ull /* an hour: more than any probe waits */

static void add_address(struct ttcp_frame *f, const struct tt_addr *a)
{
    char text[80];
    ttcp_frame_add(f, "address", tt_addr_text(a, text, sizeof text));
}

/* A numeric address from the message; 0, or -1 with a reason. */
static int read_address(const struct ttcp_message *m, struct tt_addr *a, char *why,
                        size_t why_len)
{
    const char *text = ttcp_proto_get(m, "address");
    unsigned char ip[16];
    struct tt_addr_list list;
    if (text == NULL || tt_ip_parse(text, ip) == 0 || tt_resolve(text, 0, TT_FAMILY_ANY, 1,
                                                                 &list) != 0) {
        snprintf(why, why_len, "address: missing or not a numeric address");
        return -1;
    }
    *a = list.addr[0];
    return 0;
}

void ttcp_wire_trace(struct ttcp_frame *f, const struct ttcp_trace *t)
{
    ttcp_frame_begin(f, "trace");
    add_address(f, &t->dest);
    ttcp_frame_end(f);
}

int ttcp_wire_read_trace(const struct ttcp_message *m, struct ttcp_trace *t, char *why,
                         size_t why_len)
{
    memset(t, 0, sizeof *t);
    if (read_address(m, &t->dest, why, why_len) != 0)
        return -1;
    t->dest_valid = 1;
    return 0;
}

void ttcp_wire_hop(struct ttcp_frame *f, const struct ttcp_hop *h)
{
    static const char *const keys[TTCP_TRACE_PROBES] = {"rtt0_ns", "rtt1_ns", "rtt2_ns"};
    int i;
    ttcp_frame_begin(f, "hop");
    ttcp_frame_add_u64(f, "ttl", (uint64_t)h->ttl);
    if (h->answered)
        add_address(f, &h->from);
    if (h->name[0] != '\0')
        ttcp_frame_add(f, "name", h->name);
    for (i = 0; i < TTCP_TRACE_PROBES; i++)
        if (h->rtt_ns[i] >= 0)
            ttcp_frame_add_u64(f, keys[i], (uint64_t)h->rtt_ns[i]);
    ttcp_frame_add_u64(f, "reached", (uint64_t)h->reached);
    ttcp_frame_end(f);
}

int ttcp_wire_read_hop(const struct ttcp_message *m, struct ttcp_hop *h, char *why,
                       size_t why_len)
{
    static const char *const keys[TTCP_TRACE_PROBES] = {"rtt0_ns", "rtt1_ns", "rtt2_ns"};
    uint64_t ttl, reached, rtt;
    int i;
    memset(h, 0, sizeof *h);
    if (ttcp_proto_get_u64(m, "ttl", 1, TTCP_TRACE_MAX_HOPS, &ttl, why, why_len) != 0 ||
        ttcp_proto_get_u64(m, "reached", 0, 1, &reached, why, why_len) != 0)
        return -1;
    h->ttl = (int)ttl;
    h->reached = (int)reached;
    for (i = 0; i < TTCP_TRACE_PROBES; i++) {
        h->rtt_ns[i] = -1;
        if (ttcp_proto_get(m, keys[i]) == NULL)
            continue;
        if (ttcp_proto_get_u64(m, keys[i], 0, MAX_RTT_NS, &rtt, why, why_len) != 0)
            return -1;
        h->rtt_ns[i] = (int64_t)rtt;
        h->answered++;
    }
    if (ttcp_proto_get(m, "address") != NULL && read_address(m, &h->from, why, why_len) != 0)
        return -1;
    if (ttcp_proto_get(m, "name") != NULL) { /* shown as it is: printable, bounded */
        snprintf(h->name, sizeof h->name, "%s", ttcp_proto_get(m, "name"));
        ttcp_text_printable(h->name);
    }
    if (h->answered > 0 && ttcp_proto_get(m, "address") == NULL) {
        snprintf(why, why_len, "address: missing for a hop that answered");
        return -1;
    }
    return 0;
}

void ttcp_wire_trace_end(struct ttcp_frame *f, const struct ttcp_trace *t, int failed)
{
    ttcp_frame_begin(f, "trace_end");
    ttcp_frame_add_u64(f, "reached", (uint64_t)t->reached);
    ttcp_frame_add_u64(f, "cut_short", (uint64_t)t->cut_short);
    ttcp_frame_add_u64(f, "failed", (uint64_t)(failed != 0));
    ttcp_frame_end(f);
}

int ttcp_wire_read_trace_end(const struct ttcp_message *m, struct ttcp_trace *t, int *failed,
                             char *why, size_t why_len)
{
    uint64_t reached, cut, fail;
    if (ttcp_proto_get_u64(m, "reached", 0, 1, &reached, why, why_len) != 0 ||
        ttcp_proto_get_u64(m, "cut_short", 0, 1, &cut, why, why_len) != 0 ||
        ttcp_proto_get_u64(m, "failed", 0, 1, &fail, why, why_len) != 0)
        return -1;
    t->reached = (int)reached;
    t->cut_short = (int)cut;
    *failed = (int)fail;
    return 0;
}
