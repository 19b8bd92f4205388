/* A third party's test (-C this-host host2; docs/PROTOCOL.md, "Third-party
 * tests"), on the slot's thread: refused at once (no --third-party, a
 * target outside it), or run as a -C test of this host's own to the
 * target through the leg function cli/ gave (server.h), its intervals and
 * results passed back to the client that asked. No test data goes to an
 * address the operator did not list: the target is resolved here, every
 * address it has is checked against --third-party, and the test goes to
 * the checked address, numeric, so nothing is looked up again. */
#include <stdio.h>
#include <string.h>

#include "server/internal.h"

/* Without -i, the leg still takes (quiet) intervals of 1 s: each goes to
 * the client as a sign of life, so that its waits stay bounded however
 * long the test runs. */
#define HEARTBEAT_NS 1000000000ll
/* The leg's waits for host2 end by its test's time and this. */
#define LEG_GRACE_NS (30ll * 1000000000ll)

struct third {
    struct slot *sl;
    struct ttcp_server *sv;
    struct ttcp_grant grant;
    struct ttcp_third where;   /* the checked address, and the client's */
    struct ttcp_options leg;   /* this host's -C test to the target */
    char why[256];
};

static int refuse(struct third *t, const char *reason)
{
    ttcp_slot_error(t->sl, reason, t->why);
    ttcp_server_notice(t->sv, strcmp(reason, "third_party") == 0 ? TTCP_NOTICE_THIRD_REFUSED
                                                                 : TTCP_NOTICE_REFUSED_TEST,
                       &t->sl->peer);
    return -1;
}

/* The target, resolved here: every address it has must be in the list
 * (a name that also points elsewhere is refused whole); the test goes to
 * the first. */
static int aim(struct third *t)
{
    struct tt_addr_list list;
    const char *name = t->grant.target;
    int i, inside = 0;
    if (tt_resolve(name, (uint16_t)t->grant.target_port, t->sv->opts->family, 0, &list) != 0 ||
        list.count == 0) {
        snprintf(t->why, sizeof t->why, "%.120s: the server cannot resolve it", name);
        return refuse(t, "third_party");
    }
    for (i = 0; i < list.count; i++)
        inside += ttcp_allow_match(&t->sv->third, &list.addr[i]);
    if (inside < list.count) {
        snprintf(t->why, sizeof t->why, inside == 0
                 ? "%.120s is not in the server's --third-party list"
                 : "%.120s resolves to addresses outside the server's --third-party list", name);
        return refuse(t, "third_party");
    }
    tt_addr_text(&list.addr[0], t->where.target, sizeof t->where.target);
    t->where.target_port = t->grant.target_port;
    tt_addr_text(&t->sl->peer, t->where.client, sizeof t->where.client);
    return 0;
}

/* The leg: the request's test as this host's -C test to the checked
 * address, within this server's limits (the grant's), with its own key. */
static int plan_leg(struct third *t)
{
    struct ttcp_options *o = &t->leg;
    *o = t->grant.opts;
    o->mode = TTCP_MODE_CLIENT;
    o->host = t->where.target;
    o->port = t->grant.target_port;
    o->transmit = t->grant.direction != TTCP_DIR_RECEIVE;
    o->bidir = t->grant.direction == TTCP_DIR_BIDIR;
    o->side_given = 1;
    o->nbuf_given = o->duration_ns == 0;
    o->key_file = t->sv->opts->key_file; /* host2 may ask this host to prove itself */
    o->bind = t->sv->opts->bind;         /* from the address this server serves on, if named */
    o->json = 0;
    /* host2's transmitter keeps host2's limits, not ours: a timed test it
     * sends asks it for no more than our --max-time (-n's end: our receiving
     * end's limit, after a grace) */
    if (o->limit_ns != 0 && o->duration_ns > o->limit_ns && t->grant.direction != TTCP_DIR_SEND)
        o->duration_ns = o->limit_ns;
    if (o->interval_ns == 0) {
        o->interval_ns = HEARTBEAT_NS;
        o->quiet_intervals = 1;
    }
    if (ttcp_options_validate(o, t->why, sizeof t->why) != 0)
        return refuse(t, "test");
    return 0;
}

