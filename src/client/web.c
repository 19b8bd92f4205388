/* ttcp -C's end of web_results (client.h): a server's last browser tests,
 * asked for after the greeting, each frame read with its bounds
 * (remote/wire_web.h). The server's end is server/web.c's
 * ttcp_web_answer(). */
#include <stdio.h>
#include <string.h>

#include "client/internal.h"

/* web_result frames, oldest first, then web_results_end with their count. */
static int read_results(struct client *c, struct ttcp_web_record *kept, int *count)
{
    struct ttcp_message m;
    int n = 0, said = -1;
    for (;;) {
        if (ttcp_client_receive_any(c, &m) != 0)
            return -1;
        if (strcmp(ttcp_proto_type(&m), "web_results_end") == 0)
            break;
        if (n == TTCP_WEB_KEPT) {
            snprintf(c->out->why, sizeof c->out->why, "more than %d web results", TTCP_WEB_KEPT);
            return ttcp_client_problem(c, TTCP_CLIENT_PROTOCOL, 0);
        }
        if (ttcp_wire_read_web_result(&m, &kept[n], c->out->why, sizeof c->out->why) != 0)
            return ttcp_client_problem(c, TTCP_CLIENT_PROTOCOL, 0);
        if (n > 0 && kept[n].seq <= kept[n - 1].seq) {
            snprintf(c->out->why, sizeof c->out->why, "web results out of order");
            return ttcp_client_problem(c, TTCP_CLIENT_PROTOCOL, 0);
        }
        n++;
    }
    if (ttcp_wire_read_web_results_end(&m, &said, c->out->why, sizeof c->out->why) != 0)
        return ttcp_client_problem(c, TTCP_CLIENT_PROTOCOL, 0);
    if (said != n) {
        snprintf(c->out->why, sizeof c->out->why, "web_results_end: count %d, %d came", said, n);
        return ttcp_client_problem(c, TTCP_CLIENT_PROTOCOL, 0);
    }
    *count = n;
    return 0;
}

int ttcp_client_web_results(const struct ttcp_options *o, struct ttcp_client_outcome *out,
                            struct ttcp_web_record kept[TTCP_WEB_KEPT], int *count,
                            int64_t deadline)
{
    struct client c;
    struct ttcp_frame f;
    int rc = -1;
    memset(out, 0, sizeof *out);
    memset(&c, 0, sizeof c);
    *count = 0;
    c.deadline = deadline;
    c.opts = o;
    c.out = out;
    c.control = TT_NO_SOCKET;
    c.probes.sock = TT_NO_SOCKET;
    if (o->key_file != NULL &&
        ttcp_key_load(o->key_file, &c.key, out->why, sizeof out->why) != 0)
        return ttcp_client_problem(&c, TTCP_CLIENT_KEY, 0);
    if (tt_mutex_new(&c.lock) != 0)
        return ttcp_client_problem(&c, TTCP_CLIENT_LOST, TT_E_NOMEM);
    ttcp_wire_web_results(&f);
    if (ttcp_client_connect_control(&c) == 0 && ttcp_client_greet(&c) == 0 &&
        ttcp_client_send_frame(&c, &f) == 0)
        rc = read_results(&c, kept, count);
    if (c.control != TT_NO_SOCKET)
        tt_close(c.control);
    tt_mutex_free(c.lock);
    ttcp_key_wipe(&c.key);
    return rc;
}
