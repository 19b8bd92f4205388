/* libFuzzer: option parsing from an argv vector. The input is split at NUL
 * bytes into words; whatever the words, the parser must return 0 or -1
 * with a one-line reason, and accepted options must obey their bounds.
 * With -I the rules wait for the dialog: they run here on the options as
 * the command line left them, as main() runs them after the answers. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "config/options.h"

#define MAX_WORDS 32

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *copy = malloc(size + 1), *argv[MAX_WORDS + 1], why[256];
    struct ttcp_options o;
    int argc = 1, rc;
    size_t i, start = 0;

    if (copy == NULL)
        return 0;
    memcpy(copy, data, size);
    copy[size] = '\0';
    argv[0] = "ttcp";
    for (i = 0; i <= size && argc < MAX_WORDS; i++)
        if (i == size || copy[i] == '\0') {
            argv[argc++] = copy + start;
            start = i + 1;
        }
    argv[argc] = NULL;
    why[0] = '\0';
    /* the first word's length picks the habits: Windows' slash switches or not */
    rc = ttcp_options_parse(&o, argc, argv, (unsigned)strlen(argv[1 < argc ? 1 : 0]) & 1u, why,
                            sizeof why);
    if (rc == 0 && o.dialog)
        rc = ttcp_options_validate(&o, why, sizeof why);
    if (rc == 0) {
        if (o.action == TTCP_ACTION_RUN && (o.buflen == 0 || o.port == 0 || o.port > 65535 ||
                                            (o.udp && o.buflen > TTCP_UDP_MAX_BUFLEN) ||
                                            (o.bufalign && o.bufoffset >= o.bufalign)))
            abort(); /* an accepted run must be a valid one */
    } else if (why[0] == '\0' || strchr(why, '\n') != NULL) {
        abort(); /* a rejection names its reason on one line */
    }
    free(copy);
    return 0;
}
