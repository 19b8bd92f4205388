/* Only in ci/release's static musl build (TTCP_SODIUM_GLIBC_SHIM): Debian's
 * libsodium.a was compiled against glibc with _FORTIFY_SOURCE, which turns
 * its explicit_bzero() calls into glibc's checked entry point. musl has
 * explicit_bzero() but not that entry; this is it, without the length check
 * (libsodium passes lengths it owns). */
#include <string.h>

void __explicit_bzero_chk(void *p, size_t len, size_t dest_len);

void __explicit_bzero_chk(void *p, size_t len, size_t dest_len)
{
    (void)dest_len;
    explicit_bzero(p, len);
}
