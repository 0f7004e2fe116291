/*
 * webpush.h - the cryptography of Web Push (issue 52), from OpenSSL's EVP.
 *
 * RFC 8291: a push message's payload is encrypted for one subscription
 * (the browser's P-256 public key `p256dh` and its 16-byte `auth` secret)
 * as one RFC 8188 `aes128gcm` record: ECDH with a fresh key pair of ours,
 * HKDF-SHA-256 twice, AES-128-GCM; the body is the RFC 8188 header (salt,
 * record size, our public key) and the record. RFC 8292 (VAPID): the
 * server signs a JWT (ES256) naming the push service's origin with the
 * site's key pair; the request carries `Authorization: vapid t=JWT, k=KEY`.
 *
 * Keys travel as base64url without padding, as browsers give them: a
 * public key is the uncompressed point (65 bytes), a private key the
 * scalar (32 bytes). Nothing here keeps state; every call may come from
 * any thread.
 */
#ifndef AX_SERVER_WEBPUSH_H
#define AX_SERVER_WEBPUSH_H

#include <stddef.h>
#include <stdint.h>

#define WP_PUBLIC_LEN    65 /* an uncompressed P-256 point */
#define WP_PRIVATE_LEN   32
#define WP_AUTH_LEN      16
#define WP_SALT_LEN      16
#define WP_RECORD_SIZE   4096
#define WP_HEADER_LEN    (WP_SALT_LEN + 4 + 1 + WP_PUBLIC_LEN)
#define WP_OVERHEAD      (WP_HEADER_LEN + 1 + 16)  /* header, the delimiter, the tag */
#define WP_PLAINTEXT_MAX (WP_RECORD_SIZE - 1 - 16) /* one record */
#define WP_PUBLIC_B64    89 /* base64 of 65 bytes with its padding (88), a NUL */
#define WP_PRIVATE_B64   45 /* of 32 bytes (44), a NUL */

/* base64url without padding: out must hold 4 * ceil(n / 3) + 1 (the
 * padding is written, then taken off). */
void wp_b64url_encode(const uint8_t *in, size_t n, char *out);
/* Decodes base64url (with or without padding); -1 when it is not that or
 * longer than size bytes; else the number of bytes. */
int wp_b64url_decode(const char *in, uint8_t *out, size_t size);

/* A new P-256 key pair (the site's VAPID keys): 0, or -1. */
int wp_keypair(char private_b64[WP_PRIVATE_B64], char public_b64[WP_PUBLIC_B64]);
/* Whether a base64url text is a P-256 public key OpenSSL accepts (a point
 * on the curve). */
int wp_public_key_valid(const char *public_b64);

/* RFC 8291 with our key pair and salt given (the RFC's example uses fixed
 * ones): the body (malloc'd, *len bytes) of a push message carrying
 * plaintext (at most WP_PLAINTEXT_MAX bytes). 0, or -1 on a bad key or a
 * failure of OpenSSL. */
int wp_encrypt_with(const uint8_t *plaintext, size_t n, const uint8_t ua_public[WP_PUBLIC_LEN],
                    const uint8_t auth[WP_AUTH_LEN], const uint8_t as_private[WP_PRIVATE_LEN],
                    const uint8_t as_public[WP_PUBLIC_LEN], const uint8_t salt[WP_SALT_LEN],
                    uint8_t **body, size_t *len);
/* The same with a fresh key pair and salt, from the subscription's keys as
 * base64url: what a push message is sent with. */
int wp_encrypt(const uint8_t *plaintext, size_t n, const char *p256dh_b64, const char *auth_b64,
               uint8_t **body, size_t *len);

/* The origin of an endpoint URL ("https://push.example.net" of
 * "https://push.example.net/x/y"): VAPID's audience. -1 when it is not
 * an http(s) URL or does not fit. */
int wp_origin(const char *endpoint, char *out, size_t size);
/* The Authorization header's value, "vapid t=JWT, k=KEY", for a push
 * service's origin, with the site's key pair; subject (a mailto: or
 * https: URI) may be NULL or "". expires: unix seconds (at most a day
 * ahead, RFC 8292). 0, or -1. */
int wp_vapid_header(const char *private_b64, const char *public_b64, const char *audience,
                    const char *subject, int64_t expires, char *out, size_t size);

#endif
