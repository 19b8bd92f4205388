/* -C host1 host2, from the client that asks (docs/PROTOCOL.md,
 * "Third-party tests"): the request, host1's answer, then the facts of
 * host1's own test to host2 as host1 passes them on (both ends' intervals
 * and results, then how its conversation with host2 went), into the same
 * outcome as a test of our own, host1's end as "ours". No data connection
 * of our own. The server's half is server/third.c. */
#include <stdio.h>
#include <string.h>

#include "client/internal.h"

#define HEARTBEAT_NS 1000000000ll /* host1's quiet intervals without -i */
#define POLL_MS 200

/* third_party -> third_party_ready: where host1 runs it, its limits. */
static int request(struct client *c)
{
    struct ttcp_message m;
    struct ttcp_frame f;
    ttcp_wire_test(&f, c->opts);
    if (ttcp_client_send_frame(c, &f) != 0)
        return -1;
    if (ttcp_client_receive(c, &m, "third_party_ready") != 0) {
        const char *reason = ttcp_proto_get(&m, "reason");
        char theirs[sizeof c->out->why];
        if (c->out->problem == TTCP_CLIENT_REFUSED && reason != NULL &&
            strcmp(reason, "protocol") == 0) { /* a server of before them: "expected test" */
            memcpy(theirs, c->out->why, sizeof theirs);
            snprintf(c->out->why, sizeof c->out->why, "the server does not run third-party "
                     "tests (an older ttcp -S? %.160s)", theirs);
        }
        return -1;
    }
    c->local = *c->opts;
    if (ttcp_wire_read_third_ready(&m, &c->local, &c->out->third, c->out->why,
                                   sizeof c->out->why) != 0)
        return ttcp_client_problem(c, TTCP_CLIENT_PROTOCOL, 0);
    c->out->third_ran = 1;
    c->local.host = c->out->third.target; /* the lines read as host1's own */
    c->local.port = c->out->third.target_port;
    return 0;
}

/* host1's header lines, as its own run of each stream printed them. */
static void announce(struct client *c)
{
    struct ttcp_event ev = {TTCP_EV_READY, TTCP_WARN_COUNT, NULL, NULL};
    int way, i;
    for (way = 0; way < 2; way++)
        for (i = 0; c->out->stream[way].used && i < c->out->stream[way].n; i++)
            c->obs->event(c->obs->ctx, &c->out->stream[way].part_local[i], 1, &ev, NULL);
}

/* An interval at either end of host1's test: shown and kept (without -i,
 * only a sign of life). */
static void take_interval(struct client *c, const struct ttcp_message *m)
{
    struct ttcp_interval in;
    struct ttcp_event ev = {TTCP_EV_INTERVAL, TTCP_WARN_COUNT, &in, NULL};
    struct ttcp_client_stream *st;
    int id, far;
    if (c->opts->interval_ns == 0 || ttcp_wire_read_at(m, &far, c->out->why,
                                                        sizeof c->out->why) != 0 ||
        ttcp_wire_read_interval(m, &id, &in, c->out->why, sizeof c->out->why) != 0 ||
        !in_use(c, id))
        return;
    st = way_of(c, id);
    ttcp_client_keep_interval(c, far ? &st->part_theirs[id / 2] : &st->part_mine[id / 2], &in);
    ttcp_streams_event(&c->run, id % 2, id / 2, far ? TTCP_END_PEER : TTCP_END_LOCAL, &ev, NULL);
}

/* host1's warnings of a stream, as its own run announced them there. */
static void replay_warnings(struct client *c, const struct ttcp_options *o,
                            const struct ttcp_result *r)
{
    struct ttcp_event ev = {TTCP_EV_WARNING, TTCP_WARN_COUNT, NULL, NULL};
    int w;
    for (w = 0; w < TTCP_WARN_COUNT; w++)
        if (r->warnings & (1u << w)) {
            ev.warning = (enum ttcp_warning)w;
            c->obs->event(c->obs->ctx, o, 1, &ev, r);
        }
}

/* A stream's result at either end; a second one for the same end and
 * stream is not taken. */
