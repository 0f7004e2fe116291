/*
 * secrets.h - the server's randomness and hashing, from OpenSSL.
 *
 * Seeds, game ids and seat tokens come from RAND_bytes. A token is only
 * ever stored as its SHA-256; checking one compares hashes in constant
 * time.
 */
#ifndef AX_SERVER_SECRETS_H
#define AX_SERVER_SECRETS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define GAME_ID_LEN 12 /* base64url of 9 random bytes */
#define TOKEN_LEN   32 /* base64url of 24 random bytes: 192 bits */

/* 0 on success, -1 when the generator failed. */
int secret_bytes(void *buf, size_t n);
int secret_u64(uint64_t *out);
int secret_game_id(char out[GAME_ID_LEN + 1]);
int secret_token(char out[TOKEN_LEN + 1]);
/* SHA-256 of a string as 64 lowercase hex digits. */
void sha256_hex(const char *text, char out[65]);
/* HMAC-SHA256 of a string under a key (a string), as 64 lowercase hex
 * digits ("" if OpenSSL failed). */
void hmac_sha256_hex(const char *key, const char *text, char out[65]);
/* Whether SHA-256(token) equals hash_hex, in time independent of where
 * they differ. */
bool token_matches(const char *token, const char *hash_hex);
/* Whether text is a plausible id or token: 1..max characters of
 * [A-Za-z0-9_-]. */
bool is_base64url(const char *text, size_t max);

#endif
