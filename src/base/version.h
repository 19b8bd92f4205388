#ifndef TTCP_VERSION_H
#define TTCP_VERSION_H

/* The one version, from CMake's project(). */
const char *ttcp_version(void);

#endif
