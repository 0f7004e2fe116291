/*
 * webpush.c - RFC 8291 payload encryption and RFC 8292 VAPID signatures
 * with OpenSSL 3's EVP (webpush.h): keys from raw bytes through
 * EVP_PKEY_fromdata (which refuses a point off the curve), ECDH through
 * EVP_PKEY_derive, HKDF through EVP_KDF, AES-128-GCM through EVP_CIPHER,
 * ES256 through EVP_DigestSign (its DER signature turned into the JWS's
 * r || s). No primitive is written here; only the layout of the bytes.
 */
#include "webpush.h"

#include <jansson.h>
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/kdf.h>
#include <openssl/param_build.h>
#include <openssl/rand.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* --- base64url --- */

void wp_b64url_encode(const uint8_t *in, size_t n, char *out)
{
    int len = EVP_EncodeBlock((unsigned char *)out, in, (int)n);
    while (len > 0 && out[len - 1] == '=')
        len--;
    out[len] = 0;
    for (int i = 0; i < len; i++)
        out[i] = out[i] == '+' ? '-' : out[i] == '/' ? '_' : out[i];
}

int wp_b64url_decode(const char *in, uint8_t *out, size_t size)
{
    size_t n = strlen(in);
    while (n > 0 && in[n - 1] == '=')
        n--;
    if (n % 4 == 1 || n > 4 * ((size + 2) / 3))
        return -1;
    char *text = malloc(n + 4);
    uint8_t *bytes = malloc(n + 4);
    if (!text || !bytes) {
        free(text);
        free(bytes);
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        char c = in[i];
        if (c == '-')
            c = '+';
        else if (c == '_')
            c = '/';
        else if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))) {
            free(text);
            free(bytes);
            return -1;
        }
        text[i] = c;
    }
    size_t pad = (4 - n % 4) % 4;
    memset(text + n, '=', pad);
    int len = n + pad ? EVP_DecodeBlock(bytes, (unsigned char *)text, (int)(n + pad)) : 0;
    free(text);
    if (len < 0 || (size_t)len < pad) {
        free(bytes);
        return -1;
    }
    len -= (int)pad; /* EVP_DecodeBlock counts the padding's zero bytes */
    if ((size_t)len > size) {
        free(bytes);
        return -1;
    }
    memcpy(out, bytes, (size_t)len);
    free(bytes);
    return len;
}

/* --- keys --- */

/* A P-256 key from its public point and, when priv is not NULL, its
 * scalar; NULL when OpenSSL refuses them (a point off the curve). */
static EVP_PKEY *make_key(const uint8_t *priv, const uint8_t pub[WP_PUBLIC_LEN])
{
    EVP_PKEY *key = NULL;
    BIGNUM *d = NULL;
    OSSL_PARAM *params = NULL;
    EVP_PKEY_CTX *ctx = NULL;
    OSSL_PARAM_BLD *bld = OSSL_PARAM_BLD_new();
    if (!bld || pub[0] != 4)
        goto out;
    if (!OSSL_PARAM_BLD_push_utf8_string(bld, OSSL_PKEY_PARAM_GROUP_NAME, "prime256v1", 0) ||
        !OSSL_PARAM_BLD_push_octet_string(bld, OSSL_PKEY_PARAM_PUB_KEY, pub, WP_PUBLIC_LEN))
        goto out;
    if (priv) {
        d = BN_bin2bn(priv, WP_PRIVATE_LEN, NULL);
        if (!d || !OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_PRIV_KEY, d))
            goto out;
    }
    params = OSSL_PARAM_BLD_to_param(bld);
    ctx = EVP_PKEY_CTX_new_from_name(NULL, "EC", NULL);
    if (!params || !ctx || EVP_PKEY_fromdata_init(ctx) <= 0 ||
        EVP_PKEY_fromdata(ctx, &key, priv ? EVP_PKEY_KEYPAIR : EVP_PKEY_PUBLIC_KEY, params) <= 0)
        key = NULL;
out:
    EVP_PKEY_CTX_free(ctx);
    OSSL_PARAM_free(params);
    OSSL_PARAM_BLD_free(bld);
    BN_clear_free(d);
    return key;
}

