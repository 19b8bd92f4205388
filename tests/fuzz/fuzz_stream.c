/* libFuzzer: a TCP stream under --verify, cut into reads at the places the
 * input says. The verifier must never count more bad bytes than it saw. */
#include <stdint.h>
#include <stdlib.h>

#include "measure/payload.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct ttcp_verifier v;
    size_t pos = 0, cut;
    if (size < 1)
        return 0;
    ttcp_verify_start(&v, TTCP_PAYLOAD_AUTO, 0, data[0]);
    cut = (size_t)(data[0] >> 1) + 1;
    for (pos = 1; pos < size; pos += cut) {
        size_t n = size - pos < cut ? size - pos : cut;
        ttcp_verify_bytes(&v, data + pos, n);
    }
    if (v.corrupted > v.offset || v.offset != size - 1)
        abort();
    return 0;
}
