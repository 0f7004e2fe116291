/*
 * test_names.c - names in any script (src/server/names.c): names of many
 * scripts come back as typed, decomposed input comes back composed (NFC),
 * spaces are trimmed and collapsed, the length is counted in characters
 * after NFC, everything that is not a letter, a digit, a space, _ - or . is
 * refused with a reason, and case folding makes ÁRPÁD and árpád one name.
 * Names that look alike have one skeleton: other scripts' letters,
 * fullwidth forms, and invisible code points (variation selectors and other
 * default-ignorables) make no new name.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "../../src/server/game/names.h"

static const char bad_char[] = "name may hold letters, digits, spaces and _ - . only";
static const char bad_length[] = "name must be 1 to 24 characters";

/* name_normalize must accept `in` and give exactly `want`. */
static void accepts(const char *in, const char *want)
{
    char out[NAME_BYTES_MAX + 1], why[128] = "";
    int rc = name_normalize(in, out, why, sizeof why);
    if (rc != 0)
        fail_msg("refused \"%s\": %s", in, why);
    assert_string_equal(out, want);
}

/* name_normalize must refuse `in` with the reason `reason`. */
static void refuses(const char *in, const char *reason)
{
    char out[NAME_BYTES_MAX + 1], why[128] = "";
    int rc = name_normalize(in, out, why, sizeof why);
    if (rc == 0)
        fail_msg("accepted \"%s\" as \"%s\"", in, out);
    assert_string_equal(why, reason);
    assert_string_equal(out, "");
    /* the id clients translate goes with the text */
    const char *id = name_refusal_id(rc);
    assert_non_null(id);
    const char *want = strstr(reason, "1 to 24")     ? "name_length"
                       : strstr(reason, "combining") ? "name_mark"
                       : strstr(reason, "UTF-8")     ? "name_utf8"
                       : strstr(reason, "may hold")  ? "name_chars"
                                                     : "?";
    assert_string_equal(id, want);
}

static void repeat(char *out, const char *unit, int times)
{
    out[0] = 0;
    for (int i = 0; i < times; i++)
        strcat(out, unit);
}

