/* A server's last browser tests (-S --web) as frames (docs/PROTOCOL.md,
 * section 3e): the client's `web_results` request, the server's
 * `web_result` frames, newest last, and `web_results_end`. Pure, as
 * wire.h: facts in, frames out, and every field bounded when read. */
#ifndef TTCP_REMOTE_WIRE_WEB_H
#define TTCP_REMOTE_WIRE_WEB_H

#include <stddef.h>
#include <stdint.h>

#include "proto/message.h"
#include "remote/web.h"

/* The browser tests a server keeps, and answers with at most. */
#define TTCP_WEB_KEPT 16

/* What a web_result's valid field says is there (bits). */
#define TTCP_WEB_VALID_DOWN 1u
#define TTCP_WEB_VALID_UP 2u
#define TTCP_WEB_VALID_LATENCY 4u

/* One browser test as kept and sent: its number at the server (1 for the
 * first since it started) and when it ended. f.peer, f.ran_ns and
 * f.down_sent stay at the server. */
struct ttcp_web_record {
    uint64_t seq;
    int64_t end_ns;          /* the server's clock (kept); read: now - age */
    int64_t age_ns;          /* read from a frame: how long ago it ended */
    struct ttcp_web_figures f;
};

void ttcp_wire_web_results(struct ttcp_frame *f);
/* One test's frame, its age from now_ns (the server's clock). */
void ttcp_wire_web_result(struct ttcp_frame *f, const struct ttcp_web_record *r, int64_t now_ns);
void ttcp_wire_web_results_end(struct ttcp_frame *f, int count);
/* The client reads them: 0, or -1 with a reason. A figure the valid
 * bits leave out reads as 0. */
int ttcp_wire_read_web_result(const struct ttcp_message *m, struct ttcp_web_record *out,
                              char *why, size_t why_len);
int ttcp_wire_read_web_results_end(const struct ttcp_message *m, int *count, char *why,
                                   size_t why_len);

#endif
