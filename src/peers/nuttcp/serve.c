/* ttcp -S answers nuttcp's client (`nuttcp host`, `nuttcp -r host`): on
 * the slot's thread, the HELO both ways, the parameter line (bounded in
 * size and time, every field in its bounds), OK or KO, the data
 * (serve_data.c), then the lines 6.1.2's client reads after it, and the
 * close that ends its test. What 6.1.2 sends and expects is in wire.h
 * and docs/COMPAT.md, "Serving nuttcp clients". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "peers/nuttcp/serve.h"

static const struct ttcp_nuttcp_version spoken = TTCP_NUTTCP_SPOKEN;

static void notice(struct nuttcp_serve *v, enum ttcp_notice what)
{
    const struct ttcp_server_observer *obs = v->s->obs;
    if (obs->notice != NULL)
        obs->notice(obs->ctx, what, &v->s->client);
}

/* The next line before end: 1, or <= 0 with the notice told. */
static int line_by(struct nuttcp_serve *v, char *line, int64_t end)
{
    int rc = nuttcp_ctl_line(&v->ctl, line, TTCP_NUTTCP_LINE_MAX, end);
    if (rc == 1)
        return 1;
    notice(v, rc == TT_E_TIMEDOUT ? TTCP_NOTICE_HELLO_TIMEOUT
              : rc == TT_E_INVAL  ? TTCP_NOTICE_BAD_HELLO : TTCP_NOTICE_CONTROL_LOST);
    return rc;
}

/* KO, the reason, KO: nuttcp's client prints the lines between. */
static void say_ko(struct nuttcp_serve *v, const char *why)
{
    char text[TTCP_NUTTCP_LINE_MAX];
    int n = snprintf(text, sizeof text, "%snuttcp-r: Error: %s\n%s", TTCP_NUTTCP_KO, why,
                     TTCP_NUTTCP_KO);
    if (n > 0 && (size_t)n < sizeof text)
        nuttcp_ctl_send(&v->ctl, text, (size_t)n);
}

static int greet(struct nuttcp_serve *v)
{
    char line[TTCP_NUTTCP_LINE_MAX];
    struct ttcp_nuttcp_version theirs;
    size_t n;
    if (line_by(v, line, tt_now_ns() + NUTTCP_SERVE_HELO_NS) != 1)
        return -1;
    if (ttcp_nuttcp_read_helo(line, &theirs, v->why, sizeof v->why) != 0) {
        notice(v, TTCP_NOTICE_BAD_HELLO);
        return -1;
    }
    n = ttcp_nuttcp_helo(&spoken, line, sizeof line);
    return nuttcp_ctl_send(&v->ctl, line, n) == 0 ? 0 : -1;
}

/* The parameter line, then OK (the test agreed) or KO (refused). */
static int agree(struct nuttcp_serve *v)
{
    char line[TTCP_NUTTCP_LINE_MAX];
    size_t n;
    int rc = nuttcp_ctl_line(&v->ctl, line, sizeof line, tt_now_ns() + NUTTCP_SERVE_HELO_NS);
    if (rc == TT_E_INVAL) { /* longer than any parameter line: refused, unread */
        snprintf(v->why, sizeof v->why, "a parameter line longer than %d bytes",
                 TTCP_NUTTCP_LINE_MAX);
        say_ko(v, v->why);
        notice(v, TTCP_NOTICE_REFUSED_TEST);
        return -1;
    }
    if (rc != 1) {
        notice(v, rc == TT_E_TIMEDOUT ? TTCP_NOTICE_HELLO_TIMEOUT : TTCP_NOTICE_CONTROL_LOST);
        return -1;
    }
    if (ttcp_nuttcp_read_params(line, &v->p, v->why, sizeof v->why) != 0 ||
        nuttcp_serve_plan(v) != 0 || nuttcp_serve_listen(v) != 0) {
        ttcp_nuttcp_printable(v->why);
        say_ko(v, v->why);
        notice(v, TTCP_NOTICE_REFUSED_TEST);
        return -1;
    }
    n = ttcp_nuttcp_ok(&spoken, line, sizeof line);
    return nuttcp_ctl_send(&v->ctl, line, n) == 0 ? 0 : -1;
}

void ttcp_nuttcp_serve(struct ttcp_peer_serving *s)
{
    struct nuttcp_serve *v = calloc(1, sizeof *v);
    if (v == NULL)
        return;
    v->s = s;
    v->ctl.s = s->control;
    tt_setopt(s->control, TT_OPT_SNDTIMEO_MS, (int)(NUTTCP_SERVE_DATA_NS / 1000000));
    if (greet(v) == 0 && agree(v) == 0) {
        s->begun(s);
        if (nuttcp_serve_open(v) == 0) {
            nuttcp_serve_run(v);
            nuttcp_serve_report(v);
        } else {
            notice(v, TTCP_NOTICE_CONTROL_LOST);
        }
    }
    nuttcp_serve_free(v);
    free(v);
}

void ttcp_nuttcp_refuse(tt_socket s, int busy)
{
    /* the client's HELO is still unread: ours first, then KO as it reads
     * the answer to its parameters */
    char text[256];
    size_t n = ttcp_nuttcp_helo(&spoken, text, sizeof text);
    int m = snprintf(text + n, sizeof text - n, "%snuttcp-r: Error: %s\n%s", TTCP_NUTTCP_KO,
                     busy ? "busy: this ttcp -S runs its --max-clients tests; try again later"
                          : "this ttcp -S takes only clients that hold its key (--key-file); "
                            "nuttcp cannot carry one",
                     TTCP_NUTTCP_KO);
    if (n > 0 && m > 0 && (size_t)m < sizeof text - n)
        tt_send(s, text, n + (size_t)m);
}
