/* ttcp -S: one port for everything (docs/PROTOCOL.md). Serves controlled
 * tests (a ttcp -C), classic TCP transmitters and, on the same UDP port,
 * classic UDP transmitters, until Ctrl+C or, with -1, one test. Prints
 * nothing: every fact goes to the observer. */
#ifndef TTCP_SERVER_H
#define TTCP_SERVER_H

#include "config/options.h"
#include "measure/notice.h"
#include "measure/result.h"
#include "remote/server_observer.h"

/* Runs the server. 0 when stopped (Ctrl+C, or -1's test done), or the
 * TT_E_* code of a setup failure, recorded in *failure; why gets a reason
 * for a setup refusal that is not a system failure (a bad --allow, a key
 * file), with TT_E_INVAL. */
int ttcp_serve(const struct ttcp_options *o, const struct ttcp_server_observer *obs,
               struct ttcp_failure *failure, char *why, size_t why_len);

#endif
