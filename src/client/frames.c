/* The client's end of the control connection: frames sent under a lock,
 * frames read with a deadline, and what went wrong, as the outcome's
 * problem (client.h). The server's end is in server/control.c. */
#include <stdio.h>
#include <string.h>

#include "client/internal.h"

int64_t ttcp_client_wait_end(const struct client *c, int64_t span)
{
    int64_t end = tt_now_ns() + span;
    return c->deadline != 0 && c->deadline < end ? c->deadline : end;
}

/* A connect bounded by the client's deadline (remote/channel.h). */
int ttcp_client_connect(const struct client *c, tt_socket s, const struct tt_addr *a)
{
    return ttcp_channel_connect(s, a, c->deadline);
}

int ttcp_client_problem(struct client *c, enum ttcp_client_problem p, int code)
{
    return ttcp_outcome_problem(c->out, p, code);
}

int ttcp_client_receive_any(struct client *c, struct ttcp_message *m)
{
    return ttcp_client_receive_within(c, m, CONTROL_NS);
}

int ttcp_client_receive_within(struct client *c, struct ttcp_message *m, int64_t span)
{
    const char *t, *msg;
    int rc = ttcp_channel_receive(c->control, m, ttcp_client_wait_end(c, span), c->out->why,
                                  sizeof c->out->why);
    c->out->failure.op = TTCP_OP_IO;
    if (rc == TT_E_INVAL)
        return ttcp_client_problem(c, TTCP_CLIENT_PROTOCOL, 0);
    if (rc != 0)
        return ttcp_client_problem(c, TTCP_CLIENT_LOST, rc);
    t = ttcp_proto_type(m);
    msg = ttcp_proto_get(m, "message");
    if (strcmp(t, "busy") == 0 || strcmp(t, "error") == 0) {
        snprintf(c->out->why, sizeof c->out->why, "%s", msg ? msg : "(no reason given)");
        return ttcp_client_problem(c, strcmp(t, "busy") == 0 ? TTCP_CLIENT_BUSY
                                                             : TTCP_CLIENT_REFUSED, 0);
    }
    return 0;
}

int ttcp_client_receive(struct client *c, struct ttcp_message *m, const char *type)
{
    if (ttcp_client_receive_any(c, m) != 0)
        return -1;
    if (strcmp(ttcp_proto_type(m), type) != 0) {
        snprintf(c->out->why, sizeof c->out->why, "expected %s, got %.32s", type,
                 ttcp_proto_type(m));
        return ttcp_client_problem(c, TTCP_CLIENT_PROTOCOL, 0);
    }
    return 0;
}

int ttcp_client_send_frame(struct client *c, struct ttcp_frame *f)
{
    int rc;
    tt_mutex_lock(c->lock);
    rc = ttcp_channel_send(c->control, f);
    tt_mutex_unlock(c->lock);
    if (rc != 0)
        return ttcp_client_problem(c, TTCP_CLIENT_LOST, rc);
    return 0;
}
