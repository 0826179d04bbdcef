/* run/launch.c — prepares one `xdg-app run`.
 *
 * Enforces: the permission context is the app's metadata, then the
 * overrides of the installation the app comes from (global, then the
 * app's), then the run's own flags — in that order and no other; X11 is
 * reported once and never granted; the whole session bus is granted only
 * when asked for, with a warning that it defeats the sandbox.  Trusts: the
 * store's deployments (metadata checked at deploy time, re-checked on
 * open) and the caller's environment for where its own sockets are. */
#include "run/broker-client.h"
#include "run/launch.h"

#include <unistd.h>

#include <gio/gio.h>

#include "policy/override.h"
#include "store/deployment.h"
#include "store/store-error.h"

struct _XaLaunch
{
  XaDeployment  *app;        /* NULL for a build directory */
  XaMetadata    *metadata;   /* the app's; borrowed from `app` or owned */
  XaMetadata    *owned_metadata;
  char          *app_id;
  char          *app_files;
  gboolean       app_writable;
  XaDeployment  *runtime;
  XaContext     *context;
  XaRunGrants   *grants;
  GStrv          user_storage;
  XaUserDbEntry  user;
  char          *instance_id;
  XaBrokerInstance broker;   /* empty unless the broker gave a bus */
  char          *data_dir;
  GPtrArray     *warnings;   /* char * */
  GPtrArray     *command;    /* char *, NULL-terminated */
  XaSandboxArgv *argv;
  char          *pasta;      /* set when the network goes through pasta */
};

void
xa_launch_free (XaLaunch *self)
{
  if (self == NULL)
    return;
  g_free (self->pasta);
  g_clear_pointer (&self->app, xa_deployment_free);
  g_clear_pointer (&self->owned_metadata, xa_metadata_free);
  g_free (self->app_id);
  g_free (self->app_files);
  g_clear_pointer (&self->runtime, xa_deployment_free);
  g_clear_pointer (&self->context, xa_context_free);
  g_clear_pointer (&self->grants, xa_run_grants_free);
  g_clear_pointer (&self->argv, xa_sandbox_argv_free);
  g_strfreev (self->user_storage);
  g_free (self->instance_id);
  xa_broker_instance_clear (&self->broker);
  g_free (self->data_dir);
  g_ptr_array_unref (self->warnings);
  g_ptr_array_unref (self->command);
  g_free (self);
}

/* The app, from the first installation that has it. */
static XaDeployment *
xa_launch_find_app (const XaLaunchOptions  *o,
                    GError                **error)
{
  for (gsize i = 0; o->installations[i] != NULL; i++)
    {
      g_autoptr(GError) local_error = NULL;
      XaDeployment *d = xa_deployment_open (o->installations[i], XA_METADATA_APP,
                                            o->app_id, o->arch, o->branch, &local_error);

      if (d != NULL)
        return d;
      if (!g_error_matches (local_error, XA_STORE_ERROR, XA_STORE_ERROR_NOT_INSTALLED))
        {
          g_propagate_error (error, g_steal_pointer (&local_error));
          return NULL;
        }
    }
  g_set_error (error, XA_STORE_ERROR, XA_STORE_ERROR_NOT_INSTALLED,
               "'%s' is not installed; try: xdg-app install-app REMOTE %s",
               o->app_id, o->app_id);
  return NULL;
}

/* metadata, then overrides (of an installed app), then the run's flags. */
static XaContext *
xa_launch_merge_context (XaLaunch               *self,
                         const XaLaunchOptions  *o,
                         GError                **error)
{
  g_autoptr(XaContext) context = xa_context_dup (xa_metadata_get_context (self->metadata));

  if (self->app != NULL)
    {
      XaInstallation *inst = xa_deployment_get_installation (self->app);
      g_autofree char *overrides_dir = xa_installation_dup_overrides_dir (inst);
      g_autoptr(XaContext) overrides = xa_override_load_merged (overrides_dir, self->app_id, error);

      if (overrides == NULL)
        return NULL;
      xa_context_merge (context, overrides);
    }
  if (o->flags != NULL)
    xa_context_merge (context, o->flags);
  return g_steal_pointer (&context);
}

static void
xa_launch_add_warnings (XaLaunch          *self,
                        const char *const *warnings)
{
  for (gsize i = 0; warnings != NULL && warnings[i] != NULL; i++)
    {
      gboolean seen = FALSE;

      for (guint j = 0; j < self->warnings->len && !seen; j++)
        seen = g_str_equal (self->warnings->pdata[j], warnings[i]);
      if (!seen)
        g_ptr_array_add (self->warnings, g_strdup (warnings[i]));
    }
}

