/* The slots of the tests that run: claimed by gate.c for a classic
 * transmitter or a client's hello, run on a thread of their own (the body
 * server.c put in the server: a classic receiver, or control.c's
 * conversation), joined and freed when done. The data connections a test
 * waits for are attached here too. One mutex guards the table. */
#include <stdlib.h>
#include <string.h>

#include "server/internal.h"

void ttcp_server_notice(struct ttcp_server *sv, enum ttcp_notice what, const struct tt_addr *peer)
{
    if (sv->obs->notice != NULL)
        sv->obs->notice(sv->obs->ctx, what, peer);
}

/* Under the lock: one more test of this kind may run (--max-clients, -1). */
static int room(const struct ttcp_server *sv, enum slot_kind kind)
{
    uint64_t most = sv->opts->max_clients ? sv->opts->max_clients : TTCP_DEFAULT_MAX_CLIENTS;
    int running = sv->running[kind];
    if (kind != SLOT_CLASSIC) /* every tool's clients, and browsers, count as clients */
        running = sv->running[SLOT_CONTROL] + sv->running[SLOT_PEER] + sv->running[SLOT_WEB];
    return (uint64_t)running < most && !(sv->opts->once && sv->started) &&
           !(kind == SLOT_WEB && sv->web_closing);
}

struct slot *ttcp_server_claim(struct ttcp_server *sv, enum slot_kind kind)
{
    struct slot *found = NULL;
    int i;
    tt_mutex_lock(sv->lock);
    if (room(sv, kind))
        for (i = 0; i < SLOTS_MAX && found == NULL; i++)
            if (sv->slots[i].kind == SLOT_FREE)
                found = &sv->slots[i];
    if (found != NULL) {
        memset(found, 0, sizeof *found);
        found->kind = kind;
        found->server = sv;
        found->control = TT_NO_SOCKET;
        sv->running[kind]++;
    }
    tt_mutex_unlock(sv->lock);
    return found;
}

static void slot_thread(void *arg)
{
    struct slot *sl = arg;
    struct ttcp_server *sv = sl->server;
    sv->run[sl->kind](sl);
    tt_mutex_lock(sv->lock);
    sl->done = 1;
    tt_mutex_unlock(sv->lock);
}

static void release(struct ttcp_server *sv, struct slot *sl)
{
    int i;
    if (sl->control != TT_NO_SOCKET)
        tt_close(sl->control);
    tt_mutex_free(sl->send_lock);
    tt_mutex_lock(sv->lock);
    for (i = 0; i < sl->ids; i++)
        if (sl->stream[i].data != TT_NO_SOCKET)
            tt_close(sl->stream[i].data);
    free(sl->stream);
    sl->stream = NULL;
    free(sl->prior_bytes);
    sl->prior_bytes = NULL;
    sl->udp_flow = 0;
    sl->probe_expect = sl->probe_seen = 0;
    sl->ids = 0;
    sv->running[sl->kind]--;
    sl->kind = SLOT_FREE;
    tt_mutex_unlock(sv->lock);
}

void ttcp_server_begun(struct ttcp_server *sv)
{
    tt_mutex_lock(sv->lock);
    sv->started++;
    tt_mutex_unlock(sv->lock);
}

int ttcp_server_launch(struct ttcp_server *sv, struct slot *sl)
{
    if ((sl->kind == SLOT_CONTROL && tt_mutex_new(&sl->send_lock) != 0) ||
        tt_thread_start(&sl->thread, slot_thread, sl) != 0) {
        sl->thread = NULL;
        release(sv, sl);
        return -1;
    }
    return 0;
}

int ttcp_slot_send(struct slot *sl, struct ttcp_frame *f)
{
    int rc;
    tt_mutex_lock(sl->send_lock);
    rc = ttcp_channel_send(sl->control, f);
    tt_mutex_unlock(sl->send_lock);
    return rc;
}

void ttcp_slot_error(struct slot *sl, const char *reason, const char *message)
{
    tt_mutex_lock(sl->send_lock);
    ttcp_channel_send_error(sl->control, reason, message);
    tt_mutex_unlock(sl->send_lock);
}

int ttcp_same_ip(const struct tt_addr *a, const struct tt_addr *b)
{
    unsigned char x[16], y[16];
    int lx = tt_addr_ip(a, x), ly = tt_addr_ip(b, y);
    return lx != 0 && lx == ly && memcmp(x, y, (size_t)lx) == 0;
}

int ttcp_server_attach(struct ttcp_server *sv, const char *token, int stream, tt_socket sock,
                       const struct tt_addr *peer)
{
    int i, rc = -1;
    tt_mutex_lock(sv->lock);
    for (i = 0; i < SLOTS_MAX && rc != 0; i++) {
        struct slot *sl = &sv->slots[i];
        if (sl->udp || sl->kind != SLOT_CONTROL || sl->done || stream >= sl->ids ||
            !sl->stream[stream].expect || sl->stream[stream].attached ||
            strcmp(sl->token, token) != 0)
            continue;
        if (!ttcp_same_ip(&sl->peer, peer)) /* only from where the control connection came */
            break;
        sl->stream[stream].data = sock;
        sl->stream[stream].attached = 1;
        sl->stream[stream].peer = *peer;
        rc = 0;
    }
    tt_mutex_unlock(sv->lock);
    return rc;
}

void ttcp_server_attach_probe(struct ttcp_server *sv, const char *token,
                              const struct tt_addr *from)
{
    int i;
    tt_mutex_lock(sv->lock);
    for (i = 0; i < SLOTS_MAX; i++) {
        struct slot *sl = &sv->slots[i];
        if (sl->kind != SLOT_CONTROL || sl->done || !sl->probe_expect || sl->probe_seen ||
            strcmp(sl->token, token) != 0)
            continue;
        if (ttcp_same_ip(&sl->peer, from)) { /* no reflection: only where the client is */
            sl->probe_from = *from;
            sl->probe_seen = 1;
        }
        break;
    }
    tt_mutex_unlock(sv->lock);
}

void ttcp_server_attach_udp(struct ttcp_server *sv, const char *token, int stream,
                            const struct tt_addr *from)
{
    int i;
    tt_mutex_lock(sv->lock);
    for (i = 0; i < SLOTS_MAX; i++) {
        struct slot *sl = &sv->slots[i];
        if (sl->kind != SLOT_CONTROL || sl->done || !sl->udp || stream >= sl->ids ||
            !sl->stream[stream].expect || sl->stream[stream].udp_seen ||
            strcmp(sl->token, token) != 0)
            continue;
        if (ttcp_same_ip(&sl->peer, from)) { /* no reflection: only where the client is */
            sl->stream[stream].peer = *from;
            sl->stream[stream].udp_seen = 1;
        }
        break;
    }
    tt_mutex_unlock(sv->lock);
}

/* Joins the threads of the tests that have ended; returns how many run. */
int ttcp_server_reap(struct ttcp_server *sv)
{
    int i, running;
    for (i = 0; i < SLOTS_MAX; i++) {
        struct slot *sl = &sv->slots[i];
        int done;
        tt_mutex_lock(sv->lock);
        done = sl->kind != SLOT_FREE && sl->done;
        tt_mutex_unlock(sv->lock);
        if (done) {
            tt_thread_join(sl->thread);
            release(sv, sl);
        }
    }
    tt_mutex_lock(sv->lock);
    running = sv->running[SLOT_CLASSIC] + sv->running[SLOT_CONTROL] + sv->running[SLOT_PEER] +
              sv->running[SLOT_WEB];
    tt_mutex_unlock(sv->lock);
    return running;
}

