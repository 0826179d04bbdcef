/* run/run-grants.c — flattens a merged permission context (policy/) into
 * the grants the sandbox plan understands.  Trusts: the context, which
 * policy/ validated; the host paths it resolves to are the user's own. */
#include "run/run-grants.h"

#include "policy/filesystem.h"

XaRunGrants *
xa_run_grants_new (void)
{
  XaRunGrants *self = g_new0 (XaRunGrants, 1);

  self->filesystems = g_ptr_array_new ();
  self->persistent = g_ptr_array_new_with_free_func (g_free);
  self->env = g_ptr_array_new_with_free_func (g_free);
  self->unset_env = g_ptr_array_new_with_free_func (g_free);
  return self;
}

void
xa_run_grants_free (XaRunGrants *self)
{
  if (self == NULL)
    return;
  for (guint i = 0; i < self->filesystems->len; i++)
    {
      XaRunFsGrant *g = self->filesystems->pdata[i];
      g_free (g->path);
      g_free (g->dest);
      g_free (g);
    }
  g_ptr_array_unref (self->filesystems);
  g_ptr_array_unref (self->persistent);
  g_ptr_array_unref (self->env);
  g_ptr_array_unref (self->unset_env);
  g_free (self->context_keyfile);
  g_free (self);
}

void
xa_run_grants_add_filesystem (XaRunGrants *self,
                              const char  *path,
                              const char  *dest,
                              XaRunFsMode  mode)
{
  XaRunFsGrant *g = g_new0 (XaRunFsGrant, 1);

  g->path = g_canonicalize_filename (path, "/");
  g->dest = g_canonicalize_filename (dest != NULL ? dest : path, "/");
  g->mode = mode;
  g_ptr_array_add (self->filesystems, g);
}

static XaRunFsMode
xa_run_grants_mode (XaFilesystemMode mode)
{
  switch (mode)
    {
    case XA_FILESYSTEM_MODE_READ_ONLY:
      return XA_RUN_FS_READ_ONLY;
    case XA_FILESYSTEM_MODE_CREATE:
      return XA_RUN_FS_CREATE;
    case XA_FILESYSTEM_MODE_NONE:
    case XA_FILESYSTEM_MODE_READ_WRITE:
    default:
      return XA_RUN_FS_READ_WRITE;
    }
}

/* xdg-NAME → the host directory it names. */
static char *
xa_run_grants_xdg_dir (const char *name,
                       const char *home)
{
  static const struct
  {
    const char    *name;
    GUserDirectory dir;
  } special[] = {
    { "desktop", G_USER_DIRECTORY_DESKTOP },
    { "documents", G_USER_DIRECTORY_DOCUMENTS },
    { "download", G_USER_DIRECTORY_DOWNLOAD },
    { "music", G_USER_DIRECTORY_MUSIC },
    { "pictures", G_USER_DIRECTORY_PICTURES },
    { "public-share", G_USER_DIRECTORY_PUBLIC_SHARE },
    { "templates", G_USER_DIRECTORY_TEMPLATES },
    { "videos", G_USER_DIRECTORY_VIDEOS },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (special); i++)
    if (g_str_equal (name, special[i].name))
      {
        const char *dir = g_get_user_special_dir (special[i].dir);
        return dir != NULL ? g_strdup (dir) : NULL;
      }
  if (g_str_equal (name, "config"))
    return g_build_filename (home, ".config", NULL);
  if (g_str_equal (name, "cache"))
    return g_build_filename (home, ".cache", NULL);
  if (g_str_equal (name, "data"))
    return g_build_filename (home, ".local", "share", NULL);
  if (g_str_equal (name, "state"))
    return g_build_filename (home, ".local", "state", NULL);
  return NULL;
}

