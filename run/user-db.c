/* run/user-db.c — see user-db.h.  Trusts: the host's user database for the
 * caller's own entry; it copies no other host entry into the sandbox. */
#include "run/user-db.h"

#include <grp.h>
#include <string.h>
#include <pwd.h>
#include <unistd.h>

/* passwd and group are colon-separated lines; a name or GECOS with ':'
 * or a newline would forge a field or an entry. */
static const char *
xa_user_db_field (const char *value,
                  const char *fallback)
{
  if (value == NULL || value[0] == '\0' || strpbrk (value, ":\n\r") != NULL)
    return fallback;
  return value;
}

void
xa_user_db_lookup_self (XaUserDbEntry *out,
                        GStrv         *out_storage)
{
  struct passwd *pw = getpwuid (getuid ());
  struct group *gr = getgrgid (getgid ());
  g_autoptr(GStrvBuilder) b = g_strv_builder_new ();
  g_auto(GStrv) strs = NULL;
  g_autofree char *uid_name = g_strdup_printf ("user%u", (unsigned) getuid ());

  g_strv_builder_add (b, pw != NULL ? pw->pw_name : uid_name);
  g_strv_builder_add (b, pw != NULL && pw->pw_gecos != NULL ? pw->pw_gecos : "");
  /* $HOME if set, as GLib reads it: the home the user works in. */
  g_strv_builder_add (b, g_get_home_dir ());
  g_strv_builder_add (b, gr != NULL ? gr->gr_name : "");
  strs = g_strv_builder_end (b);

  out->uid = getuid ();
  out->gid = getgid ();
  out->name = strs[0];
  out->gecos = strs[1];
  out->home = strs[2];
  out->group = strs[3][0] != '\0' ? strs[3] : NULL;
  *out_storage = g_steal_pointer (&strs);
}

char *
xa_user_db_passwd (const XaUserDbEntry *e)
{
  g_autofree char *fallback = g_strdup_printf ("user%u", (unsigned) e->uid);
  const char *name = xa_user_db_field (e->name, fallback);

  if (e->uid == 65534)
    return g_strdup_printf ("%s:x:65534:65534:%s:%s:/bin/sh\n",
                            name, xa_user_db_field (e->gecos, ""),
                            xa_user_db_field (e->home, "/"));
  return g_strdup_printf ("%s:x:%u:%u:%s:%s:/bin/sh\n"
                          "nobody:x:65534:65534:Unmapped user:/:/sbin/nologin\n",
                          name, (unsigned) e->uid, (unsigned) e->gid,
                          xa_user_db_field (e->gecos, ""),
                          xa_user_db_field (e->home, "/"));
}

char *
xa_user_db_group (const XaUserDbEntry *e)
{
  g_autofree char *fallback = g_strdup_printf ("group%u", (unsigned) e->gid);
  const char *user = xa_user_db_field (e->name, "");
  const char *name = xa_user_db_field (e->group, fallback);

  if (e->gid == 65534)
    return g_strdup_printf ("%s:x:65534:%s\n", name, user);
  return g_strdup_printf ("%s:x:%u:%s\nnogroup:x:65534:\n", name, (unsigned) e->gid, user);
}
