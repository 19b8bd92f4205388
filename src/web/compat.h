/* -S --web's endpoints for other speed-test engines (LibreSpeed's backend,
 * Cloudflare's engine; web/engines.h says which and how they count), as
 * the HTTP server (http.c) hands their requests over: a small hook there,
 * the rest here. */
#ifndef TTCP_WEB_COMPAT_H
#define TTCP_WEB_COMPAT_H

#include <microhttpd.h>
#include <stddef.h>

#include "remote/web.h"
#include "web/engines.h"

#define TTCP_COMPAT_CHUNK (64u << 10) /* a download's piece, at most */

struct ttcp_web_compat;

/* The engines' side of a server: random holds modulus + TTCP_COMPAT_CHUNK
 * incompressible bytes (the HTTP server's own, lent until free); NULL when
 * out of memory. */
struct ttcp_web_compat *ttcp_web_compat_new(const struct ttcp_web_host *host,
                                            const unsigned char *random, size_t modulus);
/* No new run; the runs' keepers return at once. */
void ttcp_web_compat_stop(struct ttcp_web_compat *x);
/* Once every keeper has returned. */
void ttcp_web_compat_free(struct ttcp_web_compat *x);

/* A request under ttcp_engine_path, as libmicrohttpd's access handler gets
 * it; *state is the request's own (NULL at its first call). */
enum MHD_Result ttcp_web_compat_answer(struct ttcp_web_compat *x, struct MHD_Connection *c,
                                       const char *url, const char *method,
                                       size_t *upload_size, void **state);
/* The request is over (answered, or its connection gone): state freed. */
void ttcp_web_compat_completed(struct ttcp_web_compat *x, void *state);

#endif
