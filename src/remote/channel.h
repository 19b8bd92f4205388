/* A control connection's frames on the wire (docs/PROTOCOL.md): sending a
 * built frame, reading one whole frame before a deadline. Every read is
 * bounded by the frame's length field before it happens. */
#ifndef TTCP_REMOTE_CHANNEL_H
#define TTCP_REMOTE_CHANNEL_H

#include <stdint.h>

#include "proto/message.h"
#include "ttcp/platform.h"

/* Sends the magic that opens a controlled connection. */
int ttcp_channel_send_magic(tt_socket s);
/* Sends a frame (ttcp_frame_end done); 0 or a TT_E_* code. */
int ttcp_channel_send(tt_socket s, const struct ttcp_frame *f);
/* Sends an error frame (docs/PROTOCOL.md): reason, a word a program reads,
 * and message, the words for a person. 0 or a TT_E_* code; the caller
 * closes the conversation after it. */
int ttcp_channel_send_error(tt_socket s, const char *reason, const char *message);
/* Connects s to a by deadline_ns (tt_now_ns(); 0: as long as the OS
 * takes): TT_E_TIMEDOUT once it has passed. The send timeout that bounds
 * the connect is cleared after, for the sends that follow. */
int ttcp_channel_connect(tt_socket s, const struct tt_addr *a, int64_t deadline_ns);
/* Reads exactly len bytes before deadline_ns (tt_now_ns() time): 0,
 * TT_E_TIMEDOUT, TT_E_CONNRESET at EOF, or the socket's failure. Ctrl+C
 * does not cut it short: the far end's figures are still wanted. */
int ttcp_channel_read_exact(tt_socket s, void *buf, size_t len, int64_t deadline_ns);
/* Reads and parses one frame before deadline_ns: 0, a TT_E_* code, or
 * TT_E_INVAL with the reason in why when the frame breaks the rules. */
int ttcp_channel_receive(tt_socket s, struct ttcp_message *m, int64_t deadline_ns, char *why,
                         size_t why_len);

#endif