static void take_result(struct client *c, const struct ttcp_message *m)
{
    struct ttcp_result r;
    struct ttcp_client_stream *st;
    int id, far, k;
    if (ttcp_wire_read_at(m, &far, c->out->why, sizeof c->out->why) != 0 ||
        ttcp_wire_read_result(m, &id, &r, c->out->why, sizeof c->out->why) != 0 ||
        !in_use(c, id))
        return;
    st = way_of(c, id);
    k = id / 2;
    if (far ? st->part_theirs_valid[k] : c->mine_in[id])
        return;
    if (far) {
        r.intervals = st->part_theirs[k].intervals; /* as they came */
        st->part_theirs[k] = r;
        st->part_theirs_valid[k] = 1;
    } else {
        r.intervals = st->part_mine[k].intervals;
        st->part_mine[k] = r;
        st->part_rc[k] = r.failure.code;
        c->mine_in[id] = 1;
        replay_warnings(c, &st->part_local[k], &st->part_mine[k]);
    }
    ttcp_streams_closed(&c->run, id % 2, k, far ? TTCP_END_PEER : TTCP_END_LOCAL);
}

/* third_party_done: host1's conversation with host2 completed, or its
 * problem is the outcome's (leg_failed). */
static int done(struct client *c, const struct ttcp_message *m)
{
    struct ttcp_failure failure;
    char text[sizeof c->out->why];
    int problem;
    if (ttcp_wire_read_third_done(m, &problem, &failure, text, sizeof text, c->out->why,
                                  sizeof c->out->why) != 0)
        return ttcp_client_problem(c, TTCP_CLIENT_PROTOCOL, 0);
    if (problem == TTCP_CLIENT_OK)
        return 0;
    c->out->problem = (enum ttcp_client_problem)problem;
    c->out->failure = failure;
    memcpy(c->out->why, text, sizeof text);
    c->out->leg_failed = 1;
    return 0;
}

/* Waits up to span for host1's next frame, in slices that look at
 * Ctrl+C (which ends our wait, not host1's test: it has no way to stop
 * one); 0 when one has begun to come. */
static int await_frame(struct client *c, int64_t span)
{
    int64_t end = ttcp_client_wait_end(c, span);
    while (tt_now_ns() < end) {
        int rc = tt_wait_readable(c->control, POLL_MS);
        if (tt_interrupted())
            return ttcp_client_problem(c, TTCP_CLIENT_LOST, TT_E_INTR);
        if (rc != 0 && rc != TT_E_INTR)
            return 0; /* a frame, or a failure the read will tell */
    }
    return ttcp_client_problem(c, TTCP_CLIENT_LOST, TT_E_TIMEDOUT);
}

/* host1's frames until third_party_done. host1 sends at least an
 * interval a second while its streams run, and bounds every step before
 * and after them: a wait longer than those ends the test. */
static int follow(struct client *c)
{
    int64_t beat = c->opts->interval_ns ? c->opts->interval_ns : HEARTBEAT_NS;
    int64_t wait = 3 * CONTROL_NS + 2 * c->local.idle_timeout_ns + beat;
    for (;;) {
        struct ttcp_message m;
        const char *type;
        if (await_frame(c, wait) != 0 || ttcp_client_receive_within(c, &m, CONTROL_NS) != 0)
            return -1;
        type = ttcp_proto_type(&m);
        if (strcmp(type, "interval") == 0)
            take_interval(c, &m);
        else if (strcmp(type, "result") == 0)
            take_result(c, &m);
        else if (strcmp(type, "third_party_done") == 0)
            return done(c, &m);
    }
}

int ttcp_client_converse_third(struct client *c)
{
    struct ttcp_frame f;
    int rc;
    if (ttcp_client_connect_control(c) != 0 || ttcp_client_greet(c) != 0 || request(c) != 0 ||
        ttcp_client_plan(c) != 0)
        return -1;
    announce(c);
    rc = follow(c);
    ttcp_client_total_ways(c);
    if (rc != 0)
        return -1;
    ttcp_frame_begin(&f, "bye");
    ttcp_frame_end(&f);
    ttcp_client_send_frame(c, &f);
    return c->out->problem == TTCP_CLIENT_OK ? 0 : -1;
}
