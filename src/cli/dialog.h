/* -I: the settings asked one by one, as Cisco IOS's hidden ttcp command
 * does, with the value that will be used in brackets. */
#ifndef TTCP_DIALOG_H
#define TTCP_DIALOG_H

#include <stddef.h>

#include "config/options.h"

struct ttcp_dialog_io {
    /* One line of input without its line end; 0, or -1 at end of input. */
    int (*read_line)(void *ctx, char *buf, size_t len);
    void (*write)(void *ctx, const char *text);
    void *ctx;
};

/* Asks IOS's questions in IOS's order, starting from opts (so -p 5002 -I
 * shows port [5002]); system_rcvwnd is the window the OS would use. The
 * target's name is kept in host_buf. Returns 0, or -1 at end of input. */
int ttcp_dialog(struct ttcp_options *opts, const struct ttcp_dialog_io *io,
                int system_rcvwnd, char *host_buf, size_t host_len);

#endif
