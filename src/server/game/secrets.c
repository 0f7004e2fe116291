/*
 * secrets.c - random ids, seeds and tokens, and SHA-256 (see secrets.h).
 *
 * Ids and tokens are whole groups of three random bytes written as four
 * base64url characters each, so they need no padding and are safe in URLs.
 * Hashing goes through EVP (OpenSSL 3); comparison through CRYPTO_memcmp.
 */
#include "secrets.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>
#include <string.h>

static const char b64url[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

int secret_bytes(void *buf, size_t n) { return RAND_bytes(buf, (int)n) == 1 ? 0 : -1; }

int secret_u64(uint64_t *out) { return secret_bytes(out, sizeof *out); }

/* n bytes (a multiple of 3) as 4n/3 base64url characters. */
static void encode_b64url(const unsigned char *in, size_t n, char *out)
{
    for (size_t i = 0; i < n; i += 3) {
        unsigned v = (unsigned)in[i] << 16 | (unsigned)in[i + 1] << 8 | in[i + 2];
        for (int k = 0; k < 4; k++)
            *out++ = b64url[(v >> (18 - 6 * k)) & 63];
    }
    *out = 0;
}

int secret_game_id(char out[GAME_ID_LEN + 1])
{
    unsigned char raw[GAME_ID_LEN * 3 / 4];
    if (secret_bytes(raw, sizeof raw))
        return -1;
    encode_b64url(raw, sizeof raw, out);
    return 0;
}

int secret_token(char out[TOKEN_LEN + 1])
{
    unsigned char raw[TOKEN_LEN * 3 / 4];
    if (secret_bytes(raw, sizeof raw))
        return -1;
    encode_b64url(raw, sizeof raw, out);
    OPENSSL_cleanse(raw, sizeof raw);
    return 0;
}

static void sha256_raw(const char *text, unsigned char md[32])
{
    unsigned int len = 0;
    EVP_Digest(text, strlen(text), md, &len, EVP_sha256(), NULL);
}

void sha256_hex(const char *text, char out[65])
{
    static const char hex[] = "0123456789abcdef";
    unsigned char md[32];
    sha256_raw(text, md);
    for (int i = 0; i < 32; i++) {
        out[2 * i] = hex[md[i] >> 4];
        out[2 * i + 1] = hex[md[i] & 15];
    }
    out[64] = 0;
}

void hmac_sha256_hex(const char *key, const char *text, char out[65])
{
    static const char hex[] = "0123456789abcdef";
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned len = 0;
    out[0] = 0;
    if (!HMAC(EVP_sha256(), key, (int)strlen(key), (const unsigned char *)text, strlen(text), md,
              &len) ||
        len != 32)
        return;
    for (int i = 0; i < 32; i++) {
        out[2 * i] = hex[md[i] >> 4];
        out[2 * i + 1] = hex[md[i] & 15];
    }
    out[64] = 0;
}

bool token_matches(const char *token, const char *hash_hex)
{
    char got[65];
    if (strlen(hash_hex) != 64)
        return false;
    sha256_hex(token, got);
    return CRYPTO_memcmp(got, hash_hex, 64) == 0;
}

bool is_base64url(const char *text, size_t max)
{
    size_t n = strlen(text);
    if (n == 0 || n > max)
        return false;
    return strspn(text, b64url) == n;
}
