/* libFuzzer: the bounded number, seconds and rate parsers. Any text gives
 * a value inside the bounds, or a reason; never a crash or a wrapped value. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/parse.h"
#include "base/rate.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char text[128], why[160], out[64];
    uint64_t v;
    int64_t ns;
    int unit;
    size_t n = size < sizeof text - 1 ? size : sizeof text - 1;

    memcpy(text, data, n);
    text[n] = '\0';
    if (ttcp_parse_u64(text, TTCP_SUFFIX_BINARY, 1, 1u << 28, &v, why, sizeof why) == 0 &&
        (v < 1 || v > (1u << 28)))
        abort();
    if (ttcp_parse_u64(text, TTCP_SUFFIX_NONE, 0, UINT64_MAX, &v, why, sizeof why) != 0 &&
        why[0] == '\0')
        abort();
    if (ttcp_parse_seconds(text, 10000000, 86400000000000ll, &ns, why, sizeof why) == 0 &&
        (ns < 10000000 || ns > 86400000000000ll))
        abort();
    if (ttcp_parse_rate(text, 100, 1000000000000ull, &v, why, sizeof why) == 0 &&
        (v < 100 || v > 1000000000000ull))
        abort();
    unit = ttcp_unit_parse(text);
    if (unit < -1 || unit > TTCP_UNIT_GBPS)
        abort();
    if (unit >= 0)
        ttcp_unit_format((enum ttcp_unit)unit, (double)n * 1e6, out, sizeof out);
    return 0;
}