static gboolean
xa_launch_set_command (XaLaunch               *self,
                       const XaLaunchOptions  *o,
                       GError                **error)
{
  const char *command = o->command;

  if (command == NULL)
    command = xa_metadata_get_command (self->metadata);
  if (command == NULL || command[0] == '\0')
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                   "'%s' names no command; give one with --command=CMD", self->app_id);
      return FALSE;
    }
  g_ptr_array_add (self->command, g_strdup (command));
  for (gsize i = 0; o->args != NULL && o->args[i] != NULL; i++)
    g_ptr_array_add (self->command, g_strdup (o->args[i]));
  g_ptr_array_add (self->command, NULL);
  return TRUE;
}

static XaLaunch *
xa_launch_alloc (void)
{
  XaLaunch *self = g_new0 (XaLaunch, 1);

  self->warnings = g_ptr_array_new_with_free_func (g_free);
  self->command = g_ptr_array_new_with_free_func (g_free);
  return self;
}

/* The runtime the app's metadata names, or with `sdk` its SDK. */
static gboolean
xa_launch_find_runtime (XaLaunch               *self,
                        const XaLaunchOptions  *o,
                        gboolean                sdk,
                        GError                **error)
{
  const char *runtime = sdk ? xa_metadata_get_sdk (self->metadata)
                            : xa_metadata_get_runtime (self->metadata);

  if (runtime == NULL)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                   "metadata of '%s' names no %s", self->app_id, sdk ? "sdk" : "runtime");
      return FALSE;
    }
  self->runtime = xa_deployment_find_runtime (o->installations, runtime, error);
  if (self->runtime == NULL)
    {
      g_prefix_error (error, "'%s' needs %s '%s': ", self->app_id,
                      sdk ? "the SDK" : "the runtime", runtime);
      return FALSE;
    }
  return TRUE;
}

/* Everything after the app and its runtime are known. */
static gboolean
xa_launch_finish (XaLaunch               *self,
                  const XaLaunchOptions  *o,
                  GError                **error)
{
  XaRunSpec spec;
  g_autofree char *runtime_ref = NULL;
  XaUserNetMode net_mode;
  int abi;

  self->context = xa_launch_merge_context (self, o, error);
  if (self->context == NULL)
    return FALSE;
  xa_launch_add_warnings (self, xa_metadata_get_warnings (self->metadata));
  xa_launch_add_warnings (self, xa_context_get_warnings (self->context));
  if (!xa_launch_set_command (self, o, error))
    return FALSE;

  xa_user_db_lookup_self (&self->user, &self->user_storage);
  self->grants = xa_run_grants_new_from_context (self->context, self->user.home,
                                                 o->host_runtime_dir, self->user.uid,
                                                 self->warnings);
  if (self->grants->session_bus)
    g_ptr_array_add (self->warnings,
                     g_strdup_printf ("'%s' gets the whole session bus, unfiltered: this defeats the sandbox",
                                      self->app_id));
  if (self->grants->session_bus && o->host_session_bus == NULL)
    g_ptr_array_add (self->warnings, g_strdup ("no session bus socket found; the app runs without one"));

  /* The app's bus: the broker's filtered socket, unless it was granted
   * the whole host bus; `xdg-app build` gets neither. */
  if (o->broker_program != NULL && !self->grants->session_bus && o->host_session_address != NULL)
    {
      g_autoptr(GError) local_error = NULL;

      if (!xa_broker_client_register (o->host_session_address, self->app_id,
                                      self->grants->context_keyfile, o->broker_program,
                                      &self->broker, &local_error))
        g_ptr_array_add (self->warnings,
                         g_strdup_printf ("no session bus for the app: %s", local_error->message));
    }
  if (self->grants->system_bus && self->broker.system_bus == NULL)
    g_ptr_array_add (self->warnings, g_strdup ("no system bus for the app: the broker gives none"));

  self->instance_id = self->broker.instance_id != NULL ? g_strdup (self->broker.instance_id)
                                                       : xa_run_plan_new_instance_id ();
  runtime_ref = g_strdup (xa_ref_get_string (xa_deployment_get_ref (self->runtime)));
  abi = xa_user_net_landlock_abi (o->landlock_abi_max);
  net_mode = xa_user_net_choose (self->grants->network, abi, &self->pasta);

  spec = (XaRunSpec) {
    .app_id = self->app_id,
    .arch = xa_deployment_get_arch (self->runtime),
    .branch = self->app != NULL ? xa_deployment_get_branch (self->app) : NULL,
    .app_files = self->app_files,
    .app_writable = self->app_writable,
    .app_commit = self->app != NULL ? xa_deployment_get_commit (self->app) : NULL,
    .runtime_ref = runtime_ref,
    .runtime_files = xa_deployment_get_files_dir (self->runtime),
    .runtime_commit = xa_deployment_get_commit (self->runtime),
    .data_dir = self->data_dir,
    .instance_id = self->instance_id,
    .devel = o->devel || self->app_writable,  /* a build gets the SDK's tools */
    .grants = self->grants,
    .user = &self->user,
    .host_runtime_dir = o->host_runtime_dir,
    .host_wayland_display = o->host_wayland_display,
    .host_session_bus = o->host_session_bus,
    .broker_session_bus = self->broker.session_bus,
    .broker_system_bus = self->broker.system_bus,
    .host_env = o->host_env,
    .landlock_abi = abi,
    .landlock_abi_max = o->landlock_abi_max,
    .net_mode = net_mode,
  };
  self->argv = xa_run_plan_build (&spec, self->warnings, error);
  return self->argv != NULL;
}