/* The request, read and checked: 0 when the leg may run. */
static int agree(struct third *t, const struct ttcp_message *request)
{
    struct ttcp_frame f;
    if (t->sv->third.count == 0 || t->sv->obs->leg == NULL) {
        snprintf(t->why, sizeof t->why, "the server does not run third-party tests");
        return refuse(t, "third_party");
    }
    if (ttcp_wire_read_test(request, t->sv->opts, &t->grant, t->why, sizeof t->why) != 0)
        return refuse(t, "test");
    if (t->grant.opts.buflen > SERVER_MAX_BUFLEN) {
        snprintf(t->why, sizeof t->why, "buflen: at most %u bytes on this server",
                 SERVER_MAX_BUFLEN);
        return refuse(t, "test");
    }
    if (aim(t) != 0 || plan_leg(t) != 0)
        return -1;
    ttcp_wire_third_ready(&f, &t->grant, &t->where);
    return ttcp_slot_send(t->sl, &f) == 0 ? 0 : -1;
}

/* The leg's facts: this host's own lines go to the server's output, and
 * each stream's intervals at either end to the client (-P's totals it
 * makes itself). */
static void leg_event(void *ctx, const struct ttcp_options *o, int local,
                      const struct ttcp_event *ev, const struct ttcp_result *res)
{
    struct third *t = ctx;
    struct ttcp_frame f;
    int way, i;
    if (local)
        t->sv->obs->event(t->sv->obs->ctx, o, ev, res);
    if (ev->kind != TTCP_EV_INTERVAL || (t->leg.streams > 1 && o->stream_number == 0))
        return;
    way = (o->transmit != 0) == (local != 0) ? 0 : 1; /* 0: this host sends */
    i = o->stream_number > 0 ? o->stream_number - 1 : 0;
    ttcp_wire_interval(&f, TTCP_STREAM_ID(i, way), ev->interval);
    ttcp_wire_add_at(&f, !local);
    ttcp_slot_send(t->sl, &f);
}

static void leg_trace(void *ctx, int local, const struct ttcp_trace *tr,
                      const struct ttcp_hop *h, int ended)
{
    (void)ctx, (void)local, (void)tr, (void)h, (void)ended; /* no --traceroute on a leg */
}

static void send_result(struct third *t, int id, const struct ttcp_result *r, int far)
{
    struct ttcp_frame f;
    ttcp_wire_result(&f, id, r);
    ttcp_wire_add_at(&f, far);
    ttcp_slot_send(t->sl, &f);
}

/* Each stream's figures at both ends, then how the leg went. */
static void pass_results(struct third *t, const struct ttcp_client_outcome *out)
{
    struct ttcp_frame f;
    int way, i;
    for (way = 0; way < 2; way++) {
        const struct ttcp_client_stream *st = &out->stream[way];
        for (i = 0; st->used && i < st->n; i++) {
            if (st->part_rc[i] != 0)
                t->sv->obs->failed(t->sv->obs->ctx, &st->part_local[i], &st->part_mine[i]);
            send_result(t, TTCP_STREAM_ID(i, way), &st->part_mine[i], 0);
            if (st->part_theirs_valid[i])
                send_result(t, TTCP_STREAM_ID(i, way), &st->part_theirs[i], 1);
        }
    }
    ttcp_wire_third_done(&f, (int)out->problem, &out->failure, out->why);
    ttcp_slot_send(t->sl, &f);
}

/* The leg's waits for host2 end by the test's time (or the limit) and a
 * grace; an -n test without --max-time has its every step bounded only. */
static int64_t leg_deadline(const struct ttcp_options *o)
{
    int64_t span = o->duration_ns;
    if (o->limit_ns != 0 && (span == 0 || o->limit_ns < span))
        span = o->limit_ns;
    return span == 0 ? 0 : tt_now_ns() + span + 2 * o->idle_timeout_ns + LEG_GRACE_NS;
}

/* The client's bye (bounded), after the leg's results. */
static void farewell(struct third *t)
{
    struct ttcp_message m;
    int64_t end = tt_now_ns() + CONTROL_NS;
    while (ttcp_channel_receive(t->sl->control, &m, end, t->why, sizeof t->why) == 0 &&
           strcmp(ttcp_proto_type(&m), "bye") != 0)
        continue;
}

void ttcp_third_run(struct slot *sl, const struct ttcp_message *request)
{
    struct third t;
    struct ttcp_client_observer obs = {leg_event, NULL, leg_trace};
    struct ttcp_client_outcome out;
    memset(&t, 0, sizeof t);
    t.sl = sl;
    t.sv = sl->server;
    obs.ctx = &t;
    if (agree(&t, request) != 0)
        return;
    ttcp_server_notice(t.sv, TTCP_NOTICE_THIRD_PARTY, &sl->peer);
    ttcp_server_begun(t.sv);
    t.sv->obs->leg(&t.leg, &obs, &out, leg_deadline(&t.leg));
    pass_results(&t, &out);
    ttcp_client_release(&out);
    farewell(&t);
}
