/* Helpers shared by the POSIX platform files; not part of the interface. */
#ifndef TTCP_POSIX_H
#define TTCP_POSIX_H

#include <stdint.h>

/* The TT_E_* code for an errno value. */
int tt_posix_code(int err);
/* The TT_E_* code for the current errno (call right after the failure). */
int tt_posix_fail(void);

/* Ctrl+C inside the platform (console.c): whether it came, without telling
 * the core (tt_interrupted() does that); and whether the core has been told.
 * A wait is armed when the core has not: a Ctrl+C during it, or just before
 * it, ends it; a wait the core begins knowing of the Ctrl+C waits as ever. */
int tt_posix_ctrl_c(void);
int tt_posix_ctrl_c_told(void);

struct tt_addr;
/* Completes an address recvfrom/recvmsg filled in: its length and family. */
void tt_posix_sender(struct tt_addr *from, unsigned len);

#endif
