/* --pmtu alone on the command line: the path MTU's line, no test. */
#include <string.h>

#include "cli/modes.h"
#include "cli/print.h"
#include "engine/pmtu.h"
#include "report/report_pmtu.h"

int cli_pmtu(const struct ttcp_options *o)
{
    struct ttcp_result res; /* the failure, told as a test's is */
    char text[512];
    size_t n;
    memset(&res, 0, sizeof res);
    if (ttcp_pmtu_find(o, &res.pmtu, &res.failure) != 0) {
        cli_print_failure(o, &res);
        return CLI_EXIT_FAILED;
    }
    n = ttcp_report_pmtu(ttcp_options_side(o), o->host, &res.pmtu, text, sizeof text);
    cli_put(o, cli_report_stream(o), text, n);
    return res.pmtu.interrupted ? CLI_EXIT_FAILED : CLI_EXIT_OK;
}