int wp_keypair(char private_b64[WP_PRIVATE_B64], char public_b64[WP_PUBLIC_B64])
{
    EVP_PKEY *key = EVP_PKEY_Q_keygen(NULL, NULL, "EC", "P-256");
    if (!key)
        return -1;
    uint8_t pub[WP_PUBLIC_LEN], priv[WP_PRIVATE_LEN];
    size_t publen = 0;
    BIGNUM *d = NULL;
    int rc = -1;
    if (EVP_PKEY_get_octet_string_param(key, OSSL_PKEY_PARAM_PUB_KEY, pub, sizeof pub, &publen) &&
        publen == WP_PUBLIC_LEN && EVP_PKEY_get_bn_param(key, OSSL_PKEY_PARAM_PRIV_KEY, &d) &&
        BN_bn2binpad(d, priv, WP_PRIVATE_LEN) == WP_PRIVATE_LEN) {
        wp_b64url_encode(pub, sizeof pub, public_b64);
        wp_b64url_encode(priv, sizeof priv, private_b64);
        rc = 0;
    }
    OPENSSL_cleanse(priv, sizeof priv);
    BN_clear_free(d);
    EVP_PKEY_free(key);
    return rc;
}

int wp_public_key_valid(const char *public_b64)
{
    uint8_t pub[WP_PUBLIC_LEN];
    if (wp_b64url_decode(public_b64, pub, sizeof pub) != WP_PUBLIC_LEN)
        return 0;
    EVP_PKEY *key = make_key(NULL, pub);
    EVP_PKEY_free(key);
    return key != NULL;
}

/* --- RFC 8291 --- */

static int hkdf(const uint8_t *salt, size_t saltlen, const uint8_t *ikm, size_t ikmlen,
                const uint8_t *info, size_t infolen, uint8_t *out, size_t outlen)
{
    EVP_KDF *kdf = EVP_KDF_fetch(NULL, "HKDF", NULL);
    EVP_KDF_CTX *ctx = kdf ? EVP_KDF_CTX_new(kdf) : NULL;
    EVP_KDF_free(kdf);
    if (!ctx)
        return -1;
    OSSL_PARAM params[] = {
        OSSL_PARAM_construct_utf8_string(OSSL_KDF_PARAM_DIGEST, "SHA256", 0),
        OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_KEY, (void *)ikm, ikmlen),
        OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_SALT, (void *)salt, saltlen),
        OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_INFO, (void *)info, infolen),
        OSSL_PARAM_construct_end(),
    };
    int ok = EVP_KDF_derive(ctx, out, outlen, params) > 0;
    EVP_KDF_CTX_free(ctx);
    return ok ? 0 : -1;
}

static int ecdh(EVP_PKEY *mine, EVP_PKEY *peer, uint8_t secret[32])
{
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_pkey(NULL, mine, NULL);
    size_t len = 32;
    int ok = ctx && EVP_PKEY_derive_init(ctx) > 0 && EVP_PKEY_derive_set_peer(ctx, peer) > 0 &&
             EVP_PKEY_derive(ctx, secret, &len) > 0 && len == 32;
    EVP_PKEY_CTX_free(ctx);
    return ok ? 0 : -1;
}

static int aes128gcm(const uint8_t key[16], const uint8_t iv[12], const uint8_t *in, size_t n,
                     uint8_t *out)
{
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    int len = 0, fin = 0;
    int ok = ctx && EVP_EncryptInit_ex(ctx, EVP_aes_128_gcm(), NULL, NULL, NULL) &&
             EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_SET_IVLEN, 12, NULL) &&
             EVP_EncryptInit_ex(ctx, NULL, NULL, key, iv) &&
             EVP_EncryptUpdate(ctx, out, &len, in, (int)n) &&
             EVP_EncryptFinal_ex(ctx, out + len, &fin) && (size_t)(len + fin) == n &&
             EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_GET_TAG, 16, out + n);
    EVP_CIPHER_CTX_free(ctx);
    return ok ? 0 : -1;
}

