/* policy/keyfile-read.h — reads one value of an untrusted key file
 * (metadata, overrides) as GLib's g_key_file_get_string() and
 * g_key_file_get_string_list() do, with the escapes checked first. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* NULL with G_KEY_FILE_ERROR_INVALID_VALUE and one short message ("unknown
 * escape '\x'", "a backslash ends the value", or GLib's) when the value
 * cannot be read; G_KEY_FILE_ERROR_KEY_NOT_FOUND when it is absent. */
char  *xa_keyfile_read_string (GKeyFile    *keyfile,
                               const char  *group,
                               const char  *key,
                               GError     **error);
char **xa_keyfile_read_list   (GKeyFile    *keyfile,
                               const char  *group,
                               const char  *key,
                               GError     **error);

G_END_DECLS
