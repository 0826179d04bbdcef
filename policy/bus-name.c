/* policy/bus-name.c — see bus-name.h. */
#include <string.h>

#include "policy/bus-name.h"

/* The specification's limit on every name in the protocol. */
#define XA_BUS_NAME_MAX 255

gboolean
xa_bus_name_is_well_known (const char *name)
{
  gsize len = strlen (name);
  guint elements = 1;
  gboolean element_start = TRUE;

  if (len == 0 || len > XA_BUS_NAME_MAX)
    return FALSE;
  for (const char *p = name; *p != '\0'; p++)
    {
      if (*p == '.')
        {
          if (element_start)
            return FALSE;         /* empty element: leading or doubled '.' */
          elements++;
          element_start = TRUE;
          continue;
        }
      if (!g_ascii_isalnum (*p) && *p != '_' && *p != '-')
        return FALSE;
      if (element_start && g_ascii_isdigit (*p))
        return FALSE;
      element_start = FALSE;
    }
  return !element_start && elements >= 2;
}
