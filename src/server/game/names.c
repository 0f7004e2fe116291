/*
 * names.c - names in any script (see names.h), with libunistring.
 *
 * Normalizing runs in a fixed order, so that what is counted and checked
 * is what will be stored: UTF-8 check, NFC (u8_normalize), then spaces
 * trimmed and collapsed (U+0020 is one byte and never part of another
 * character, so this works on bytes), then one walk over the code points
 * that checks each and counts them. A combining mark is accepted only
 * after a letter or after a mark that follows one, which is what
 * Devanagari, Thai or Arabic with vowel marks need and what keeps a mark
 * from piling onto a space, a digit or nothing. Invisible letters (Unicode
 * Default_Ignorable, e.g. the Hangul filler) are refused: they would make
 * names that look empty or look like another.
 *
 * Names that look alike (a Cyrillic "ѕtrong", a fullwidth "Ｖｉｃｔｉｍ",
 * "Victim" with a variation selector) are caught by their skeleton: the
 * whole folded name made plain (NFKC, invisible code points dropped, folded
 * again), then its UTS #39 skeleton from ICU's spoof checker, folded once
 * more. Two names whose skeletons are equal would be read as the same name.
 */
#include "names.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unicase.h>
#include <unicode/uspoof.h>
#include <unictype.h>
#include <uninorm.h>
#include <unistr.h>

/* Longer input cannot be a name even after NFC and collapsing spaces; it
 * is refused before any work is spent on it. */
#define NAME_INPUT_MAX 1024

/* Each refusal's text (for the log and as the protocol's message) and id
 * (the protocol's `reason`, which clients translate). */
static const struct {
    int rc;
    const char *id, *text;
} refusals[] = {
    {NAME_REFUSED_LENGTH, "name_length", "name must be 1 to 24 characters"},
    {NAME_REFUSED_CHARS, "name_chars", "name may hold letters, digits, spaces and _ - . only"},
    {NAME_REFUSED_MARK, "name_mark", "a combining mark in a name must follow a letter"},
    {NAME_REFUSED_UTF8, "name_utf8", "name must be valid UTF-8"},
    {NAME_REFUSED_MEMORY, NULL, "out of memory"},
};
#define NREFUSALS (int)(sizeof refusals / sizeof refusals[0])

static int refuse(char out[NAME_BYTES_MAX + 1], char *why, size_t whylen, int rc)
{
    out[0] = 0;
    for (int i = 0; i < NREFUSALS; i++)
        if (refusals[i].rc == rc)
            snprintf(why, whylen, "%s", refusals[i].text);
    return rc;
}

const char *name_refusal_id(int rc)
{
    for (int i = 0; i < NREFUSALS; i++)
        if (refusals[i].rc == rc)
            return refusals[i].id;
    return NULL;
}

/* Copies s without leading and trailing spaces and with every run of
 * spaces made one; returns the new length. */
static size_t collapse_spaces(const uint8_t *s, size_t n, uint8_t *out)
{
    size_t len = 0;
    bool space = false;
    for (size_t i = 0; i < n; i++) {
        if (s[i] == ' ') {
            space = len > 0;
            continue;
        }
        if (space)
            out[len++] = ' ';
        space = false;
        out[len++] = s[i];
    }
    return len;
}

static bool is_mark(ucs4_t c) { return uc_is_general_category(c, UC_CATEGORY_M); }

static bool is_letter(ucs4_t c)
{
    return uc_is_property_alphabetic(c) && !uc_is_property_default_ignorable_code_point(c);
}

static bool is_other_allowed(ucs4_t c)
{
    return c == ' ' || c == '_' || c == '-' || c == '.' ||
           uc_is_general_category(c, UC_CATEGORY_Nd);
}

/* Checks every code point of a collapsed NFC string; the number of code
 * points, or -1 with the refusal in *reason. */
static int check_chars(const uint8_t *s, size_t n, int *reason)
{
    int count = 0;
    bool after_letter = false; /* a letter, or marks following one */
    for (size_t i = 0; i < n; count++) {
        ucs4_t c;
        i += (size_t)u8_mbtouc(&c, s + i, n - i);
        if (is_mark(c)) {
            if (!after_letter) {
                *reason = NAME_REFUSED_MARK;
                return -1;
            }
        } else if (is_letter(c)) {
            after_letter = true;
        } else if (is_other_allowed(c)) {
            after_letter = false;
        } else {
            *reason = NAME_REFUSED_CHARS;
            return -1;
        }
    }
    return count;
}

