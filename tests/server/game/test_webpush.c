/*
 * test_webpush.c - the cryptography of Web Push (src/server/game/webpush.c):
 * RFC 8291's own example (Section 5 / Appendix A: its keys, auth secret and
 * salt) encrypts to the RFC's bytes; a fresh encryption decrypts with the
 * subscription's private key (the receiving side written here from the RFC
 * with OpenSSL, as a browser would); the VAPID header's JWT verifies with
 * the site's public key; bad keys and URLs are refused.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>
#include <jansson.h>
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/kdf.h>
#include <openssl/param_build.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../../src/server/game/webpush.h"

/* RFC 8291, Section 5 and Appendix A. */
static const char RFC_PLAINTEXT[] = "When I grow up, I want to be a watermelon";
static const char RFC_AS_PUBLIC[] =
    "BP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A8";
static const char RFC_AS_PRIVATE[] = "yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw";
static const char RFC_UA_PUBLIC[] =
    "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4";
static const char RFC_UA_PRIVATE[] = "q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94";
static const char RFC_SALT[] = "DGv6ra1nlYgDCS1FRnbzlw";
static const char RFC_AUTH[] = "BTBZMqHH6r4Tts7J_aSIgg";
static const char RFC_BODY[] =
    "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS"
    "6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qu"
    "lcy4a-fN";

static void decode(const char *b64, uint8_t *out, int want)
{
    assert_int_equal(wp_b64url_decode(b64, out, (size_t)want), want);
}

static void rfc8291_example_encrypts_to_the_rfcs_bytes(void **state)
{
    (void)state;
    uint8_t ua_public[65], as_public[65], as_private[32], salt[16], auth[16];
    decode(RFC_UA_PUBLIC, ua_public, 65);
    decode(RFC_AS_PUBLIC, as_public, 65);
    decode(RFC_AS_PRIVATE, as_private, 32);
    decode(RFC_SALT, salt, 16);
    decode(RFC_AUTH, auth, 16);
    uint8_t *body;
    size_t len;
    assert_int_equal(wp_encrypt_with((const uint8_t *)RFC_PLAINTEXT, strlen(RFC_PLAINTEXT),
                                     ua_public, auth, as_private, as_public, salt, &body, &len),
                     0);
    assert_int_equal(len, WP_OVERHEAD + strlen(RFC_PLAINTEXT));
    char *text = malloc(4 * len / 3 + 8);
    wp_b64url_encode(body, len, text);
    assert_string_equal(text, RFC_BODY);
    free(text);
    free(body);
}

/* --- the receiving side, from RFC 8291 Section 3.4 and RFC 8188, for the round trip --- */

static EVP_PKEY *key_of(const uint8_t *priv, const uint8_t pub[65])
{
    OSSL_PARAM_BLD *bld = OSSL_PARAM_BLD_new();
    BIGNUM *d = priv ? BN_bin2bn(priv, 32, NULL) : NULL;
    OSSL_PARAM_BLD_push_utf8_string(bld, OSSL_PKEY_PARAM_GROUP_NAME, "prime256v1", 0);
    OSSL_PARAM_BLD_push_octet_string(bld, OSSL_PKEY_PARAM_PUB_KEY, pub, 65);
    if (d)
        OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_PRIV_KEY, d);
    OSSL_PARAM *params = OSSL_PARAM_BLD_to_param(bld);
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_name(NULL, "EC", NULL);
    EVP_PKEY *key = NULL;
    assert_true(EVP_PKEY_fromdata_init(ctx) > 0);
    assert_true(EVP_PKEY_fromdata(ctx, &key, d ? EVP_PKEY_KEYPAIR : EVP_PKEY_PUBLIC_KEY, params) >
                0);
    EVP_PKEY_CTX_free(ctx);
    OSSL_PARAM_free(params);
    OSSL_PARAM_BLD_free(bld);
    BN_free(d);
    return key;
}

