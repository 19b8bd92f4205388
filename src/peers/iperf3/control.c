/* The iperf3 client's control connection: connecting (TCP_NODELAY, as
 * iperf3 wants it), the state bytes and the length-led JSON messages,
 * every read bounded in size and in time (remote/channel.h's reads). */
#include <stdio.h>
#include <string.h>

#include "engine/local.h"
#include "remote/dial.h"
#include "peers/iperf3/internal.h"
#include "remote/channel.h"

int ttcp_iperf3_fail(struct i3 *c, enum ttcp_client_problem p, int code, const char *why)
{
    if (c->out->problem != TTCP_CLIENT_OK)
        return -1; /* the first problem is the one told */
    c->out->problem = p;
    if (code != 0) {
        c->out->failure.code = code;
        c->out->failure.native = tt_last_error();
    }
    if (why != NULL)
        snprintf(c->out->why, sizeof c->out->why, "%s", why);
    return -1;
}

/* When a wait for the server ends: I3_CONTROL_NS from now, or sooner. */
static int64_t wait_end(const struct i3 *c)
{
    int64_t end = tt_now_ns() + I3_CONTROL_NS;
    return c->deadline != 0 && c->deadline < end ? c->deadline : end;
}

int ttcp_iperf3_connect(struct i3 *c, tt_socket s, const struct tt_addr *a)
{
    int64_t left_ms = (wait_end(c) - tt_now_ns()) / 1000000;
    int rc;
    if (left_ms < 1)
        return TT_E_TIMEDOUT;
    tt_setopt(s, TT_OPT_SNDTIMEO_MS, (int)left_ms);
    rc = tt_connect(s, a);
    tt_setopt(s, TT_OPT_SNDTIMEO_MS, 0);
    return rc;
}

/* The control connection's step (remote/dial.h): from --bind's address,
 * connected within the test's time. */
static int control_step(void *ctx, tt_socket s, const struct tt_addr *a, enum ttcp_op *op)
{
    struct i3 *c = ctx;
    int rc;
    *op = TTCP_OP_CONNECT;
    if ((rc = ttcp_bind_outgoing(s, c->opts, a->family, 0)) != 0)
        return rc;
    return ttcp_iperf3_connect(c, s, a);
}

int ttcp_iperf3_open_control(struct i3 *c)
{
    struct ttcp_dialled d;
    int rc = ttcp_dial(c->opts->host, (uint16_t)c->opts->port, c->opts->family, 0,
                       control_step, c, &d);
    c->out->failure.op = d.op;
    if (rc != 0)
        return ttcp_iperf3_fail(c, TTCP_CLIENT_CONNECT, rc, NULL);
    c->control = d.sock;
    c->server = d.server;
    (void)tt_setopt(c->control, TT_OPT_NODELAY, 1);
    /* a server that stops reading cannot hold a send forever */
    (void)tt_setopt(c->control, TT_OPT_SNDTIMEO_MS, (int)(I3_CONTROL_NS / 1000000));
    return 0;
}

int ttcp_iperf3_send(struct i3 *c, tt_socket s, const void *buf, size_t len)
{
    const unsigned char *p = buf;
    while (len > 0) {
        int64_t n = tt_send(s, p, len);
        if (n == TT_E_INTR)
            continue;
        if (n <= 0)
            return ttcp_iperf3_fail(c, TTCP_CLIENT_LOST, n < 0 ? (int)n : TT_E_IO, NULL);
        p += n;
        len -= (size_t)n;
    }
    return 0;
}

int ttcp_iperf3_send_state(struct i3 *c, enum ttcp_iperf3_state st)
{
    unsigned char b = ttcp_iperf3_state_byte(st);
    int rc;
    tt_mutex_lock(c->lock);
    rc = ttcp_iperf3_send(c, c->control, &b, 1);
    tt_mutex_unlock(c->lock);
    return rc;
}

static int read_exact(struct i3 *c, void *buf, size_t len)
{
    int rc = ttcp_channel_read_exact(c->control, buf, len, wait_end(c));
    return rc != 0 ? ttcp_iperf3_fail(c, TTCP_CLIENT_LOST, rc, NULL) : 0;
}

/* SERVER_ERROR: its two integers make the why. */
static int server_error(struct i3 *c)
{
    unsigned char b[8];
    int32_t ie, err;
    char why[128];
    if (read_exact(c, b, sizeof b) != 0)
        return -1;
    ttcp_iperf3_error_get(b, &ie, &err);
    snprintf(why, sizeof why, "iperf3 error %ld (errno %ld)", (long)ie, (long)err);
    return ttcp_iperf3_fail(c, TTCP_CLIENT_REFUSED, 0, why);
}

int ttcp_iperf3_expect(struct i3 *c, enum ttcp_iperf3_state want)
{
    unsigned char b;
    enum ttcp_iperf3_state st;
    char why[128];
    if (read_exact(c, &b, 1) != 0)
        return -1;
    if (!ttcp_iperf3_state_known(b, &st)) {
        snprintf(why, sizeof why, "iperf3: state byte %d where %s was due", (int)(signed char)b,
                 ttcp_iperf3_state_name(want));
        return ttcp_iperf3_fail(c, TTCP_CLIENT_PROTOCOL, 0, why);
    }
    if (st == want)
        return 0;
    if (st == TTCP_IPERF3_ACCESS_DENIED)
        return ttcp_iperf3_fail(c, TTCP_CLIENT_BUSY, 0, "iperf3 is running another test "
                                "(ACCESS_DENIED)");
    if (st == TTCP_IPERF3_SERVER_ERROR)
        return server_error(c);
    snprintf(why, sizeof why, "iperf3: %s where %s was due", ttcp_iperf3_state_name(st),
             ttcp_iperf3_state_name(want));
    return ttcp_iperf3_fail(c, TTCP_CLIENT_PROTOCOL, 0, why);
}

int ttcp_iperf3_send_json(struct i3 *c, const char *json, size_t len)
{
    unsigned char head[4];
    int rc;
    ttcp_iperf3_length_put((uint32_t)len, head);
    tt_mutex_lock(c->lock);
    rc = ttcp_iperf3_send(c, c->control, head, sizeof head);
    if (rc == 0)
        rc = ttcp_iperf3_send(c, c->control, json, len);
    tt_mutex_unlock(c->lock);
    return rc;
}

int ttcp_iperf3_read_json(struct i3 *c, char *buf, uint32_t max, uint32_t *len)
{
    unsigned char head[4];
    char why[128];
    if (read_exact(c, head, sizeof head) != 0)
        return -1;
    if (ttcp_iperf3_length_get(head, max, len) != 0) {
        snprintf(why, sizeof why, "iperf3: a message of %lu bytes (at most %lu taken)",
                 (unsigned long)*len, (unsigned long)max);
        return ttcp_iperf3_fail(c, TTCP_CLIENT_PROTOCOL, 0, why);
    }
    if (read_exact(c, buf, *len) != 0)
        return -1;
    buf[*len] = '\0';
    return 0;
}
