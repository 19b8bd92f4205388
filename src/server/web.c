/* -S --web: the server's side of the browser's test (remote/web.h). The
 * server opens --web's listener and lends web/ a slot for each test (a
 * SLOT_WEB, counted in --max-clients with the clients') and its notices;
 * web/ answers HTTP on threads of its HTTP library and keeps each test on
 * the slot's thread until it ends. */
#include <stdio.h>
#include <string.h>

#include "server/internal.h"

#define WEB_BACKLOG 64

/* A test's figures into the ring of the last TTCP_WEB_KEPT, the oldest
 * giving way. */
static void keep(struct ttcp_server *sv, const struct ttcp_web_figures *f)
{
    struct ttcp_web_record *r;
    tt_mutex_lock(sv->lock);
    sv->web_seq++;
    r = &sv->web_kept[(sv->web_seq - 1) % TTCP_WEB_KEPT];
    memset(r, 0, sizeof *r);
    r->seq = sv->web_seq;
    r->end_ns = tt_now_ns();
    r->f = *f;
    tt_mutex_unlock(sv->lock);
}

void ttcp_web_run(struct slot *sl)
{
    struct ttcp_server *sv = sl->server;
    struct ttcp_web_figures f;
    memset(&f, 0, sizeof f);
    sl->web_keep(sl->web_test, &f);
    f.peer = sl->peer;
    keep(sv, &f);
    if (sv->obs->web_test != NULL)
        sv->obs->web_test(sv->obs->ctx, &f);
}

void ttcp_web_answer(struct slot *sl)
{
    struct ttcp_server *sv = sl->server;
    struct ttcp_web_record kept[TTCP_WEB_KEPT];
    struct ttcp_frame f;
    uint64_t last, seq, first;
    int64_t now;
    int n = 0, i;
    tt_mutex_lock(sv->lock); /* a copy, so no frame is sent under the lock */
    last = sv->web_seq;
    first = last > TTCP_WEB_KEPT ? last - TTCP_WEB_KEPT + 1 : 1;
    for (seq = first; seq <= last; seq++)
        kept[n++] = sv->web_kept[(seq - 1) % TTCP_WEB_KEPT];
    tt_mutex_unlock(sv->lock);
    now = tt_now_ns();
    for (i = 0; i < n; i++) {
        ttcp_wire_web_result(&f, &kept[i], now);
        if (ttcp_slot_send(sl, &f) != 0)
            return;
    }
    ttcp_wire_web_results_end(&f, n);
    ttcp_slot_send(sl, &f);
}

static int claim(void *ctx, const struct tt_addr *peer, ttcp_web_keeper keep, void *test)
{
    struct ttcp_server *sv = ctx;
    struct slot *sl = ttcp_server_claim(sv, SLOT_WEB);
    if (sl == NULL) {
        ttcp_server_notice(sv, TTCP_NOTICE_BUSY, peer);
        return -1;
    }
    sl->peer = *peer;
    sl->web_keep = keep;
    sl->web_test = test;
    ttcp_server_begun(sv);
    return ttcp_server_launch(sv, sl);
}

static void notice(void *ctx, enum ttcp_notice what, const struct tt_addr *peer)
{
    ttcp_server_notice(ctx, what, peer);
}

/* --web's address (every address, both families, when none was typed)
 * and port, listening. */
static int web_listen(struct ttcp_server *sv, tt_socket *out, struct ttcp_failure *failure)
{
    const struct ttcp_options *o = sv->opts;
    struct tt_addr_list list;
    struct tt_addr at;
    int family = o->family, rc;
    failure->op = TTCP_OP_BIND;
    if (o->web_host[0] != '\0') {
        if ((rc = tt_resolve(o->web_host, (uint16_t)o->web_port, o->family, 0, &list)) != 0)
            return rc;
        if (list.count == 0)
            return TT_E_INVAL;
        at = list.addr[0];
        family = at.family;
    }
    failure->op = TTCP_OP_SOCKET;
    rc = tt_socket_open(family, 0, out);
    if (rc == TT_E_AFNOSUPPORT && family == TT_FAMILY_ANY)
        rc = tt_socket_open(family = TT_FAMILY_V4, 0, out);
    if (rc != 0)
        return rc;
    if (o->web_host[0] == '\0')
        tt_addr_any(family, (uint16_t)o->web_port, &at);
    tt_setopt(*out, TT_OPT_REUSEADDR, 1);
    failure->op = TTCP_OP_BIND;
    rc = tt_bind(*out, &at);
    if (rc == 0) {
        failure->op = TTCP_OP_LISTEN;
        rc = tt_listen(*out, WEB_BACKLOG);
    }
    if (rc != 0) {
        failure->native = tt_last_error();
        tt_close(*out);
        *out = TT_NO_SOCKET;
    }
    return rc;
}

int ttcp_server_web_start(struct ttcp_server *sv, struct ttcp_failure *failure, char *why,
                          size_t why_len)
{
    struct ttcp_web_host *h = &sv->web_host;
    tt_socket s = TT_NO_SOCKET;
    char native[160];
    int rc;
    if (sv->opts->web == NULL)
        return 0;
    if (sv->obs->web == NULL) {
        snprintf(why, why_len, "--web: this program serves no page");
        return TT_E_INVAL;
    }
    if ((rc = web_listen(sv, &s, failure)) != 0) {
        snprintf(why, why_len, "--web %s: the address or port cannot be had: %s", sv->opts->web,
                 tt_error_text(rc, failure->native, native, sizeof native));
        return TT_E_INVAL;
    }
    h->opts = sv->opts;
    h->allow = &sv->allow;
    h->listener = s;
    h->claim = claim;
    h->notice = notice;
    h->ctx = sv;
    if (sv->obs->web->start(h, &sv->web, why, why_len) != 0) {
        tt_close(s);
        sv->web = NULL;
        return TT_E_INVAL;
    }
    if (sv->obs->web_port != NULL)
        sv->obs->web_port(sv->obs->ctx, sv->opts->web_port);
    return 0;
}

void ttcp_server_web_stop(struct ttcp_server *sv)
{
    if (sv->web == NULL)
        return;
    tt_mutex_lock(sv->lock);
    sv->web_closing = 1;
    tt_mutex_unlock(sv->lock);
    sv->obs->web->stop(sv->web);
    while (ttcp_server_reap(sv) > 0) /* the keepers return at once */
        tt_sleep_ns(20000000ll);
    sv->obs->web->drop(sv->web);
    sv->web = NULL;
}