static void hkdf(const uint8_t *salt, size_t sl, const uint8_t *ikm, size_t il, const uint8_t *info,
                 size_t nl, uint8_t *out, size_t ol)
{
    EVP_KDF *kdf = EVP_KDF_fetch(NULL, "HKDF", NULL);
    EVP_KDF_CTX *ctx = EVP_KDF_CTX_new(kdf);
    EVP_KDF_free(kdf);
    OSSL_PARAM p[] = {
        OSSL_PARAM_construct_utf8_string(OSSL_KDF_PARAM_DIGEST, "SHA256", 0),
        OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_KEY, (void *)ikm, il),
        OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_SALT, (void *)salt, sl),
        OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_INFO, (void *)info, nl),
        OSSL_PARAM_construct_end(),
    };
    assert_true(EVP_KDF_derive(ctx, out, ol, p) > 0);
    EVP_KDF_CTX_free(ctx);
}

/* Decrypts a body with the subscription's keys: the plaintext's length, or
 * -1 when the tag does not verify. */
static int decrypt(const uint8_t *body, size_t len, const uint8_t ua_private[32],
                   const uint8_t ua_public[65], const uint8_t auth[16], uint8_t *out)
{
    assert_true(len >= WP_OVERHEAD);
    assert_int_equal(body[20], 65);
    const uint8_t *salt = body, *as_public = body + 21;
    EVP_PKEY *mine = key_of(ua_private, ua_public), *peer = key_of(NULL, as_public);
    EVP_PKEY_CTX *dctx = EVP_PKEY_CTX_new_from_pkey(NULL, mine, NULL);
    uint8_t secret[32], ikm[32], cek[16], nonce[12];
    size_t sl = 32;
    assert_true(EVP_PKEY_derive_init(dctx) > 0 && EVP_PKEY_derive_set_peer(dctx, peer) > 0 &&
                EVP_PKEY_derive(dctx, secret, &sl) > 0);
    EVP_PKEY_CTX_free(dctx);
    EVP_PKEY_free(mine);
    EVP_PKEY_free(peer);
    uint8_t info[14 + 130];
    memcpy(info, "WebPush: info", 14);
    memcpy(info + 14, ua_public, 65);
    memcpy(info + 79, as_public, 65);
    hkdf(auth, 16, secret, 32, info, sizeof info, ikm, 32);
    hkdf(salt, 16, ikm, 32, (const uint8_t *)"Content-Encoding: aes128gcm", 28, cek, 16);
    hkdf(salt, 16, ikm, 32, (const uint8_t *)"Content-Encoding: nonce", 24, nonce, 12);
    const uint8_t *record = body + WP_HEADER_LEN;
    int rlen = (int)(len - WP_HEADER_LEN - 16);
    EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
    int n = 0, fin = 0;
    EVP_DecryptInit_ex(c, EVP_aes_128_gcm(), NULL, cek, nonce);
    EVP_DecryptUpdate(c, out, &n, record, rlen);
    EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_GCM_SET_TAG, 16, (void *)(record + rlen));
    int ok = EVP_DecryptFinal_ex(c, out + n, &fin) > 0;
    EVP_CIPHER_CTX_free(c);
    if (!ok)
        return -1;
    assert_int_equal(out[rlen - 1], 2); /* the last record's delimiter */
    return rlen - 1;
}

static void rfc8291_example_decrypts_with_the_browsers_key(void **state)
{
    (void)state;
    uint8_t body[256], ua_private[32], ua_public[65], auth[16], out[256];
    int len = wp_b64url_decode(RFC_BODY, body, sizeof body);
    assert_true(len > 0);
    decode(RFC_UA_PRIVATE, ua_private, 32);
    decode(RFC_UA_PUBLIC, ua_public, 65);
    decode(RFC_AUTH, auth, 16);
    int n = decrypt(body, (size_t)len, ua_private, ua_public, auth, out);
    assert_int_equal(n, strlen(RFC_PLAINTEXT));
    assert_memory_equal(out, RFC_PLAINTEXT, (size_t)n);
    /* a changed byte fails the tag */
    body[len - 20] ^= 1;
    assert_int_equal(decrypt(body, (size_t)len, ua_private, ua_public, auth, out), -1);
}

