/* An outcome's memory (remote/outcome.h), whichever conversation filled it. */
#include "remote/outcome.h"

#include <stdlib.h>

#include "ttcp/platform.h"

int ttcp_outcome_parts(struct ttcp_client_stream *st, int n)
{
    st->n = n;
    st->part_local = calloc((size_t)n, sizeof *st->part_local);
    st->part_remote = calloc((size_t)n, sizeof *st->part_remote);
    st->part_mine = calloc((size_t)n, sizeof *st->part_mine);
    st->part_theirs = calloc((size_t)n, sizeof *st->part_theirs);
    st->part_theirs_valid = calloc((size_t)n, sizeof *st->part_theirs_valid);
    st->part_rc = calloc((size_t)n, sizeof *st->part_rc);
    return st->part_local && st->part_remote && st->part_mine && st->part_theirs &&
                   st->part_theirs_valid && st->part_rc ? 0 : -1;
}

void ttcp_outcome_tell(const struct ttcp_client_outcome *out, const struct ttcp_client_observer *obs,
                       int way, int i, int local, const struct ttcp_event *ev,
                       const struct ttcp_result *res)
{
    const struct ttcp_client_stream *st = &out->stream[way];
    const struct ttcp_options *o = i < 0 ? (local ? &st->local : &st->remote)
                                         : (local ? &st->part_local[i] : &st->part_remote[i]);
    obs->event(obs->ctx, o, local, ev, res);
}

int ttcp_outcome_problem(struct ttcp_client_outcome *out, enum ttcp_client_problem p, int code)
{
    out->problem = p;
    if (code != 0) {
        out->failure.code = code;
        out->failure.native = tt_last_error();
    }
    return -1;
}

void ttcp_client_release(struct ttcp_client_outcome *out)
{
    int i, k;
    for (i = 0; i < 2; i++) {
        struct ttcp_client_stream *st = &out->stream[i];
        ttcp_result_release(&st->mine);
        ttcp_result_release(&st->theirs);
        for (k = 0; k < st->n; k++) {
            if (st->part_mine != NULL)
                ttcp_result_release(&st->part_mine[k]);
            if (st->part_theirs != NULL)
                ttcp_result_release(&st->part_theirs[k]);
        }
        free(st->part_local);
        free(st->part_remote);
        free(st->part_mine);
        free(st->part_theirs);
        free(st->part_theirs_valid);
        free(st->part_rc);
    }
    ttcp_latency_free(&out->latency);
}
