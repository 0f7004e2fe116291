/*
 * levels.h - the computer levels are the players' settings: src/ai/levels.h.
 * This name stays only until lobby_create.c, lobby_load.c and accounts.c
 * include that header themselves.
 */
#ifndef AX_SERVER_LEVELS_H
#define AX_SERVER_LEVELS_H

#include "../../ai/levels.h"

#endif