static void fresh_messages_round_trip(void **state)
{
    (void)state;
    char ua_priv_b64[WP_PRIVATE_B64], ua_pub_b64[WP_PUBLIC_B64];
    assert_int_equal(wp_keypair(ua_priv_b64, ua_pub_b64), 0);
    assert_int_equal(strlen(ua_pub_b64), 87);
    assert_int_equal(strlen(ua_priv_b64), 43);
    uint8_t ua_private[32], ua_public[65], auth[16] = "0123456789abcdef", out[4096];
    decode(ua_priv_b64, ua_private, 32);
    decode(ua_pub_b64, ua_public, 65);
    char auth_b64[32];
    wp_b64url_encode(auth, 16, auth_b64);
    const char *texts[] = {"", "{\"kind\":\"turn\",\"title\":\"Your turn\"}", NULL};
    for (int i = 0; texts[i]; i++) {
        uint8_t *body, *again;
        size_t len, len2;
        size_t n = strlen(texts[i]);
        assert_int_equal(
            wp_encrypt((const uint8_t *)texts[i], n, ua_pub_b64, auth_b64, &body, &len), 0);
        assert_int_equal(
            wp_encrypt((const uint8_t *)texts[i], n, ua_pub_b64, auth_b64, &again, &len2), 0);
        assert_int_equal(len, len2);
        /* a fresh salt and key each time */
        assert_memory_not_equal(body, again, WP_HEADER_LEN);
        assert_int_equal(decrypt(body, len, ua_private, ua_public, auth, out), (int)n);
        assert_memory_equal(out, texts[i], n);
        free(body);
        free(again);
    }
    /* the largest plaintext of one record, and one byte more refused */
    uint8_t *big = calloc(WP_PLAINTEXT_MAX + 1, 1), *body;
    size_t len;
    assert_int_equal(wp_encrypt(big, WP_PLAINTEXT_MAX, ua_pub_b64, auth_b64, &body, &len), 0);
    assert_int_equal(len, WP_RECORD_SIZE + WP_HEADER_LEN);
    assert_int_equal(decrypt(body, len, ua_private, ua_public, auth, out), WP_PLAINTEXT_MAX);
    free(body);
    assert_int_equal(wp_encrypt(big, WP_PLAINTEXT_MAX + 1, ua_pub_b64, auth_b64, &body, &len), -1);
    assert_null(body);
    free(big);
}

static void bad_keys_are_refused(void **state)
{
    (void)state;
    uint8_t *body;
    size_t len;
    assert_true(wp_public_key_valid(RFC_UA_PUBLIC));
    /* a point off the curve: the last byte of y changed */
    char off[sizeof RFC_UA_PUBLIC];
    memcpy(off, RFC_UA_PUBLIC, sizeof off);
    off[85] = off[85] == 'A' ? 'B' : 'A';
    assert_false(wp_public_key_valid(off));
    assert_int_equal(wp_encrypt((const uint8_t *)"x", 1, off, RFC_AUTH, &body, &len), -1);
    assert_false(wp_public_key_valid("BCVx"));
    assert_false(wp_public_key_valid("not base64!"));
    assert_false(wp_public_key_valid(""));
    assert_int_equal(wp_encrypt((const uint8_t *)"x", 1, RFC_UA_PUBLIC, "short", &body, &len), -1);
    uint8_t buf[8];
    assert_int_equal(wp_b64url_decode("AAAAAAAAAAAA", buf, sizeof buf), -1); /* 9 bytes */
    assert_int_equal(wp_b64url_decode("A", buf, sizeof buf), -1);
    assert_int_equal(wp_b64url_decode("AA+A", buf, sizeof buf), -1);
    assert_int_equal(wp_b64url_decode("AQ", buf, sizeof buf), 1);
    assert_int_equal(buf[0], 1);
}

static void origins(void **state)
{
    (void)state;
    char o[64];
    assert_int_equal(wp_origin("https://push.example.net/push/abc?x=1", o, sizeof o), 0);
    assert_string_equal(o, "https://push.example.net");
    assert_int_equal(wp_origin("http://127.0.0.1:8123/p/1", o, sizeof o), 0);
    assert_string_equal(o, "http://127.0.0.1:8123");
    assert_int_equal(wp_origin("ftp://x/y", o, sizeof o), -1);
    assert_int_equal(wp_origin("https:///y", o, sizeof o), -1);
    assert_int_equal(wp_origin("https://user@host/y", o, sizeof o), -1);
    assert_int_equal(wp_origin("https://a-very-long-host-name-that-does-not-fit.example/", o, 16),
                     -1);
}

