#ifndef TTCP_VERSION_H
#define TTCP_VERSION_H

/* The one version, from CMake's project(). */
const char *ttcp_version(void);

/* The version of the cJSON linked in ("1.7.15"), as the library itself says
 * (cJSON_Version): the other tools' JSON messages are parsed with it. */
const char *ttcp_cjson_version(void);

#endif
