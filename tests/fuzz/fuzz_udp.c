/* libFuzzer: datagrams as they come off the network, one input a run of
 * them (each a length byte, then that many bytes). They go through the
 * marker state machine, the header reader, the statistics and the payload
 * check; nothing may crash, overflow or read out of bounds. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine/udp.h"
#include "measure/payload.h"
#include "measure/udpstat.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct ttcp_udp_stats stats;
    enum ttcp_udp_state st = TTCP_UDP_WAITING;
    size_t pos = 0;
    int64_t arrived = 0;

    memset(&stats, 0, sizeof stats);
    while (pos < size) {
        size_t len = data[pos++];
        struct ttcp_udp_header h;
        if (len > size - pos)
            len = size - pos;
        ttcp_udp_step(&st, len);
        if (ttcp_udp_header_read(data + pos, len, &h)) {
            arrived += (int64_t)(h.seed & 0xffffff); /* any arrival times */
            ttcp_udp_stats_add(&stats, h.seq, h.sent_ns, arrived);
            if (h.pattern <= TTCP_PAYLOAD_ZEROS)
                ttcp_payload_check((enum ttcp_payload)h.pattern, h.seed, TTCP_UDP_HEADER,
                                   data + pos + TTCP_UDP_HEADER, len - TTCP_UDP_HEADER);
        }
        pos += len;
    }
    if (ttcp_udp_stats_lost(&stats) > stats.expected || stats.jitter_ns != stats.jitter_ns)
        abort();
    return 0;
}
