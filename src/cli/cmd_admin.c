/*
 * cmd_admin.c - `axio admin`: a site's roles (docs/moderation.md), kept in
 * its database. `grant NAME moderator` makes an account a moderator,
 * `revoke NAME moderator` takes the role away, `list` names every account
 * with a role.
 *
 * Like `axio db` it works on the database directly (--db, as `axio serve`
 * takes it), through the store's interface: a PostgreSQL site's servers may
 * keep running (a moderator's next request finds the role), an SQLite file
 * is refused while its server runs (its lock), so stop it first. The role
 * is granted to a person's account only, found by its name as the site
 * shows it.
 */
#include "../server/store/store.h"
#include "cli.h"
#include "options.h"

#include <stdio.h>
#include <string.h>

static const char *const roles[] = {"moderator", NULL};

static int print_role(const char *name, const char *role, void *arg)
{
    (void)arg;
    printf("%s\t%s\n", name, role);
    return 0;
}

int cmd_admin(int argc, char **argv)
{
    const char *db = "axio.db";
    const cli_option options[] = {
        {"db", OPT_STRING, &db, .arg = "FILE|URI",
         .help = "the site's database, as axio serve --db takes it (default\n"
                 "axio.db); an SQLite file only while its server is stopped"},
        {NULL},
    };
    const cli_command cmd = {
        .name = "admin",
        .usage = "usage: axio admin grant NAME moderator [--db FILE|URI]\n"
                 "       axio admin revoke NAME moderator [--db FILE|URI]\n"
                 "       axio admin list [--db FILE|URI]\n"
                 "\n"
                 "A site's roles, in its database: grant gives the account NAME (as the site\n"
                 "shows it) a role, revoke takes it away, list prints each account with a\n"
                 "role. A moderator handles reports, times chat out, mutes, renames and\n"
                 "closes accounts, and undoes it (docs/moderation.md).\n",
        .options = options,
        .column = 20,
        .footer = "Exit status: 0 done (or so already), 1 no such account or the database\n"
                  "cannot be used, 2 bad usage.\n",
    };
    int first;
    int rc = cli_parse(&cmd, argc, argv, &first);
    if (rc != CLI_GO_ON)
        return rc;
    int n = argc - first;
    char **arg = argv + first;
    if (n < 1)
        return usage_error("admin", "no action given (grant, revoke or list)");
    bool grant = strcmp(arg[0], "grant") == 0, revoke = strcmp(arg[0], "revoke") == 0;
    bool list = strcmp(arg[0], "list") == 0;
    if (!grant && !revoke && !list)
        return usage_error("admin", "unknown action '%s' (grant, revoke or list)", arg[0]);
    if (list && n != 1)
        return usage_error("admin", "list takes no NAME");
    if (!list && n != 3)
        return usage_error("admin", "%s needs NAME and a role, and nothing else", arg[0]);
    if (!list && !*arg[1])
        return usage_error("admin", "NAME must not be empty");
    if (!list) {
        bool known = false;
        for (int i = 0; roles[i]; i++)
            known = known || strcmp(arg[2], roles[i]) == 0;
        if (!known)
            return usage_error("admin", "unknown role '%s' (moderator)", arg[2]);
    }
    if (!*db || strcmp(db, "sqlite:") == 0)
        return usage_error("admin", "--db needs a file name or a postgresql:// URI");
    char err[512], shown[1024];
    store_target_text(db, shown, sizeof shown);
    store *s = store_open_beside(db, err, sizeof err);
    if (!s) {
        fprintf(stderr, "axio admin: cannot use %s: %s\n", shown, err);
        return 1;
    }
    int out = 0;
    if (list) {
        if (store_each_role(s, print_role, NULL)) {
            fprintf(stderr, "axio admin: %s\n", store_error(s));
            out = 1;
        }
        store_close(s);
        return out;
    }
    stored_account a;
    int found = store_account_by_name(s, arg[1], &a);
    char role[STORE_ROLE_MAX + 1] = "";
    if (found < 0 || (found == 0 && store_account_role(s, a.id, role, NULL) < 0)) {
        fprintf(stderr, "axio admin: %s\n", store_error(s));
        out = 1;
    } else if (found == 2) {
        fprintf(stderr,
                "axio admin: several accounts are named like '%s'; give the name as the "
                "site shows it\n",
                arg[1]);
        out = 1;
    } else if (found == 1 || a.computer) {
        fprintf(stderr, "axio admin: no account named '%s'\n", arg[1]);
        out = 1;
    } else if (grant && strcmp(role, arg[2]) == 0) {
        printf("%s is a %s already\n", a.name, arg[2]);
    } else if (revoke && strcmp(role, arg[2]) != 0) {
        printf("%s is not a %s\n", a.name, arg[2]);
    } else if (store_account_set_role(s, a.id, grant ? arg[2] : NULL)) {
        fprintf(stderr, "axio admin: %s\n", store_error(s));
        out = 1;
    } else {
        printf(grant ? "%s is a %s now\n" : "%s is no longer a %s\n", a.name, arg[2]);
    }
    store_close(s);
    return out;
}