/* One normalized filesystem spec (policy/filesystem.h) → grants. */
static void
xa_run_grants_add_spec (XaRunGrants  *self,
                        const char   *spec,
                        XaRunFsMode   mode,
                        const char   *home,
                        const char   *host_runtime_dir,
                        uid_t         uid,
                        GPtrArray    *out_warnings)
{
  static const char *const host_dirs[] = { "/media", "/mnt", "/opt", "/srv", "/run/media" };

  if (g_str_equal (spec, "host"))
    {
      self->host_os = self->host_etc = TRUE;
      xa_run_grants_add_filesystem (self, home, NULL, mode);
      for (gsize i = 0; i < G_N_ELEMENTS (host_dirs); i++)
        xa_run_grants_add_filesystem (self, host_dirs[i], NULL, mode);
    }
  else if (g_str_equal (spec, "host-os"))
    self->host_os = TRUE;
  else if (g_str_equal (spec, "host-etc"))
    self->host_etc = TRUE;
  else if (g_str_equal (spec, "home"))
    xa_run_grants_add_filesystem (self, home, NULL, mode);
  else if (g_str_has_prefix (spec, "~/"))
    {
      g_autofree char *path = g_build_filename (home, spec + 2, NULL);
      xa_run_grants_add_filesystem (self, path, NULL, mode);
    }
  else if (spec[0] == '/')
    xa_run_grants_add_filesystem (self, spec, NULL, mode);
  else if (g_str_has_prefix (spec, "xdg-run/") && host_runtime_dir != NULL)
    {
      /* The host's runtime directory is elsewhere than the sandbox's. */
      g_autofree char *path = g_build_filename (host_runtime_dir, spec + 8, NULL);
      g_autofree char *dest = g_strdup_printf ("/run/user/%u/%s", (unsigned) uid, spec + 8);
      xa_run_grants_add_filesystem (self, path, dest, mode);
    }
  else if (g_str_has_prefix (spec, "xdg-"))
    {
      const char *slash = strchr (spec, '/');
      g_autofree char *name = slash != NULL ? g_strndup (spec + 4, (gsize) (slash - spec - 4))
                                            : g_strdup (spec + 4);
      g_autofree char *dir = xa_run_grants_xdg_dir (name, home);
      g_autofree char *path = NULL;

      if (dir == NULL)
        {
          g_ptr_array_add (out_warnings,
                           g_strdup_printf ("filesystem '%s' has no directory on this host, ignoring", spec));
          return;
        }
      path = slash != NULL ? g_build_filename (dir, slash + 1, NULL) : g_strdup (dir);
      /* xdg-NAME alone names the directory, never the whole home that
       * an unset XDG user directory falls back to. */
      if (g_str_equal (path, home))
        {
          g_ptr_array_add (out_warnings,
                           g_strdup_printf ("filesystem '%s' is the home directory here, ignoring", spec));
          return;
        }
      xa_run_grants_add_filesystem (self, path, NULL, mode);
    }
  else
    g_ptr_array_add (out_warnings,
                     g_strdup_printf ("filesystem '%s' is not supported yet, ignoring", spec));
}

XaRunGrants *
xa_run_grants_new_from_context (XaContext   *context,
                                const char  *home,
                                const char  *host_runtime_dir,
                                uid_t        uid,
                                GPtrArray   *out_warnings)
{
  static const struct
  {
    XaSocket    socket;
    const char *name;
  } unsupported_sockets[] = {
    { XA_SOCKET_SSH_AUTH, "ssh-auth" },
    { XA_SOCKET_PCSC, "pcsc" },
    { XA_SOCKET_CUPS, "cups" },
    { XA_SOCKET_GPG_AGENT, "gpg-agent" },
  };
  g_autoptr(XaRunGrants) self = xa_run_grants_new ();
  g_autoptr(GKeyFile) kf = g_key_file_new ();
  const GPtrArray *filesystems = xa_context_get_filesystems (context);
  const char *const *persistent = xa_context_get_persistent (context);
  GHashTable *env = xa_context_get_env (context);
  GHashTableIter iter;
  gpointer key, value;

  self->network = xa_context_has_share (context, XA_SHARE_NETWORK);
  self->ipc = xa_context_has_share (context, XA_SHARE_IPC);
  self->wayland = xa_context_has_socket (context, XA_SOCKET_WAYLAND);
  self->pulseaudio = xa_context_has_socket (context, XA_SOCKET_PULSEAUDIO);
  self->session_bus = xa_context_has_socket (context, XA_SOCKET_SESSION_BUS);
  self->system_bus = xa_context_has_socket (context, XA_SOCKET_SYSTEM_BUS);
  self->dri = xa_context_has_device (context, XA_DEVICE_DRI);
  self->input = xa_context_has_device (context, XA_DEVICE_INPUT);
  self->usb = xa_context_has_device (context, XA_DEVICE_USB);
  self->kvm = xa_context_has_device (context, XA_DEVICE_KVM);
  self->shm = xa_context_has_device (context, XA_DEVICE_SHM);
  self->all_devices = xa_context_has_device (context, XA_DEVICE_ALL);
  self->devel = xa_context_has_feature (context, XA_FEATURE_DEVEL);

  for (gsize i = 0; i < G_N_ELEMENTS (unsupported_sockets); i++)
    if (xa_context_has_socket (context, unsupported_sockets[i].socket))
      g_ptr_array_add (out_warnings,
                       g_strdup_printf ("socket '%s' is not supported yet, ignoring",
                                        unsupported_sockets[i].name));

  for (guint i = 0; filesystems != NULL && i < filesystems->len; i++)
    {
      const XaFilesystem *fs = filesystems->pdata[i];

      if (fs->mode == XA_FILESYSTEM_MODE_NONE)
        continue;
      xa_run_grants_add_spec (self, fs->spec, xa_run_grants_mode (fs->mode),
                              home, host_runtime_dir, uid, out_warnings);
    }
  for (gsize i = 0; persistent != NULL && persistent[i] != NULL; i++)
    g_ptr_array_add (self->persistent, g_strdup (persistent[i]));

  g_hash_table_iter_init (&iter, env);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      if (value != NULL)
        g_ptr_array_add (self->env, g_strdup_printf ("%s=%s", (char *) key, (char *) value));
      else
        g_ptr_array_add (self->unset_env, g_strdup (key));
    }

  xa_context_save_keyfile (context, kf);
  self->context_keyfile = g_key_file_to_data (kf, NULL, NULL);
  return g_steal_pointer (&self);
}