XaLaunch *
xa_launch_prepare (const XaLaunchOptions  *o,
                   GError                **error)
{
  g_autoptr(XaLaunch) self = xa_launch_alloc ();

  self->app = xa_launch_find_app (o, error);
  if (self->app == NULL)
    return NULL;
  self->metadata = xa_deployment_get_metadata (self->app);
  self->app_id = g_strdup (o->app_id);
  self->app_files = g_strdup (xa_deployment_get_files_dir (self->app));
  self->data_dir = xa_installation_dup_data_dir (xa_deployment_get_installation (self->app), o->app_id);

  /* -d: the SDK the app was built with, for debugging. */
  if (!xa_launch_find_runtime (self, o, o->devel, error))
    return NULL;
  if (!xa_launch_finish (self, o, error))
    return NULL;
  return g_steal_pointer (&self);
}

XaLaunch *
xa_launch_prepare_build (const char             *build_dir,
                         const XaLaunchOptions  *o,
                         GError                **error)
{
  g_autoptr(XaLaunch) self = xa_launch_alloc ();
  g_autofree char *path = g_build_filename (build_dir, "metadata", NULL);
  g_autofree char *origin = g_strdup_printf ("metadata of build directory '%s'", build_dir);

  self->owned_metadata = xa_metadata_load_file (path, origin, error);
  if (self->owned_metadata == NULL)
    return NULL;
  self->metadata = self->owned_metadata;
  self->app_id = g_strdup (xa_metadata_get_name (self->metadata));
  self->app_files = g_build_filename (build_dir, "files", NULL);
  self->app_writable = TRUE;
  self->data_dir = g_build_filename (build_dir, "var", NULL);

  if (!xa_launch_find_runtime (self, o, TRUE, error))
    return NULL;
  if (!xa_launch_finish (self, o, error))
    return NULL;
  return g_steal_pointer (&self);
}

GPtrArray *
xa_launch_get_warnings (XaLaunch *self)
{
  return self->warnings;
}

const char *const *
xa_launch_get_command (XaLaunch *self)
{
  return (const char *const *) self->command->pdata;
}

XaSandboxArgv *
xa_launch_get_argv (XaLaunch *self)
{
  return self->argv;
}

gboolean
xa_launch_exec (XaLaunch    *self,
                const char  *launcher,
                GError     **error)
{
  if (self->pasta != NULL && !xa_user_net_start (self->argv, self->pasta, error))
    return FALSE;
  return xa_sandbox_argv_exec (self->argv, launcher, xa_launch_get_command (self), error);
}

char *
xa_launch_bus_socket_from_address (const char *address)
{
  g_auto(GStrv) entries = NULL;

  if (address == NULL)
    return NULL;
  entries = g_strsplit (address, ";", -1);
  for (gsize i = 0; entries[i] != NULL; i++)
    {
      g_auto(GStrv) parts = NULL;

      if (!g_str_has_prefix (entries[i], "unix:"))
        continue;
      parts = g_strsplit (entries[i] + 5, ",", -1);
      for (gsize j = 0; parts[j] != NULL; j++)
        if (g_str_has_prefix (parts[j], "path="))
          return g_uri_unescape_string (parts[j] + 5, NULL);
    }
  return NULL;
}
