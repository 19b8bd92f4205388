/* Portable text for the result codes of include/ttcp/error.h. */
#include "ttcp/error.h"

const char *ttcp_strerror(int code)
{
    switch (code) {
    case TT_OK:
        return "Success";
#define TTCP_ERROR_CASE(name, text) \
    case name:                      \
        return text;
        TTCP_ERROR_LIST(TTCP_ERROR_CASE)
#undef TTCP_ERROR_CASE
    default:
        return "Unknown error";
    }
}
