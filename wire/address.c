/* wire/address.c — see address.h.  Trusts: the address it is given (the
 * caller's own environment).  Refuses transports other than unix:
 * tcp would leave the machine and skip SO_PEERCRED. */
#include <errno.h>
#include <stddef.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <glib.h>
#include <glib/gi18n.h>

#include "wire/address.h"
#include "wire/message.h"

/* The value of KEY=VALUE in "unix:k1=v1,k2=v2", unescaped ("%2f"). */
static char *
lookup_key (const char *params,
            const char *key)
{
  g_auto(GStrv) pairs = g_strsplit (params, ",", -1);
  gsize key_len = strlen (key);

  for (gsize i = 0; pairs[i] != NULL; i++)
    if (strncmp (pairs[i], key, key_len) == 0 && pairs[i][key_len] == '=')
      return g_uri_unescape_string (pairs[i] + key_len + 1, NULL);
  return NULL;
}

static int
connect_one (const char *entry,
             GError **error)
{
  struct sockaddr_un addr = { .sun_family = AF_UNIX };
  g_autofree char *path = NULL;
  g_autofree char *abstract = NULL;
  const char *name;
  socklen_t len;
  int fd;

  if (!g_str_has_prefix (entry, "unix:"))
    {
      g_set_error (error, XA_WIRE_ERROR, XA_WIRE_ERROR_INVALID,
                   _("bus address '%s': only unix: addresses are supported"), entry);
      return -1;
    }
  path = lookup_key (entry + strlen ("unix:"), "path");
  abstract = lookup_key (entry + strlen ("unix:"), "abstract");
  name = path != NULL ? path : abstract;
  if (name == NULL || name[0] == '\0' || strlen (name) >= sizeof addr.sun_path - 1)
    {
      g_set_error (error, XA_WIRE_ERROR, XA_WIRE_ERROR_INVALID,
                   _("bus address '%s': no usable path= or abstract="), entry);
      return -1;
    }
  if (path != NULL)
    {
      strcpy (addr.sun_path, path);
      len = offsetof (struct sockaddr_un, sun_path) + strlen (path) + 1;
    }
  else
    {
      /* Abstract: a leading NUL, no terminator. */
      memcpy (addr.sun_path + 1, abstract, strlen (abstract));
      len = offsetof (struct sockaddr_un, sun_path) + 1 + strlen (abstract);
    }
  fd = socket (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0 || connect (fd, (struct sockaddr *) &addr, len) != 0)
    {
      int saved = errno;

      if (fd >= 0)
        (void) close (fd);
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved),
                   _("cannot connect to bus '%s': %s"), entry, g_strerror (saved));
      return -1;
    }
  return fd;
}

int
xa_wire_address_connect (const char *address,
                         GError **error)
{
  g_auto(GStrv) entries = NULL;
  g_autoptr(GError) first_error = NULL;

  if (address == NULL || address[0] == '\0')
    {
      g_set_error (error, XA_WIRE_ERROR, XA_WIRE_ERROR_INVALID, _("no bus address"));
      return -1;
    }
  entries = g_strsplit (address, ";", -1);
  for (gsize i = 0; entries[i] != NULL; i++)
    {
      g_autoptr(GError) local_error = NULL;
      int fd;

      if (entries[i][0] == '\0')
        continue;
      fd = connect_one (entries[i], &local_error);
      if (fd >= 0)
        return fd;
      if (first_error == NULL)
        first_error = g_steal_pointer (&local_error);
    }
  if (first_error != NULL)
    g_propagate_error (error, g_steal_pointer (&first_error));
  else
    g_set_error (error, XA_WIRE_ERROR, XA_WIRE_ERROR_INVALID, _("no bus address in '%s'"), address);
  return -1;
}
