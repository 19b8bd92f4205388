/* ttcp -C: a test against a ttcp -S (client.h). This file holds the
 * client's state for the test's length; the conversation is control.c's. */
#include "client/client.h"

#include <string.h>

#include "client/internal.h"

int ttcp_client_run(const struct ttcp_options *o, const struct ttcp_client_observer *obs,
                    struct ttcp_client_outcome *out)
{
    return ttcp_client_run_until(o, obs, out, 0);
}

int ttcp_client_run_until(const struct ttcp_options *o, const struct ttcp_client_observer *obs,
                          struct ttcp_client_outcome *out, int64_t deadline)
{
    struct client c;
    int rc, i;

    memset(out, 0, sizeof *out);
    memset(&c, 0, sizeof c);
    c.deadline = deadline;
    c.opts = o;
    c.obs = obs;
    c.out = out;
    c.control = TT_NO_SOCKET;
    c.probes.sock = TT_NO_SOCKET;
    for (i = 0; i < TTCP_STREAM_IDS; i++)
        c.socks[i] = TT_NO_SOCKET;
    if (o->key_file != NULL &&
        ttcp_key_load(o->key_file, &c.key, out->why, sizeof out->why) != 0)
        return ttcp_client_problem(&c, TTCP_CLIENT_KEY, 0);
    if (tt_mutex_new(&c.lock) != 0)
        return ttcp_client_problem(&c, TTCP_CLIENT_LOST, TT_E_NOMEM);
    rc = o->target != NULL ? ttcp_client_converse_third(&c) : ttcp_client_converse(&c);
    for (i = 0; i < TTCP_STREAM_IDS; i++) /* a test that never ran them */
        if (c.socks[i] != TT_NO_SOCKET)
            tt_close(c.socks[i]);
    if (c.control != TT_NO_SOCKET)
        tt_close(c.control);
    ttcp_streams_free(&c.run);
    tt_mutex_free(c.lock);
    ttcp_key_wipe(&c.key);
    return rc;
}
