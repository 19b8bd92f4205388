/* --compression: two tests back to back and their ratio (cli/compression_cli.h). */
#include "cli/compression_cli.h"

#include <string.h>

#include "base/version.h"
#include "cli/modes.h"
#include "cli/print.h"
#include "report/report_compression.h"
#include "ttcp/platform.h"

static void say(const struct ttcp_options *o, const char *text, size_t n, size_t len)
{
    cli_put(o, cli_report_stream(o), text, n < len ? n : len - 1);
}

/* --json: one document, each test's own document in "runs", then the ratio;
 * its error, the first failed test's. */
static void print_document(const struct ttcp_options *o, const struct cli_took *took, int n,
                           const struct ttcp_compression *c)
{
    struct ttcp_json j;
    const struct cli_took *failed = NULL;
    int i;
    ttcp_json_init(&j);
    ttcp_json_compression_begin(&j, o, ttcp_version());
    for (i = 0; i < n; i++) {
        if (took[i].doc.failed || took[i].doc.buf == NULL)
            ttcp_json_null(&j, NULL);
        else
            ttcp_json_value(&j, NULL, took[i].doc.buf);
        if (failed == NULL && took[i].failure.code != 0)
            failed = &took[i];
    }
    ttcp_json_compression_end(&j, c, failed ? &failed->failure : NULL,
                              failed ? failed->message : NULL);
    cli_json_document(o, &j);
    ttcp_json_free(&j);
}

int cli_compression(const struct ttcp_options *o, cli_run_once run)
{
    struct ttcp_options second = *o;
    struct cli_took took[2];
    struct ttcp_compression c;
    char text[512];
    int i, n = 1, code;

    second.pattern = TTCP_PAYLOAD_RANDOM;
    second.traceroute = 0; /* the path was traced (and its MTU found) before the first test */
    second.pmtu = 0;
    memset(took, 0, sizeof took);
    for (i = 0; i < 2; i++)
        ttcp_json_init(&took[i].doc);
    say(o, text, ttcp_report_compression_test(o, 1, text, sizeof text), sizeof text);
    code = run(o, &took[0]);
    if (code == CLI_EXIT_OK && took[0].figure.complete && !tt_interrupted()) {
        say(o, text, ttcp_report_compression_test(&second, 2, text, sizeof text), sizeof text);
        code = run(&second, &took[1]);
        n = 2;
        if (code != CLI_EXIT_OK && took[1].refused) {
            size_t k = ttcp_report_compression_refused(o, text, sizeof text);
            cli_put(o, stderr, text, k < sizeof text ? k : sizeof text - 1);
        }
    }
    ttcp_compression_judge(&c, &took[0].figure, &took[1].figure);
    say(o, text, ttcp_report_compression(o, &c, text, sizeof text), sizeof text);
    if (o->json)
        print_document(o, took, n, &c);
    for (i = 0; i < 2; i++)
        ttcp_json_free(&took[i].doc);
    return code;
}