int name_normalize(const char *in, char out[NAME_BYTES_MAX + 1], char *why, size_t whylen)
{
    size_t n = strlen(in);
    if (n > NAME_INPUT_MAX)
        return refuse(out, why, whylen, NAME_REFUSED_LENGTH);
    if (u8_check((const uint8_t *)in, n))
        return refuse(out, why, whylen, NAME_REFUSED_UTF8);
    if (n == 0)
        return refuse(out, why, whylen, NAME_REFUSED_LENGTH);
    size_t len = 0;
    uint8_t *nfc = u8_normalize(UNINORM_NFC, (const uint8_t *)in, n, NULL, &len);
    uint8_t *collapsed = nfc ? malloc(len + 1) : NULL;
    if (!collapsed) {
        free(nfc);
        return refuse(out, why, whylen, NAME_REFUSED_MEMORY);
    }
    len = collapse_spaces(nfc, len, collapsed);
    free(nfc);
    int reason = NAME_REFUSED_LENGTH;
    int count = check_chars(collapsed, len, &reason);
    if (count < 1 || count > NAME_CHARS_MAX) {
        free(collapsed);
        return refuse(out, why, whylen, reason);
    }
    memcpy(out, collapsed, len); /* at most 4 bytes per code point */
    out[len] = 0;
    free(collapsed);
    return 0;
}

int name_fold(const char *normalized, char *out, size_t outlen)
{
    size_t len = 0;
    uint8_t *folded =
        u8_casefold((const uint8_t *)normalized, strlen(normalized), NULL, UNINORM_NFC, NULL, &len);
    if (!folded || len >= outlen) {
        free(folded);
        return -1;
    }
    memcpy(out, folded, len);
    out[len] = 0;
    free(folded);
    return 0;
}

/* --- look-alikes (UTS #39) --- */

/* ICU's spoof checker holds the confusables data and is read only once
 * made, so one serves every caller on every thread: made once, never
 * changed, never freed (like ICU's own data). */
static USpoofChecker *checker;
static pthread_once_t checker_once = PTHREAD_ONCE_INIT;

static void make_checker(void)
{
    UErrorCode status = U_ZERO_ERROR;
    USpoofChecker *sc = uspoof_open(&status);
    if (U_FAILURE(status))
        uspoof_close(sc);
    else
        checker = sc;
}

static USpoofChecker *spoof_checker(void)
{
    pthread_once(&checker_once, make_checker);
    return checker;
}

/* The name as a reader sees it, before the skeleton: compatibility forms
 * made plain (NFKC: fullwidth "Ｖｉｃｔｉｍ" is "Victim", "ﬁ" is "fi"),
 * every default-ignorable code point dropped (variation selectors, the
 * combining grapheme joiner, Mongolian free variation selectors, Khmer
 * inherent vowels: none of them changes how a name looks), then case
 * folded again (NFKC can make capitals). A new malloc'd string, or NULL. */
static uint8_t *visible_form(const char *key, size_t *len)
{
    size_t n = 0;
    uint8_t *nfkc = u8_normalize(UNINORM_NFKC, (const uint8_t *)key, strlen(key), NULL, &n);
    if (!nfkc)
        return NULL;
    size_t kept = 0;
    for (size_t i = 0; i < n;) {
        ucs4_t c;
        int step = u8_mbtouc(&c, nfkc + i, n - i);
        if (!uc_is_property_default_ignorable_code_point(c)) {
            memmove(nfkc + kept, nfkc + i, (size_t)step);
            kept += (size_t)step;
        }
        i += (size_t)step;
    }
    uint8_t *folded = u8_casefold(nfkc, kept, NULL, UNINORM_NFKC, NULL, len);
    free(nfkc);
    return folded;
}

int name_skeleton(const char *key, char *out, size_t outlen)
{
    USpoofChecker *sc = spoof_checker();
    if (!sc || outlen > INT32_MAX)
        return -1;
    size_t len = 0;
    uint8_t *visible = visible_form(key, &len);
    char *plain = visible ? malloc(len + 1) : NULL;
    if (!plain || len == 0) { /* nothing visible: no name can be read as it */
        free(visible);
        free(plain);
        return -1;
    }
    memcpy(plain, visible, len);
    plain[len] = 0;
    free(visible);
    UErrorCode status = U_ZERO_ERROR;
    int32_t n = uspoof_getSkeletonUTF8(sc, 0, plain, -1, out, (int32_t)outlen, &status);
    free(plain);
    if (U_FAILURE(status) || n < 0 || (size_t)n >= outlen)
        return -1;
    /* the skeleton may hold capitals again (the data maps some letters to
     * Latin capitals): fold it once more */
    size_t flen = 0;
    uint8_t *folded = u8_casefold((const uint8_t *)out, (size_t)n, NULL, UNINORM_NFC, NULL, &flen);
    if (!folded || flen >= outlen) {
        free(folded);
        return -1;
    }
    memcpy(out, folded, flen);
    out[flen] = 0;
    free(folded);
    return 0;
}
