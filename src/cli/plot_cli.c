/* --plot: the file and the clock's date, plain C stdio. */
#include "cli/plot_cli.h"

#include <errno.h>
#include <string.h>
#include <time.h>

#include "base/text.h"

/* "ttcp: --plot NAME: WHY", the name as one printable line. */
static void complain(const struct ttcp_options *o, const char *why)
{
    char name[TTCP_PLOT_PATH_MAX + 1];
    snprintf(name, sizeof name, "%s", o->plot);
    ttcp_text_printable(name);
    fprintf(stderr, "ttcp: --plot %s: %s\n", name, why);
    fflush(stderr);
}

int cli_plot_open(struct cli_plot *pl, const struct ttcp_options *o)
{
    time_t now = time(NULL);
    struct tm *local = localtime(&now);
    memset(pl, 0, sizeof *pl);
    if (o->plot == NULL)
        return 0;
    if (local == NULL || strftime(pl->date, sizeof pl->date, "%Y-%m-%d %H:%M:%S", local) == 0)
        pl->date[0] = '\0';
    pl->file = fopen(o->plot, "wb");
    if (pl->file == NULL) {
        complain(o, strerror(errno));
        return -1;
    }
    return 0;
}

int cli_plot_write(struct cli_plot *pl, const struct ttcp_options *o, const struct ttcp_plot *p)
{
    struct ttcp_svg svg;
    int failed;
    if (pl->file == NULL)
        return 0;
    ttcp_svg_init(&svg);
    ttcp_plot_svg(p, &svg);
    errno = 0;
    failed = svg.failed || fwrite(svg.buf, 1, svg.len, pl->file) != svg.len;
    failed |= fclose(pl->file) != 0;
    pl->file = NULL;
    if (failed)
        complain(o, svg.failed ? "out of memory" : errno ? strerror(errno) : "write failed");
    ttcp_svg_free(&svg);
    return failed ? -1 : 0;
}
