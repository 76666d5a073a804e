#ifndef SUSI_CCRYPTO_SHIM_H
#define SUSI_CCRYPTO_SHIM_H
#include <stddef.h>
#include <stdint.h>
#include <nettle/md5.h>
#include <nettle/pbkdf2.h>

/// nettle names its functions through `#define md5_init nettle_md5_init` and friends; one
/// typed call per digest keeps the context struct and the macro names on this side. An empty
/// Swift array may hand over NULL, which nettle's memcpy must not see, so it is skipped here.
static inline void susi_md5(const uint8_t *data, size_t length, uint8_t digest[MD5_DIGEST_SIZE]) {
    struct md5_ctx context;
    nettle_md5_init(&context);
    if (data != NULL && length > 0) nettle_md5_update(&context, length, data);
    nettle_md5_digest(&context, MD5_DIGEST_SIZE, digest);
}

/// PBKDF2-HMAC-SHA1 (RFC 8018), the WPA key derivation; `output` receives `output_length` bytes.
static inline void susi_pbkdf2_hmac_sha1(const uint8_t *password, size_t password_length,
                                         const uint8_t *salt, size_t salt_length,
                                         unsigned iterations, uint8_t *output, size_t output_length) {
    nettle_pbkdf2_hmac_sha1(password_length, password, iterations, salt_length, salt, output_length, output);
}
#endif
