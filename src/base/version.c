#include "base/version.h"

#include <cjson/cJSON.h>

const char *ttcp_version(void)
{
    return TTCP_VERSION;
}

const char *ttcp_cjson_version(void)
{
    return cJSON_Version();
}