int wp_encrypt_with(const uint8_t *plaintext, size_t n, const uint8_t ua_public[WP_PUBLIC_LEN],
                    const uint8_t auth[WP_AUTH_LEN], const uint8_t as_private[WP_PRIVATE_LEN],
                    const uint8_t as_public[WP_PUBLIC_LEN], const uint8_t salt[WP_SALT_LEN],
                    uint8_t **body, size_t *len)
{
    *body = NULL;
    *len = 0;
    if (n > WP_PLAINTEXT_MAX)
        return -1;
    EVP_PKEY *mine = make_key(as_private, as_public), *peer = make_key(NULL, ua_public);
    uint8_t secret[32], ikm[32], cek[16], nonce[12];
    uint8_t *record = malloc(n + 1), *out = malloc(WP_OVERHEAD + n);
    int rc = -1;
    if (!mine || !peer || !record || !out || ecdh(mine, peer, secret) < 0)
        goto done;
    /* key_info = "WebPush: info" 0x00 || ua_public || as_public */
    static const char label[] = "WebPush: info";
    uint8_t key_info[sizeof label + 2 * WP_PUBLIC_LEN];
    memcpy(key_info, label, sizeof label); /* with its NUL: the 0x00 */
    memcpy(key_info + sizeof label, ua_public, WP_PUBLIC_LEN);
    memcpy(key_info + sizeof label + WP_PUBLIC_LEN, as_public, WP_PUBLIC_LEN);
    static const char cek_info[] = "Content-Encoding: aes128gcm";
    static const char nonce_info[] = "Content-Encoding: nonce";
    if (hkdf(auth, WP_AUTH_LEN, secret, sizeof secret, key_info, sizeof key_info, ikm, sizeof ikm) <
            0 ||
        hkdf(salt, WP_SALT_LEN, ikm, sizeof ikm, (const uint8_t *)cek_info, sizeof cek_info, cek,
             sizeof cek) < 0 ||
        hkdf(salt, WP_SALT_LEN, ikm, sizeof ikm, (const uint8_t *)nonce_info, sizeof nonce_info,
             nonce, sizeof nonce) < 0)
        goto done;
    /* RFC 8188: salt, record size (big-endian), the key id's length and the
     * key id (our public key); then the one record: the plaintext, the last
     * record's delimiter 0x02, no padding, and the tag. */
    memcpy(out, salt, WP_SALT_LEN);
    out[16] = (WP_RECORD_SIZE >> 24) & 0xff;
    out[17] = (WP_RECORD_SIZE >> 16) & 0xff;
    out[18] = (WP_RECORD_SIZE >> 8) & 0xff;
    out[19] = WP_RECORD_SIZE & 0xff;
    out[20] = WP_PUBLIC_LEN;
    memcpy(out + 21, as_public, WP_PUBLIC_LEN);
    if (n)
        memcpy(record, plaintext, n);
    record[n] = 2;
    if (aes128gcm(cek, nonce, record, n + 1, out + WP_HEADER_LEN) < 0)
        goto done;
    *body = out;
    *len = WP_OVERHEAD + n;
    out = NULL;
    rc = 0;
done:
    OPENSSL_cleanse(secret, sizeof secret);
    OPENSSL_cleanse(ikm, sizeof ikm);
    OPENSSL_cleanse(cek, sizeof cek);
    free(record);
    free(out);
    EVP_PKEY_free(mine);
    EVP_PKEY_free(peer);
    return rc;
}

int wp_encrypt(const uint8_t *plaintext, size_t n, const char *p256dh_b64, const char *auth_b64,
               uint8_t **body, size_t *len)
{
    *body = NULL;
    *len = 0;
    uint8_t ua_public[WP_PUBLIC_LEN], auth[WP_AUTH_LEN], salt[WP_SALT_LEN];
    uint8_t as_private[WP_PRIVATE_LEN], as_public[WP_PUBLIC_LEN];
    char priv_b64[WP_PRIVATE_B64], pub_b64[WP_PUBLIC_B64];
    if (wp_b64url_decode(p256dh_b64, ua_public, sizeof ua_public) != WP_PUBLIC_LEN ||
        wp_b64url_decode(auth_b64, auth, sizeof auth) != WP_AUTH_LEN)
        return -1;
    if (wp_keypair(priv_b64, pub_b64) < 0 || RAND_bytes(salt, sizeof salt) != 1 ||
        wp_b64url_decode(priv_b64, as_private, sizeof as_private) != WP_PRIVATE_LEN ||
        wp_b64url_decode(pub_b64, as_public, sizeof as_public) != WP_PUBLIC_LEN)
        return -1;
    int rc = wp_encrypt_with(plaintext, n, ua_public, auth, as_private, as_public, salt, body, len);
    OPENSSL_cleanse(as_private, sizeof as_private);
    OPENSSL_cleanse(priv_b64, sizeof priv_b64);
    return rc;
}

