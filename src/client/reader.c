/* The reader of the server's frames while the streams run, on a thread
 * beside them: its live intervals (shown at once, kept with its figures)
 * and each stream's result. The server sends them from server/control.c's
 * stream_event and run_stream. */
#include <string.h>

#include "client/internal.h"

#define POLL_MS 200
/* The server's intervals kept, all its streams together: a 1000 s test at
 * the finest -i (0.01 s) twice over, about 20 MB; past it they are shown
 * but not kept, whatever a server sends. */
#define KEPT_INTERVALS_MAX 200000u

/* The server's interval, kept with its end's figures (the JSON's
 * server_tests, --plot); out of memory, the interval is only shown. */
void ttcp_client_keep_interval(struct client *c, struct ttcp_result *theirs,
                               const struct ttcp_interval *in)
{
    struct ttcp_interval *kept;
    if (c->kept >= KEPT_INTERVALS_MAX)
        return;
    kept = ttcp_intervals_push(&theirs->intervals);
    if (kept != NULL) {
        *kept = *in;
        c->kept++;
    }
}

static void their_interval(struct client *c, const struct ttcp_message *m)
{
    struct ttcp_interval in;
    struct ttcp_event ev = {TTCP_EV_INTERVAL, TTCP_WARN_COUNT, &in, NULL};
    int id;
    if (ttcp_wire_read_interval(m, &id, &in, c->out->why, sizeof c->out->why) != 0 ||
        !in_use(c, id))
        return;
    ttcp_client_keep_interval(c, &way_of(c, id)->part_theirs[id / 2], &in);
    ttcp_streams_event(&c->run, id % 2, id / 2, TTCP_END_PEER, &ev, NULL);
}

/* A stream's result (counted in *results); a second one for the same
 * stream is not taken. */
static void their_result(struct client *c, const struct ttcp_message *m, int *results)
{
    struct ttcp_result theirs;
    struct ttcp_client_stream *st;
    int id;
    if (ttcp_wire_read_result(m, &id, &theirs, c->out->why, sizeof c->out->why) != 0 ||
        !in_use(c, id) || way_of(c, id)->part_theirs_valid[id / 2])
        return;
    st = way_of(c, id);
    theirs.intervals = st->part_theirs[id / 2].intervals; /* as they came */
    st->part_theirs[id / 2] = theirs;
    st->part_theirs_valid[id / 2] = 1;
    ttcp_streams_closed(&c->run, id % 2, id / 2, TTCP_END_PEER);
    (*results)++;
}

/* Waits as long as the local streams run; after, CONTROL_NS plus the idle
 * timeout (the server may still wait for a close). */
void ttcp_client_read_server(void *arg)
{
    struct client *c = arg;
    int64_t grace = CONTROL_NS + c->local.idle_timeout_ns, done_at = 0;
    int results = 0, streams = 0, i;
    for (i = 0; i < c->ids; i++)
        streams += in_use(c, i);
    while (results < streams) {
        struct ttcp_message m;
        int rc = tt_wait_readable(c->control, POLL_MS);
        if (done_at == 0 && ttcp_streams_running(&c->run) == 0)
            done_at = tt_now_ns();
        if (done_at != 0 && tt_now_ns() - done_at > grace)
            break; /* also when frames keep coming, but never the results */
        if (c->deadline != 0 && tt_now_ns() >= c->deadline)
            break;
        if (rc == 0 || rc == TT_E_INTR)
            continue;
        if (rc < 0 || ttcp_client_receive_any(c, &m) != 0)
            break;
        if (strcmp(ttcp_proto_type(&m), "interval") == 0)
            their_interval(c, &m);
        else if (strcmp(ttcp_proto_type(&m), "result") == 0)
            their_result(c, &m, &results);
    }
}
