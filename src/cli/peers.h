/* The table of other tools' protocols (remote/peer.h): a row a tool. */
#ifndef TTCP_CLI_PEERS_H
#define TTCP_CLI_PEERS_H

#include "remote/peer.h"

/* The row of a far end (enum ttcp_far_end), or NULL: ttcp's own, or a
 * tool this build does not speak. */
const struct ttcp_peer *cli_peer(int far_end);

/* The whole table, for ttcp -S: the rows, *count of them. */
const struct ttcp_peer *cli_peers(size_t *count);

/* -C --<tool>: the options checked against what the tool's protocol
 * carries. 0, or -1 with a one-line reason (naming the tool) in why. */
int cli_peer_check(const struct ttcp_options *o, char *why, size_t why_len);

#endif