/* The JWT of a VAPID header verifies with the site's public key (ES256,
 * the JWS's r || s turned back into DER for OpenSSL). */
static void vapid_header_verifies(void **state)
{
    (void)state;
    char priv[WP_PRIVATE_B64], pub[WP_PUBLIC_B64], header[1024];
    assert_int_equal(wp_keypair(priv, pub), 0);
    assert_int_equal(wp_vapid_header(priv, pub, "https://push.example.net",
                                     "mailto:ops@example.org", 1800000000, header, sizeof header),
                     0);
    assert_int_equal(strncmp(header, "vapid t=", 8), 0);
    char *k = strstr(header, ", k=");
    assert_non_null(k);
    assert_string_equal(k + 4, pub);
    char jwt[900];
    size_t jlen = (size_t)(k - (header + 8));
    memcpy(jwt, header + 8, jlen);
    jwt[jlen] = 0;
    char *dot1 = strchr(jwt, '.'), *dot2 = strrchr(jwt, '.');
    assert_true(dot1 && dot2 && dot1 < dot2);
    *dot2 = 0;
    char head[64];
    snprintf(head, sizeof head, "%.*s", (int)(dot1 - jwt), jwt);
    uint8_t text[512];
    int n = wp_b64url_decode(head, text, sizeof text - 1);
    assert_true(n > 0);
    text[n] = 0;
    assert_string_equal((char *)text, "{\"typ\":\"JWT\",\"alg\":\"ES256\"}");
    n = wp_b64url_decode(dot1 + 1, text, sizeof text - 1);
    assert_true(n > 0);
    text[n] = 0;
    json_t *claims = json_loads((char *)text, 0, NULL);
    assert_non_null(claims);
    assert_string_equal(json_string_value(json_object_get(claims, "aud")),
                        "https://push.example.net");
    assert_int_equal(json_integer_value(json_object_get(claims, "exp")), 1800000000);
    assert_string_equal(json_string_value(json_object_get(claims, "sub")),
                        "mailto:ops@example.org");
    json_decref(claims);
    uint8_t sig[64], pubraw[65];
    assert_int_equal(wp_b64url_decode(dot2 + 1, sig, sizeof sig), 64);
    decode(pub, pubraw, 65);
    ECDSA_SIG *es = ECDSA_SIG_new();
    ECDSA_SIG_set0(es, BN_bin2bn(sig, 32, NULL), BN_bin2bn(sig + 32, 32, NULL));
    uint8_t *der = NULL;
    int derlen = i2d_ECDSA_SIG(es, &der);
    ECDSA_SIG_free(es);
    EVP_PKEY *key = key_of(NULL, pubraw);
    EVP_MD_CTX *md = EVP_MD_CTX_new();
    assert_true(EVP_DigestVerifyInit(md, NULL, EVP_sha256(), NULL, key) > 0);
    assert_int_equal(EVP_DigestVerify(md, der, (size_t)derlen, (uint8_t *)jwt, strlen(jwt)), 1);
    /* the same signature over another input fails */
    jwt[3] ^= 1;
    EVP_MD_CTX_free(md);
    md = EVP_MD_CTX_new();
    assert_true(EVP_DigestVerifyInit(md, NULL, EVP_sha256(), NULL, key) > 0);
    assert_int_not_equal(EVP_DigestVerify(md, der, (size_t)derlen, (uint8_t *)jwt, strlen(jwt)), 1);
    EVP_MD_CTX_free(md);
    EVP_PKEY_free(key);
    OPENSSL_free(der);
    /* without a subject; with a bad key */
    assert_int_equal(wp_vapid_header(priv, pub, "https://a", NULL, 1, header, sizeof header), 0);
    assert_int_equal(wp_vapid_header("x", pub, "https://a", NULL, 1, header, sizeof header), -1);
    assert_int_equal(wp_vapid_header(priv, pub, "https://a", NULL, 1, header, 20), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(rfc8291_example_encrypts_to_the_rfcs_bytes),
        cmocka_unit_test(rfc8291_example_decrypts_with_the_browsers_key),
        cmocka_unit_test(fresh_messages_round_trip),
        cmocka_unit_test(bad_keys_are_refused),
        cmocka_unit_test(origins),
        cmocka_unit_test(vapid_header_verifies),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
