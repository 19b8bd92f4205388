/* A third party's test (-C host1 host2; docs/PROTOCOL.md, "Third-party
 * tests"): host1's answers to the client that asked it, <-> frames. The
 * request itself is a `test`'s fields and the target's (wire.c). Every
 * number and every text read back is bounded here. */
#include <stdio.h>
#include <string.h>

#include "base/text.h"
#include "remote/wire.h"

#define MAX_NS (1ull << 62)
#define MAX_RATE 1000000000000ull
#define PROBLEM_MAX 9 /* the last of enum ttcp_client_problem (remote/outcome.h) */

void ttcp_wire_third_ready(struct ttcp_frame *f, const struct ttcp_grant *g,
                           const struct ttcp_third *t)
{
    ttcp_frame_begin(f, "third_party_ready");
    ttcp_frame_add(f, "target", t->target);
    ttcp_frame_add_u64(f, "target_port", t->target_port);
    ttcp_frame_add(f, "client", t->client);
    ttcp_frame_add_u64(f, "limit_ns", (uint64_t)g->opts.limit_ns);
    ttcp_frame_add_u64(f, "pace_bps", g->opts.pace_bps);
    ttcp_frame_add_u64(f, "streams", g->opts.streams);
    ttcp_frame_end(f);
}

/* A numeric address of host1's: one tt_ip_parse reads (no name). */
static int read_address(const struct ttcp_message *m, const char *key, char *out, size_t len,
                        char *why, size_t why_len)
{
    const char *v = ttcp_proto_get(m, key);
    unsigned char ip[16];
    if (v == NULL || strlen(v) >= len || tt_ip_parse(v, ip) == 0) {
        snprintf(why, why_len, "%s: %s", key, v == NULL ? "missing" : "not a numeric address");
        return -1;
    }
    memcpy(out, v, strlen(v) + 1);
    return 0;
}

int ttcp_wire_read_third_ready(const struct ttcp_message *m, struct ttcp_options *o,
                               struct ttcp_third *t, char *why, size_t why_len)
{
    uint64_t limit, pace, streams;
    if (read_address(m, "target", t->target, sizeof t->target, why, why_len) != 0 ||
        read_address(m, "client", t->client, sizeof t->client, why, why_len) != 0 ||
        ttcp_proto_get_u64(m, "target_port", 1, 65535, &t->target_port, why, why_len) != 0 ||
        ttcp_proto_get_u64(m, "limit_ns", 0, MAX_NS, &limit, why, why_len) != 0 ||
        ttcp_proto_get_u64(m, "pace_bps", 0, MAX_RATE, &pace, why, why_len) != 0 ||
        ttcp_proto_get_u64(m, "streams", 1, TTCP_STREAMS_MAX, &streams, why, why_len) != 0)
        return -1;
    if (streams != o->streams) {
        snprintf(why, why_len, "it did not grant -P %llu", (unsigned long long)o->streams);
        return -1;
    }
    o->limit_ns = (int64_t)limit;
    if (pace != 0 && (o->pace_bps == 0 || pace < o->pace_bps))
        o->pace_bps = pace;
    return 0;
}

void ttcp_wire_third_done(struct ttcp_frame *f, int problem, const struct ttcp_failure *failure,
                          const char *text)
{
    char clean[201];
    snprintf(clean, sizeof clean, "%s", text);
    ttcp_text_printable(clean); /* a value is one printable line */
    ttcp_frame_begin(f, "third_party_done");
    ttcp_frame_add_u64(f, "problem", (uint64_t)problem);
    if (problem != 0) {
        ttcp_frame_add_u64(f, "failure", (uint64_t)-failure->code);
        ttcp_frame_add_u64(f, "failure_op", (uint64_t)failure->op);
        ttcp_frame_add(f, "why", clean);
    }
    ttcp_frame_end(f);
}

int ttcp_wire_read_third_done(const struct ttcp_message *m, int *problem,
                              struct ttcp_failure *failure, char *text, size_t text_len,
                              char *why, size_t why_len)
{
    const char *words = ttcp_proto_get(m, "why");
    uint64_t p, code = 0, op = 0;
    memset(failure, 0, sizeof *failure);
    text[0] = '\0';
    if (ttcp_proto_get_u64(m, "problem", 0, PROBLEM_MAX, &p, why, why_len) != 0 ||
        (ttcp_proto_get(m, "failure") != NULL &&
         ttcp_proto_get_u64(m, "failure", 0, 1000, &code, why, why_len) != 0) ||
        (ttcp_proto_get(m, "failure_op") != NULL &&
         ttcp_proto_get_u64(m, "failure_op", 0, TTCP_OP_TRACE, &op, why, why_len) != 0))
        return -1;
    *problem = (int)p;
    failure->code = -(int)code;
    failure->op = (enum ttcp_op)op;
    if (words != NULL)
        snprintf(text, text_len, "%s", words); /* printable: the frame's rules */
    return 0;
}

void ttcp_wire_add_at(struct ttcp_frame *f, int far)
{
    ttcp_frame_add(f, "at", far ? "server" : "client");
    ttcp_frame_end(f);
}

int ttcp_wire_read_at(const struct ttcp_message *m, int *far, char *why, size_t why_len)
{
    const char *at = ttcp_proto_get(m, "at");
    if (at != NULL && (strcmp(at, "client") == 0 || strcmp(at, "server") == 0)) {
        *far = strcmp(at, "server") == 0;
        return 0;
    }
    snprintf(why, why_len, "at: %s", at == NULL ? "missing" : "neither client nor server");
    return -1;
}
