/*
 * names.h - the names people give themselves: checked, normalized, folded.
 *
 * A name is written in any script. name_normalize() turns what a person
 * typed into the one form the server stores and shows (NFC, spaces
 * trimmed and collapsed), or refuses it with a reason the person can read.
 * name_fold() gives the key under which two names are "the same name"
 * regardless of case (ÁRPÁD and árpád, Straße and STRASSE).
 */
#ifndef AX_SERVER_NAMES_H
#define AX_SERVER_NAMES_H

#include <stddef.h>

#define NAME_CHARS_MAX    24                   /* code points, after NFC */
#define NAME_BYTES_MAX    (NAME_CHARS_MAX * 4) /* UTF-8 bytes of the longest name */
#define NAME_FOLD_MAX     (NAME_BYTES_MAX * 3) /* case folding can lengthen a name */
#define NAME_SKELETON_MAX (NAME_FOLD_MAX * 6)  /* a skeleton maps a character to up to a few */

/* Why a name is refused (name_normalize's negative results). */
enum {
    NAME_REFUSED_LENGTH = -1, /* empty, or more than NAME_CHARS_MAX code points */
    NAME_REFUSED_CHARS = -2,  /* a character no name may hold */
    NAME_REFUSED_MARK = -3,   /* a combining mark that follows no letter */
    NAME_REFUSED_UTF8 = -4,
    NAME_REFUSED_MEMORY = -5,
};

/* Checks a name and writes its normalized form: valid UTF-8, NFC, no
 * leading or trailing space, no two spaces in a row; 1 to NAME_CHARS_MAX
 * code points, each a letter of any script (Unicode Alphabetic, not an
 * invisible one), a combining mark after a letter, a decimal digit, a
 * space, '_', '-' or '.'. Returns 0, or a NAME_REFUSED_* with the reason's
 * text in why (out is then an empty string). */
int name_normalize(const char *in, char out[NAME_BYTES_MAX + 1], char *why, size_t whylen);

/* The protocol's id of a refusal ("name_length", "name_chars", "name_mark",
 * "name_utf8"), which clients translate; NULL for running out of memory. */
const char *name_refusal_id(int rc);

/* The case-insensitive key of a normalized name (full case folding, then
 * NFC): equal keys mean the same name. Returns 0, or -1 when out (outlen
 * bytes; NAME_FOLD_MAX + 1 always suffices) is too small or memory ran
 * out. */
int name_fold(const char *normalized, char *out, size_t outlen);

/* The look-alike key of a folded name: its UTS #39 skeleton (ICU), folded
 * again. Names with equal skeletons look the same to a reader ("ѕtrong" in
 * Cyrillic and "strong"). 0, or -1 when out is too small or ICU fails. */
int name_skeleton(const char *key, char *out, size_t outlen);

#endif
