/* libFuzzer: nuttcp's control lines as either end reads them
 * (src/peers/nuttcp/wire.h): a HELO, a parameter line, an answer, a
 * server's result line, and the datagram dialect's marker and count
 * (engine/udp.h). Whatever the bytes, each reader returns what the line
 * was, a parameter line it takes is within its bounds, and a reason it
 * gives is one printable line. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine/udp.h"
#include "peers/nuttcp/wire.h"

static void check_reason(const char *why)
{
    size_t i;
    for (i = 0; why[i] != '\0'; i++)
        if ((unsigned char)why[i] < 0x20 || (unsigned char)why[i] > 0x7e)
            abort();
}

static void read_params(const char *line)
{
    struct ttcp_nuttcp_params p;
    char why[256] = "", again[TTCP_NUTTCP_LINE_MAX];
    if (ttcp_nuttcp_read_params(line, &p, why, sizeof why) != 0) {
        check_reason(why);
        return;
    }
    if (p.buflen == 0 || p.buflen > TTCP_NUTTCP_BUFLEN_MAX || p.nstream < 1 ||
        p.nstream > TTCP_NUTTCP_STREAMS_MAX || p.port < TTCP_NUTTCP_PORT_MIN ||
        p.port + p.nstream - 1 > 65535 || p.win > TTCP_NUTTCP_WIN_MAX || p.tos > 255 ||
        !(p.timeout_s >= 0 && p.timeout_s <= TTCP_NUTTCP_TIMEOUT_MAX))
        abort();
    /* what it took, built again, reads back */
    if (ttcp_nuttcp_params_line(&p, again, sizeof again) == 0 ||
        ttcp_nuttcp_read_params(again, &p, why, sizeof why) != 0)
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char line[TTCP_NUTTCP_LINE_MAX + 16], why[256] = "";
    struct ttcp_nuttcp_version v;
    struct ttcp_nuttcp_report r;
    enum ttcp_udp_state st = TTCP_UDP_WAITING;
    int order = 0;
    size_t n = size < sizeof line - 1 ? size : sizeof line - 1;
    memcpy(line, data, n);
    line[n] = '\0';
    if (ttcp_nuttcp_read_helo(line, &v, why, sizeof why) != 0)
        check_reason(why);
    else if (v.major > 999 || v.minor > 999 || v.delta > 999)
        abort();
    read_params(line);
    (void)ttcp_nuttcp_read_answer(line, &v);
    memset(&r, 0, sizeof r);
    if (ttcp_nuttcp_read_line(line, &r) == TTCP_NUTTCP_LINE_ERROR)
        check_reason(r.error);
    (void)ttcp_nuttcp_bytes(r.megabytes);
    (void)ttcp_nuttcp_step(&st, data, size);
    (void)ttcp_nuttcp_count_read(data, size, &order);
    return 0;
}