/* --- RFC 8292 --- */

int wp_origin(const char *endpoint, char *out, size_t size)
{
    const char *rest;
    if (strncmp(endpoint, "https://", 8) == 0)
        rest = endpoint + 8;
    else if (strncmp(endpoint, "http://", 7) == 0)
        rest = endpoint + 7;
    else
        return -1;
    size_t host = strcspn(rest, "/?#");
    if (host == 0 || memchr(rest, '@', host))
        return -1;
    size_t n = (size_t)(rest - endpoint) + host;
    if (n >= size)
        return -1;
    memcpy(out, endpoint, n);
    out[n] = 0;
    return 0;
}

/* The JWS signature of `input` (ES256: r || s, 32 bytes each). */
static int es256(EVP_PKEY *key, const char *input, uint8_t sig[64])
{
    EVP_MD_CTX *md = EVP_MD_CTX_new();
    uint8_t der[80];
    size_t derlen = sizeof der;
    int ok = md && EVP_DigestSignInit(md, NULL, EVP_sha256(), NULL, key) > 0 &&
             EVP_DigestSign(md, der, &derlen, (const uint8_t *)input, strlen(input)) > 0;
    EVP_MD_CTX_free(md);
    if (!ok)
        return -1;
    const uint8_t *p = der;
    ECDSA_SIG *s = d2i_ECDSA_SIG(NULL, &p, (long)derlen);
    if (!s)
        return -1;
    const BIGNUM *r, *sv;
    ECDSA_SIG_get0(s, &r, &sv);
    ok = BN_bn2binpad(r, sig, 32) == 32 && BN_bn2binpad(sv, sig + 32, 32) == 32;
    ECDSA_SIG_free(s);
    return ok ? 0 : -1;
}

int wp_vapid_header(const char *private_b64, const char *public_b64, const char *audience,
                    const char *subject, int64_t expires, char *out, size_t size)
{
    uint8_t priv[WP_PRIVATE_LEN], pub[WP_PUBLIC_LEN];
    if (wp_b64url_decode(private_b64, priv, sizeof priv) != WP_PRIVATE_LEN ||
        wp_b64url_decode(public_b64, pub, sizeof pub) != WP_PUBLIC_LEN)
        return -1;
    EVP_PKEY *key = make_key(priv, pub);
    OPENSSL_cleanse(priv, sizeof priv);
    if (!key)
        return -1;
    json_t *claims = json_pack("{s:s,s:I}", "aud", audience, "exp", (json_int_t)expires);
    if (claims && subject && subject[0])
        json_object_set_new(claims, "sub", json_string(subject));
    char *claims_text = claims ? json_dumps(claims, JSON_COMPACT | JSON_SORT_KEYS) : NULL;
    json_decref(claims);
    int rc = -1;
    char *input = NULL;
    if (!claims_text)
        goto done;
    static const char header[] = "{\"typ\":\"JWT\",\"alg\":\"ES256\"}";
    size_t clen = strlen(claims_text);
    input = malloc(4 * sizeof header / 3 + 4 * clen / 3 + 16);
    if (!input)
        goto done;
    wp_b64url_encode((const uint8_t *)header, sizeof header - 1, input);
    size_t at = strlen(input);
    input[at++] = '.';
    wp_b64url_encode((const uint8_t *)claims_text, clen, input + at);
    uint8_t sig[64];
    char sig_b64[90];
    if (es256(key, input, sig) < 0)
        goto done;
    wp_b64url_encode(sig, sizeof sig, sig_b64);
    int n = snprintf(out, size, "vapid t=%s.%s, k=%s", input, sig_b64, public_b64);
    rc = n > 0 && (size_t)n < size ? 0 : -1;
done:
    free(input);
    free(claims_text);
    EVP_PKEY_free(key);
    return rc;
}
