#include "base/version.h"

const char *ttcp_version(void)
{
    return TTCP_VERSION;
}
