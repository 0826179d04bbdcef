/* run/user-db.h — the /etc/passwd and /etc/group the sandbox sees: the
 * user's own entry and "nobody", nothing else of the host's. */
#pragma once

#include <sys/types.h>

#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  uid_t       uid;
  gid_t       gid;
  const char *name;      /* login name */
  const char *gecos;     /* may be NULL */
  const char *home;      /* as seen inside the sandbox */
  const char *group;     /* name of gid; may be NULL, then `name` */
} XaUserDbEntry;

/* Fills `out` from the host's databases for the calling user (getpwuid,
 * getgrgid); the strings are owned by `out_storage`.  */
void  xa_user_db_lookup_self (XaUserDbEntry *out,
                              GStrv         *out_storage);

/* passwd(5) and group(5) contents.  A field that could break the format
 * (':' or a newline) is replaced by a safe value. */
char *xa_user_db_passwd (const XaUserDbEntry *entry);
char *xa_user_db_group  (const XaUserDbEntry *entry);

G_END_DECLS
