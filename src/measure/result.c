/* A result's own memory. */
#include "measure/result.h"

void ttcp_result_release(struct ttcp_result *res)
{
    ttcp_intervals_free(&res->intervals);
}
