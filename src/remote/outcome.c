/* An outcome's memory (remote/outcome.h), whichever conversation filled it. */
#include "remote/outcome.h"

#include <stdlib.h>

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
}
