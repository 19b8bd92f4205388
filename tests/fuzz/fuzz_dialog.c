/* libFuzzer: the -I dialog fed arbitrary answers. It must end (answers run
 * out); whatever it accepted and the validation let through must be a
 * valid set of options, and a refusal names its reason on one line. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli/dialog.h"

struct feed {
    const uint8_t *data;
    size_t size, pos;
};

static int next_line(void *ctx, char *buf, size_t len)
{
    struct feed *f = ctx;
    size_t n = 0;
    if (f->pos >= f->size)
        return -1;
    while (f->pos < f->size && f->data[f->pos] != '\n') {
        if (n + 1 < len)
            buf[n++] = (char)f->data[f->pos];
        f->pos++;
    }
    f->pos++;
    buf[n] = '\0';
    return 0;
}

static void ignore(void *ctx, const char *text)
{
    (void)ctx;
    (void)text;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct feed f = {data, size, 0};
    struct ttcp_dialog_io io = {next_line, ignore, &f};
    struct ttcp_options o;
    char host[256], why[128], *argv[] = {"ttcp", "-I", NULL};

    if (ttcp_options_parse(&o, 2, argv, 0, why, sizeof why) != 0)
        abort();
    if (ttcp_dialog(&o, &io, 131072, host, sizeof host) != 0)
        return 0;
    if (ttcp_options_validate(&o, why, sizeof why) != 0) {
        if (why[0] == '\0' || strchr(why, '\n') != NULL)
            abort();
    } else {
        if (o.buflen == 0 || o.port == 0 || o.port > 65535 || o.udp ||
            (o.bufalign && o.bufoffset >= o.bufalign) || (o.transmit && o.host == NULL))
            abort();
    }
    return 0;
}