static void test_scripts(void **state)
{
    (void)state;
    const char *names[] = {
        "José Núñez",         /* Latin with accents */
        "Łucja Żółć",         /* Polish */
        "Őrség",              /* Hungarian double acute */
        "Αλέξανδρος",         /* Greek */
        "Дмитрий Шостакович", /* Cyrillic */
        "山田",               /* CJK */
        "山田 太郎",          /* CJK with a space */
        "محمد",               /* Arabic */
        "مُحَمَّد",               /* Arabic with vowel marks (combining, after letters) */
        "देवनागरी",            /* Devanagari: vowel signs */
        "क्षत्रिय",             /* Devanagari: virama (a combining mark) */
        "สมชาย",              /* Thai */
        "กิตติ่",                /* Thai: vowel and tone marks above */
        "김민준",             /* Hangul */
        "ᎠᏂᏴ",                /* Cherokee */
        "R2-D2_v.1",          /* digits and the allowed punctuation */
        "१२३ ٤٥٦",            /* Devanagari and Arabic-Indic digits (Nd) */
        "Ann",
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        accepts(names[i], names[i]);
}

static void test_nfc_and_spaces(void **state)
{
    (void)state;
    accepts("Jose\xcc\x81", "Jos\xc3\xa9");                        /* e + U+0301 -> é */
    accepts("A\xcc\x8angstro\xcc\x88m", "\xc3\x85ngstr\xc3\xb6m"); /* Ångström */
    accepts("O\xcc\x8brse\xcc\x81g", "Őrség");
    accepts("  Ann   Bo  ", "Ann Bo");
    accepts(" a ", "a");
    refuses("", bad_length);
    refuses("    ", bad_length);
}

static void test_length(void **state)
{
    (void)state;
    char in[1200], want[200];
    repeat(in, "a", 24);
    accepts(in, in);
    repeat(in, "a", 25);
    refuses(in, bad_length);
    repeat(in, "山", 24);
    accepts(in, in);
    repeat(in, "山", 25);
    refuses(in, bad_length);
    /* 24 letters of 4 bytes each (U+20000, CJK Extension B): the longest name */
    repeat(in, "\xf0\xa0\x80\x80", 24);
    accepts(in, in);
    assert_int_equal(strlen(in), NAME_BYTES_MAX);
    repeat(in, "\xf0\xa0\x80\x80", 25);
    refuses(in, bad_length);
    /* counted after NFC: 48 code points typed, 24 characters stored */
    repeat(in, "e\xcc\x81", 24);
    repeat(want, "\xc3\xa9", 24);
    accepts(in, want);
    repeat(in, "e\xcc\x81", 25);
    refuses(in, bad_length);
    /* spaces collapsed before counting */
    snprintf(in, sizeof in, "%s%s%s", "abcdefghijk", "          ", "lmnopqrstuvw");
    accepts(in, "abcdefghijk lmnopqrstuvw");
    repeat(in, " ", 1100);
    refuses(in, bad_length);
}

static void test_refused(void **state)
{
    (void)state;
    const char *bad[] = {
        "😀", /* emoji */
        "Ann 😀",
        "Ann\xe2\x9c\x93", /* ✓ a symbol */
        "<b>",             /* markup: refused, not escaped */
        "a<b>c",
        "a\tb", /* tab */
        "a\nb", /* control characters */
        "a\x01z",
        "a\x7fz",
        "a\xc2\x85z",     /* U+0085, a C1 control */
        "a\xc2\xa0z",     /* no-break space */
        "a\xe2\x80\x8bz", /* zero-width space */
        "a\xe2\x80\xaez", /* right-to-left override */
        "\xe3\x85\xa4",   /* the Hangul filler: an invisible letter */
        "O'Brien",
        "Ann!",
        "a/b",
        "a@b",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        refuses(bad[i], bad_char);
    const char *marks = "a combining mark in a name must follow a letter";
    refuses("\xcc\x81"
            "a",
            marks);                  /* a mark first */
    refuses("a \xcc\x81", marks);    /* a mark after a space */
    refuses("1\xe2\x83\xa3", marks); /* a keycap after a digit */
    refuses("\xe0\xa4\xbe", marks);  /* a Devanagari vowel sign alone */
}

static void test_invalid_utf8(void **state)
{
    (void)state;
    const char *bad[] = {
        "\xff", "a\xc3", "\xc0\xaf", "\xed\xa0\x80", "\xf4\x90\x80\x80", "a\x80z",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        refuses(bad[i], "name must be valid UTF-8");
}

static void folds_equal(const char *a, const char *b, bool equal)
{
    char fa[NAME_FOLD_MAX + 1], fb[NAME_FOLD_MAX + 1];
    assert_int_equal(name_fold(a, fa, sizeof fa), 0);
    assert_int_equal(name_fold(b, fb, sizeof fb), 0);
    if ((strcmp(fa, fb) == 0) != equal)
        fail_msg("\"%s\" (%s) and \"%s\" (%s) should %sbe one name", a, fa, b, fb,
                 equal ? "" : "not ");
}

static void test_fold(void **state)
{
    (void)state;
    folds_equal("ÁRPÁD", "árpád", true);
    folds_equal("Straße", "STRASSE", true);
    folds_equal("Straße", "strasse", true);
    folds_equal("ΟΔΥΣΣΕΥΣ", "οδυσσευς", true); /* final sigma too */
    folds_equal("ŐRSÉG", "Őrség", true);
    folds_equal("Ann", "ann", true);
    folds_equal("Ann", "Anna", false);
    folds_equal("árpád", "arpad", false); /* accents are part of a name */
    char out[NAME_FOLD_MAX + 1];
    assert_int_equal(name_fold("Straße", out, sizeof out), 0);
    assert_string_equal(out, "strasse");
    assert_int_equal(name_fold("Straße", out, 7), -1); /* "strasse" needs 8 bytes */
    assert_int_equal(name_fold("Straße", out, 8), 0);
    /* folding lengthens: U+0587 (2 bytes) folds to U+0565 U+0582 (4 bytes) */
    char in[NAME_BYTES_MAX + 1];
    repeat(in, "\xd6\x87", 24);
    assert_int_equal(name_fold(in, out, sizeof out), 0);
    assert_int_equal(strlen(out), 24 * 4);
}

/* The look-alike key of a name as typed (normalized, folded, skeleton). */
static void skeleton_of(const char *name, char *out, size_t size)
{
    char norm[NAME_BYTES_MAX + 1], why[128], key[NAME_FOLD_MAX + 1];
    if (name_normalize(name, norm, why, sizeof why))
        fail_msg("refused \"%s\": %s", name, why);
    assert_int_equal(name_fold(norm, key, sizeof key), 0);
    assert_int_equal(name_skeleton(key, out, size), 0);
}

static void look_alike(const char *a, const char *b, bool alike)
{
    char sa[NAME_SKELETON_MAX + 1], sb[NAME_SKELETON_MAX + 1];
    skeleton_of(a, sa, sizeof sa);
    skeleton_of(b, sb, sizeof sb);
    if ((strcmp(sa, sb) == 0) != alike)
        fail_msg("\"%s\" (%s) and \"%s\" (%s) should %slook alike", a, sa, b, sb,
                 alike ? "" : "not ");
}

static void test_skeleton(void **state)
{
    (void)state;
    const char *victims[] = {
        "Victim\xef\xb8\x8f", /* U+FE0F, a variation selector */
        "Victim\xcd\x8f",     /* U+034F, the combining grapheme joiner */
        "Victim\xe1\xa0\x8b", /* U+180B, a Mongolian free variation selector */
        "Victim\xe1\x9e\xb4", /* U+17B4, a Khmer inherent vowel */
        "Vi\xcd\x8f\xcd\x8f"
        "ctim",         /* inside the name, twice */
        "Ｖｉｃｔｉｍ", /* fullwidth */
        "ＶＩＣＴＩＭ", /* fullwidth capitals */
        "Vіctim",       /* a Cyrillic і */
        "VICTIM",
    };
    for (size_t i = 0; i < sizeof victims / sizeof victims[0]; i++)
        look_alike("Victim", victims[i], true);
    look_alike("ﬁsh", "fish", true);      /* the ligature fi */
    look_alike("strong", "ѕtrong", true); /* a Cyrillic dze */
    /* names that differ to a reader stay apart */
    look_alike("Victim", "Victims", false);
    look_alike("Victim", "Vic tim", false);
    look_alike("Victim", "Vict\xc3\xadm", false); /* an accent is seen */
    look_alike("Anna", "Анна", false);
    look_alike("山田", "山", false);
    /* a name of invisible characters alone is no name at all */
    const char *marks = "a combining mark in a name must follow a letter";
    refuses("\xef\xb8\x8f", marks);
    refuses("\xcd\x8f", marks);
    refuses("\xe1\xa0\x8b", marks);
    refuses("\xe1\x9e\xb4", marks);
    refuses("\xef\xb8\x8f\xcd\x8f", marks);
    refuses(" \xef\xb8\x8f ", marks);
    refuses("\xe1\x85\x9f", bad_char); /* U+115F, the Hangul choseong filler */
    /* the longest expansion fits: U+FDFA is 18 letters after NFKC */
    char in[NAME_BYTES_MAX + 1], out[NAME_SKELETON_MAX + 1];
    repeat(in, "\xef\xb7\xba", 24);
    skeleton_of(in, out, sizeof out);
    assert_true(strlen(out) > 24 * 18);
    assert_int_equal(name_skeleton("victim", out, 4), -1); /* too small: refused, not cut */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_scripts),      cmocka_unit_test(test_nfc_and_spaces),
        cmocka_unit_test(test_length),       cmocka_unit_test(test_refused),
        cmocka_unit_test(test_invalid_utf8), cmocka_unit_test(test_fold),
        cmocka_unit_test(test_skeleton),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
